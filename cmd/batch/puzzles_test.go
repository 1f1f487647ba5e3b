package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/data"
	"sudokubatch/history"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// pageOf returns the index.html of the run in dir.
func pageOf(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// highlightsOf returns the ids highlighted in the summary.json of the
// run in dir.
func highlightsOf(t *testing.T, dir string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Highlights []struct {
			ID int `json:"id"`
		} `json:"highlights"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, h := range s.Highlights {
		ids = append(ids, h.ID)
	}
	return ids
}

// classicOnPage reports whether the page highlights #39949 as the
// corpus's classic example, with its entry.
func classicOnPage(page string) bool {
	return strings.Contains(page, `<h2 id="highlight">`) && strings.Contains(page, "The corpus's classic example") &&
		strings.Contains(page, `<a href="#p-39949">#39949</a>`) && strings.Contains(page, `<section class="puzzle" id="p-39949">`)
}

// TestClassicExampleHighlightedByDefault: a sweep of the default corpus
// (ids are 0-based: #39949 is line 39950) highlights #39949 with no
// -highlight, and says where it ranks per strategy; batch report
// -highlight none drops it, batch report alone brings it back (run.json
// records no choice).
func TestClassicExampleHighlightedByDefault(t *testing.T) {
	dir := t.TempDir()
	mustOK(t, batchMain(t, dir, "-range", "39948:39951", "-solvers", "bitboard,dlx", "-quiet", "-out", "run"))
	page := pageOf(t, "run")
	if !classicOnPage(page) {
		t.Fatal("the sweep of the default corpus does not highlight #39949")
	}
	if got := highlightsOf(t, "run"); len(got) != 1 || got[0] != publish.ClassicID {
		t.Errorf("summary.json highlights %v, want [39949]", got)
	}
	if !strings.Contains(page, `<td class="text">bitboard</td>`) || !regexp.MustCompile(`<td data-v="\d">\d(st|nd|rd) of 3(, tied with [^<]*)?</td>`).MatchString(page) {
		t.Error("the highlight section does not rank #39949 among the 3 puzzles")
	}
	if !strings.Contains(page, `<small class="meta">line 39950</small>`) {
		t.Error("#39949 is not on line 39950")
	}
	m, err := rundir.ReadManifest("run")
	if err != nil {
		t.Fatal(err)
	}
	if m.Highlight != nil || m.NoHighlight {
		t.Errorf("run.json records a highlight (%v, none %t) that was not asked for", m.Highlight, m.NoHighlight)
	}

	mustOK(t, batchMain(t, dir, "report", "-highlight", "none", "run"))
	if page := pageOf(t, "run"); strings.Contains(page, `<h2 id="highlight">`) || len(highlightsOf(t, "run")) != 0 {
		t.Error("batch report -highlight none still highlights")
	}
	mustOK(t, batchMain(t, dir, "report", "run"))
	if !classicOnPage(pageOf(t, "run")) {
		t.Error("batch report without -highlight does not highlight #39949 again")
	}
}

// TestHighlightNoneRecorded: a sweep with -highlight none records it in
// run.json, and batch report without -highlight keeps it: nothing
// highlighted; -highlight IDS on batch report wins over it; a bad id is
// a usage error.
func TestHighlightNoneRecorded(t *testing.T) {
	dir := t.TempDir()
	mustOK(t, batchMain(t, dir, "-range", "39949:39951", "-solvers", "bitboard", "-quiet", "-highlight", "none", "-report=false", "-out", "none"))
	if m, err := rundir.ReadManifest("none"); err != nil || !m.NoHighlight {
		t.Fatalf("run.json of -highlight none: %v, %v", m, err)
	}
	mustOK(t, batchMain(t, dir, "report", "none"))
	if page := pageOf(t, "none"); strings.Contains(page, `<h2 id="highlight">`) {
		t.Error("the report of a -highlight none sweep highlights")
	}
	mustOK(t, batchMain(t, dir, "report", "-highlight", "39950", "none"))
	if page := pageOf(t, "none"); classicOnPage(page) || !strings.Contains(page, `<a href="#p-39950">#39950</a>`) {
		t.Error("batch report -highlight 39950 does not highlight #39950 alone")
	}
	if r := batchMain(t, dir, "report", "-highlight", "nine", "none"); r.code != exitUsage || !strings.Contains(r.stderr, `bad puzzle id "nine"`) {
		t.Errorf("-highlight nine: exit %d, %s", r.code, r.stderr)
	}
}

// TestClassicExampleByChecksum: the default corpus under another name
// (same SHA-256) has #39949 highlighted; another corpus, and a slice of
// the default one without #39949, have nothing highlighted and no note
// of a missing puzzle.
func TestClassicExampleByChecksum(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "copy.txt"), []byte(data.Sudoku17), 0o644); err != nil {
		t.Fatal(err)
	}
	other := "9" + data.Sudoku17[1:] // another first puzzle: another corpus
	if err := os.WriteFile(filepath.Join(dir, "other.txt"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, corpus, rng string
		want              bool
	}{
		{"copy", "copy.txt", "39949:39950", true},
		{"other", "other.txt", "39949:39950", false},
		{"slice", "copy.txt", "0:2", false},
	} {
		mustOK(t, batchMain(t, dir, "-range", c.rng, "-solvers", "bitboard", "-quiet", "-report=false", "-out", c.name, c.corpus))
		mustOK(t, batchMain(t, dir, "report", c.name))
		page := pageOf(t, c.name)
		if classicOnPage(page) != c.want {
			t.Errorf("%s: #39949 highlighted %t, want %t", c.name, classicOnPage(page), c.want)
		}
		if !c.want && (strings.Contains(page, `<h2 id="highlight">`) || strings.Contains(page, "not in this run")) {
			t.Errorf("%s: a highlight section", c.name)
		}
	}
}

