package chart

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
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
		sc := report.Chart{File: "scatter-" + name + ".png", Title: cs.scatterTitle(), Caption: cs.scatterCaption(),
			Solver: d.Solver, Kind: KindCompareScatter}
		if len(cs.pts) <= svgMaxPoints {
			sc.SVG = "scatter-" + name + ".svg"
		}
		jobs = append(jobs, job{chart: sc, build: cs.scatterPlot})
		jobs = append(jobs, job{chart: report.Chart{File: "ratios-" + name + ".png", SVG: "ratios-" + name + ".svg",
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

// scatterPlot draws the scatter of NEW's time against OLD's.
func (cs *compareSet) scatterPlot() (*plot.Plot, error) {
	p := newPlot(cs.scatterTitle(), "OLD: "+measureTime.axisLabel(), "NEW: "+measureTime.axisLabel())
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range cs.pts {
		lo, hi = math.Min(lo, math.Min(pt.x, pt.y)), math.Max(hi, math.Max(pt.x, pt.y))
	}
	// One range for both axes, so that the diagonal is the diagonal.
	lo, hi = logAxisRange(lo, hi, 0.08)
	llo, lhi := math.Log10(lo), math.Log10(hi)
	norm := func(v float64) float64 { return (v - llo) / (lhi - llo) }

	var nx, ny []float64 // guides and points, normalized, for the legend
	ln := math.Log10(cs.noise())
	if ln > 0 {
		band, err := plotter.NewPolygon(plotter.XYs{{X: llo, Y: llo - ln}, {X: lhi, Y: lhi - ln}, {X: lhi, Y: lhi + ln}, {X: llo, Y: llo + ln}})
		if err != nil {
			return nil, err
		}
		band.Color = bandColor
		band.LineStyle.Width = 0
		p.Add(band)
	}
	clr := seriesColor(cs.idx)
	line := func(d float64, c color.Color, dashed bool, text string, at float64) error {
		a, b := math.Max(llo, llo-d), math.Min(lhi, lhi-d)
		if a >= b {
			return nil
		}
		l, err := plotter.NewLine(plotter.XYs{{X: a, Y: a + d}, {X: b, Y: b + d}})
		if err != nil {
			return err
		}
		l.Color = c
		l.Width = vg.Points(1)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.Width = vg.Points(1.5)
		}
		p.Add(l)
		gx, gy := densify([]float64{norm(a), norm(b)}, []float64{norm(a + d), norm(b + d)}, 0.01)
		nx, ny = append(nx, gx...), append(ny, gy...)
		x := a + at*(b-a)
		st := textStyle(10, c)
		st.XAlign = draw.XRight
		p.Add(&textPlotter{xs: []float64{x}, ys: []float64{x + d}, texts: []string{text}, style: st,
			dx: vg.Points(-4), dy: vg.Points(2), halo: true})
		return nil
	}
	if err := line(0, guideColor, false, "same time", 0.9); err != nil {
		return nil, err
	}
	if r := cs.d.MedianRatio.Value; r > 0 && !math.IsInf(r, 0) {
		if err := line(math.Log10(r), clr, true, "median "+fmtRatio(r), 0.7); err != nil {
			return nil, err
		}
	}

	alpha, radius := dotStyle(len(cs.pts))
	tri := func(up, right bool) *pointPlotter {
		return &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: triangle{up: up, right: right}}}
	}
	stop := func(y, x bool) *pointPlotter {
		return &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: stopMarks{y: y, x: x}}}
	}
	cy, cx, cxy, sy, sx, sxy := tri(true, false), tri(false, true), tri(true, true), stop(true, false), stop(false, true), stop(true, true)
	// The marks of one kind that fall on the same spot (a fifth of a
	// pixel: scatterSpots) are drawn once, as on the run's scatters;
	// the legend counts them all.
	var grid densityGrid
	fin := 0
	counts := map[*pointPlotter]int{}
	spots := map[[3]int32]bool{}
	for _, pt := range cs.pts {
		lx, ly := math.Log10(pt.x), math.Log10(pt.y)
		fx, fy := norm(lx), norm(ly)
		grid.add(fx, fy)
		k := kindOf(pt.xo, pt.yo)
		var t *pointPlotter
		kind := int32(0)
		switch {
		case k.mark == endFinished:
			fin++
			continue
		case k.mark == endGaveUp && k.x && k.y:
			t, kind = sxy, 5
		case k.mark == endGaveUp && k.x:
			t, kind = sx, 4
		case k.mark == endGaveUp:
			t, kind = sy, 3
		case k.x && k.y:
			t, kind = cxy, 2
		case k.x:
			t, kind = cx, 1
		default:
			t = cy
		}
		counts[t]++
		spot := [3]int32{kind, int32(math.Round(fx * scatterSpots)), int32(math.Round(fy * scatterSpots))}
		if !spots[spot] {
			spots[spot] = true
			t.xs, t.ys = append(t.xs, lx), append(t.ys, ly)
		}
	}
	dots := &dotPlotter{n: fin, glyph: draw.GlyphStyle{Color: fade(clr, alpha), Radius: radius, Shape: draw.CircleGlyph{}},
		each: func(fn func(x, y float64)) {
			for _, pt := range cs.pts {
				if pt.xo == endFinished && pt.yo == endFinished {
					fn(math.Log10(pt.x), math.Log10(pt.y))
				}
			}
		}}
	p.Add(dots)
	if fin > 0 {
		p.Legend.Add(fmt.Sprintf("puzzle (%d)", fin), &pointPlotter{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	for _, m := range []struct {
		pts  *pointPlotter
		text string
	}{
		{sy, "gave up in NEW"}, {sx, "gave up in OLD"}, {sxy, "gave up in both"},
		{cy, "stopped in NEW"}, {cx, "stopped in OLD"}, {cxy, "stopped in both"},
	} {
		if n := counts[m.pts]; n > 0 {
			p.Add(m.pts)
			p.Legend.Add(fmt.Sprintf("%s (%d)", m.text, n), m.pts)
		}
	}
	if len(cs.moved) > 0 {
		ring := &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(4.5), Shape: draw.RingGlyph{}}}
		labels := &pointLabels{style: textStyle(10, censorColor), gap: vg.Points(7)}
		for _, m := range cs.moved {
			lx, ly := math.Log10(m.x), math.Log10(m.y)
			ring.xs, ring.ys = append(ring.xs, lx), append(ring.ys, ly)
			labels.xs, labels.ys, labels.texts = append(labels.xs, lx), append(labels.ys, ly), append(labels.texts, m.text)
		}
		p.Add(ring, labels)
		p.Legend.Add("moved most", ring)
	}
	if ln > 0 {
		p.Legend.Add("noise ×"+strconv.FormatFloat(cs.noise(), 'f', -1, 64), &bandThumb{})
	}
	setLogAxis(&p.X, lo, hi, measureTime)
	setLogAxis(&p.Y, lo, hi, measureTime)
	gx, gy, gw := grid.points()
	nw := append(ones(len(nx)), gw...)
	nx, ny = append(nx, gx...), append(ny, gy...)
	legendCornerW(p, nx, ny, nw, false)
	return p, nil
}

