package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// buildRefSolver builds the harness's reference solver (a correct
// protocol peer over the built-in norvig) into dir.
func buildRefSolver(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "refsolver")
	if out, err := exec.Command("go", "build", "-o", bin, "../../solvers/external/testdata/refsolver").CombinedOutput(); err != nil {
		t.Fatalf("building refsolver: %v\n%s", err, out)
	}
	return bin
}

// TestExternalProvenance: a sweep with -ext records the program in
// run.json and its rows like a built-in strategy's; -resume and merge
// refuse a program whose executable changed since.
func TestExternalProvenance(t *testing.T) {
	testenv.SkipUnderRace(t, "17 s under the race detector, where this test binary is the guard and the echo peer of every process; solvers/external's tests run the harness's concurrency under it")
	dir := t.TempDir()
	ref := buildRefSolver(t, dir)
	corpus := filepath.Join(repoRoot(t), "data/sudoku17.txt")
	args := []string{"-solvers", "bitboard,ref", "-ext", "ref=" + ref + " -marker x", "-limit", "12", "-report=false", "-quiet", corpus}
	if r := batchMain(t, dir, append([]string{"-out", "run"}, args...)...); r.code != 0 {
		t.Fatalf("sweep: exit %d\n%s", r.code, r.stderr)
	}
	m, err := rundir.ReadManifest(filepath.Join(dir, "run"))
	if err != nil {
		t.Fatal(err)
	}
	x, ok := m.Settings.ExternalNamed("ref")
	if !ok || x.Reported != "refsolver" || len(x.SHA256) != 64 || x.Executable != ref ||
		strings.Join(x.Args, " ") != ref+" -marker x" {
		t.Fatalf("run.json settings.external: %+v", m.Settings.External)
	}
	if tm := m.Segments[0].Timing; tm == nil || len(tm.Null) != 1 || tm.Null[0].Name != "ref" || tm.Null[0].Samples == 0 {
		t.Errorf("run.json has no null round trip of ref measured during the sweep: %+v", tm)
	}
	solved := 0
	for _, row := range readRows(t, filepath.Join(dir, "run", rundir.ResultsFile)) {
		if row.Solver == "ref" && row.Status.String() == "solved" && row.SelfNS > 0 && row.Calls > 0 {
			solved++
		}
	}
	if solved != 12 {
		t.Errorf("%d ref rows solved with self_ns and calls, want 12", solved)
	}
	// Shards of one program merge; a shard of another does not.
	for k, name := range []string{"s0", "s1"} {
		if r := batchMain(t, dir, append([]string{"-out", name, "-shard", []string{"0/2", "1/2"}[k]}, args...)...); r.code != 0 {
			t.Fatalf("shard %s: exit %d\n%s", name, r.code, r.stderr)
		}
	}
	if r := batchMain(t, dir, "merge", "-o", "m1", "s0", "s1"); r.code != 0 {
		t.Fatalf("merge of one program: exit %d\n%s", r.code, r.stderr)
	}
	f, err := os.OpenFile(ref, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0}) // still runs: a byte after the ELF image's end
	f.Close()
	if r := batchMain(t, dir, append([]string{"-out", "s2", "-shard", "1/2"}, args...)...); r.code != 0 {
		t.Fatalf("shard of the changed program: exit %d\n%s", r.code, r.stderr)
	}
	if r := batchMain(t, dir, "merge", "-o", "m2", "s0", "s2"); r.code != 2 || !strings.Contains(r.stderr, "external solver ref") {
		t.Errorf("merge of two programs: exit %d, want 2 naming the external solver\n%s", r.code, r.stderr)
	}
	r := batchMain(t, dir, "-resume", "-out", "run")
	if r.code != 2 || !strings.Contains(r.stderr, "is not the program") || !strings.Contains(r.stderr, "changed: SHA-256") {
		t.Errorf("-resume with a changed program: exit %d, want 2 saying what changed\n%s", r.code, r.stderr)
	}
}
