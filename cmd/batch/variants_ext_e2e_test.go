package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// puzzle39949 is #39949 of the 17-clue corpus, the classic pathological
// puzzle: a corpus of its one line is a variants run of seconds.
const puzzle39949 = "010600000000000084000030000403000200000510007800000000200005000000700100000000030"

// TestVariantsReplayRunsTheExternalSolver: the replay lines of batch
// variants with an external strategy carry its -ext, so that the command
// printed for "ref, the costliest" solves that variant with ref (without
// it, batch show runs the built-in strategies only: the line replayed
// nothing of ref's).
func TestVariantsReplayRunsTheExternalSolver(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	ref := buildRefSolver(t, tmp)
	writeFile(t, filepath.Join(tmp, "c.txt"), puzzle39949+"\n")
	r := batch(t, tmp, "variants", "0", "-corpus", "c.txt", "-n", "8", "-solvers", "norvig,ref",
		"-ext", "ref="+ref+" -marker x", "-timeout", "5s", "-out", "vout")
	mustOK(t, r)
	// The text's commands, each on one line again.
	text := regexp.MustCompile(` \\\n +`).ReplaceAllString(r.stdout, " ")
	m := regexp.MustCompile(`ref, the costliest \([^)]*\):\n +batch show (.*) -transform (\S+)\n`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no replay line for ref:\n%s", r.stdout)
	}
	if want := "-ext 'ref=" + ref + " -marker x'"; !strings.Contains(m[1], want) {
		t.Fatalf("ref's replay %q lacks %q", m[0], want)
	}
	show := batch(t, tmp, "show", "0", "-corpus", "c.txt", "-seed", "1", "-timeout", "5s",
		"-ext", "ref="+ref+" -marker x", "-transform", m[2])
	mustOK(t, show)
	if !regexp.MustCompile(`(?m)^ +ref +solved `).MatchString(show.stdout) {
		t.Errorf("the replay did not solve with ref:\n%s", show.stdout)
	}
}

// TestVariantsTimeThresholdIsADuration: a strategy judged by its time (an
// external solver without counters) whose solves a limit stopped gets the
// note that hard cannot be told, with the threshold as a duration (it
// read "under 5e+08, the threshold": nanoseconds as a bare number).
func TestVariantsTimeThresholdIsADuration(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	writeFile(t, filepath.Join(tmp, "c.txt"), puzzle39949+"\n")
	// A solver that never answers: every solve stops at -timeout, the
	// corpus sample's too.
	slow := "slow=sh -c 'read l; echo solver slow 1 ns; while read l; do sleep 10; done'"
	r := batch(t, tmp, "variants", "0", "-corpus", "c.txt", "-n", "3", "-solvers", "slow", "-ext", slow,
		"-timeout", "50ms", "-ext-grace", "50ms", "-sample", "3", "-out", "vout")
	mustOK(t, r)
	text := strings.Join(strings.Fields(r.stdout), " ")
	if want := "hard cannot be told: the variants' median is a lower bound under 500ms, the threshold (10x the corpus median)"; !strings.Contains(text, want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
	}
}

// TestVariantsNoVerdictOnWrongAnswers: a strategy whose answers are wrong
// gets no verdict, with a note saying why, and batch variants exits 1
// (it was "typical", read from the counters of its wrong answers).
func TestVariantsNoVerdictOnWrongAnswers(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	ref := buildRefSolver(t, tmp)
	writeFile(t, filepath.Join(tmp, "c.txt"), puzzle39949+"\n")
	// -wrong 0: puzzle #0 gets a grid that breaks a given.
	args := []string{"variants", "0", "-corpus", "c.txt", "-n", "4", "-solvers", "norvig,ref",
		"-ext", "ref=" + ref + " -wrong 0", "-timeout", "5s", "-sample", "50", "-out", "vout"}
	// With -json too: it exited 0.
	if r := batch(t, tmp, append(args, "-json")...); r.code != 1 {
		t.Errorf("-json: exit %d, want 1\n%s", r.code, r.stderr)
	}
	if r := batch(t, tmp, args...); r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	v, err := rundir.ReadVariants(filepath.Join(tmp, "vout", rundir.VariantsFile))
	if err != nil || v == nil {
		t.Fatalf("variants.json: %v", err)
	}
	for _, a := range v.Analyses {
		if a.Solver == "ref" && (a.Verdict != rundir.VerdictNone || !regexp.MustCompile(`^no verdict: [1-5] of its 5 solves gave a wrong answer`).MatchString(a.Note)) {
			t.Errorf("ref: verdict %q, note %q", a.Verdict, a.Note)
		}
		if a.Solver == "norvig" && a.Verdict == rundir.VerdictNone {
			t.Errorf("norvig: no verdict: %s", a.Note)
		}
	}
}
