package chart

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// compareRuns returns two runs of strategy "s" over n puzzles: NEW takes
// each puzzle's OLD time times slow; puzzle 3 takes 0 ns in OLD, puzzle 5
// 0 ns in NEW and puzzle 6 0 ns in both; puzzle 7 timed out in NEW.
func compareRuns(n int, slow float64) (*report.Run, *report.Run) {
	old := spread(n, 20_000)
	nw := make([]testEntry, n)
	for i, e := range old {
		nw[i] = e
		nw[i].ns = int64(float64(e.ns) * slow)
	}
	old[3].ns, nw[5].ns, old[6].ns, nw[6].ns = 0, 0, 0, 0
	nw[7].status, nw[7].ns = solvers.StatusTimeout, 100_000_000
	return &report.Run{Path: "old", Results: testResults(map[string][]testEntry{"s": old}, "s")},
		&report.Run{Path: "new", Results: testResults(map[string][]testEntry{"s": nw}, "s")}
}

// TestCompareChartsClampZeroTimes: a time of 0 ns is drawn at 1 ns on
// both axes of the scatter (a log axis has no zero), its ratio taken as
// report.Compare takes it, the caption says how many; both charts are
// written as PNG and SVG.
func TestCompareChartsClampZeroTimes(t *testing.T) {
	ctx := context.Background()
	oldRun, newRun := compareRuns(60, 2)
	c, err := report.Compare(ctx, oldRun, newRun, report.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := c.Pairs(ctx, oldRun, newRun, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 60 {
		t.Fatalf("%d pairs, want 60", len(pairs))
	}
	cs := newCompareSet(c, c.Strategies[0], 0, "test", pairs, oldRun.Results, 0)
	for i, pt := range cs.pts {
		for _, v := range []float64{pt.x, pt.y} {
			if !(v >= timeFloor) || math.IsInf(v, 0) {
				t.Errorf("pair %d: time %g s drawn: want at least %g s", i, v, timeFloor)
			}
		}
		if math.IsInf(pt.lr, 0) || math.IsNaN(pt.lr) {
			t.Errorf("pair %d: log ratio %g", i, pt.lr)
		}
	}
	if cs.zeros != 3 || cs.stopped != 1 {
		t.Errorf("zeros %d, stopped %d: want 3 and 1", cs.zeros, cs.stopped)
	}
	// Puzzle 6 is 0 ns in both runs: ×1, as report.Compare takes it.
	if lr := cs.pts[6].lr; lr != 0 {
		t.Errorf("0 ns against 0 ns: log ratio %g, want 0", lr)
	}
	f, err := cs.scatterPlot()
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Plot; !(p.X.Min <= math.Log10(timeFloor)) || math.IsInf(p.X.Min, 0) || p.Y.Min != p.X.Min {
		t.Errorf("scatter axes from %g (x) and %g (y): want both at most log10(1 ns) = -9, and finite", f.Plot.X.Min, f.Plot.Y.Min)
	}

	dir := t.TempDir()
	charts, err := WriteCompare(ctx, dir, c, oldRun, newRun, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) != 2 || charts[0].Kind != KindCompareScatter || charts[1].Kind != KindCompareRatios {
		t.Fatalf("charts %+v: want the scatter and the ratios", charts)
	}
	for _, ch := range charts {
		checkChartPNG(t, dir, ch)
		if ch.SVG == "" {
			t.Errorf("%s: no SVG for 60 points", ch.File)
		} else if b, err := os.ReadFile(filepath.Join(dir, ch.SVG)); err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", ch.SVG, err)
		}
		if !strings.Contains(ch.Caption, "3 puzzles with a time of 0 ns in a run drawn at 1 ns") {
			t.Errorf("%s: caption lacks the zeros: %s", ch.File, ch.Caption)
		}
	}
	if !strings.Contains(charts[1].Caption, "58 of 60 puzzles are more than ×1.1 slower, 1 more than ×1.1 faster") {
		t.Errorf("ratios caption: %s", charts[1].Caption)
	}
}

// TestCompareRatioEdges: the bins of the ratios have an edge at ×1, hold
// every ratio, and are at most 150 whatever the spread.
func TestCompareRatioEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		lrs  []float64
	}{
		{"all equal", []float64{0, 0, 0}},
		{"one", []float64{0.3}},
		{"near 1", []float64{-0.01, 0.002, 0.004, 0.02, 0.03}},
		{"wide", []float64{-6, -0.1, 0, 0.05, 0.1, 9}},
		{"all slower", []float64{1.2, 1.25, 1.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ratioEdges(tc.lrs)
			if len(e) < 2 || len(e) > 151 {
				t.Fatalf("%d edges", len(e))
			}
			zero := false
			for i, x := range e {
				zero = zero || math.Abs(x) < 1e-12
				if i > 0 && !(x > e[i-1]) {
					t.Fatalf("edges not increasing: %v", e)
				}
			}
			if !zero && e[0] < 0 && e[len(e)-1] > 0 {
				t.Errorf("no edge at ×1 in %v", e)
			}
			for _, v := range tc.lrs {
				if v < e[0] || v > e[len(e)-1] {
					t.Errorf("ratio 10^%g outside the bins [%g, %g]", v, e[0], e[len(e)-1])
				}
			}
		})
	}
}
