package chart

import (
	"context"
	"strings"
	"testing"

	"sudokubatch/report"
)

// TestStrategyColorOnEveryChart: a strategy is drawn in its one color
// (StrategyColor) on the run's histograms, ECDF and box plot, on a
// comparison's charts and on its strips, whatever its place among the
// run's strategies (the history's charts: history's
// TestStrategyColorEverywhere).
func TestStrategyColorOnEveryChart(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	has := func(f *Figure, name string) bool {
		t.Helper()
		b, err := f.Render("svg")
		if err != nil {
			t.Fatal(err)
		}
		c := HexColor(StrategyColor(name))
		svg := strings.ToLower(string(b))
		return strings.Contains(svg, "fill:"+c) || strings.Contains(svg, "stroke:"+c)
	}
	for _, order := range [][]string{{"bitboard", "dlx", "norvig"}, {"norvig", "dlx", "bitboard"}} {
		res := testResults(map[string][]testEntry{"bitboard": spread(30, 2_000), "dlx": spread(30, 9_000), "norvig": spread(30, 8_000)}, order...)
		cs, err := newChartSet(context.Background(), res, Options{Baseline: "bitboard"})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range cs.jobs() {
			f, err := j.build()
			if err != nil {
				t.Fatal(err)
			}
			names := order
			if j.chart.Solver != "" {
				names = []string{j.chart.Solver}
			}
			for _, name := range names {
				if !has(f, name) {
					t.Errorf("order %v: %s has no %s in %s's color %s", order, j.chart.File, name, name, HexColor(StrategyColor(name)))
				}
			}
		}
	}
	oldRun, newRun := compareRuns(40, 1.3)
	c, err := report.Compare(context.Background(), oldRun, newRun, report.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := c.Pairs(context.Background(), oldRun, newRun, "s")
	if err != nil {
		t.Fatal(err)
	}
	set := newCompareSet(c, c.Strategies[0], 0, "new against old", pairs, oldRun.Results, movedTop)
	for _, build := range []func() (*Figure, error){set.scatterPlot, set.ratiosPlot} {
		f, err := build()
		if err != nil {
			t.Fatal(err)
		}
		if !has(f, "s") {
			t.Errorf("comparison %s: not in the strategy's color", f.Plot.Title.Text)
		}
	}
	v := testVariants()
	for i := range v.Analyses {
		f, err := newStrip(&v.Analyses[i], v.Settings, measureCalls).plot()
		if err != nil {
			t.Fatal(err)
		}
		if !has(f, v.Analyses[i].Solver) {
			t.Errorf("strip of %s: not in its color", v.Analyses[i].Solver)
		}
	}
}
