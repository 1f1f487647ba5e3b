package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestShow(t *testing.T) {
	tmp := t.TempDir()
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	p2018 := "000002910320080000000000000019000500000300000000070000704600003000001000600000000"
	corpus := strings.Join([]string{"# three puzzles", p0, p0[:80], p2018}, "\n") + "\n"
	os.WriteFile(filepath.Join(tmp, "c.txt"), []byte(corpus), 0o644)
	mustOK(t, batch(t, tmp, "-solvers", "norvig,dlx", "-timeout", "0", "-out", "run", "-quiet", "c.txt"))
	limits := []string{"-timeout", "0", "-max-calls", "200000"} // deterministic counters

	r := batch(t, tmp, append([]string{"show", "0", "-run", "run"}, limits...)...)
	mustOK(t, r)
	for _, want := range []string{
		"#0 of c.txt, line 2: 9x9, 17 clues, 1 solution\n",
		"| . . . | . . . | . 1 . |   | 6 9 3 | 7 8 4 | 5 1 2 |\n", // puzzle and solution side by side
		"(no timeout, at most 200000 calls per strategy, seed 1)",
		"  bruteforce  limit", "≥200000", // bruteforce stopped by the call limit
		"  norvig      solved", "  bitboard    solved",
		"Where #0 ranks in run run,",
		"  norvig    solved      1   2/2       p50.0     ×1.00", // the invalid line is not measured
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show 0: stdout lacks %q:\n%s", want, r.stdout)
		}
	}

	// The corpus comes from the run; the run from results/latest (none here).
	r = batch(t, tmp, append([]string{"show", "2", "-corpus", "c.txt"}, limits...)...)
	mustOK(t, r)
	if !strings.Contains(r.stdout, "#2 of c.txt, line 4") || !strings.Contains(r.stdout, "No ranks: no run in results/latest") {
		t.Errorf("show 2 without a run:\n%s", r.stdout)
	}

	// The run's corpus is relative to where the run was made.
	if r := batch(t, t.TempDir(), "show", "0", "-run", filepath.Join(tmp, "run")); r.code != 2 ||
		!strings.Contains(r.stderr, "the corpus of run "+filepath.Join(tmp, "run")+", c.txt, is not here") {
		t.Errorf("run's corpus elsewhere: exit %d, %s", r.code, r.stderr)
	}

	// A 4x4 puzzle from standard input.
	cmd := exec.Command(batchBin, "show", "0", "-corpus", "-", "-run", "")
	cmd.Dir = tmp
	cmd.Stdin = strings.NewReader("4000300200040020\n")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "#0 of -, line 1: 4x4, 5 clues, 1 solution") ||
		!strings.Contains(string(out), "bitboard: unsupported") || strings.Contains(string(out), "No ranks") {
		t.Errorf("show from stdin: %v\n%s", err, out)
	}

	// Errors: exit 2.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"7", "-run", "run"}, "corpus c.txt has 3 puzzles (ids 0 to 2): no puzzle #7"},
		{[]string{"1", "-run", "run"}, "puzzle #1 is not a puzzle: c.txt:3: puzzle has 80 symbols"},
		{[]string{"x"}, `puzzle ID "x": want a 0-based puzzle number`},
		{[]string{}, "show needs one puzzle ID"},
		{[]string{"0", "-run", "nope"}, "reading run nope"},
		{[]string{"0", "-corpus", "nope.txt", "-run", ""}, "corpus nope.txt: no such file"},
		{[]string{"0", "-run", "run", "-corpus", "other.txt"}, "corpus other.txt is not a corpus of run run (its corpora: c.txt)"},
	} {
		if len(tc.args) > 0 && tc.args[len(tc.args)-1] == "other.txt" {
			os.WriteFile(filepath.Join(tmp, "other.txt"), []byte(p2018+"\n"), 0o644)
		}
		r := batch(t, tmp, append([]string{"show"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("show %v: exit %d, stderr %s", tc.args, r.code, r.stderr)
		}
	}
}

func TestShowLatestRun(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	os.Symlink(filepath.Join(root, "data"), filepath.Join(tmp, "data"))
	mustOK(t, batchMain(t, tmp, "-solvers", "bitboard,norvig", "-limit", "5", "-quiet"))
	r := batchMain(t, tmp, "show", "2018", "-timeout", "0", "-max-calls", "100000")
	mustOK(t, r)
	for _, want := range []string{"#2018 of data/sudoku17.txt, line 2019: 9x9, 17 clues, 1 solution",
		"#2018 is not in run results/latest (5 puzzles)."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	r = batchMain(t, tmp, "show", "3", "-timeout", "0", "-max-calls", "100000")
	mustOK(t, r)
	if !strings.Contains(r.stdout, "Where #3 ranks in run results/latest") || !strings.Contains(r.stdout, "/5 ") {
		t.Errorf("show 3:\n%s", r.stdout)
	}
	// No data/ here: the default corpus is the copy in the binary.
	empty := t.TempDir()
	r = batchMain(t, empty, "show", "0", "-max-calls", "1000")
	mustOK(t, r)
	if !strings.Contains(r.stdout, "#0 of data/sudoku17.txt, line 1") {
		t.Errorf("show 0 with the embedded corpus:\n%s", r.stdout)
	}
}
