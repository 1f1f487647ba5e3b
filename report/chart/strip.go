package chart

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// KindStrip is the strip chart of one analysed (puzzle, strategy) of the
// hard-or-unlucky analysis (rundir.VariantAnalysis, docs/VARIANTS.md):
// each variant a dot on a log axis of calls (or time), jittered up and
// down within its row so that equal values stay apart; a unit stopped by
// a limit a hollow ring at the value where it was stopped (a lower
// bound), one that gave up (stuck, wrong) a cross; the original a
// magenta diamond, labelled; the variants' median (solid) and p90
// (dashed) and the strategy's corpus median (long dashes, gray) as
// vertical lines. For a randomized strategy, a second row holds the
// original orientation under its seeds (seed luck, apart from the
// orientations' luck), the run's seed among them the diamond. The
// chart is drawn from the analysis alone: its Dist values are the
// analysis', not computed again, so the lines are the figures the
// verdict read.
const KindStrip = "strip"

// StripOptions controls StripCharts.
type StripOptions struct {
	SVG bool // also write an .svg beside each .png
	// Measure is what the axis reads: "calls" or "ns" (time); "" draws
	// each analysis by its own Measure, the one its verdict read. The
	// corpus median is drawn only on the analysis' own measure (it is the
	// only one the analysis holds).
	Measure string
	// Since, when set, keeps the charts already drawn: a chart whose
	// files (its PNG, and its SVG when asked) were written at or after
	// Since (the analysis' file's time) is returned without being drawn
	// again.
	Since time.Time
}

// WriteStrips draws the strip chart of every analysis of v into dir
// (created if needed), each by the measure its verdict read, and returns
// the names of the files written (PNG, and with svg an SVG beside each),
// in the order of v.Analyses. The file of an analysis is
// report.StripFile's. A chart that cannot be drawn is left out and named
// in the error.
func WriteStrips(dir string, v *rundir.Variants, svg bool) ([]string, error) {
	charts, err := StripCharts(context.Background(), dir, v, StripOptions{SVG: svg})
	var files []string
	for _, c := range charts {
		files = append(files, c.File)
		if c.SVG != "" {
			files = append(files, c.SVG)
		}
	}
	return files, err
}

// StripCharts is WriteStrips with a context (no chart starts once it is
// canceled; ctx.Err() is returned) and options, returning the charts
// drawn with their titles and captions, for a page.
func StripCharts(ctx context.Context, dir string, v *rundir.Variants, opt StripOptions) ([]report.Chart, error) {
	if v == nil {
		return nil, errors.New("writing strip charts: no analysis")
	}
	switch opt.Measure {
	case "", "calls", "ns":
	default:
		return nil, fmt.Errorf("writing strip charts: unknown measure %q (calls or ns)", opt.Measure)
	}
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return nil, fmt.Errorf("writing strip charts: %w", err)
	}
	var jobs []job
	var kept []int // jobs whose chart is already drawn (opt.Since)
	for i := range v.Analyses {
		a := &v.Analyses[i]
		m := measureCalls
		if opt.Measure == "ns" || opt.Measure == "" && a.Measure == "ns" {
			m = measureTime
		}
		sp := newStrip(a, v.Settings, m)
		c := report.Chart{File: report.StripFile(a), Title: sp.title(), Caption: sp.caption(), Solver: a.Solver, Kind: KindStrip}
		if m != measureCalls && opt.Measure != "" {
			// Another measure than the verdict's: a file of its own.
			c.File = strings.TrimSuffix(c.File, ".png") + "-time.png"
		}
		if opt.SVG {
			c.SVG = strings.TrimSuffix(c.File, ".png") + ".svg"
		}
		c.Small = smallFile(c.File)
		if !opt.Since.IsZero() && drawnSince(dir, c, opt.Since) {
			kept = append(kept, len(jobs))
			c.Width, c.Height = pixels(plotWidth, stripHeight)
			c.SmallWidth, c.SmallHeight = pixels(smallSize(plotWidth, stripHeight))
		}
		jobs = append(jobs, job{chart: c, build: sp.plot})
	}
	if len(kept) == 0 {
		return writeJobs(ctx, dir, jobs)
	}
	// Draw the others, and return every chart in the order of the analyses.
	var todo []job
	for i, j := range jobs {
		if !slices.Contains(kept, i) {
			todo = append(todo, j)
		}
	}
	drawn, err := writeJobs(ctx, dir, todo)
	var out []report.Chart
	for i, j := range jobs {
		if slices.Contains(kept, i) || slices.ContainsFunc(drawn, func(c report.Chart) bool { return c.File == j.chart.File }) {
			out = append(out, j.chart)
		}
	}
	return out, err
}

