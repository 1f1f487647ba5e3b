package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The command's logic is tested in process, through Main, as the binary
// runs it but without starting one: batchMain is batch for the tests
// where no process matters (signals, a terminal, a kill, the peak memory
// of a process do, and those run the binary).

// batchMain runs Main in dir ("": the current directory) with args and
// no standard input, and returns its exit code and output.
func batchMain(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return batchMainIn(t, dir, "", args...)
}

// batchMainIn runs Main in dir with args and stdin as its standard input.
// The test's working directory stays dir afterwards (t.Chdir): such a
// test cannot run in parallel.
func batchMainIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
		args0: append([]string{"batch"}, args...), cols: func() int { return testColumns }}
	code := Main(args, e)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}
