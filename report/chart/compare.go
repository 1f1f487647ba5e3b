package chart

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// The charts of a comparison of two runs (batch compare), per strategy
// in both: the scatter of NEW's time against OLD's, puzzle by puzzle,
// and the histogram of the per-puzzle ratios NEW/OLD. Both are drawn on
// log10 values on linear axes, like every chart here (see setLogAxis),
// and a time of 0 ns is drawn at 1 ns (timeFloor): the ratios take a
// time below 1 ns as 1 ns, as report.Compare does.

// The kinds of chart WriteCompare draws (report.Chart.Kind).
const (
	KindCompareScatter = "compare-scatter" // per strategy: NEW's time against OLD's, puzzle by puzzle
	KindCompareRatios  = "compare-ratios"  // per strategy: histogram of the per-puzzle ratios NEW/OLD
)

// movedTop is how many of the puzzles that moved most a comparison's
// scatter labels.
const movedTop = 8

// CompareOptions controls WriteCompare.
type CompareOptions struct {
	// Title names the two runs in chart titles, e.g. "20261125-230000
	// against 20261124-230000"; empty: the base names of their paths.
	Title string
	// Moved is how many puzzles that moved most each scatter labels;
	// <= 0: 8.
	Moved int
}

// comparePoint is one unit of both runs: its times in seconds (clamped
// to timeFloor), how each side ended and log10 of its ratio NEW/OLD.
type comparePoint struct {
	x, y   float64
	xo, yo ending
	lr     float64
}

// compareSet is what the two charts of one strategy share.
type compareSet struct {
	d       *report.StrategyDiff
	c       *report.Comparison
	idx     int // the strategy's index in the comparison, for its color
	label   string
	pts     []comparePoint
	moved   []movedLabel
	zeros   int // units with a time of 0 ns on a side, drawn at 1 ns
	stopped int // units that did not finish on a side
}

// movedLabel is a puzzle that moved most: its point and its label.
type movedLabel struct {
	x, y float64
	text string
}

// WriteCompare draws the charts of comparison c of the runs oldRun and
// newRun (those c was computed from) into dir (created if needed), two
// per strategy with units measured in both runs, in c's order: the
// scatter, then the histogram of ratios. Every chart is a PNG and an
// SVG, but a scatter of more than 5000 puzzles is PNG only (an SVG costs
// about 120 bytes a point). A chart that cannot be drawn (a panic inside
// gonum/plot included) is left out: WriteCompare returns the charts it
// wrote and an error naming each that failed. When ctx is canceled it
// returns the charts written and ctx.Err().
func WriteCompare(ctx context.Context, dir string, c *report.Comparison, oldRun, newRun *report.Run, opt CompareOptions) ([]report.Chart, error) {
	if c == nil || oldRun == nil || newRun == nil {
		return nil, errors.New("writing comparison charts: no comparison")
	}
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return nil, fmt.Errorf("writing comparison charts: %w", err)
	}
	label := opt.Title
	if label == "" {
		label = compareTitle(c)
	}
	moved := opt.Moved
	if moved <= 0 {
		moved = movedTop
	}
	var jobs []job
	for i, d := range c.Strategies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d.Timed == 0 {
			continue
		}
		pairs, err := c.Pairs(ctx, oldRun, newRun, d.Solver)
		if err != nil {
			return nil, err
		}
		cs := newCompareSet(c, d, i, label, pairs, oldRun.Results, moved)
		if len(cs.pts) == 0 {
			continue
		}
		name := report.SafeFileName(d.Solver)
		sc := report.Chart{File: "scatter-" + name + ".png", Small: "scatter-" + name + "-small.png", Title: cs.scatterTitle(), Caption: cs.scatterCaption(),
			Solver: d.Solver, Kind: KindCompareScatter}
		if len(cs.pts) <= svgMaxPoints {
			sc.SVG = "scatter-" + name + ".svg"
		}
		jobs = append(jobs, job{chart: sc, build: cs.scatterPlot})
		jobs = append(jobs, job{chart: report.Chart{File: "ratios-" + name + ".png", SVG: "ratios-" + name + ".svg", Small: "ratios-" + name + "-small.png",
			Title: cs.ratiosTitle(), Caption: cs.ratiosCaption(), Solver: d.Solver, Kind: KindCompareRatios}, build: cs.ratiosPlot})
	}
	return writeJobs(ctx, dir, jobs)
}

// compareTitle names the runs of c: their run ids, or the base names of
// their paths: "20261125-230000 against 20261124-230000".
func compareTitle(c *report.Comparison) string {
	name := func(r report.RunRef) string {
		if r.RunID != "" {
			return r.RunID
		}
		return r.Path
	}
	return name(c.New) + " against " + name(c.Old)
}

