package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The scatter of one strategy's time (y) against the baseline's (x),
// puzzle by puzzle, joined on (corpus, id), log-log with the diagonal
// y = x and dotted lines at 10x either way. Finished pairs are dots in
// the strategy's color; a pair with a censored side is an open triangle
// pointing where the true value lies (up: the strategy was stopped;
// right: the baseline was; both: up and right), at the time it was
// stopped.

// chartPair is one puzzle of a scatter.
type chartPair struct{ x, y chartPoint }

// chartScatter is the scatter of column y (of series ys) against the
// baseline x. It keeps no pair: the pairs are joined again, from the
// series and the baseline's times by puzzle (chartSet.baseV), when the
// chart is drawn.
type chartScatter struct {
	set     *chartSet
	ys      *Series
	x, y    *chartColumn
	idx     int // y's strategy index, for its color
	n       int // pairs: puzzles plotted by both
	missing int // plotted rows of y with no plotted baseline row
	// Pairs by censored side: y only, x only, both.
	censY, censX, censXY int
	xlo, xhi, ylo, yhi   float64     // range of the pairs' values
	marked               []chartPair // highlighted pairs, by y's (value, corpus, id)
	// pairs, when set, replaces the join from ys (a Stream's scatter).
	pairs func(fn func(x, y float64, xc, yc bool))
}

// count adds a pair (xv, yv), censored on the sides xc and yc, to the
// scatter's counts and range.
func (sc *chartScatter) count(xv, yv float64, xc, yc bool) {
	sc.n++
	sc.xlo, sc.xhi = math.Min(sc.xlo, xv), math.Max(sc.xhi, xv)
	sc.ylo, sc.yhi = math.Min(sc.ylo, yv), math.Max(sc.yhi, yv)
	switch {
	case xc && yc:
		sc.censXY++
	case yc:
		sc.censY++
	case xc:
		sc.censX++
	}
}

// newScatter joins y (the column of ys) with the baseline x on
// (corpus, id).
func (set *chartSet) newScatter(ys *Series, y, x *chartColumn, idx int) *chartScatter {
	sc := &chartScatter{set: set, ys: ys, x: x, y: y, idx: idx,
		xlo: math.Inf(1), xhi: math.Inf(-1), ylo: math.Inf(1), yhi: math.Inf(-1)}
	for i := range ys.Len() {
		st := ys.Status(i)
		if !chartPlotted(st) {
			continue
		}
		xv := set.baseV[ys.puzzle(i)]
		if math.IsNaN(xv) {
			sc.missing++
			continue
		}
		xc, yc := set.baseC[ys.puzzle(i)], st.Censored()
		yv := math.Max(chartValue(ys, i, chartTime), chartTime.floor())
		sc.count(xv, yv, xc, yc)
		if set.hl[ys.puzzleID(i)] {
			e := ys.At(i)
			sc.marked = append(sc.marked, chartPair{x: chartPoint{e: &e, v: xv, censored: xc}, y: chartPoint{e: &e, v: yv, censored: yc}})
		}
	}
	slices.SortFunc(sc.marked, func(a, b chartPair) int { return chartPointCmp(a.y, b.y) })
	if sc.n == 0 {
		sc.xlo, sc.xhi, sc.ylo, sc.yhi = 1e-6, 1e-3, 1e-6, 1e-3
	}
	return sc
}

// each calls fn with the values of every pair (x, y: seconds) and their
// censoring, in the order of the rows of y.
func (sc *chartScatter) each(fn func(x, y float64, xc, yc bool)) {
	if sc.pairs != nil {
		sc.pairs(fn)
		return
	}
	ys, set := sc.ys, sc.set
	for i := range ys.Len() {
		st := ys.Status(i)
		if !chartPlotted(st) {
			continue
		}
		p := ys.puzzle(i)
		if xv := set.baseV[p]; !math.IsNaN(xv) {
			fn(xv, math.Max(chartValue(ys, i, chartTime), chartTime.floor()), set.baseC[p], st.Censored())
		}
	}
}

func (sc *chartScatter) title() string {
	return sc.set.title(fmt.Sprintf("%s vs %s: time per puzzle", sc.y.solver, sc.x.solver), sc.n)
}

