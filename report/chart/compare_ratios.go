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
	fy, ylabel := countScale(logY)
	zero, finTop, tops := make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for b := range nb {
		zero[b], finTop[b], tops[b] = fy(0), fy(fin[b]), fy(fin[b]+cen[b])
		if fin[b] == 0 {
			finTop[b] = zero[b]
		}
	}
	f := NewFigure(cs.ratiosTitle(), "time NEW/OLD per puzzle (log scale; right of ×1: slower in NEW)", ylabel, plotWidth, plotHeight)
	p := f.Plot
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

	clr := StrategyColor(cs.d.Solver)
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
			f.Legend.Add(fmt.Sprintf("finished in both (%d)", len(cs.pts)-cs.stopped), finBars)
		}
		cenBars := &histBars{edges: edges, lo: finTop, hi: tops, fill: fade(censorColor, 0.12),
			line:  draw.LineStyle{Color: censorColor, Width: vg.Points(1)},
			hatch: &draw.LineStyle{Color: censorColor, Width: vg.Points(0.7)}}
		p.Add(cenBars)
		f.Legend.Add(fmt.Sprintf("not finished in a run (%d): ratio a bound", cs.stopped), cenBars)
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
		f.AddLabels(&textPlotter{xs: []float64{x}, ys: []float64{p.Y.Max}, texts: []string{text}, style: st, dx: dx, dy: vg.Points(-3), halo: true})
	}
	// ×1 labelled on the side away from the median.
	medianRight := !(r < 1)
	vline(0, censorColor, false, medianRight, "×1")
	if r > 0 && !math.IsInf(r, 0) {
		vline(math.Log10(r), clr, true, !medianRight, "median "+fmtRatio(r))
	}
	if ln > 0 {
		f.Legend.Add("noise ×"+strconv.FormatFloat(cs.noise(), 'f', -1, 64), &bandThumb{})
	}
	p.X.Min, p.X.Max = xlo, xhi
	p.X.Tick.Marker = ratioTicks{}

	return f, nil
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
