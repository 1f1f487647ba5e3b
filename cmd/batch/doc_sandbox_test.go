package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The sandbox of a block of doc examples: the binary as batch, the runs
// and files its examples read, and the run of each line.

// docFlagsOf returns the flags of a subcommand, read from its help text.
var docFlagsOf = func() func(sub string) map[string]docFlag {
	var mu sync.Mutex
	cache := map[string]map[string]docFlag{}
	return func(sub string) map[string]docFlag {
		mu.Lock()
		defer mu.Unlock()
		if f, ok := cache[sub]; ok {
			return f
		}
		var stdout bytes.Buffer
		Main([]string{"help", sub}, &env{ctx: context.Background(), stdout: &stdout, stderr: io.Discard})
		cache[sub] = helpFlags(stdout.String())
		return cache[sub]
	}
}()

// requiredArgs is how many positional arguments a subcommand needs: the
// capitalized words of its usage outside brackets, less flags' values
// (merge's "-o DIR IN ..." needs IN).
func requiredArgs(sub string) int {
	c, _ := lookupCommand(sub)
	spec := regexp.MustCompile(`\[[^]]*\]`).ReplaceAllString(c.args, "")
	n, prev := 0, ""
	for _, w := range strings.Fields(spec) {
		if w != "..." && !strings.HasPrefix(w, "-") && !strings.HasPrefix(prev, "-") {
			n++
		}
		prev = w
	}
	return n
}

// isMention reports whether the batch commands of words name a command
// or a flag rather than give an example: a positional argument the
// subcommand needs, or a flag's value, is missing (`batch show`, `batch
// report -variants`).
func isMention(words []shellWord) bool {
	for _, inv := range invocations(words) {
		flags := docFlagsOf(inv.sub)
		args := parseArgs(words, inv, flags)
		if len(positionals(args)) < requiredArgs(inv.sub) {
			return true
		}
		for _, a := range args {
			if a.name != "" && flags[a.name].takesValue && !a.hasValue {
				return true
			}
		}
	}
	return false
}

// docLine is an example rewritten to run in the sandbox.
type docLine struct {
	ex    docExample
	words []shellWord
	notes []string // the rewrites, for the log
	env   []string // the scheduler's environment it names, if any
}

// prepare rewrites an example as TestDocExamples says; ok is false when
// it does not run (skipped, a mention, a placeholder without stand-in).
func prepare(t *testing.T, ex docExample) (docLine, bool) {
	t.Helper()
	if ex.skip != "" {
		t.Logf("skipped %s: %s\n\t%s", ex.source, ex.skip, ex.text)
		return docLine{}, false
	}
	l := docLine{ex: ex, words: splitShell(ex.text)}
	l.words = rewriteGo(l.words, &l.notes)
	before := joinShell(l.words)
	if unknown := substitute(l.words); len(unknown) > 0 {
		t.Errorf("%s: %s\n\tplaceholder %s has no stand-in: add one to standIns (doc_shell_test.go)", ex.source, ex.text, strings.Join(unknown, ", "))
		return docLine{}, false
	}
	if after := joinShell(l.words); after != before {
		l.notes = append(l.notes, "placeholders stand in (standIns)")
	}
	if ex.mention || isMention(l.words) {
		t.Logf("%s names a command, not an example: %s", ex.source, ex.text)
		return docLine{}, false
	}
	for i, w := range l.words {
		if !w.op && w.raw == w.val && strings.HasPrefix(w.val, "/") && !strings.HasPrefix(w.val, "/dev/") {
			l.words[i] = word(strings.TrimLeft(w.val, "/"))
			l.notes = append(l.notes, w.val+" taken inside the sandbox")
		}
	}
	var notes []string
	l.words, notes = narrow(l.words, docFlagsOf)
	l.notes = append(l.notes, notes...)
	line := joinShell(l.words)
	switch {
	case strings.Contains(line, "SLURM_") || regexp.MustCompile(`-shard auto( |$)`).MatchString(line):
		l.env = []string{"SLURM_JOB_ID=1235", "SLURM_ARRAY_JOB_ID=1234", "SLURM_ARRAY_TASK_ID=1",
			"SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=2"}
		l.notes = append(l.notes, "task 1 of a Slurm array of 3")
	case strings.Contains(line, "-shard auto/"):
		l.env = []string{"JOB_COMPLETION_INDEX=1", "HOSTNAME=batch-1"}
		l.notes = append(l.notes, "pod 1 of a Kubernetes Indexed Job")
	}
	return l, true
}

// rewriteGo makes `go run ./cmd/batch` batch, and `go build -o X
// ./cmd/batch` a copy of the built binary to X.
func rewriteGo(words []shellWord, notes *[]string) []shellWord {
	for _, i := range slices.Backward(commandWords(words)) {
		end := i + 1
		for end < len(words) && !words[end].op {
			end++
		}
		pkg := slices.IndexFunc(words[i:end], func(w shellWord) bool { return w.val == "./cmd/batch" })
		if words[i].val != "go" || pkg < 0 || i+1 >= end {
			continue
		}
		pkg += i
		var repl []shellWord
		switch words[i+1].val {
		case "run": // its arguments stay
			repl, end = []shellWord{word("batch")}, pkg+1
			*notes = append(*notes, "go run ./cmd/batch is batch")
		case "build":
			out := "batch"
			for k := i; k+1 < end; k++ {
				if words[k].val == "-o" {
					out = words[k+1].val
				}
			}
			repl = []shellWord{word("cp"), {raw: `"$DOCTEST_WRAPPER"`, val: "$DOCTEST_WRAPPER"}, word(out)}
			*notes = append(*notes, "go build copies the built binary")
		default:
			continue
		}
		words = append(append(append([]shellWord{}, words[:i]...), repl...), words[end:]...)
	}
	return words
}

