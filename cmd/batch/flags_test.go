package main

import (
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestEmptySolversRefused: an empty -solvers (a script's unset variable) is a
// usage error naming the choices, for run and show, instead of silently
// sweeping the default strategies.
func TestEmptySolversRefused(t *testing.T) {
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, 3))
	out := filepath.Join(dir, "run")
	for _, args := range [][]string{
		{"-solvers", "", "-quiet", "-out", out, corpus},
		{"run", "-solvers=", "-quiet", "-out", out, corpus},
		{"-solvers", " ", "-quiet", "-out", out, corpus},
		{"show", "0", "-corpus", corpus, "-run", "", "-solvers", ""},
	} {
		r := batchMain(t, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "-solvers is empty") || !strings.Contains(r.stderr, "norvig") {
			t.Errorf("batch %q: exit %d, want 2 and an empty -solvers named with the strategies\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := rundir.ReadManifest(out); err == nil {
		t.Errorf("a run was created with an empty -solvers")
	}
}

// TestLimitZeroIsDocumented: -limit 0 sweeps every puzzle, as -timeout 0
// and -max-calls 0 mean no limit, and the flag's help says so; a negative
// limit is refused.
func TestLimitZeroIsDocumented(t *testing.T) {
	r := batchMain(t, "", "help", "run")
	if r.code != 0 || !strings.Contains(r.stdout, "0 for every puzzle") {
		t.Errorf("batch help run does not say what -limit 0 means:\n%s", r.stdout)
	}
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, 4))
	out := filepath.Join(dir, "run")
	mustOK(t, batchMain(t, "", "-limit", "0", "-solvers", "bitboard", "-quiet", "-report=false", "-out", out, corpus))
	if rows := readRows(t, filepath.Join(out, rundir.ResultsFile)); len(rows) != 4 {
		t.Errorf("-limit 0 over 4 puzzles wrote %d rows, want 4", len(rows))
	}
	if r := batchMain(t, "", "-limit", "-1", "-quiet", "-out", filepath.Join(dir, "neg"), corpus); r.code != exitUsage {
		t.Errorf("-limit -1: exit %d, want 2\n%s", r.code, r.stderr)
	}
}