func (sc *chartScatter) caption() string {
	y, x := sc.y.solver, sc.x.solver
	main := fmt.Sprintf("Each point is one puzzle, %s's time (up) against %s's (across), both on log scales: points above the gray diagonal are puzzles %s takes longer on than %s, and the dotted lines mark 10 times slower and 10 times faster", y, x, y, x)
	var extra []string
	if n := sc.censY + sc.censX + sc.censXY; n > 0 {
		extra = append(extra, fmt.Sprintf("open triangles are the %s stopped by a timeout or limit, drawn at the time they were stopped and pointing where the true time lies (up: %s stopped, right: %s stopped)",
			chartPlural(n, "puzzle"), y, x))
	}
	if len(sc.highlighted()) > 0 {
		extra = append(extra, "highlighted puzzles are magenta dots")
	}
	extra = append(extra, sc.set.absentHighlights(sc.x, sc.y))
	if sc.missing > 0 {
		extra = append(extra, fmt.Sprintf("%s with no measured %s row left out", chartPlural(sc.missing, "puzzle"), x))
	}
	for _, col := range []*chartColumn{sc.y, sc.x} {
		for _, n := range col.notes() {
			extra = append(extra, col.solver+": "+n)
		}
	}
	return chartSentence(main, extra...)
}

// highlighted returns the highlighted pairs.
func (sc *chartScatter) highlighted() []chartPair { return sc.marked }

