package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputSaysOneInTheSingular: a sweep of one puzzle by one strategy
// with one worker says "1 worker", "1 unit", "1 row", "1 chart" and,
// stopped by a call limit, "1 unit stopped ... its row says", and the
// page's highlighted puzzle 1 call, "1st of 1", not "1 workers" or "1 units".
func TestOutputSaysOneInTheSingular(t *testing.T) {
	dir := t.TempDir()
	hard := "000000000000003085001020000000507000004000100090000000500000073002010000000040009\n"
	if err := os.WriteFile(filepath.Join(dir, "one.txt"), []byte(hard), 0o644); err != nil {
		t.Fatal(err)
	}
	r := batchMain(t, dir, "-solvers", "backtrack", "-workers", "1", "-max-calls", "1",
		"-quiet", "-highlight", "0", "-out", filepath.Join(dir, "run"), "one.txt")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	out := r.stdout + r.stderr
	for _, want := range []string{"with 1 worker: 1 unit this run", "(1 row in results.csv)",
		"note: 1 unit stopped at -max-calls 1 (backtrack 1); its row says limit."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"1 workers", "1 units", "1 rows", "1 calls", "1 charts"} {
		if strings.Contains(out, bad) {
			t.Errorf("output says %q:\n%s", bad, out)
		}
	}
	summary, err := os.ReadFile(filepath.Join(dir, "run", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"1 calls", "1 puzzles", "1 units"} {
		if strings.Contains(string(summary), bad) {
			t.Errorf("summary.md says %q", bad)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "run", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<td data-v="1">≥1</td><td data-v="1">1st of 1</td>`) || strings.Contains(string(page), "1 calls") || strings.Contains(string(page), "call calls") {
		t.Errorf("the page's highlighted puzzle does not say 1 call, 1st of 1")
	}
}
