package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
)

// TestDocExamples runs the example commands of the docs, as x/perf's
// doc_test.go runs benchstat's, so that no example can rot: every line
// of README.md's ```sh blocks, every command in its text (an inline
// `batch ...`), and every line of the Examples of `batch help CMD` for
// each subcommand. A README block is a script: its lines run in order in
// a sandbox of their own; a help text's examples are alternatives, and a
// command of the text stands alone: each runs in a sandbox of its own.
// A line runs through bash, with the built binary as batch and ./batch.
// An example fails when a batch command in it exits 2 (a usage error) or
// with a code its subcommand does not document for a finished command
// (0; compare and trend also 1, their verdict), or when the line itself
// fails; the failure names the example and its source line.
//
// The examples are found by pattern, so that an example added to the
// README or to a help text is run too. Only what must be narrowed is
// rewritten, and the log of each example says what was:
//   - the corpus: a sweep (not a -resume) runs over the puzzles narrowIDs
//     instead of its -limit or -range (the default corpus is 49,151
//     puzzles); the files an example names (hard.txt, big.txt.gz, ...)
//     are the corpus's first 24 lines;
//   - limits and counts: show's -timeout at most 200ms, variants' -n 3,
//     -seeds 2, -sample 4 and -timeout 100ms at most, -variants and
//     -variants-seeds at most 2 (docCaps);
//   - output directories: an absolute path (/srv/nightly, /tmp/cmp) is
//     taken inside the sandbox;
//   - `go run ./cmd/batch` is batch, `go build -o X ./cmd/batch` copies
//     the built binary to X;
//   - a placeholder (DIR, NIGHT, K) is its stand-in (standIns);
//   - in a line that names a Slurm array task, the task's environment
//     (task 1 of an array of 3).
//
// The runs and files that the examples read (results/latest,
// results/20261121-230501, old/results.csv, a root of runs for prune)
// are made in the sandbox first (doc_fixtures_test.go). What a test
// cannot have is listed in docSkips with its reason, and a line that
// needs a program this machine lacks (GNU parallel) is skipped saying so.
func TestDocExamples(t *testing.T) {
	testenv.Heavy(t, "runs the 50-odd examples of the README and the help texts through the binary: 20-40 s")
	needsBinary(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the examples are shell lines: no bash here")
	}
	blocks := docBlocks(t)
	root := repoRoot(t)
	tpl := newDocTemplates(t)
	for _, b := range blocks {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel() // each block in its own sandbox
			runDocBlock(t, root, tpl, b)
		})
	}
}

// TestDocExamplesFound: the extraction finds the examples of every help
// text that has an Examples section and of the README's blocks, so that
// a change of their layout cannot leave TestDocExamples checking none.
func TestDocExamplesFound(t *testing.T) {
	blocks := docBlocks(t)
	found := map[string]int{}
	for _, b := range blocks {
		for _, ex := range b.examples {
			if ex.skip == "" && !ex.mention {
				found[b.name]++
			}
		}
	}
	for _, c := range commands() {
		if strings.Contains(helpText(t, c.name), "\nExamples:\n") && found["help_"+c.name] == 0 {
			t.Errorf("batch help %s has Examples, but none was found", c.name)
		}
	}
	readme := 0
	for name, n := range found {
		if strings.HasPrefix(name, "README") {
			readme += n
		}
	}
	if readme < 10 {
		t.Errorf("%d examples found in README.md, want its blocks' and its text's (%v)", readme, found)
	}
}

// docExample is one example command of the docs.
type docExample struct {
	source  string // where it is written: README.md:47, cmd/batch/run.go:70
	text    string // the line as written
	skip    string // why it does not run here ("": it runs)
	mention bool   // a command named in the text, without what it needs
}

// docBlock is examples written together: a script (a README block)
// runs in order in one sandbox; other examples (a help text's, which are
// alternatives) each in a sandbox of its own.
type docBlock struct {
	name     string
	script   bool
	examples []docExample
}

// docSkips are the programs an example may need that a test cannot
// have, and why.
var docSkips = []struct{ word, why string }{
	{"sbatch", "needs a Slurm cluster (slurm_e2e_test.go runs the Slurm recipe on a one-node Slurm: heavy)"},
	{"srun", "needs a Slurm cluster"},
	{"kubectl", "needs a Kubernetes cluster"},
	{"docker", "needs a container runtime"},
	{"systemctl", "needs systemd"},
	{"crontab", "needs cron"},
	{"mail", "needs a mail system"},
	{"tdoku", "needs a tdoku checkout (scripts/tdoku)"},
	{"bisect", "needs a git checkout with a regression between two commits (history/bisect_test.go runs the bisect script: heavy)"},
}

// crontabLine is a crontab entry: five time fields, then a command.
var crontabLine = regexp.MustCompile(`^\s*([0-9*/,-]+\s+){5}\S`)

// skipReason says why the line cannot run here, or "".
func skipReason(text string) string {
	if crontabLine.MatchString(text) {
		return "a crontab entry: needs cron (examples/nightly/nightly.sh is what it runs)"
	}
	words := splitShell(text)
	for _, w := range words {
		for _, f := range strings.Fields(strings.NewReplacer("$(", " ", ")", " ", "'", " ", "=", " ").Replace(w.raw)) {
			for _, s := range docSkips {
				if f == s.word {
					return s.why
				}
			}
		}
	}
	for i, w := range words {
		if i+1 < len(words) && w.val == "go" && words[i+1].val == "test" {
			return "the test suite: this test runs inside it"
		}
	}
	// A program at a command's start, or an -ext solver's interpreter.
	var progs []string
	for _, i := range commandWords(words) {
		progs = append(progs, words[i].val)
	}
	for i, w := range words {
		if name, cmd, ok := strings.Cut(w.val, "="); ok && i > 0 && words[i-1].val == "-ext" && name != "" {
			prog, _, _ := strings.Cut(cmd, " ")
			progs = append(progs, prog)
		}
	}
	for _, prog := range progs {
		if prog == "batch" || prog == "./batch" || prog == "go" || strings.HasPrefix(prog, "examples/") {
			continue
		}
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Sprintf("needs %s, which is not installed here", prog)
		}
	}
	return ""
}

