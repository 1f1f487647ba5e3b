package main

import (
	"os"
	"path/filepath"
	"regexp"
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
		if strings.Contains(out, "time p90") || !strings.Contains(out, "hardest (calls)") || !strings.Contains(out, "summary.md, the page") {
			t.Errorf("%s printed no headline, or the full table:\n%s", name, out)
		}
	}
	full := batchMain(t, dir, "report", "-full", "run")
	if full.code != 0 || !strings.Contains(full.stdout, "time p90") || !strings.Contains(full.stdout, "calls mean") {
		t.Errorf("batch report -full: exit %d, no full table:\n%s%s", full.code, full.stdout, full.stderr)
	}
}

// TestPageLinksTheRunsFiles: the page links the rows (gzipped after the
// report), run.json and the summaries, each a file of the run, and shows
// the command line.
func TestPageLinksTheRunsFiles(t *testing.T) {
	dir := t.TempDir()
	if r := batchMain(t, dir, "-solvers", "norvig", "-range", "0:20", "-out", "run"); r.code != 0 {
		t.Fatalf("sweep: exit %d\n%s", r.code, r.stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "run", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, data, _ := strings.Cut(string(page), `<p class="meta">Data: `)
	data, _, _ = strings.Cut(data, "</p>")
	links := regexp.MustCompile(`href="([^"]+)"`).FindAllStringSubmatch(data, -1)
	if len(links) != 6 || links[0][1] != "results.csv.gz" {
		t.Fatalf("the page's data links: %q", data)
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(dir, "run", l[1])); err != nil {
			t.Errorf("the page links %s, which is not in the run: %v", l[1], err)
		}
	}
	if !strings.Contains(string(page), "Command: <code>batch -solvers norvig -range 0:20 -out run</code>") {
		t.Errorf("the page does not show the command line")
	}
}
