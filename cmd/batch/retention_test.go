package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// small is a quick deterministic sweep of six puzzles of the default
// corpus with two strategies.
var small = append([]string{"-solvers", "dlx,bitboard", "-limit", "6"}, deterministic...)

func sweepInto(t *testing.T, root, out string, extra ...string) {
	t.Helper()
	mustOK(t, batchMain(t, root, append(append(append([]string{}, small...), extra...), "-out", out)...))
}

// TestGzippedRunsAreReadByEveryCommand: a finished sweep leaves
// results.csv.gz and no results.csv, and report, compare (of the
// directories and of the results.csv paths) and show -run read it.
func TestGzippedRunsAreReadByEveryCommand(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	sweepInto(t, root, a)
	sweepInto(t, root, b)
	for _, dir := range []string{a, b} {
		if exists(filepath.Join(dir, rundir.ResultsFile)) || !exists(filepath.Join(dir, rundir.ResultsGzip)) {
			t.Fatalf("%s: want results.csv.gz alone after a finished sweep", dir)
		}
	}
	r := batchMain(t, root, "report", a)
	mustOK(t, r)
	if md, err := os.ReadFile(filepath.Join(a, rundir.SummaryMarkdown)); err != nil || !strings.Contains(string(md), "bitboard") {
		t.Errorf("report of a gzipped run: %v\n%s", err, md)
	}
	for _, args := range [][]string{{a, b}, {filepath.Join(a, rundir.ResultsFile), filepath.Join(b, rundir.ResultsFile)}} {
		r = batchMain(t, root, append([]string{"compare"}, args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "bitboard") {
			t.Errorf("compare %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	r = batchMain(t, root, "show", "0", "-run", a, "-solvers", "dlx", "-timeout", "0")
	if r.code != 0 || !strings.Contains(r.stdout, "Where #0 ranks in run") {
		t.Errorf("show -run of a gzipped run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestMergeReadsGzippedShards: shards whose rows are gzipped merge into
// the rows of the whole run.
func TestMergeReadsGzippedShards(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	a, s0, s1, m := filepath.Join(tmp, "a"), filepath.Join(tmp, "s0"), filepath.Join(tmp, "s1"), filepath.Join(tmp, "m")
	sweepInto(t, root, a, "-report=false")
	sweepInto(t, root, s0, "-shard", "0/2")
	sweepInto(t, root, s1, "-shard", "1/2")
	if !exists(filepath.Join(s0, rundir.ResultsGzip)) || !exists(filepath.Join(s1, rundir.ResultsGzip)) {
		t.Fatal("the shards' rows are not gzipped")
	}
	mustOK(t, batchMain(t, root, "merge", "-o", m, s0, s1))
	whole, merged := readRows(t, filepath.Join(a, rundir.ResultsFile)), readRows(t, filepath.Join(m, rundir.ResultsFile))
	if len(merged) != len(whole) || len(whole) != 12 {
		t.Errorf("merge of gzipped shards: %d rows, the whole run %d; want 12", len(merged), len(whole))
	}
	for i := range min(len(whole), len(merged)) {
		if whole[i].ID != merged[i].ID || whole[i].Solver != merged[i].Solver || whole[i].Calls != merged[i].Calls {
			t.Errorf("row %d: merged %+v, whole %+v", i, merged[i], whole[i])
		}
	}
}

// TestResumeOfGzippedRun: -resume of a finished, gzipped run has
// nothing to do: its rows are made plain to append to, then gzipped
// again after the report; -gzip=false and -report=false keep results.csv.
func TestResumeOfGzippedRun(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a")
	sweepInto(t, root, a)
	r := batchMain(t, root, "-resume", "-quiet", "-out", a)
	if r.code != 0 || !strings.Contains(r.stderr, "12 rows already done") || !strings.Contains(r.stdout, "rows gzipped") || exists(filepath.Join(a, rundir.ResultsFile)) {
		t.Errorf("resume of a gzipped run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if rows := readRows(t, filepath.Join(a, rundir.ResultsFile)); len(rows) != 12 {
		t.Errorf("after the resume: %d rows, want 12", len(rows))
	}
	for _, flag := range []string{"-gzip=false", "-report=false"} {
		plain := filepath.Join(tmp, "plain"+flag)
		sweepInto(t, root, plain, flag)
		if !exists(filepath.Join(plain, rundir.ResultsFile)) || exists(filepath.Join(plain, rundir.ResultsGzip)) {
			t.Errorf("%s: want results.csv alone", flag)
		}
	}
}

// TestPruneCommand: batch prune -keep 1 removes the rows of the older
// finished run, leaves the one in use whole (and says so), -dry-run
// removes nothing, and the pruned run's page and summary stay while
// batch report refuses it naming prune.
func TestPruneCommand(t *testing.T) {
	root := repoRoot(t)
	results := filepath.Join(t.TempDir(), "results")
	r1, r2, r3 := filepath.Join(results, "r1"), filepath.Join(results, "r2"), filepath.Join(results, "r3")
	sweepInto(t, root, r1)
	sweepInto(t, root, r2)
	sweepInto(t, root, r3)
	lock, err := rundir.LockDir(r1)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()

	r := batchMain(t, root, "prune", "-keep", "1", "-dry-run", results)
	mustOK(t, r)
	if !strings.Contains(r.stdout, r2+": would remove results.csv.gz (") || !strings.Contains(r.stdout, "would free") {
		t.Errorf("dry run:\n%s", r.stdout)
	}
	if !exists(filepath.Join(r2, rundir.ResultsGzip)) {
		t.Fatal("-dry-run removed the rows")
	}
	r = batchMain(t, root, "prune", "-keep", "1", results)
	mustOK(t, r)
	for _, want := range []string{r2 + ": removed results.csv.gz (", r1 + ": left whole: in use", "of 1 run; 1 finished run kept whole (-keep 1)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("prune: stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if exists(filepath.Join(r2, rundir.ResultsGzip)) || !exists(filepath.Join(r1, rundir.ResultsGzip)) || !exists(filepath.Join(r3, rundir.ResultsGzip)) {
		t.Error("prune removed the wrong rows")
	}
	for _, f := range []string{rundir.ManifestFile, rundir.SummaryJSON, rundir.SummaryMarkdown, rundir.PageFile, rundir.ChartsDir} {
		if !exists(filepath.Join(r2, f)) {
			t.Errorf("prune removed %s", f)
		}
	}
	if r := batchMain(t, root, "report", r2); r.code != 2 || !strings.Contains(r.stderr, "batch prune") {
		t.Errorf("report of a pruned run: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, root, "prune", "-keep", "-1", results); r.code != 2 {
		t.Errorf("prune -keep -1: exit %d", r.code)
	}
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }
