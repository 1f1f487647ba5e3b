package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The command's logic is tested in process, through Main, as the binary
// runs it but without building or starting one: batchMain is batch for
// the tests where no process matters (signals, a terminal, a kill do).

// batchMain runs Main with args, no standard input, and returns its exit
// code and output.
func batchMain(t *testing.T, args ...string) result {
	t.Helper()
	return batchMainIn(t, "", args...)
}

// batchMainIn runs Main with args and stdin as its standard input.
func batchMainIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
		args0: append([]string{"batch"}, args...)}
	code := Main(args, e)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}