// bandColor fills the noise band.
var bandColor = fade(guideColor, 0.22)

// bandThumb is the noise band's legend entry.
type bandThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (bandThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(bandColor)
	c.Fill(c.Rectangle.Path())
}

// ratioEdges returns the histogram bin edges of log10 ratios lrs: equal
// widths with an edge at 0 (×1), so that no bin mixes slower and
// faster puzzles. The width follows the Freedman-Diaconis rule over the
// ratios (twice the interquartile range over the cube root of their
// count), rounded up to 1, 2 or 5 times a power of ten, at least 0.002
// (×1.005) and wide enough for at most maxRatioBins (150) bins.
func ratioEdges(lrs []float64) []float64 {
	const maxRatioBins = 150
	if len(lrs) == 0 {
		return []float64{-0.01, 0, 0.01}
	}
	s := append([]float64(nil), lrs...)
	sort.Float64s(s)
	lo, hi := s[0], s[len(s)-1]
	iqr := quantile(s, 0.75) - quantile(s, 0.25)
	w := math.Max(2*iqr/math.Cbrt(float64(len(s))), 0.002)
	w = math.Max(w, (hi-lo)/maxRatioBins)
	w = niceUp(w)
	k0, k1 := math.Floor(lo/w), math.Floor(hi/w)+1
	for k1-k0 > maxRatioBins { // rounding: one step wider
		w = niceUp(w * 1.01)
		k0, k1 = math.Floor(lo/w), math.Floor(hi/w)+1
	}
	edges := make([]float64, 0, int(k1-k0)+1)
	for k := k0; k <= k1; k++ {
		edges = append(edges, k*w)
	}
	return edges
}

