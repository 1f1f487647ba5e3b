package report

import (
	"fmt"
	"math"

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

// chartScatter is the scatter of column y against the baseline x.
type chartScatter struct {
	set     *chartSet
	x, y    *chartColumn
	idx     int // y's strategy index, for its color
	pts     []chartPair
	missing int // plotted rows of y with no plotted baseline row
	// Pairs by censored side: y only, x only, both.
	censY, censX, censXY int
}

// newScatter joins y with the baseline x on (corpus, id).
func (set *chartSet) newScatter(y, x *chartColumn, idx int) *chartScatter {
	type key struct {
		c  uint16
		id int32
	}
	base := make(map[key]chartPoint, len(x.pts))
	for _, p := range x.pts {
		base[key{p.e.Corpus, p.e.ID}] = p
	}
	sc := &chartScatter{set: set, x: x, y: y, idx: idx}
	for _, py := range y.pts {
		px, ok := base[key{py.e.Corpus, py.e.ID}]
		if !ok {
			sc.missing++
			continue
		}
		sc.pts = append(sc.pts, chartPair{x: px, y: py})
		switch {
		case px.censored && py.censored:
			sc.censXY++
		case py.censored:
			sc.censY++
		case px.censored:
			sc.censX++
		}
	}
	return sc
}

func (sc *chartScatter) title() string {
	return sc.set.title(fmt.Sprintf("%s vs %s: time per puzzle", sc.y.solver, sc.x.solver), len(sc.pts))
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
func (sc *chartScatter) highlighted() []chartPair {
	var out []chartPair
	for _, pr := range sc.pts {
		if sc.set.highlighted(pr.y.e) {
			out = append(out, pr)
		}
	}
	return out
}

// plot draws the scatter.
func (sc *chartScatter) plot() (*plot.Plot, error) {
	p := newChartPlot(sc.title(), sc.x.solver+": "+chartTime.axisLabel(), sc.y.solver+": "+chartTime.axisLabel())
	// Each axis spans its own values (at least a decade), so that a
	// strategy whose times are all alike still spreads its points.
	xlo, xhi := chartPairRange(sc.pts, func(pr chartPair) float64 { return pr.x.v })
	ylo, yhi := chartPairRange(sc.pts, func(pr chartPair) float64 { return pr.y.v })
	xlo, xhi = chartLogAxisRange(xlo, xhi, 0.08)
	ylo, yhi = chartLogAxisRange(ylo, yhi, 0.08)
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
	clr := chartColor(sc.idx)
	alpha, radius := 0.6, vg.Points(2)
	if len(sc.pts) > 20000 {
		alpha, radius = 0.2, vg.Points(1.2)
	} else if len(sc.pts) > 5000 {
		alpha, radius = 0.3, vg.Points(1.3)
	} else if len(sc.pts) > 1000 {
		alpha, radius = 0.45, vg.Points(1.6)
	}
	fin := &chartPoints{glyph: draw.GlyphStyle{Color: chartFade(clr, alpha), Radius: radius, Shape: draw.CircleGlyph{}}}
	tri := func(up, right bool) *chartPoints {
		return &chartPoints{glyph: draw.GlyphStyle{Color: chartCensorColor, Radius: vg.Points(3.5), Shape: chartTriangle{up: up, right: right}}}
	}
	cy, cx, cxy := tri(true, false), tri(false, true), tri(true, true)
	for _, pr := range sc.pts {
		t := fin
		switch {
		case pr.x.censored && pr.y.censored:
			t = cxy
		case pr.y.censored:
			t = cy
		case pr.x.censored:
			t = cx
		}
		lx, ly := math.Log10(pr.x.v), math.Log10(pr.y.v)
		t.xs, t.ys = append(t.xs, lx), append(t.ys, ly)
		nx = append(nx, (lx-lxlo)/(lxhi-lxlo))
		ny = append(ny, (ly-lylo)/(lyhi-lylo))
	}
	p.Add(fin)
	if len(fin.xs) > 0 {
		p.Legend.Add(fmt.Sprintf("puzzle (%d)", len(fin.xs)), &chartPoints{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	for _, c := range []struct {
		pts  *chartPoints
		text string
	}{
		{cy, fmt.Sprintf("%s %s (%d)", sc.y.solver, sc.y.censorWord(), len(cy.xs))},
		{cx, fmt.Sprintf("%s %s (%d)", sc.x.solver, sc.x.censorWord(), len(cx.xs))},
		{cxy, fmt.Sprintf("both stopped (%d)", len(cxy.xs))},
	} {
		if len(c.pts.xs) > 0 {
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
	chartLegendCorner(p, nx, ny, false)
	return p, nil
}

// chartPairRange returns the smallest and largest of f over the pairs
// (1e-6, 1e-3 when there is none).
func chartPairRange(pts []chartPair, f func(chartPair) float64) (lo, hi float64) {
	if len(pts) == 0 {
		return 1e-6, 1e-3
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, pr := range pts {
		lo, hi = math.Min(lo, f(pr)), math.Max(hi, f(pr))
	}
	return lo, hi
}
