package report

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// headlineRun is a small run of two strategies: norvig solves its three
// puzzles, dlx times out on one.
func headlineRun(t *testing.T) (*Results, *Summary) {
	t.Helper()
	csv := strings.Join([]string{
		strings.Join(rundir.Header[:15], ","),
		`0,1,norvig,solved,1000,1,0,0,64,17,,1,,,c.txt`,
		`1,2,norvig,solved,3000,5,2,0,64,17,,1,,,c.txt`,
		`2,3,norvig,solved,9000,40,9,3,64,17,,1,,,c.txt`,
		`0,1,dlx,solved,2000,3,1,0,64,17,,1,,,c.txt`,
		`1,2,dlx,timeout,100000,900,800,0,64,17,,1,,,c.txt`,
		`2,3,dlx,solved,4000,8,3,0,64,17,,1,,,c.txt`,
	}, "\n") + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	return res, Summarize(res, SummaryOptions{})
}

// TestPageHeadlineFirst: the page opens with the verdict and the
// headline table, a row per strategy whose cells sort by number (data-v),
// the times and the history's change first (a phone shows them without a
// sideways swipe), whose hardest puzzle links to its entry, its calls a
// bound when a limit stopped it, the table's symbols explained under it;
// the history's column, line and link when the history has the run's
// series, and none otherwise.
func TestPageHeadlineFirst(t *testing.T) {
	res, s := headlineRun(t)
	dir := t.TempDir()
	opt := PageOptions{
		Trend: map[string]TrendCell{
			"norvig": {Verdict: "no change", Change: "×1.004 [0.991, 1.017]", Ratio: 1.004, Baseline: "the previous 7 nights"},
			"dlx":    {Verdict: "slower", Change: "×1.31 [1.22, 1.40]", Ratio: 1.31, Alarm: true},
		},
		TrendLine: "Against the previous 7 nights of this series: 1 alarm.",
		History:   "../index.html",
	}
	if err := WritePage(context.Background(), dir, res, s, opt); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	head := page[strings.Index(page, `<table class="sortable headline"`):]
	head = head[:strings.Index(head, "</table>")]
	if i, j := strings.Index(page, `id="headline"`), strings.Index(page, `id="summary"`); i < 0 || j < 0 || i > j {
		t.Errorf("the headline is not before the sections (at %d, the full table at %d)", i, j)
	}
	for _, want := range []string{
		"<th>strategy</th>", ">timeout</th>", ">median time</th>", ">p99 time</th>", ">no guess</th>", ">hardest (calls)</th>", ">vs. history</th>",
		`<td data-v="3000" title="95% confidence interval: `, // norvig's median time, sortable
		`class="st-timeout"`, // dlx's timeout count stands out
		`<td data-v="1.31" class="alarm" title="against">slower<small>×1.31<span class="ci"> [1.22, 1.40]</span></small></td>`,
		`<td data-v="1.004" title="against the previous 7 nights">no change<small>×1.004<span class="ci"> [0.991, 1.017]</span></small></td>`,
	} {
		if !strings.Contains(head, want) {
			t.Errorf("the headline lacks %q:\n%s", want, head)
		}
	}
	if rows := strings.Count(head, "<tr>"); rows != 3 {
		t.Errorf("the headline has %d rows, want a header and one per strategy (3)", rows)
	}
	for _, want := range []string{`<p class="meta" id="history">Against the previous 7 nights of this series: 1 alarm. <a href="../index.html">The history page</a>.</p>`,
		"Alarm against the previous 7 nights: dlx slower (×1.31 [1.22, 1.40]).",
		"Fastest norvig, median 3.00µs, 3 of 3 solved; slowest dlx, median 4.00µs, 2 of 3 solved, 1 stopped by the time limit.",
		`<p class="note symbols">≥: a lower bound, a unit stopped by a limit`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if cols := regexp.MustCompile(`<th[^>]*>([^<]*)</th>`).FindAllStringSubmatch(head, 4); len(cols) < 4 ||
		cols[1][1] != "median time" || cols[2][1] != "p99 time" || cols[3][1] != "vs. history" {
		t.Errorf("the headline's first columns are %q, want strategy, median time, p99 time, vs. history", cols)
	}
	// The hardest puzzle by calls of dlx is #1 (its timeout): a link to
	// its entry, its calls a lower bound.
	m := regexp.MustCompile(`<td data-v="900"[^>]*><a href="puzzles.html#(p-[^"]+)">#1</a><small>≥900 calls</small>`).FindStringSubmatch(head)
	puzzles, _ := os.ReadFile(filepath.Join(dir, PuzzlesPageFile))
	if m == nil || !strings.Contains(string(puzzles), `id="`+m[1]+`"`) {
		t.Errorf("dlx's hardest puzzle is not a link to its entry, its calls ≥ (%v)", m)
	}

	// Without history: no such column, line or link.
	if err := WritePage(context.Background(), dir, res, s, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if p := string(b); strings.Contains(p, "vs. history") || strings.Contains(p, `id="history"`) {
		t.Error("a page without history shows a history column or line")
	}
}

// TestPageChartThumbnails: the charts are thumbnails with their lead,
// each linking to its figure on charts.html, which has the whole caption
// and the SVG link; each image has its size (nothing moves as it loads)
// and, when the chart has one, its small PNG for a small screen.
func TestPageChartThumbnails(t *testing.T) {
	res, s := headlineRun(t)
	dir := t.TempDir()
	long := "Share of each strategy's puzzles finished within a given time (log scale): the further left and the steeper a curve, the faster; a triangle marks the timeouts"
	charts := []Chart{
		{File: "ecdf-time.png", SVG: "ecdf-time.svg", Title: "Time per puzzle (ECDF) — c.txt, run r, 3 puzzles", Caption: long,
			Width: 800, Height: 500, Small: "ecdf-time-small.png", SmallWidth: 500, SmallHeight: 375},
		{File: "box-time.png", Title: "Box — c.txt", Caption: "Box plots of the time. More."},
	}
	if err := WritePage(context.Background(), dir, res, s, PageOptions{Charts: charts}); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	cp, err := os.ReadFile(filepath.Join(dir, ChartsPageFile))
	if err != nil {
		t.Fatalf("no charts page: %v", err)
	}
	for _, want := range []string{
		`<a href="charts.html#chart-ecdf-time"><picture><source media="(max-width: 600px)" srcset="charts/ecdf-time-small.png" width="500" height="375"><img src="charts/ecdf-time.png" alt="Time per puzzle (ECDF) — c.txt, run r, 3 puzzles" width="800" height="500" loading="lazy"></picture></a>`,
		"<b>Time per puzzle (ECDF).</b> Share of each strategy&#39;s puzzles finished within a given time (log scale).</figcaption>",
		`<a href="charts.html#chart-box-time"><picture><img src="charts/box-time.png"`,
		"<b>Box.</b> Box plots of the time.</figcaption>",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "a triangle marks") {
		t.Error("the page carries a chart's whole caption: it belongs on charts.html")
	}
	for _, want := range []string{`<figure id="chart-ecdf-time">`, `<figure id="chart-box-time">`, "a triangle marks the timeouts", `<a href="charts/ecdf-time.svg">SVG</a>`, `href="index.html#charts"`,
		`<source media="(max-width: 600px)" srcset="charts/ecdf-time-small.png" width="500" height="375"><img src="charts/ecdf-time.png" alt="Time per puzzle (ECDF) — c.txt, run r, 3 puzzles" width="800" height="500" loading="lazy">`} {
		if !strings.Contains(string(cp), want) {
			t.Errorf("charts.html lacks %q", want)
		}
	}
	// No charts: no charts page.
	dir = t.TempDir()
	if err := WritePage(context.Background(), dir, res, s, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ChartsPageFile)); err == nil {
		t.Error("charts.html written for a run without charts")
	}
}