// plot draws the scatter.
func (sc *chartScatter) plot() (*plot.Plot, error) {
	p := newChartPlot(sc.title(), sc.x.solver+": "+chartTime.axisLabel(), sc.y.solver+": "+chartTime.axisLabel())
	// Each axis spans its own values (at least a decade), so that a
	// strategy whose times are all alike still spreads its points.
	xlo, xhi := chartLogAxisRange(sc.xlo, sc.xhi, 0.08)
	ylo, yhi := chartLogAxisRange(sc.ylo, sc.yhi, 0.08)
	lxlo, lxhi, lylo, lyhi := math.Log10(xlo), math.Log10(xhi), math.Log10(ylo), math.Log10(yhi)

	var nx, ny []float64 // normalized points and guides, to place the legend

	// Both axes hold log10 values. Guides: y = x, y = 10x, y = x/10,
	// each labelled at 85% of its visible part.
	guide := func(d float64, dashed bool, label string) error {
		a, b := math.Max(lxlo, lylo-d), math.Min(lxhi, lyhi-d) // visible x range
		if a >= b {
			return nil
		}
		l, err := plotter.NewLine(plotter.XYs{{X: a, Y: a + d}, {X: b, Y: b + d}})
		if err != nil {
			return err
		}
		l.Color = chartGuideColor
		l.Width = vg.Points(1)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(3)}
		}
		p.Add(l)
		gx, gy := chartDensify([]float64{(a - lxlo) / (lxhi - lxlo), (b - lxlo) / (lxhi - lxlo)},
			[]float64{(a + d - lylo) / (lyhi - lylo), (b + d - lylo) / (lyhi - lylo)}, 0.01)
		nx, ny = append(nx, gx...), append(ny, gy...)
		x := a + 0.85*(b-a)
		st := chartText(10, chartGuideColor)
		st.XAlign = draw.XRight
		p.Add(&chartTexts{xs: []float64{x}, ys: []float64{x + d}, texts: []string{label}, style: st,
			dx: vg.Points(-4), dy: vg.Points(2), halo: true})
		return nil
	}
	for _, g := range []struct {
		d      float64
		dashed bool
		label  string
	}{{0, false, "same time"}, {1, true, "10× slower"}, {-1, true, "10× faster"}} {
		if err := guide(g.d, g.dashed, g.label); err != nil {
			return nil, err
		}
	}

	// Points: finished pairs first, censored on top, highlights last.
	// The finished dots are drawn by one plotter that rasterises them
	// (chartDots); the censored triangles that fall on the same spot
	// (within chartSpot of the axes, a fifth of a pixel) are drawn once;
	// the legend is placed by the points' density on a grid.
	clr := chartColor(sc.idx)
	alpha, radius := 0.6, vg.Points(2)
	if sc.n > 20000 {
		alpha, radius = 0.2, vg.Points(1.2)
	} else if sc.n > 5000 {
		alpha, radius = 0.3, vg.Points(1.3)
	} else if sc.n > 1000 {
		alpha, radius = 0.45, vg.Points(1.6)
	}
	tri := func(up, right bool) *chartPoints {
		return &chartPoints{glyph: draw.GlyphStyle{Color: chartCensorColor, Radius: vg.Points(3.5), Shape: chartTriangle{up: up, right: right}}}
	}
	cy, cx, cxy := tri(true, false), tri(false, true), tri(true, true)
	var grid chartGrid
	spots := map[[3]int32]bool{}
	sc.each(func(xv, yv float64, xc, yc bool) {
		lx, ly := math.Log10(xv), math.Log10(yv)
		fx, fy := (lx-lxlo)/(lxhi-lxlo), (ly-lylo)/(lyhi-lylo)
		grid.add(fx, fy)
		if !xc && !yc {
			return
		}
		t, kind := cy, int32(0)
		switch {
		case xc && yc:
			t, kind = cxy, 2
		case xc:
			t, kind = cx, 1
		}
		spot := [3]int32{kind, int32(math.Round(fx * chartSpots)), int32(math.Round(fy * chartSpots))}
		if !spots[spot] {
			spots[spot] = true
			t.xs, t.ys = append(t.xs, lx), append(t.ys, ly)
		}
	})
	gx, gy, gw := grid.points()
	nx, ny = append(nx, gx...), append(ny, gy...)
	nw := make([]float64, len(nx))
	for i := range nw {
		nw[i] = 1
	}
	copy(nw[len(nw)-len(gw):], gw)
	fin := &chartDots{n: sc.n - sc.censX - sc.censY - sc.censXY,
		glyph: draw.GlyphStyle{Color: chartFade(clr, alpha), Radius: radius, Shape: draw.CircleGlyph{}},
		each: func(fn func(x, y float64)) {
			sc.each(func(xv, yv float64, xc, yc bool) {
				if !xc && !yc {
					fn(math.Log10(xv), math.Log10(yv))
				}
			})
		}}
	p.Add(fin)
	if fin.n > 0 {
		p.Legend.Add(fmt.Sprintf("puzzle (%d)", fin.n), &chartPoints{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	for _, c := range []struct {
		pts  *chartPoints
		n    int
		text string
	}{
		{cy, sc.censY, fmt.Sprintf("%s %s (%d)", sc.y.solver, sc.y.censorWord(), sc.censY)},
		{cx, sc.censX, fmt.Sprintf("%s %s (%d)", sc.x.solver, sc.x.censorWord(), sc.censX)},
		{cxy, sc.censXY, fmt.Sprintf("both stopped (%d)", sc.censXY)},
	} {
		if c.n > 0 {
			p.Add(c.pts)
			p.Legend.Add(c.text, c.pts)
		}
	}
	if hs := sc.highlighted(); len(hs) > 0 {
		hp := &chartPoints{glyph: draw.GlyphStyle{Color: chartHighlightColor, Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}}
		ht := &chartPointLabels{style: chartText(11, chartHighlightColor), gap: vg.Points(7)}
		for _, pr := range hs {
			lx, ly := math.Log10(pr.x.v), math.Log10(pr.y.v)
			hp.xs, hp.ys = append(hp.xs, lx), append(hp.ys, ly)
			ht.xs, ht.ys = append(ht.xs, lx), append(ht.ys, ly)
			ht.texts = append(ht.texts, sc.set.res.PuzzleLabel(pr.y.e))
		}
		p.Add(hp, ht)
		p.Legend.Add("highlighted", hp)
	}
	setLogAxis(&p.X, xlo, xhi, chartTime)
	setLogAxis(&p.Y, ylo, yhi, chartTime)
	chartLegendCornerW(p, nx, ny, nw, false)
	return p, nil
}

// chartSpots is how many spots across each axis censored marks are
// merged on (about a fifth of a pixel on a chart).
const chartSpots = 4000
