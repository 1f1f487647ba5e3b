package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportOnRunningRunSaysSo: batch report on a run still being
// written (run.json says running, its corpus not read to its end, no
// duration yet) says the run is running, for how long, what it counted
// so far and the corpus size run.json has, instead of "0 puzzles" and
// "0ns of wall time".
func TestReportOnRunningRunSaysSo(t *testing.T) {
	dir := t.TempDir()
	puzzles := "000000010400000000020000000000050407008000300001090000300400200050100000000806000\n" +
		"000002910320080000000000000019000500000300000000070000704600003000001000600000000\n"
	corpus := filepath.Join(dir, "two.txt")
	if err := os.WriteFile(corpus, []byte(puzzles), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if r := batchMain(t, dir, "-solvers", "norvig", "-quiet", "-out", run, "two.txt"); r.code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The run as a reader sees it while the sweep is writing it.
	editManifest(t, run, func(m map[string]any) {
		m["status"], m["duration_ns"], m["duration"], m["end"] = "running", 0, "", nil
		m["start"] = time.Now().Add(-3 * time.Second).UTC().Format(time.RFC3339Nano)
		for _, c := range m["corpora"].([]any) {
			c := c.(map[string]any)
			c["complete"], c["lines"], c["puzzles"], c["invalid"], c["skipped"] = false, 0, 0, 0, 0
		}
		for _, s := range m["segments"].([]any) {
			s := s.(map[string]any)
			s["status"], s["duration_ns"], s["end"] = "running", 0, nil
		}
	})

	r := batchMain(t, dir, "report", run)
	stdout := r.stdout
	if r.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"two.txt: 2 puzzles, 1 strategy, 2 rows written so far (the run is still running)\n",
		"run run is running (started 3.",
		"corpus two.txt: 164 B, not read to its end yet",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report's output lacks %q:\n%s", want, stdout)
		}
	}
	md, err := os.ReadFile(filepath.Join(run, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"0ns of wall time", "0 puzzles"} {
		if strings.Contains(string(md), bad) {
			t.Errorf("summary.md says %q:\n%s", bad, md)
		}
	}
	if !strings.Contains(string(md), "**running** (started 3.") {
		t.Errorf("summary.md does not say the run is running:\n%s", md)
	}
	page, err := os.ReadFile(filepath.Join(run, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "<b>run run is running (started 3.") || strings.Contains(string(page), ": 0 puzzle lines") {
		t.Errorf("the page does not say the run is running, or says 0 puzzle lines")
	}
}