// niceUp rounds w > 0 up to 1, 2 or 5 times a power of ten.
func niceUp(w float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(w)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= w*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// ratiosPlot draws the histogram of the per-puzzle ratios NEW/OLD.
func (cs *compareSet) ratiosPlot() (*plot.Plot, error) {
	lrs := make([]float64, len(cs.pts))
	for i, pt := range cs.pts {
		lrs[i] = pt.lr
	}
	edges := ratioEdges(lrs)
	nb := len(edges) - 1
	fin, gave, cen := make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for _, pt := range cs.pts {
		b := binIndex(edges, pt.lr)
		if pt.xo == endFinished && pt.yo == endFinished {
			fin[b]++
		} else {
			cen[b]++
		}
	}
	logY, maxN := logCounts(fin, gave, cen)
	fy := func(n float64) float64 { return n }
	ylabel := "puzzles per bin"
	if logY {
		fy = func(n float64) float64 { return math.Log10(math.Max(n, countFloor)) }
		ylabel = "puzzles per bin (log scale)"
	}
	zero, finTop, tops := make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for b := range nb {
		zero[b], finTop[b], tops[b] = fy(0), fy(fin[b]), fy(fin[b]+cen[b])
		if fin[b] == 0 {
			finTop[b] = zero[b]
		}
	}
	p := newPlot(cs.ratiosTitle(), "time NEW/OLD per puzzle (log scale; right of ×1: slower in NEW)", ylabel)
	if logY {
		p.Y.Min, p.Y.Max = fy(0), math.Log10(maxN)+0.3
		p.Y.Tick.Marker = countLogTicks{}
	} else {
		p.Y.Min, p.Y.Max = 0, math.Max(maxN*1.15, 1)
		p.Y.Tick.Marker = intTicks{}
	}
	ln := math.Log10(cs.noise())
	// The x range: the bins, ×1 and the noise band, a margin each side.
	xlo, xhi := math.Min(edges[0], -ln), math.Max(edges[nb], ln)
	r := cs.d.MedianRatio.Value
	ci := cs.d.TimeCI
	if ci.Lo > 0 && ci.Hi >= ci.Lo && !math.IsInf(ci.Hi, 0) {
		xlo, xhi = math.Min(xlo, math.Log10(ci.Lo)), math.Max(xhi, math.Log10(ci.Hi))
	}
	if xhi-xlo < 0.02 {
		mid := (xlo + xhi) / 2
		xlo, xhi = mid-0.01, mid+0.01
	}
	margin := (xhi - xlo) * 0.03
	xlo, xhi = xlo-margin, xhi+margin

	clr := seriesColor(cs.idx)
	vband := func(a, b float64, c color.Color) {
		p.Add(&histBars{edges: []float64{a, b}, lo: []float64{p.Y.Min}, hi: []float64{p.Y.Max}, fill: c})
	}
	if ln > 0 {
		vband(-ln, ln, bandColor)
	}
	if ci.Lo > 0 && ci.Hi > ci.Lo && !math.IsInf(ci.Hi, 0) {
		vband(math.Log10(ci.Lo), math.Log10(ci.Hi), fade(clr, 0.25))
	}
	finBars := &histBars{edges: edges, lo: zero, hi: finTop, fill: clr, line: draw.LineStyle{Color: fade(clr, 0.5), Width: vg.Points(0.5)}}
	p.Add(finBars)
	if cs.stopped > 0 {
		if cs.stopped < len(cs.pts) {
			p.Legend.Add(fmt.Sprintf("finished in both (%d)", len(cs.pts)-cs.stopped), finBars)
		}
		cenBars := &histBars{edges: edges, lo: finTop, hi: tops, fill: fade(censorColor, 0.12),
			line:  draw.LineStyle{Color: censorColor, Width: vg.Points(1)},
			hatch: &draw.LineStyle{Color: censorColor, Width: vg.Points(0.7)}}
		p.Add(cenBars)
		p.Legend.Add(fmt.Sprintf("not finished in a run (%d): ratio a bound", cs.stopped), cenBars)
	}
	// A vertical line with its label at the top, on its left or right.
	vline := func(x float64, c color.Color, dashed, left bool, text string) {
		l := &vLine{x: x, style: draw.LineStyle{Color: c, Width: vg.Points(1)}}
		if dashed {
			l.style.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.style.Width = vg.Points(1.5)
		}
		p.Add(l)
		st := textStyle(10, c)
		st.YAlign = draw.YTop
		dx := vg.Points(3)
		st.XAlign = draw.XLeft
		if left {
			st.XAlign, dx = draw.XRight, vg.Points(-3)
		}
		p.Add(&textPlotter{xs: []float64{x}, ys: []float64{p.Y.Max}, texts: []string{text}, style: st, dx: dx, dy: vg.Points(-3), halo: true})
	}
	// ×1 labelled on the side away from the median.
	medianRight := !(r < 1)
	vline(0, censorColor, false, medianRight, "×1")
	if r > 0 && !math.IsInf(r, 0) {
		vline(math.Log10(r), clr, true, !medianRight, "median "+fmtRatio(r))
	}
	if ln > 0 {
		p.Legend.Add("noise ×"+strconv.FormatFloat(cs.noise(), 'f', -1, 64), &bandThumb{})
	}
	p.X.Min, p.X.Max = xlo, xhi
	p.X.Tick.Marker = ratioTicks{}

	var nx, ny []float64
	for b := range nb {
		nx = append(nx, ((edges[b]+edges[b+1])/2-xlo)/(xhi-xlo))
		ny = append(ny, (tops[b]-p.Y.Min)/(p.Y.Max-p.Y.Min))
	}
	for _, x := range []float64{0, math.Log10(math.Max(r, 1e-300))} {
		for f := 0.0; f <= 1; f += 0.05 {
			nx, ny = append(nx, (x-xlo)/(xhi-xlo)), append(ny, f)
		}
	}
	legendCorner(p, nx, ny, false)
	return p, nil
}

// vLine is a vertical line across the data area at x (axis units).
type vLine struct {
	x     float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (l *vLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.x)
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(l.style, x, c.Min.Y, x, c.Max.Y)
}

// ratioTicks labels an axis of log10 ratios: at powers of ten and 1-2-5
// multiples on a range of a decade or more (logTicks), at round ratios
// (×0.95, ×1, ×1.05) on a narrower one.
type ratioTicks struct{}

// Ticks implements plot.Ticker.
func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	format := func(v float64) string {
		if v >= 1 {
			return "×" + strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) // ×10000, not ×1e+04
		}
		return "×" + strconv.FormatFloat(v, 'g', 3, 64)
	}
	if max-min >= 1 {
		return log10Ticks{logTicks{Format: format}}.Ticks(min, max)
	}
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(math.Pow(10, min), math.Pow(10, max)) {
		if t.Value <= 0 {
			continue
		}
		if t.Label != "" {
			t.Label = format(t.Value)
		}
		t.Value = math.Log10(t.Value)
		out = append(out, t)
	}
	return out
}
