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
// (the index and one new night). The goal of issue 27: under 2 s and
// 100 MB of peak memory.
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
	root := filepath.Join(dir, "results")
	first := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC)
	writeNight := func(i int) {
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
	for i := range 365 {
		writeNight(i)
	}
	trend := func(what string) {
		t.Helper()
		start := time.Now()
		r := batch(t, dir, "trend", "-root", root)
		wall := time.Since(start)
		if r.code != 0 || !strings.Contains(r.stdout, "1 series, 0 runs skipped") {
			t.Fatalf("trend (%s): exit %d, want one series, nothing skipped:\n%s%s", what, r.code, r.stdout, r.stderr)
		}
		peak := peakMB(t, r.stderr)
		t.Logf("batch trend over a year of nights, %s: %v wall, peak memory %d MB", what, wall.Round(time.Millisecond), peak)
		if wall > 2*time.Second || peak >= 100 {
			t.Errorf("trend (%s): %v, %d MB; the goal is under 2 s and 100 MB", what, wall, peak)
		}
	}
	trend("cold: no index, 365 runs read")
	fi, err := os.Stat(filepath.Join(root, history.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes for 365 nights (summary.json: %d bytes each)", history.IndexFile, fi.Size(), len(sumJSON))
	trend("warm: the index only")
	writeNight(365)
	trend("nightly: the index and one new night")
}
