package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

func TestPageEscapesInputAndLinksPuzzles(t *testing.T) {
	// A corpus name and an error message with markup, as a hostile input file would have.
	csv := strings.Join([]string{
		strings.Join(rundir.Header[:15], ","),
		`0,1,norvig,solved,1000,1,0,0,64,17,,1,,,"<script>alert(1)</script>.txt"`,
		`1,2,norvig,invalid,0,0,0,0,0,0,,1,,"x.txt:2: bad symbol ""<b>""","<script>alert(1)</script>.txt"`,
		`2,3,norvig,solved,5000,9,8,3,64,17,,1,,,"<script>alert(1)</script>.txt"`,
	}, "\n") + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{Highlight: []int{2}})
	charts := []Chart{{File: "ecdf-time.png", Title: `time <"ECDF">`, Caption: "a & b", Kind: "ecdf-time"}}
	index, puzzles := renderPages(t, res, s, PageOptions{Charts: charts})
	page := index + puzzles
	if strings.Contains(page, "<script>alert") || strings.Contains(page, `<"ECDF">`) {
		t.Fatal("input text reached the page unescaped")
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;.txt", `src="charts/ecdf-time.png"`, "a &amp; b", "Highlighted puzzles"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every link to a puzzle has its entry in the puzzle section.
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<section class="puzzle" id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]] = true
	}
	links := regexp.MustCompile(`href="(?:puzzles.html)?#(p-[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(links) == 0 {
		t.Fatal("no puzzle links")
	}
	for _, m := range links {
		if !ids[m[1]] {
			t.Errorf("link #%s has no row", m[1])
		}
	}
}

// renderPages renders the run's page of s and its puzzles page.
func renderPages(t *testing.T, res *Results, s *Summary, opt PageOptions) (index, puzzles string) {
	t.Helper()
	var b, pb bytes.Buffer
	p, err := renderPage(context.Background(), &b, res, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := renderPuzzlesPage(&pb, p); err != nil {
		t.Fatal(err)
	}
	return b.String(), pb.String()
}

func TestWritePageWithGrids(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c.txt")
	os.WriteFile(corpus, []byte("000000010400000000020000000000050407008000300001090000300400200050100000000806000\n"), 0o644)
	csv := strings.Join(rundir.Header[:15], ",") + "\n0,1,dlx,solved,1000,65,64,0,64,17,,1,,," + corpus + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{})
	if err := WritePage(context.Background(), dir, res, s, PageOptions{Corpora: []string{corpus}}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, PuzzlesPageFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "<tbody><tr><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td>1</td><td></td></tr><tr><td>4</td>") {
		t.Errorf("the puzzle's grid is not on the page:\n%s", page)
	}
}

// TestPageShowsSummaryNews: the spreads, the noise figure, the ranking by
// time with its unconfirmed times marked, highlighted ids not in the run
// and -unique's finds.
func TestPageShowsSummaryNews(t *testing.T) {
	res := timedRun(true)
	p, _ := res.puzzleAt(0, 4)
	res.setSolutions(p, 2)
	s := Summarize(res, SummaryOptions{Top: 3, Highlight: []int{3, 99}})
	var b bytes.Buffer
	if _, err := renderPage(context.Background(), &b, res, s, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<td>time median</td><td>14.0µs<br><small class="spread" title="95% confidence interval: 9.00µs – 20.0µs">±43%</small></td>`,
		`<td>time trimmed mean</td>`,
		`<h2 id="timing">Timing</h2>`,
		`<tr><td>time retimed slow</td><td>1</td><td>0</td><td>1</td></tr>`,
		`<b>Unstable units:</b> x 1 (<a href="#p-3">#3</a>); y 2 (<a href="puzzles.html#p-7">#7</a>, <a href="puzzles.html#p-12">#12</a>).`,
		`<p class="note symbols">1 of 3 listed times unconfirmed (†): measured once, the re-timing&#39;s allowance was spent. †: a time measured once, in the sweep, that the re-timing did not reach.</p>`,
		`<td>9.00ms†</td>`,
		`<b>Highlighted but not in this run: #99.</b>`,
		`<b>Solutions counted (-unique) for 1 puzzle: 1 has two or more solutions (<a href="puzzles.html#p-4">#4</a>).</b>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	b.Reset()
	res = timedRun(false)
	if _, err := renderPage(context.Background(), &b, res, Summarize(res, SummaryOptions{}), PageOptions{}); err != nil {
		t.Fatal(err)
	}
	page = b.String()
	if strings.Contains(page, `id="timing"`) || !strings.Contains(page, "Times are unconfirmed") ||
		!strings.Contains(page, "times unconfirmed (each measured once)") {
		t.Errorf("page of a run without timing columns does not say its times are unconfirmed")
	}
}
