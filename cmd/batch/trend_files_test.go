package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/history"
)

func TestTrendWritesItsFiles(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{"n1", "n2"} {
		if r := batchMain(t, dir, "-solvers", "norvig,bitboard", "-range", "0:50", "-runs", "1", "-quiet", "-out", "results/"+out); r.code != 0 {
			t.Fatalf("sweep %s: exit %d\n%s", out, r.code, r.stderr)
		}
	}
	r := batchMain(t, dir, "trend")
	if r.code != 0 {
		t.Fatalf("trend: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	root := filepath.Join(dir, "results")
	if !strings.Contains(r.stdout, "wrote trend.md, trend.json, index.html and 12 chart files (PNG, SVG and a small PNG each) in results") {
		t.Errorf("trend does not say it wrote its files:\n%s", r.stdout)
	}
	var f history.TrendFile
	b, err := os.ReadFile(filepath.Join(root, history.TrendJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Series) != 1 || len(f.Series[0].Nights) != 2 || len(f.Series[0].Charts) != 4 {
		t.Fatalf("trend.json: %d series, want 1 of 2 nights and 4 charts", len(f.Series))
	}
	for _, c := range f.Series[0].Charts {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(c.PNG))); err != nil {
			t.Errorf("chart %s: %v", c.PNG, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(root, history.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<a href="./n1/index.html">n1</a>`, `<a href="./n2/index.html">n2</a>`, `<img src="./trend/` + f.Series[0].ID + `-median.png"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}