// docBlocks returns the examples of README.md and of the help texts.
func docBlocks(t *testing.T) []docBlock {
	t.Helper()
	blocks := readmeBlocks(t, filepath.Join(repoRoot(t), "README.md"))
	for _, c := range commands() {
		if b := helpBlock(t, c); len(b.examples) > 0 {
			blocks = append(blocks, b)
		}
	}
	return blocks
}

var (
	fence      = regexp.MustCompile("^```\\s*([A-Za-z]*)")
	inlineCode = regexp.MustCompile("`([^`]+)`")
	shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true}
)

// readmeBlocks finds the examples of a README: each ```sh block is a
// block; a crontab entry in another block and each command in the text
// are a block of their own.
func readmeBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	var blocks []docBlock
	var cur *docBlock // the open fence, nil outside
	curLang := ""
	var para []string // the text since the last blank line
	paraStart := 0
	flushPara := func() {
		text := strings.Join(para, "\n")
		for _, m := range inlineCode.FindAllStringSubmatchIndex(text, -1) {
			span := strings.Join(strings.Fields(text[m[2]:m[3]]), " ")
			if !isDocCommand(span) {
				continue
			}
			line := paraStart + strings.Count(text[:m[0]], "\n")
			ex := docExample{source: fmt.Sprintf("%s:%d", name, line), text: span, skip: skipReason(span), mention: isMention(splitShell(span))}
			blocks = append(blocks, docBlock{name: fmt.Sprintf("%s:%d", name, line), examples: []docExample{ex}})
		}
		para = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fence.FindStringSubmatch(line); m != nil {
			if cur != nil || curLang != "" {
				if cur != nil && len(cur.examples) > 0 {
					blocks = append(blocks, *cur)
				}
				cur, curLang = nil, ""
				continue
			}
			flushPara()
			curLang = "text"
			if shellLangs[m[1]] {
				curLang = m[1]
				cur = &docBlock{name: fmt.Sprintf("%s:%d", name, n), script: true}
			}
			continue
		}
		switch {
		case cur != nil:
			if text := strings.TrimSpace(line); text != "" && !strings.HasPrefix(text, "#") {
				cur.examples = append(cur.examples, docExample{source: fmt.Sprintf("%s:%d", name, n), text: text, skip: skipReason(text)})
			}
		case curLang != "":
			if crontabLine.MatchString(line) {
				ex := docExample{source: fmt.Sprintf("%s:%d", name, n), text: line, skip: skipReason(line)}
				blocks = append(blocks, docBlock{name: ex.source, examples: []docExample{ex}})
			}
		case strings.TrimSpace(line) == "":
			flushPara()
		default:
			if para == nil {
				paraStart = n
			}
			para = append(para, line)
		}
	}
	flushPara()
	return blocks
}

// isDocCommand reports whether an inline code span of the text is a
// command: one of batch, or one of the programs of docSkips (listed as
// skipped).
func isDocCommand(span string) bool {
	words := strings.Fields(span)
	switch {
	case len(words) == 0:
		return false
	case words[0] == "batch" || words[0] == "./batch":
		return true
	case len(words) >= 3 && words[0] == "go" && (words[1] == "run" || words[1] == "build"):
		return strings.Contains(span, "./cmd/batch")
	case len(words) >= 2 && words[0] == "go" && words[1] == "test":
		return true
	}
	for _, s := range docSkips {
		if words[0] == s.word || (len(words) > 1 && words[1] == s.word) {
			return len(words) > 1
		}
	}
	return false
}

// helpText is `batch help name`.
func helpText(t *testing.T, name string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"help", name}, &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}); code != 0 {
		t.Fatalf("batch help %s: exit %d\n%s", name, code, stderr.String())
	}
	return stdout.String()
}

// helpBlock returns the Examples of `batch help c` as one block, each
// example's source the line of cmd/batch that writes it.
func helpBlock(t *testing.T, c command) docBlock {
	t.Helper()
	b := docBlock{name: "help_" + c.name}
	_, examples, ok := strings.Cut(helpText(t, c.name), "\nExamples:\n")
	if !ok {
		return b
	}
	for i, line := range strings.Split(examples, "\n") {
		text := strings.TrimSpace(line)
		if text == "" {
			break
		}
		src := helpSource(t, text)
		if src == "" {
			src = fmt.Sprintf("batch help %s, example %d", c.name, i+1)
		}
		b.examples = append(b.examples, docExample{source: src, text: text, skip: skipReason(text)})
	}
	return b
}

// helpSource finds the line of cmd/batch's Go files that writes the
// example text: the one whose string holds the whole line, else its
// comment ("" when neither is found: a line built of several parts).
func helpSource(t *testing.T, text string) string {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	quoted := func(s string) string { return strings.Trim(strconv.Quote(strings.TrimSpace(s)), `"`) }
	needles := []string{quoted(text)}
	if _, comment, ok := strings.Cut(text, "#"); ok && len(strings.TrimSpace(comment)) >= 10 {
		needles = append(needles, quoted(comment))
	}
	for _, needle := range needles {
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for n, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, needle) {
					return fmt.Sprintf("cmd/batch/%s:%d", f, n+1)
				}
			}
		}
	}
	return ""
}