// TestPageShowCommandReproduces: every puzzle link of a sweep's pages
// has its entry and no puzzle id is left as text; each entry prints the
// batch show command, and that command runs the puzzle and ranks it in
// the run.
func TestPageShowCommandReproduces(t *testing.T) {
	dir := t.TempDir()
	mustOK(t, batchMain(t, dir, "-range", "39948:39951", "-solvers", "bitboard,dlx", "-quiet", "-out", "run"))
	page := pageOf(t, "run")
	m := regexp.MustCompile(`(?s)<section class="puzzle" id="p-39949">.*?Run it again: <code>([^<]*)</code>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("#39949's entry has no command")
	}
	checkPuzzleLinks(t, "run")
	cmd := html.UnescapeString(m[1])
	if want := "batch show 39949 -run run -solvers bitboard,dlx -timeout 100ms"; cmd != want {
		t.Fatalf("command %q, want %q", cmd, want)
	}
	r := batchMain(t, dir, strings.Fields(cmd)[1:]...)
	mustOK(t, r)
	if !strings.Contains(r.stdout, "ranks in run run") {
		t.Errorf("batch show does not rank the puzzle in the run:\n%s", r.stdout)
	}
}

// TestPuzzleHistoryOnThePage: a run whose results root has an earlier
// night of its series in results/history.json shows, per named puzzle,
// its time that night beside this run's, the night linking its page.
func TestPuzzleHistoryOnThePage(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-range", "39948:39951", "-solvers", "bitboard", "-workers", "1", "-quiet"}
	mustOK(t, batchMain(t, dir, append(args, "-out", "results/a")...))
	mustOK(t, batchMain(t, dir, append(args, "-out", "results/b")...))
	if strings.Contains(pageOf(t, "results/b"), `class="history"`) {
		t.Fatal("a history without results/history.json")
	}
	if _, _, err := history.Update("results"); err != nil {
		t.Fatal(err)
	}
	mustOK(t, batchMain(t, dir, "report", "results/b"))
	page := pageOf(t, "results/b")
	entry := regexp.MustCompile(`(?s)<section class="puzzle" id="p-39949">.*?</section>`).FindString(page)
	if !strings.Contains(entry, `<table class="history">`) || !regexp.MustCompile(`<td class="text">bitboard</td><td title="\d+ calls?">[0-9.]+[nµm]?s</td><td title="\d+ calls?">`).MatchString(entry) {
		t.Errorf("#39949's entry has no time of the earlier night:\n%s", entry)
	}
	if !strings.Contains(page, `<a href="../a/index.html">`) {
		t.Error("the earlier night does not link its page")
	}
}

// checkPuzzleLinks checks the puzzle links of the run's pages in dir:
// every link #p-… of its index.html has its target there (a highlighted
// puzzle's entry), every link puzzles.html#p-… its entry on the puzzles
// page, every entry of the puzzles page is linked from index.html, and
// no puzzle id is left as text on either page.
func checkPuzzleLinks(t *testing.T, dir string) {
	t.Helper()
	index := pageOf(t, dir)
	b, err := os.ReadFile(filepath.Join(dir, report.PuzzlesPageFile))
	if err != nil {
		t.Fatal(err)
	}
	puzzles := string(b)
	idsOf := func(page string) map[string]bool {
		ids := map[string]bool{}
		for _, m := range regexp.MustCompile(`\sid="([^"]+)"`).FindAllStringSubmatch(page, -1) {
			ids[m[1]] = true
		}
		return ids
	}
	here, there := idsOf(index), idsOf(puzzles)
	for _, m := range regexp.MustCompile(`href="#(p-[^"]*)"`).FindAllStringSubmatch(index, -1) {
		if !here[m[1]] {
			t.Errorf("link #%s has no target", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`href="puzzles.html#(p-[^"]*)"`).FindAllStringSubmatch(index, -1) {
		if !there[m[1]] {
			t.Errorf("link puzzles.html#%s has no target", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`<section class="puzzle" id="([^"]+)"`).FindAllStringSubmatch(puzzles, -1) {
		if !strings.Contains(index, `href="puzzles.html#`+m[1]+`"`) && !strings.Contains(index, `href="#`+m[1]+`"`) {
			t.Errorf("entry %s is linked from nowhere on the run's page", m[1])
		}
	}
	for _, page := range []string{index, puzzles} {
		text := page
		for _, re := range []string{`(?s)<a href="(puzzles.html)?#p-[^"]*">.*?</a>`, `(?s)<style>.*?</style>`, `(?s)<script>.*?</script>`,
			`(?s)<code>.*?</code>`, `<[^>]*>`, `&#\d+;`} {
			text = regexp.MustCompile(re).ReplaceAllString(text, " ")
		}
		if bad := regexp.MustCompile(`#\d+`).FindAllString(text, -1); len(bad) > 0 {
			t.Errorf("puzzle ids as text, not links: %q", bad)
		}
	}
}

// TestMergeKeepsTheHighlight: shards swept with -highlight none merge
// into a run that records it, so that its report highlights nothing,
// not the default #39949.
func TestMergeKeepsTheHighlight(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"0", "1"} {
		mustOK(t, batchMain(t, dir, "-range", "39948:39951", "-shard", k+"/2", "-solvers", "bitboard", "-quiet",
			"-highlight", "none", "-report=false", "-out", "s"+k))
	}
	mustOK(t, batchMain(t, dir, "merge", "-o", "merged", "s0", "s1"))
	if m, err := rundir.ReadManifest("merged"); err != nil || !m.NoHighlight {
		t.Fatalf("the merged run.json: %v, %v; want no_highlight", m, err)
	}
	mustOK(t, batchMain(t, dir, "report", "merged"))
	if strings.Contains(pageOf(t, "merged"), `<h2 id="highlight">`) {
		t.Error("the merged run of -highlight none shards highlights")
	}
}