// drawnSince reports whether the files of chart c in dir were written
// at or after t.
func drawnSince(dir string, c report.Chart, t time.Time) bool {
	for _, f := range []string{c.File, c.SVG, c.Small} {
		if f == "" {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.ModTime().Before(t) {
			return false
		}
	}
	return true
}

// stripUnit is one plotted solve of a strip.
type stripUnit struct {
	v   float64 // the measure, clamped to the floor
	out ending
}

// strip is the strip chart of one analysis.
type strip struct {
	a        *rundir.VariantAnalysis
	set      rundir.VariantSettings
	m        measure
	rows     [][]stripUnit // [0] the variants, [1] the original's seeds (randomized only)
	original stripUnit
	origOK   bool // the original was measured
	dist     rundir.Dist
	corpus   float64 // the corpus median in the measure's unit; 0: none drawn
	zeros    int     // values drawn at the floor
	skipped  int     // units not plotted (invalid, unsupported, error)
	censored int     // plotted units stopped by a limit
	gave     int     // plotted units that gave up
}

// newStrip prepares the strip of a by measure m.
func newStrip(a *rundir.VariantAnalysis, set rundir.VariantSettings, m measure) *strip {
	sp := &strip{a: a, set: set, m: m, dist: a.Calls}
	if m == measureTime {
		sp.dist = scaleDist(a.NS, 1e-9)
	}
	if a.CorpusMedian > 0 && (m == measureTime) == (a.Measure == "ns") {
		sp.corpus = a.CorpusMedian
		if m == measureTime {
			sp.corpus /= 1e9
		}
	}
	sp.rows = [][]stripUnit{sp.units(a.Variants)}
	if a.Seeds != nil {
		sp.rows = append(sp.rows, sp.units(a.Seeds.Original))
	}
	if u, ok := sp.unit(a.Original); ok {
		sp.original, sp.origOK = u, true
	}
	return sp
}

// scaleDist returns d with its values multiplied by k.
func scaleDist(d rundir.Dist, k float64) rundir.Dist {
	d.Median, d.Q1, d.Q3, d.P90, d.Max = d.Median*k, d.Q1*k, d.Q3*k, d.P90*k, d.Max*k
	return d
}

// unit returns the plotted value of u, false when it is not plotted.
func (sp *strip) unit(u rundir.VariantUnit) (stripUnit, bool) {
	st, err := solvers.ParseStatus(u.Status)
	if err != nil || !st.Measured() {
		return stripUnit{}, false
	}
	v := float64(u.Calls)
	if sp.m == measureTime {
		v = float64(u.NS) / 1e9
	}
	if v < sp.m.floor() {
		v = sp.m.floor()
		sp.zeros++
	}
	return stripUnit{v: v, out: endingOf(st)}, true
}

// units returns the plotted values of us, counting what is left out or
// stopped.
func (sp *strip) units(us []rundir.VariantUnit) []stripUnit {
	var out []stripUnit
	for _, u := range us {
		p, ok := sp.unit(u)
		if !ok {
			sp.skipped++
			continue
		}
		switch p.out {
		case endCensored:
			sp.censored++
		case endGaveUp:
			sp.gave++
		}
		out = append(out, p)
	}
	return out
}

// label is the puzzle's label: "#39949".
func (sp *strip) label() string { return fmt.Sprintf("#%d", sp.a.ID) }

func (sp *strip) title() string {
	what := "calls"
	if sp.m == measureTime {
		what = "time"
	}
	corpus := filepath.Base(sp.a.Corpus)
	return fmt.Sprintf("%s: %s and %s, %s — %s", sp.a.Solver, sp.label(), sp.variantsText(), what, corpus)
}

// variantsText counts the variants: "100 variants", or for a randomized
// strategy "100 variants x 5 seeds".
func (sp *strip) variantsText() string {
	n, seeds := len(sp.a.Variants), 1
	if sp.a.Seeds != nil && sp.set.Seeds > 1 && n%sp.set.Seeds == 0 {
		n, seeds = n/sp.set.Seeds, sp.set.Seeds
	}
	t := report.Count(n, "variant", "variants")
	if seeds > 1 {
		t += fmt.Sprintf(" x %d seeds", seeds)
	}
	return t
}

func (sp *strip) caption() string {
	a := sp.a
	what := "calls"
	if sp.m == measureTime {
		what = "time"
	}
	main := fmt.Sprintf("Each dot is one random variant of puzzle %s (a transform of the grid: band, stack, row and column orders, transposition, relabelling) solved by %s, "+
		"at its %s on a log scale, spread up and down at random within its row so that equal values stay apart; the magenta diamond is the original; "+
		"the solid line is the variants' median, the dashed line their p90", sp.label(), a.Solver, what)
	var extra []string
	if sp.corpus > 0 {
		from := ""
		if a.CorpusFrom != "" {
			from = " (" + a.CorpusFrom + ")"
		}
		extra = append(extra, fmt.Sprintf("the gray line with long dashes is %s's median over the corpus%s", a.Solver, from))
	}
	if len(sp.rows) > 1 {
		extra = append(extra, fmt.Sprintf("%s is randomized: the lower row holds the variants, each under its own seeds, the upper row the original orientation under %s (seed luck apart from orientation luck), the run's seed the diamond",
			a.Solver, report.Count(len(a.Seeds.Original), "seed", "seeds")))
	}
	if a.Verdict != rundir.VerdictNone {
		extra = append(extra, fmt.Sprintf("verdict: %s (%s)", a.Verdict, verdictRule(sp.set)))
	} else if a.Note != "" {
		extra = append(extra, "no verdict: "+a.Note)
	}
	if sp.censored > 0 {
		extra = append(extra, fmt.Sprintf("hollow rings are the %s stopped by a limit, at the value where they were stopped (a lower bound)",
			report.Count(sp.censored, "unit", "units")))
	}
	if sp.gave > 0 {
		extra = append(extra, fmt.Sprintf("crosses are the %s that gave up without a solution (stuck), at the value where they stopped",
			report.Count(sp.gave, "unit", "units")))
	}
	if !sp.origOK {
		extra = append(extra, "the original has no measurement to plot")
	}
	if sp.zeros > 0 {
		extra = append(extra, fmt.Sprintf("%s of 0 drawn at %s", report.Count(sp.zeros, "value", "values"), sp.m.label(sp.m.floor())))
	}
	if sp.skipped > 0 {
		extra = append(extra, fmt.Sprintf("%s not plotted (invalid, unsupported or error)", report.Count(sp.skipped, "unit", "units")))
	}
	return sentence(main, extra...)
}

// verdictRule says the thresholds of the verdicts.
func verdictRule(set rundir.VariantSettings) string {
	return fmt.Sprintf("hard: variants' median ≥ %s× corpus median; unlucky: original above the variants' p%s and ≥ %s× their median",
		report.TrimNumber(set.HardFactor), report.TrimNumber(set.UnluckyPct), report.TrimNumber(set.UnluckyFactor))
}

// Strip geometry, in rows (y units): each row's dots spread over
// ±stripJitter around its center; the data area runs from stripBelow
// under the first row to stripAbove over the last (room for the
// original's label). A strip is plotWidth wide and stripHeight high.
const (
	stripJitter = 0.3
	stripBelow  = 0.6
	stripAbove  = 0.8
	stripHeight = 4 * vg.Inch
)

// jitter is the deterministic offset of the i-th dot of a row within
// ±stripJitter: the fractional parts of i times the golden ratio spread
// evenly, and the same analysis draws the same chart.
func jitter(i int) float64 {
	f := math.Mod(float64(i+1)*0.6180339887498949, 1)
	return (2*f - 1) * stripJitter
}

// plot draws the strip.
func (sp *strip) plot() (*Figure, error) {
	f := NewFigure(sp.title(), sp.m.axisLabel(), "", plotWidth, stripHeight)
	xlo, xhi := sp.xRange()
	ylo, yhi := -stripBelow, float64(len(sp.rows)-1)+stripAbove
	if len(sp.rows[0]) > 0 {
		if err := sp.plotVariants(f); err != nil {
			return nil, err
		}
	}
	if sp.corpus > 0 {
		if err := sp.guide(f, sp.corpus, 1.2, []vg.Length{vg.Points(9), vg.Points(4)}, "corpus median: "+sp.m.label(sp.corpus), guideColor); err != nil {
			return nil, err
		}
	}
	if sp.origOK {
		sp.plotOriginal(f)
	}
	// The rows on the y axis.
	p := f.Plot
	var ticks []plot.Tick
	ticks = append(ticks, plot.Tick{Value: 0, Label: "variants"})
	if len(sp.rows) > 1 {
		ticks = append(ticks, plot.Tick{Value: 1, Label: "original's seeds"})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = ylo, yhi
	setLogAxis(&p.X, xlo, xhi, sp.m)
	return f, nil
}

// xRange returns the x axis' range (log10): the units' values, the
// original's, the variants' median and p90 and the corpus median, with
// room for the marks at a limit on the right edge.
func (sp *strip) xRange() (xlo, xhi float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	see := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			v = math.Max(v, sp.m.floor())
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, row := range sp.rows {
		for _, u := range row {
			see(u.v)
		}
	}
	if sp.origOK {
		see(sp.original.v)
	}
	see(sp.dist.Median)
	see(sp.dist.P90)
	see(sp.corpus)
	if lo > hi {
		lo, hi = sp.m.floor(), sp.m.floor()*10
	}
	return logAxisRange(lo, hi, 0.15)
}

// plotVariants draws the variants' dots, a row each for the variants and
// the original's seeds (finished, stopped by a limit, given up), their
// legend, and the lines of their median and p90.
func (sp *strip) plotVariants(f *Figure) error {
	clr := StrategyColor(sp.a.Solver)
	fin := &pointPlotter{glyph: draw.GlyphStyle{Color: fade(clr, 0.6), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}}
	seed := &pointPlotter{glyph: draw.GlyphStyle{Color: fade(clr, 0.6), Radius: vg.Points(3), Shape: draw.BoxGlyph{}}}
	cen := &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: draw.RingGlyph{}}}
	gave := &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: stopMarks{y: true}}}
	for r, row := range sp.rows {
		for i, u := range row {
			pts := fin
			switch {
			case u.out == endCensored:
				pts = cen
			case u.out == endGaveUp:
				pts = gave
			case r == 1:
				pts = seed
			}
			pts.xs, pts.ys = append(pts.xs, math.Log10(u.v)), append(pts.ys, float64(r)+jitter(i))
		}
	}
	f.Plot.Add(fin, seed, cen, gave)
	if len(fin.xs) > 0 {
		what := "variant"
		if len(sp.rows) > 1 {
			what = "variant under a seed"
		}
		f.Legend.Add(fmt.Sprintf("%s (%d)", what, len(fin.xs)), &pointPlotter{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}})
	}
	if len(seed.xs) > 0 {
		f.Legend.Add(fmt.Sprintf("original under a seed (%d)", len(seed.xs)), seed)
	}
	if len(cen.xs) > 0 {
		f.Legend.Add(fmt.Sprintf("stopped by a limit (%d): a lower bound", len(cen.xs)), cen)
	}
	if len(gave.xs) > 0 {
		f.Legend.Add(fmt.Sprintf("gave up (%d)", len(gave.xs)), gave)
	}
	bound := ""
	if sp.dist.Censored > 0 {
		bound = "≥ "
	}
	if err := sp.guide(f, sp.dist.Median, 1.6, nil, "variants' median: "+bound+sp.m.label(sp.dist.Median), clr); err != nil {
		return err
	}
	return sp.guide(f, sp.dist.P90, 1.2, []vg.Length{vg.Points(5), vg.Points(3)}, "variants' p90: "+bound+sp.m.label(sp.dist.P90), clr)
}

// guide draws a vertical line at value x (none when x is not above 0),
// from the axis to just over the last row, under the dots, and its
// legend entry text.
func (sp *strip) guide(f *Figure, x float64, width float64, dashes []vg.Length, text string, lc color.Color) error {
	if !(x > 0) {
		return nil
	}
	top := float64(len(sp.rows)-1) + stripJitter + 0.25
	x = math.Max(x, sp.m.floor())
	l, err := plotter.NewLine(plotter.XYs{{X: math.Log10(x), Y: -stripBelow}, {X: math.Log10(x), Y: top}})
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = lc, vg.Points(width), dashes
	f.Plot.Add(l)
	f.Legend.Add(text, l)
	return nil
}

// plotOriginal draws the original, a diamond on each row labelled with
// the puzzle, and its legend entry: its value, and its place among the
// variants when it finished.
func (sp *strip) plotOriginal(f *Figure) {
	o := &pointPlotter{glyph: draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(6), Shape: diamond{}}}
	for r := range sp.rows {
		o.xs, o.ys = append(o.xs, math.Log10(sp.original.v)), append(o.ys, float64(r))
	}
	f.Plot.Add(o)
	text := "original: " + sp.m.label(sp.original.v)
	if sp.original.out == endCensored {
		// Stopped: its place among the variants is a bound too.
		text = "original: ≥ " + sp.m.label(sp.original.v) + " (stopped by a limit)"
	} else if r := sp.a.Ratio; len(sp.rows[0]) > 0 && (sp.m == measureCalls) == (sp.a.Measure != "ns") && r > 0 && !math.IsInf(r, 0) {
		text += fmt.Sprintf(" (p%s, ×%s the median)", report.TrimNumber(sp.a.Pct), report.TrimNumber(sp.a.Ratio))
	}
	f.Legend.Add(text, o)
	st := textStyle(11, highlightColor)
	st.XAlign = draw.XCenter
	f.AddLabels(&textPlotter{xs: o.xs[:1], ys: []float64{0}, texts: []string{sp.label()}, style: st, dy: vg.Points(9), halo: true})
}
