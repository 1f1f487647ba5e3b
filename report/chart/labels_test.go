package chart

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/internal/vgrec"
	"sudokubatch/report"
	"sudokubatch/solvers"
)

// sweepLike returns results shaped like a default sweep of n puzzles
// from id 39600 (#39949 among them): backtrack with a third of its
// units stopped at 100 ms (the timer overshooting the limit), singles
// stuck on every one, randmrv with a few timeouts, norvig, dlx and
// bitboard solving all, each over a few decades of time.
func sweepLike(n int) *report.Results {
	rng := rand.New(rand.NewPCG(1, 2))
	res := &report.Results{Corpora: []string{"sudoku17.txt"}}
	for _, s := range []struct {
		name      string
		median    float64 // ns
		decades   float64 // spread, log10 sd
		timeouts  float64 // share stopped at 100 ms
		stuck     bool
		callsPerN float64 // calls per ns
	}{
		{"backtrack", 40e6, 1.2, 0.35, false, 0.2},
		{"singles", 500, 0.1, 0, true, 0.005},
		{"randmrv", 1.2e6, 0.8, 0.01, false, 0.1},
		{"norvig", 8e3, 0.3, 0, false, 0.02},
		{"dlx", 9e3, 0.2, 0, false, 0.05},
		{"bitboard", 2.2e3, 0.2, 0, false, 0.01},
	} {
		res.AddSeries(s.name)
		for i := range n {
			id := 39600 + i
			ns := s.median * math.Pow(10, rng.NormFloat64()*s.decades)
			e := report.Entry{ID: int32(id), Line: int32(id + 1), Status: solvers.StatusSolved}
			switch {
			case s.stuck:
				e.Status = solvers.StatusStuck
			case ns > 100e6 || rng.Float64() < s.timeouts/3:
				e.Status, ns = solvers.StatusTimeout, 100e6*(1+0.4*rng.Float64())
			}
			e.NS, e.Calls = int64(ns), uint64(max(1, ns*s.callsPerN))
			res.Add(s.name, e)
		}
	}
	return res
}

// checkFigure draws f, then its small figure (Shrink), on a recording
// canvas and reports, as errors of t, every text that leaves the chart,
// overlaps another, sits in the legend's band or lies under something
// drawn after it.
func checkFigure(t *testing.T, name string, f *Figure) {
	t.Helper()
	checkDrawn(t, name, f)
	f.Shrink()
	checkDrawn(t, name+" (small)", f)
}

func checkDrawn(t *testing.T, name string, f *Figure) {
	t.Helper()
	rec := vgrec.New(f.Width, f.Height)
	f.Draw(draw.New(rec))
	if len(rec.Texts()) == 0 {
		t.Errorf("%s: no text drawn", name)
	}
	for _, bad := range rec.Check(f.LegendRect(), f.Legend.Texts()) {
		t.Errorf("%s: %s", name, bad)
	}
	for _, o := range rec.Texts() {
		if strings.Contains(o.Text, "e+") || strings.Contains(o.Text, "e-") {
			t.Errorf("%s: a number in exponent notation: %q", name, o.Text)
		}
	}
}

// TestChartTextsClear draws every chart of a sweep-like run (hardest
// and highlighted puzzles labelled), of a comparison and of a strip:
// no text overlaps another, a legend or the chart's edge, and none is
// under a point, a line or a bar drawn after it.
func TestChartTextsClear(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	res := sweepLike(600)
	cs, err := newChartSet(context.Background(), res, Options{Highlight: []int{39949, 39601}, Baseline: "bitboard",
		Title: "sudoku17.txt, run 20261127-183054"})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range cs.jobs() {
		f, err := j.build()
		if err != nil {
			t.Fatal(err)
		}
		checkFigure(t, j.chart.File, f)
	}

	oldRun, newRun := &report.Run{Path: "old", Results: sweepLike(600)}, &report.Run{Path: "new", Results: sweepLike(600)}
	c, err := report.Compare(context.Background(), oldRun, newRun, report.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range c.Strategies {
		pairs, err := c.Pairs(context.Background(), oldRun, newRun, d.Solver)
		if err != nil {
			t.Fatal(err)
		}
		set := newCompareSet(c, d, i, "night4 against night3", pairs, oldRun.Results, movedTop)
		if len(set.pts) == 0 {
			continue
		}
		for name, build := range map[string]func() (*Figure, error){"scatter": set.scatterPlot, "ratios": set.ratiosPlot} {
			f, err := build()
			if err != nil {
				t.Fatal(err)
			}
			checkFigure(t, "compare "+name+" "+d.Solver, f)
		}
	}

	v := testVariants()
	for i := range v.Analyses {
		sp := newStrip(&v.Analyses[i], v.Settings, measureCalls)
		f, err := sp.plot()
		if err != nil {
			t.Fatal(err)
		}
		checkFigure(t, "strip "+v.Analyses[i].Solver, f)
	}
}
