package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// checkComparePage checks the comparison page in dir: its verdict table
// names every strategy of small, and each strategy has its two charts,
// non-empty PNG files that the page shows.
func checkComparePage(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatalf("no comparison page: %v", err)
	}
	page := string(b)
	verdicts := regexp.MustCompile(`(?s)<table id="verdicts">.*?</table>`).FindString(page)
	for _, s := range []string{"dlx", "bitboard"} {
		if !strings.Contains(verdicts, `<a href="#s-`+s+`">`+s+`</a>`) {
			t.Errorf("the verdict table lacks %s:\n%s", s, verdicts)
		}
		for _, f := range []string{"scatter-" + s + ".png", "ratios-" + s + ".png"} {
			png, err := os.ReadFile(filepath.Join(dir, rundir.ChartsDir, f))
			if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 1000 {
				t.Errorf("chart %s: %d bytes, %v", f, len(png), err)
			}
			if !strings.Contains(page, `src="charts/`+f+`"`) {
				t.Errorf("the page does not show %s", f)
			}
		}
	}
	if !strings.Contains(page, "no change") && !strings.Contains(page, "slower") && !strings.Contains(page, "faster") {
		t.Errorf("the page has no verdict")
	}
	return page
}

// TestComparePage: batch compare writes its page beside NEW
// (NEW/compare-<OLD's run id>), or into -o DIR, names it on its last
// line (on stderr with -json, whose stdout stays the JSON alone), and
// writes none with -page=false.
func TestComparePage(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	sweepInto(t, root, a)
	sweepInto(t, root, b)

	r := batchMain(t, root, "compare", a, b)
	mustOK(t, r)
	beside := filepath.Join(b, "compare-a")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if want := "compare: page " + filepath.Join(beside, rundir.PageFile) + " (4 charts)"; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	page := checkComparePage(t, beside)
	// The terminal's verdict table is on the page, as printed.
	var c report.Comparison
	rj := batchMain(t, root, "compare", "-json", "-page=false", a, b)
	mustOK(t, rj)
	if err := json.Unmarshal([]byte(rj.stdout), &c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "<td>"+c.Strategies[0].Solver+"</td>") && !strings.Contains(page, ">"+c.Strategies[0].Solver+"</a></td>") {
		t.Errorf("no row of %s", c.Strategies[0].Solver)
	}
	if !strings.Contains(page, `<a href="../index.html">its page</a>`) {
		t.Errorf("the page does not link NEW's page")
	}

	out := filepath.Join(tmp, "cmp")
	rj = batchMain(t, root, "compare", "-json", "-o", out, a, b)
	mustOK(t, rj)
	if err := json.Unmarshal([]byte(rj.stdout), &c); err != nil {
		t.Errorf("-json with a page: stdout is not the JSON alone: %v\n%s", err, rj.stdout)
	}
	if !strings.Contains(rj.stderr, "compare: page "+filepath.Join(out, rundir.PageFile)) {
		t.Errorf("-json: stderr does not name the page:\n%s", rj.stderr)
	}
	checkComparePage(t, out)

	// Rows files for arguments (results.csv, gzipped by the sweep): the
	// page goes into NEW's run directory all the same.
	if err := os.RemoveAll(beside); err != nil {
		t.Fatal(err)
	}
	mustOK(t, batchMain(t, root, "compare", filepath.Join(a, rundir.ResultsFile), filepath.Join(b, rundir.ResultsFile)))
	checkComparePage(t, beside)

	// A page that cannot be written: a warning, exit 0 (exit 1 is
	// -threshold's).
	blocked := filepath.Join(tmp, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r = batchMain(t, root, "compare", "-o", filepath.Join(blocked, "cmp"), a, b)
	if r.code != 0 || !strings.Contains(r.stderr, "batch: warning: ") || strings.Contains(r.stdout, "compare: page") {
		t.Errorf("a page that cannot be written: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	none := filepath.Join(tmp, "none")
	mustOK(t, batchMain(t, root, "compare", "-page=false", "-o", none, a, b))
	if exists(none) {
		t.Errorf("-page=false wrote %s", none)
	}
}

// TestPreviousNightCompared: the second night of a series in a results
// root links its comparison with the first from its page and terminal,
// and writes no history.json (batch trend's), and where trend keeps one
// it finds the nights there; the first night, alone in its root, no
// comparison; a previous night whose rows are gone is a note, not a
// failed report.
func TestPreviousNightCompared(t *testing.T) {
	root := repoRoot(t)
	results := filepath.Join(t.TempDir(), "results")
	n1, n2 := filepath.Join(results, "n1"), filepath.Join(results, "n2")
	sweepInto(t, root, n1)
	if exists(filepath.Join(results, history.IndexFile)) || exists(filepath.Join(n1, rundir.ComparePreviousDir)) {
		t.Fatalf("a run alone in its root: a history index or a comparison was written")
	}
	r := batchMain(t, root, append(append([]string{}, small...), "-out", n2)...)
	mustOK(t, r)
	if !strings.Contains(r.stdout, "previous night: against n1: ") || !strings.Contains(r.stdout, filepath.Join(n2, rundir.ComparePreviousDir, rundir.PageFile)) {
		t.Errorf("the sweep does not name the comparison with the previous night:\n%s", r.stdout)
	}
	checkComparePage(t, filepath.Join(n2, rundir.ComparePreviousDir))
	if exists(filepath.Join(results, history.IndexFile)) {
		t.Errorf("a root without a history: the comparison wrote %s (batch trend's)", history.IndexFile)
	}
	b, err := os.ReadFile(filepath.Join(n2, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`<p class="meta" id="previous">Previous night: <a href="compare-previous/index.html">against n1: [^<]+</a></p>`)
	if !link.Match(b) {
		t.Errorf("n2's page does not link the comparison:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(n1, rundir.PageFile)); bytes.Contains(b, []byte(`id="previous"`)) {
		t.Errorf("the first night links a previous one")
	}
	// The comparison links both nights' pages.
	cp, _ := os.ReadFile(filepath.Join(n2, rundir.ComparePreviousDir, rundir.PageFile))
	for _, href := range []string{`href="../index.html"`, `href="../../n1/index.html"`} {
		if !bytes.Contains(cp, []byte(href)) {
			t.Errorf("the comparison page lacks %s", href)
		}
	}

	// Where batch trend keeps a history.json, the nights come from its
	// index: the same comparison.
	if r := trendOver(t, results); r.code > 1 {
		t.Fatalf("trend: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.RemoveAll(filepath.Join(n2, rundir.ComparePreviousDir)); err != nil {
		t.Fatal(err)
	}
	if r := batchMain(t, root, "report", n2); r.code != 0 || !strings.Contains(r.stdout, "previous night: against n1: ") {
		t.Fatalf("report with the history's index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkComparePage(t, filepath.Join(n2, rundir.ComparePreviousDir))

	// batch report of the second night with the first night's rows
	// gone: a note, exit 0, no link, the earlier comparison removed.
	if err := os.Remove(filepath.Join(n1, rundir.ResultsGzip)); err != nil {
		t.Fatal(err)
	}
	r = batchMain(t, root, "report", n2)
	mustOK(t, r)
	if !strings.Contains(r.stderr, "not compared with the previous night n1") {
		t.Errorf("no note of the missing rows:\n%s", r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(n2, rundir.PageFile)); bytes.Contains(b, []byte(`id="previous"`)) || exists(filepath.Join(n2, rundir.ComparePreviousDir)) {
		t.Errorf("a comparison with a night whose rows are gone is linked")
	}
}
