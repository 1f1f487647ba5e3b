package main

import (
	"strings"
	"testing"
)

// TestReportHeadlineAndFull: the sweep and batch report print the
// headline (at most 12 rows, no p90), and batch report -full the whole
// table.
func TestReportHeadlineAndFull(t *testing.T) {
	dir := t.TempDir()
	r := batchMain(t, dir, "-solvers", "norvig,bitboard", "-range", "0:40", "-out", "run")
	if r.code != 0 {
		t.Fatalf("sweep: exit %d\n%s", r.code, r.stderr)
	}
	for name, out := range map[string]string{"the sweep": r.stdout, "batch report": batchMain(t, dir, "report", "run").stdout} {
		if strings.Contains(out, "time p90") || !strings.Contains(out, "hardest (calls)") || !strings.Contains(out, "is in summary.md") {
			t.Errorf("%s printed no headline, or the full table:\n%s", name, out)
		}
	}
	full := batchMain(t, dir, "report", "-full", "run")
	if full.code != 0 || !strings.Contains(full.stdout, "time p90") || !strings.Contains(full.stdout, "calls mean") {
		t.Errorf("batch report -full: exit %d, no full table:\n%s%s", full.code, full.stdout, full.stderr)
	}
}