// newCompareSet prepares the points of one strategy's pairs: times in
// seconds clamped to timeFloor, the endings, the log ratios, and the
// labels of the puzzles that moved most (named as OLD names them).
func newCompareSet(c *report.Comparison, d *report.StrategyDiff, idx int, label string, pairs []report.TimePair,
	oldRes *report.Results, moved int) *compareSet {
	cs := &compareSet{c: c, d: d, idx: idx, label: label, pts: make([]comparePoint, len(pairs))}
	for i := range pairs {
		p := &pairs[i]
		if p.Old.NS < 1 || p.New.NS < 1 {
			cs.zeros++
		}
		pt := comparePoint{x: clampTime(p.Old.NS), y: clampTime(p.New.NS), xo: endingOf(p.Old.Status), yo: endingOf(p.New.Status),
			lr: math.Log10(p.Ratio())}
		if pt.xo != endFinished || pt.yo != endFinished {
			cs.stopped++
		}
		cs.pts[i] = pt
	}
	for _, p := range report.MostMoved(pairs, moved) {
		text := oldRes.PuzzleLabel(&p.Old)
		if c.TimesConfirmed && !p.Confirmed() {
			text += report.UnconfirmedMark
		}
		cs.moved = append(cs.moved, movedLabel{x: clampTime(p.Old.NS), y: clampTime(p.New.NS), text: text})
	}
	return cs
}

// clampTime returns a time in ns as seconds, at least timeFloor: a log
// axis has no zero.
func clampTime(ns int64) float64 { return math.Max(float64(ns)/1e9, timeFloor) }

// noise returns the comparison's noise ratio (at least 1).
func (cs *compareSet) noise() float64 { return math.Max(cs.c.Noise, 1) }

// fmtRatio formats a ratio for a label: ×1.03, ×0.5, ×120.
func fmtRatio(r float64) string {
	return "×" + strconv.FormatFloat(r, 'g', 3, 64)
}

func (cs *compareSet) scatterTitle() string {
	return fmt.Sprintf("%s: time per puzzle, NEW against OLD — %s, %s", cs.d.Solver, cs.label, report.Count(len(cs.pts), "puzzle", "puzzles"))
}

func (cs *compareSet) ratiosTitle() string {
	return fmt.Sprintf("%s: time NEW/OLD per puzzle — %s, %s", cs.d.Solver, cs.label, report.Count(len(cs.pts), "puzzle", "puzzles"))
}

// band describes the noise band for a caption.
func (cs *compareSet) band() string {
	if cs.noise() <= 1 {
		return "no noise band (-noise 1)"
	}
	return fmt.Sprintf("gray, the noise the verdicts allow for (-noise %s)", strconv.FormatFloat(cs.noise(), 'f', -1, 64))
}

// notes are the caption's common parts: stopped units and zeros.
func (cs *compareSet) notes() []string {
	var out []string
	if cs.stopped > 0 {
		out = append(out, fmt.Sprintf("%s did not finish in a run (stopped, or gave up): near-black, at the time reached, their ratios bounds",
			report.Count(cs.stopped, "puzzle", "puzzles")))
	}
	if cs.zeros > 0 {
		out = append(out, fmt.Sprintf("%s with a time of 0 ns in a run drawn at 1 ns", report.Count(cs.zeros, "puzzle", "puzzles")))
	}
	return out
}

func (cs *compareSet) scatterCaption() string {
	main := fmt.Sprintf("Each point is one puzzle, its time in NEW (up) against OLD (across), log-log: above the diagonal it took longer in NEW; %s; dashed, the ratio of median times (%s)",
		cs.band(), fmtRatio(cs.d.MedianRatio.Value))
	extra := cs.notes()
	if len(cs.moved) > 0 {
		which := ""
		if cs.c.TimesConfirmed {
			which = ", † a time measured once"
		}
		extra = append(extra, fmt.Sprintf("circled, the %s finished in both runs that moved most%s",
			report.Count(len(cs.moved), "puzzle", "puzzles"), which))
	}
	return sentence(main, extra...)
}

func (cs *compareSet) ratiosCaption() string {
	above, below := 0, 0
	ln := math.Log10(cs.noise())
	for _, p := range cs.pts {
		switch {
		case p.lr > ln:
			above++
		case p.lr < -ln:
			below++
		}
	}
	n := strconv.FormatFloat(cs.noise(), 'f', -1, 64)
	main := fmt.Sprintf("The per-puzzle ratios of time NEW/OLD, log scale: right of ×1, slower in NEW; %d of %d puzzles are more than ×%s slower, %d more than ×%s faster; %s; dashed, the ratio of median times (%s) with its 95%% interval shaded",
		above, len(cs.pts), n, below, n, cs.band(), fmtRatio(cs.d.MedianRatio.Value))
	return sentence(main, cs.notes()...)
}
