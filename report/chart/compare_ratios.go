package chart

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
func (cs *compareSet) ratiosPlot() (*Figure, error) {
	h := cs.ratioHist()
	f := NewFigure(cs.ratiosTitle(), "time NEW/OLD per puzzle (log scale; right of ×1: slower in NEW)", h.ylabel, plotWidth, plotHeight)
	p := f.Plot
	if h.logY {
		p.Y.Min, p.Y.Max = h.bottom, math.Log10(h.maxN)+0.3
		p.Y.Tick.Marker = countLogTicks{}
	} else {
		p.Y.Min, p.Y.Max = 0, math.Max(h.maxN*1.15, 1)
		p.Y.Tick.Marker = intTicks{}
	}
	cs.ratioBars(f, h)
	// ×1 labelled on the side away from the median.
	r := cs.d.MedianRatio.Value
	clr := StrategyColor(cs.d.Solver)
	medianRight := !(r < 1)
	addVLine(f, 0, censorColor, false, medianRight, "×1")
	if r > 0 && !math.IsInf(r, 0) {
		addVLine(f, math.Log10(r), clr, true, !medianRight, "median "+fmtRatio(r))
	}
	if math.Log10(cs.noise()) > 0 {
		f.Legend.Add("noise ×"+strconv.FormatFloat(cs.noise(), 'f', -1, 64), &bandThumb{})
	}
	p.X.Min, p.X.Max = cs.ratioXRange(h.edges)
	p.X.Tick.Marker = ratioTicks{}
	return f, nil
}

// ratioHist is the histogram of a strategy's per-puzzle ratios: the
// bins' edges (log10), and per bin the bottom, the top of the units
// finished in both runs and the top of all, in the y axis' scale.
type ratioHist struct {
	edges              []float64
	zero, finTop, tops []float64
	bottom             float64 // a count of 0 in the y axis' scale
	logY               bool    // the counts on a log axis
	maxN               float64 // the largest count
	ylabel             string
}

// ratioHist counts the ratios of cs in bins of equal log width with an
// edge at ×1 (ratioEdges), those finished in both runs apart.
func (cs *compareSet) ratioHist() ratioHist {
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
	h := ratioHist{edges: edges}
	h.logY, h.maxN = logCounts(fin, gave, cen)
	var fy func(float64) float64
	fy, h.ylabel = countScale(h.logY)
	h.bottom = fy(0)
	h.zero, h.finTop, h.tops = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for b := range nb {
		h.zero[b], h.finTop[b], h.tops[b] = fy(0), fy(fin[b]), fy(fin[b]+cen[b])
		if fin[b] == 0 {
			h.finTop[b] = h.zero[b]
		}
	}
	return h
}

// ratioXRange returns the x range: the bins, ×1, the noise band and the
// interval of the ratio of medians, a margin each side.
func (cs *compareSet) ratioXRange(edges []float64) (xlo, xhi float64) {
	ln := math.Log10(cs.noise())
	xlo, xhi = math.Min(edges[0], -ln), math.Max(edges[len(edges)-1], ln)
	ci := cs.d.TimeCI
	if ci.Lo > 0 && ci.Hi >= ci.Lo && !math.IsInf(ci.Hi, 0) {
		xlo, xhi = math.Min(xlo, math.Log10(ci.Lo)), math.Max(xhi, math.Log10(ci.Hi))
	}
	if xhi-xlo < 0.02 {
		mid := (xlo + xhi) / 2
		xlo, xhi = mid-0.01, mid+0.01
	}
	margin := (xhi - xlo) * 0.03
	return xlo - margin, xhi + margin
}

// ratioBars draws the noise band and the interval of the ratio of
// medians across the y range, then the bars of h: the units finished in
// both runs, and over them, hatched, the others (a ratio a bound).
func (cs *compareSet) ratioBars(f *Figure, h ratioHist) {
	p := f.Plot
	clr := StrategyColor(cs.d.Solver)
	vband := func(a, b float64, c color.Color) {
		p.Add(&histBars{edges: []float64{a, b}, lo: []float64{p.Y.Min}, hi: []float64{p.Y.Max}, fill: c})
	}
	if ln := math.Log10(cs.noise()); ln > 0 {
		vband(-ln, ln, bandColor)
	}
	if ci := cs.d.TimeCI; ci.Lo > 0 && ci.Hi > ci.Lo && !math.IsInf(ci.Hi, 0) {
		vband(math.Log10(ci.Lo), math.Log10(ci.Hi), fade(clr, 0.25))
	}
	finBars := &histBars{edges: h.edges, lo: h.zero, hi: h.finTop, fill: clr, line: draw.LineStyle{Color: fade(clr, 0.5), Width: vg.Points(0.5)}}
	p.Add(finBars)
	if cs.stopped > 0 {
		if cs.stopped < len(cs.pts) {
			f.Legend.Add(fmt.Sprintf("finished in both (%d)", len(cs.pts)-cs.stopped), finBars)
		}
		cenBars := &histBars{edges: h.edges, lo: h.finTop, hi: h.tops, fill: fade(censorColor, 0.12),
			line:  draw.LineStyle{Color: censorColor, Width: vg.Points(1)},
			hatch: &draw.LineStyle{Color: censorColor, Width: vg.Points(0.7)}}
		p.Add(cenBars)
		f.Legend.Add(fmt.Sprintf("not finished in a run (%d): ratio a bound", cs.stopped), cenBars)
	}
}

// addVLine draws a vertical line at x, dashed or not, with its label at
// the top of the plot, on its left or its right.
func addVLine(f *Figure, x float64, c color.Color, dashed, left bool, text string) {
	p := f.Plot
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
	f.AddLabels(&textPlotter{xs: []float64{x}, ys: []float64{p.Y.Max}, texts: []string{text}, style: st, dx: dx, dy: vg.Points(-3), halo: true})
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
