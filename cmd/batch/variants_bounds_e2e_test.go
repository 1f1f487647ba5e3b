package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// The variants parts of issue 35: an analysis of a run refused while it
// runs and left out of its report once its rows changed, the cost bound
// printed before an analysis too large to fit is refused, the replay
// lines with the analysis' limits, and weak verdicts said.

// TestReportVariantsOnlyOfTheFinalRows (issue 35, defect 7): batch
// report -variants on a run still running is refused (exit 2, nothing
// written); an analysis made of an interrupted run's rows is left out of
// the report once -resume has finished the run, with a note saying how
// to make it again. Before, the analysis of a running run's first rows
// was written, and the sweep's final report published it.
func TestReportVariantsOnlyOfTheFinalRows(t *testing.T) {
	testenv.Heavy(t, "sweeps, interrupts and resumes a run, and analyses it")
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	args := []string{"-limit", "400", "-solvers", "norvig,dlx", "-timeout", "0", "-max-calls", "100000", "-quiet", "-out", run}

	// Running: a process holds the run's lock, as its sweep does.
	mustOK(t, batch(t, dir, append([]string{"-limit", "20"}, args[2:]...)...))
	editManifest(t, run, func(m map[string]any) { m["status"] = rundir.Running })
	l, err := rundir.LockDir(run)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(run, rundir.VariantsFile))
	r := batchMain(t, dir, "report", "-variants", "3", run)
	l.Unlock()
	if r.code != exitUsage || !strings.Contains(r.stderr, "is still running") {
		t.Errorf("report -variants of a running run: exit %d, want %d and why\n%s", r.code, exitUsage, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(run, rundir.VariantsFile)); !os.IsNotExist(err) {
		t.Errorf("variants.json written for a running run (%v)", err)
	}
	os.RemoveAll(run)

	// Interrupted, analysed, resumed: the final report leaves the
	// analysis of the interrupted rows out.
	needsBinary(t)
	if r := startAndSignalAt(t, dir, run, 2000, syscall.SIGINT, args...); r.code != exitInterrupted {
		t.Fatalf("interrupted sweep: exit %d\n%s", r.code, r.stderr)
	}
	mustOK(t, batch(t, dir, "report", "-variants", "3", run))
	if _, err := os.Stat(filepath.Join(run, rundir.VariantsFile)); err != nil {
		t.Fatalf("no analysis of the interrupted run: %v", err)
	}
	r = batch(t, dir, append([]string{"-resume"}, args...)...)
	mustOK(t, r)
	if !strings.Contains(r.stderr, "is not of the run's rows") || !strings.Contains(r.stderr, "batch report -variants 3 "+run+" makes it again") {
		t.Errorf("the resumed run's report does not say it left the analysis out:\n%s", r.stderr)
	}
	if md := readFile(t, filepath.Join(run, rundir.SummaryMarkdown)); strings.Contains(md, "## Hard or unlucky") {
		t.Error("the final report shows the analysis of the interrupted run's rows")
	}
}

// TestVariantsBoundFirstAndRefused (issue 35, defect 11): a billion
// variants print their cost bound and are refused at once (exit 2),
// saying how many fit; nothing is analysed. Before, batch report
// -variants 1000000000 grew to 24 GB before it printed its bound.
func TestVariantsBoundFirstAndRefused(t *testing.T) {
	testenv.Heavy(t, "a sweep and two refusals")
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	mustOK(t, batch(t, dir, "-limit", "15", "-solvers", "norvig,dlx", "-quiet", "-report=false", "-out", run))
	r := batchMain(t, dir, "report", "-variants", "1000000000", run)
	bound := regexp.MustCompile(`variants: 20 units x 1000000001 solves = 20000000020 solves, each at most 100ms: at most [0-9hms]+\n`)
	if r.code != exitUsage || !bound.MatchString(r.stderr) || !strings.Contains(r.stderr, "variants a puzzle fit") {
		t.Errorf("report -variants 1000000000: exit %d, want %d, the bound, then the refusal\n%s", r.code, exitUsage, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(run, rundir.VariantsFile)); !os.IsNotExist(err) {
		t.Errorf("variants.json written (%v)", err)
	}
	r = batchMain(t, dir, "variants", "0", "-n", "1000000000", "-seeds", "1000", "-solvers", "norvig,randmrv", "-sample", "0", "-run", "")
	if r.code != exitUsage || !strings.Contains(r.stderr, "1000000001 orientations of #0: 1001000001001 solves") || !strings.Contains(r.stderr, "variants a puzzle fit") {
		t.Errorf("variants -n 1000000000: exit %d, want %d, the bound, then the refusal\n%s", r.code, exitUsage, r.stderr)
	}
}

// TestVariantsReplayWithTheLimits (issue 35, defect 11): the replay lines
// of batch variants carry the analysis' -timeout and -max-calls, and a
// variant a limit stopped is marked "≥"; a verdict from fewer than 20
// variants says it is weak. Before, the replay omitted the limits (a
// replay then ran past where the analysis stopped) and showed a stopped
// variant's calls as exact.
func TestVariantsReplayWithTheLimits(t *testing.T) {
	testenv.Heavy(t, "two analyses of puzzle #0")
	dir := t.TempDir()
	r := batchMain(t, dir, "variants", "0", "-n", "30", "-solvers", "backtrack", "-max-calls", "3000", "-timeout", "1s",
		"-sample", "0", "-run", "", "-out", filepath.Join(dir, "v"))
	if r.code != 0 {
		t.Fatalf("variants: exit %d\n%s", r.code, r.stderr)
	}
	replay := regexp.MustCompile(`backtrack, the costliest \(≥3\.00k calls\):\n +batch show 0 -seed 1 -timeout 1s -max-calls 3000 -transform \S+\n`)
	if !replay.MatchString(r.stdout) {
		t.Errorf("no replay line with the limits and a stopped variant marked:\n%s", r.stdout)
	}
	r = batchMain(t, dir, "variants", "0", "-n", "10", "-solvers", "dlx", "-sample", "50", "-run", "", "-out", filepath.Join(dir, "w"))
	if r.code != 0 || !strings.Contains(r.stdout, "dlx: a weak verdict: 10 variants measured") {
		t.Errorf("10 variants: exit %d, want the verdict said weak\n%s%s", r.code, r.stdout, r.stderr)
	}
}
