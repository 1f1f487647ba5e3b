package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubatch/history"
	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// TestTrendOverAYearOfNights writes 365 nights of one series (copies of
// the run.json and summary.json of one real sweep of the default
// strategies, each with its own run id and date; no results.csv, which
// trend must not need) and times the binary's `batch trend` over them:
// cold (no index: every run read), warm (the index only) and nightly
// (the index and one new night). The goal of issue 27 is under 2 s and
// 100 MB of peak memory; the time is a figure of docs/PERFORMANCE.md
// (this test's log), and the test judges what keeps it: peak memory
// under 100 MB, a cold read that grows in proportion to the nights
// (365 nights at most 1.5 times 5 times the CPU time of their first 73:
// a cost per pair of nights would make it 25), and an index that spares
// the reading (warm and nightly at most a third of cold's CPU time; they
// take a ninth to a twelfth). CPU times, measured side by side, judged as ratios:
// the wall time of a process stretches with the machine's other load.
func TestTrendOverAYearOfNights(t *testing.T) {
	testenv.Heavy(t, "writes 365 nights and runs batch trend over them three times")
	needsBinary(t)
	dir := t.TempDir()
	if r := batchMain(t, dir, "-range", "0:500", "-runs", "1", "-out", "seed"); r.code != 0 {
		t.Fatalf("seed sweep: exit %d\n%s", r.code, r.stderr)
	}
	seed := filepath.Join(dir, "seed")
	runJSON, err := os.ReadFile(filepath.Join(seed, rundir.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	sumJSON, err := os.ReadFile(filepath.Join(seed, rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(runJSON, &m); err != nil {
		t.Fatal(err)
	}
	oldID := m["run_id"].(string)
	first := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC)
	writeNight := func(root string, i int) {
		start := first.AddDate(0, 0, i)
		id := start.Format("20060102-150405")
		night := filepath.Join(root, id)
		if err := os.MkdirAll(night, 0o755); err != nil {
			t.Fatal(err)
		}
		m["run_id"], m["start"], m["end"] = id, start, start.Add(time.Hour)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(night, rundir.ManifestFile), string(b))
		writeFile(t, filepath.Join(night, rundir.SummaryJSON), strings.ReplaceAll(string(sumJSON), `"run_id": "`+oldID+`"`, `"run_id": "`+id+`"`))
	}
	root, fifth := filepath.Join(dir, "results"), filepath.Join(dir, "fifth")
	for i := range 365 {
		writeNight(root, i)
		if i < 73 {
			writeNight(fifth, i)
		}
	}
	trend := func(what, root string) time.Duration {
		t.Helper()
		start := time.Now()
		r := batch(t, dir, "trend", "-root", root)
		wall := time.Since(start)
		if r.code != 0 || !strings.Contains(r.stdout, "1 series, 0 runs skipped") {
			t.Fatalf("trend (%s): exit %d, want one series, nothing skipped:\n%s%s", what, r.code, r.stdout, r.stderr)
		}
		peak := peakMB(t, r.stderr)
		t.Logf("batch trend over %s: %v wall, %v CPU, peak memory %d MB", what, wall.Round(time.Millisecond), r.cpu.Round(time.Millisecond), peak)
		if peak >= 100 {
			t.Errorf("trend (%s): peak memory %d MB; the goal is under 100 MB", what, peak)
		}
		return r.cpu
	}
	cold73 := trend("73 nights, cold: no index, 73 runs read", fifth)
	cold := trend("a year of nights, cold: no index, 365 runs read", root)
	if limit := time.Duration(1.5 * 5 * float64(cold73)); cold > limit {
		t.Errorf("cold: %v of CPU for 365 nights, over 1.5 x 5 x the %v for 73 (%v): the read grows faster than the nights", cold, cold73, limit)
	}
	fi, err := os.Stat(filepath.Join(root, history.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes for 365 nights (summary.json: %d bytes each)", history.IndexFile, fi.Size(), len(sumJSON))
	warm := trend("a year of nights, warm: the index only", root)
	writeNight(root, 365)
	nightly := trend("a year of nights, nightly: the index and one new night", root)
	for _, c := range []struct {
		what string
		cpu  time.Duration
	}{{"warm", warm}, {"nightly", nightly}} {
		if c.cpu > cold/3 {
			t.Errorf("%s: %v of CPU, over a third of the cold read's %v: the index does not spare reading the nights", c.what, c.cpu, cold)
		}
	}
}