// sandbox is the directory a block's examples run in.
type sandbox struct {
	dir     string
	tpl     *docTemplates
	made    map[string]bool
	nights  int  // runs copied under a name that is not an id
	reports bool // the copies have their report (the block runs trend)
}

// docWrapper is batch in the sandbox: it runs the binary and logs its
// exit code and first argument, for the judgement of each command.
const docWrapper = `#!/bin/sh
"$DOCTEST_BATCH" "$@"
rc=$?
printf '%s %s\n' "$rc" "$1" >>"$DOCTEST_LOG"
exit $rc
`

func newSandbox(t *testing.T, root string, tpl *docTemplates) *sandbox {
	t.Helper()
	s := &sandbox{dir: t.TempDir(), tpl: tpl, made: map[string]bool{}}
	os.Mkdir(filepath.Join(s.dir, "bin"), 0o755)
	for _, path := range []string{"bin/batch", "batch", ".doctest-wrapper"} {
		if err := os.WriteFile(filepath.Join(s.dir, path), []byte(docWrapper), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(s.dir, "examples")); err != nil {
		t.Fatal(err)
	}
	return s
}

// run copies a template run to path (relative to the sandbox).
func (s *sandbox) run(t *testing.T, path, kind string) {
	t.Helper()
	if s.made[path] {
		return
	}
	s.made[path] = true
	if kind == "plain" && s.reports {
		kind = "reported"
	}
	id := filepath.Base(path)
	if !runIDName.MatchString(id) {
		s.nights++
		id = fmt.Sprintf("20261101-23%02d01", s.nights)
	}
	copyRun(t, s.tpl.get(t, kind), filepath.Join(s.dir, path), id)
}

// runDocBlock runs the examples of b: a script's in order in one
// sandbox, other examples each in a sandbox of its own.
func runDocBlock(t *testing.T, root string, tpl *docTemplates, b docBlock) {
	var lines []docLine
	for _, ex := range b.examples {
		if l, ok := prepare(t, ex); ok {
			lines = append(lines, l)
		}
	}
	groups := [][]docLine{lines}
	if !b.script {
		groups = nil
		for _, l := range lines {
			groups = append(groups, []docLine{l})
		}
	}
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		s := newSandbox(t, root, tpl)
		s.fixtures(t, root, g)
		for _, l := range g {
			s.runLine(t, l)
		}
	}
}

// runLine runs one example through bash and judges its batch commands.
func (s *sandbox) runLine(t *testing.T, l docLine) {
	t.Helper()
	line := joinShell(l.words)
	log := filepath.Join(s.dir, ".doctest-log")
	os.Remove(log)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a guard against a hang
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", line)
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_") && !strings.HasPrefix(e, "JOB_COMPLETION_INDEX=") && !strings.HasPrefix(e, "PATH=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+filepath.Join(s.dir, "bin")+":"+os.Getenv("PATH"),
		"DOCTEST_BATCH="+batchBin, "DOCTEST_LOG="+log, "DOCTEST_WRAPPER="+filepath.Join(s.dir, ".doctest-wrapper"))
	cmd.Env = append(cmd.Env, l.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	as := ""
	if line != joinShell(splitShell(l.ex.text)) { // rewritten, not only its comment dropped
		as = fmt.Sprintf("\n\tas run: %s (%s)", line, strings.Join(l.notes, "; "))
	}
	t.Logf("%s: %s%s\n\texit %d in %s", l.ex.source, l.ex.text, as, code, time.Since(start).Round(time.Millisecond))
	fail := func(why string) {
		t.Errorf("%s: %s%s\n\t%s\n%s", l.ex.source, l.ex.text, as, why, tail(out.String(), 30))
	}
	if ctx.Err() != nil {
		fail(fmt.Sprintf("still running after 3 minutes: killed (%v)", err))
		return
	}
	logged, _ := os.ReadFile(log)
	verdict := false // a compare or trend said 1
	ran := 0
	for _, rec := range strings.Split(strings.TrimSpace(string(logged)), "\n") {
		rcText, first, _ := strings.Cut(rec, " ")
		rc, err := strconv.Atoi(rcText)
		if err != nil {
			continue
		}
		ran++
		sub := "run"
		if _, ok := lookupCommand(first); ok {
			sub = first
		}
		switch {
		case rc == 0:
		case rc == 1 && (sub == "compare" || sub == "trend"):
			verdict = true
		case rc == exitUsage:
			fail(fmt.Sprintf("batch %s exited 2: a usage error", sub))
			return
		default:
			fail(fmt.Sprintf("batch %s exited %d", sub, rc))
			return
		}
	}
	if n := len(invocations(l.words)); n > 0 && ran == 0 {
		fail("batch never ran")
		return
	}
	if code != 0 && (code != 1 || !verdict) {
		fail(fmt.Sprintf("the line exited %d", code))
	}
	if strings.Contains(out.String(), "panic:") {
		fail("a panic")
	}
}

// tail is the last n lines of s, indented.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"\t..."}, lines[len(lines)-n:]...)
	}
	return "\t" + strings.Join(lines, "\n\t")
}
