package chart

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
)

// The scatter of one strategy's time (y) against the baseline's (x),
// puzzle by puzzle, joined on (corpus, id), log-log on one range for
// both axes and a square data area, so that "the same time" is the
// diagonal y = x; dotted lines at 10x either way. Pairs finished on both
// sides (solved, unsolvable: see ending) are dots in the strategy's
// color; the others are drawn in near-black, never as dots. A pair with
// a side that gave up (stuck, wrong) is a cross at the time it took to
// give up: × when the strategy on y gave up, + when the baseline did,
// both marks when both did (that mark wins over a censored other side).
// Any other pair has a censored side (timeout, limit) and is an open
// triangle pointing where the true value lies (up: the strategy was
// stopped; right: the baseline was; both: up and right), at the time it
// was stopped.

// pointPair is one puzzle of a scatter.
type pointPair struct{ x, y point }

// scatter is the scatter of column y (of series ys) against the
// baseline x. It keeps no pair: the pairs are joined again, from the
// series and the baseline's times by puzzle (chartSet.baseV), when the
// chart is drawn.
type scatter struct {
	charts  *chartSet
	ys      *report.Series
	x, y    *column
	idx     int // y's strategy index, for its color
	n       int // pairs: puzzles plotted by both
	missing int // plotted rows of y with no plotted baseline row
	// Pairs with a side that gave up, by side: y only, x only, both.
	gaveY, gaveX, gaveXY int
	// Other pairs with a censored side, by side: y only, x only, both.
	censY, censX, censXY int
	xlo, xhi, ylo, yhi   float64     // range of the pairs' values
	marked               []pointPair // highlighted pairs, by y's (value, corpus, id)
}

// pairKind is how a scatter draws a pair: a dot (finished on both
// sides), a stop mark (a side gave up) or a triangle (a side censored),
// and on which side.
type pairKind struct {
	mark ending // endFinished: a dot; endGaveUp: a stop mark; endCensored: a triangle
	y, x bool   // the sides the mark is about
}

// kindOf classifies a pair by the outcomes of its sides.
func kindOf(xo, yo ending) pairKind {
	switch {
	case xo == endGaveUp || yo == endGaveUp:
		return pairKind{mark: endGaveUp, y: yo == endGaveUp, x: xo == endGaveUp}
	case xo == endCensored || yo == endCensored:
		return pairKind{mark: endCensored, y: yo == endCensored, x: xo == endCensored}
	}
	return pairKind{}
}

// count adds a pair (xv, yv), with the outcomes xo and yo, to the
// scatter's counts and range.
func (sc *scatter) count(xv, yv float64, xo, yo ending) {
	sc.n++
	sc.xlo, sc.xhi = math.Min(sc.xlo, xv), math.Max(sc.xhi, xv)
	sc.ylo, sc.yhi = math.Min(sc.ylo, yv), math.Max(sc.yhi, yv)
	k := kindOf(xo, yo)
	var both, y, x *int
	switch k.mark {
	case endFinished:
		return
	case endGaveUp:
		both, y, x = &sc.gaveXY, &sc.gaveY, &sc.gaveX
	default:
		both, y, x = &sc.censXY, &sc.censY, &sc.censX
	}
	switch {
	case k.x && k.y:
		*both++
	case k.y:
		*y++
	default:
		*x++
	}
}

// finished returns the number of pairs finished on both sides.
func (sc *scatter) finished() int {
	return sc.n - sc.gaveY - sc.gaveX - sc.gaveXY - sc.censY - sc.censX - sc.censXY
}

// newScatter joins y (the column of ys) with the baseline x on
// (corpus, id).
func (cs *chartSet) newScatter(ys *report.Series, y, x *column, idx int) *scatter {
	sc := &scatter{charts: cs, ys: ys, x: x, y: y, idx: idx,
		xlo: math.Inf(1), xhi: math.Inf(-1), ylo: math.Inf(1), yhi: math.Inf(-1)}
	for i := range ys.Len() {
		st := ys.Status(i)
		if !st.Measured() {
			continue
		}
		xv := cs.baseV[ys.Puzzle(i)]
		if math.IsNaN(xv) {
			sc.missing++
			continue
		}
		xo, yo := cs.baseO[ys.Puzzle(i)], endingOf(st)
		yv := math.Max(valueOf(ys, i, measureTime), measureTime.floor())
		sc.count(xv, yv, xo, yo)
		if cs.hl[ys.PuzzleID(i)] {
			e := ys.At(i)
			sc.marked = append(sc.marked, pointPair{x: point{e: &e, v: xv, out: xo}, y: point{e: &e, v: yv, out: yo}})
		}
	}
	slices.SortFunc(sc.marked, func(a, b pointPair) int { return comparePoints(a.y, b.y) })
	if sc.n == 0 {
		sc.xlo, sc.xhi, sc.ylo, sc.yhi = 1e-6, 1e-3, 1e-6, 1e-3
	}
	return sc
}

// each calls fn with the values of every pair (x, y: seconds) and their
// outcomes, in the order of the rows of y.
func (sc *scatter) each(fn func(x, y float64, xo, yo ending)) {
	ys, cs := sc.ys, sc.charts
	for i := range ys.Len() {
		st := ys.Status(i)
		if !st.Measured() {
			continue
		}
		p := ys.Puzzle(i)
		if xv := cs.baseV[p]; !math.IsNaN(xv) {
			fn(xv, math.Max(valueOf(ys, i, measureTime), measureTime.floor()), cs.baseO[p], endingOf(st))
		}
	}
}

func (sc *scatter) title() string {
	return sc.charts.title(fmt.Sprintf("%s vs %s: time per puzzle", sc.y.solver, sc.x.solver), sc.n)
}

func (sc *scatter) caption() string {
	y, x := sc.y.solver, sc.x.solver
	main := fmt.Sprintf("Each point is one puzzle, %s's time (up) against %s's (across), both on log scales: points above the gray diagonal are puzzles %s takes longer on than %s, and the dotted lines mark 10 times slower and 10 times faster", y, x, y, x)
	var extra []string
	if n := sc.gaveY + sc.gaveX + sc.gaveXY; n > 0 {
		var which []string
		if sc.gaveY+sc.gaveXY > 0 {
			which = append(which, "× "+y+" gave up")
		}
		if sc.gaveX+sc.gaveXY > 0 {
			which = append(which, "+ "+x+" gave up")
		}
		extra = append(extra, fmt.Sprintf("crosses are the %s on which a strategy gave up without a solution (stuck: it stopped by itself and would never solve them), drawn at the time it took to give up, not as finished (%s)",
			report.Count(n, "puzzle", "puzzles"), strings.Join(which, ", ")))
	}
	if n := sc.censY + sc.censX + sc.censXY; n > 0 {
		extra = append(extra, fmt.Sprintf("open triangles are the %s stopped by a timeout or limit, drawn at the time they were stopped and pointing where the true time lies (up: %s stopped, right: %s stopped)",
			report.Count(n, "puzzle", "puzzles"), y, x))
	}
	if len(sc.highlighted()) > 0 {
		extra = append(extra, "highlighted puzzles are magenta dots")
	}
	extra = append(extra, sc.charts.absentHighlights(sc.x, sc.y))
	if sc.missing > 0 {
		extra = append(extra, fmt.Sprintf("%s with no measured %s row left out", report.Count(sc.missing, "puzzle", "puzzles"), x))
	}
	for _, col := range []*column{sc.y, sc.x} {
		for _, n := range col.notes() {
			extra = append(extra, col.solver+": "+n)
		}
	}
	return sentence(main, extra...)
}

// highlighted returns the highlighted pairs.
func (sc *scatter) highlighted() []pointPair { return sc.marked }

// plot draws the scatter.
func (sc *scatter) plot() (*Figure, error) {
	f := NewFigure(sc.title(), sc.x.solver+": "+measureTime.axisLabel(), sc.y.solver+": "+measureTime.axisLabel(), squareSide, squareSide)
	f.Square = true
	p := f.Plot
	// One range for both axes: equal decades across and up.
	lo, hi := logAxisRange(math.Min(sc.xlo, sc.ylo), math.Max(sc.xhi, sc.yhi), 0.08)
	llo, lhi := math.Log10(lo), math.Log10(hi)
	if err := addGuides(f, llo, lhi); err != nil {
		return nil, err
	}

	// Points: finished pairs first, censored on top, highlights last.
	// The finished dots are drawn by one plotter that rasterises them
	// (dotPlotter); the censored triangles that fall on the same spot
	// (within scatterSpots of the axes, a fifth of a pixel) are drawn
	// once.
	clr := StrategyColor(sc.y.solver)
	alpha, radius := dotStyle(sc.n)
	marks := newPairMarks()
	sc.each(func(xv, yv float64, xo, yo ending) {
		lx, ly := math.Log10(xv), math.Log10(yv)
		marks.add(kindOf(xo, yo), lx, ly, (lx-llo)/(lhi-llo), (ly-llo)/(lhi-llo))
	})
	fin := &dotPlotter{n: sc.finished(),
		glyph: draw.GlyphStyle{Color: fade(clr, alpha), Radius: radius, Shape: draw.CircleGlyph{}},
		each: func(fn func(x, y float64)) {
			sc.each(func(xv, yv float64, xo, yo ending) {
				if xo == endFinished && yo == endFinished {
					fn(math.Log10(xv), math.Log10(yv))
				}
			})
		}}
	p.Add(fin)
	if fin.n > 0 {
		f.Legend.Add(fmt.Sprintf("puzzle (%d)", fin.n), &pointPlotter{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	marks.addTo(f, [6]string{
		fmt.Sprintf("%s %s", sc.y.solver, sc.y.gaveWord()), fmt.Sprintf("%s %s", sc.x.solver, sc.x.gaveWord()), "both gave up",
		fmt.Sprintf("%s %s", sc.y.solver, sc.y.censorWord()), fmt.Sprintf("%s %s", sc.x.solver, sc.x.censorWord()), "both stopped"})
	sc.addHighlights(f)
	setLogAxis(&p.X, lo, hi, measureTime)
	setLogAxis(&p.Y, lo, hi, measureTime)
	return f, nil
}

// dotStyle returns the opacity and radius of a scatter's dots for n
// points: the more points, the smaller and paler, so that dense regions
// still show their density.
func dotStyle(n int) (alpha float64, radius vg.Length) {
	switch {
	case n > 20000:
		return 0.2, vg.Points(1.2)
	case n > 5000:
		return 0.3, vg.Points(1.3)
	case n > 1000:
		return 0.45, vg.Points(1.6)
	}
	return 0.6, vg.Points(2)
}

// addGuides draws the guides of a scatter whose axes both hold log10
// values over [llo, lhi]: y = x, y = 10x and y = x/10, each labelled
// along its visible part, the labels over the points.
func addGuides(f *Figure, llo, lhi float64) error {
	guide := func(d float64, dashed bool, label string, at float64) error {
		st := draw.LineStyle{Color: guideColor, Width: vg.Points(1)}
		if dashed {
			st.Dashes = []vg.Length{vg.Points(2), vg.Points(3)}
		}
		return addDiagonal(f, llo, lhi, d, st, label, at)
	}
	// "same time" and "10× faster" at 85% of their lines, "10× slower"
	// at half of its own, away from "same time" above it.
	for _, g := range []struct {
		d      float64
		dashed bool
		label  string
		at     float64
	}{{0, false, "same time", 0.85}, {1, true, "10× slower", 0.5}, {-1, true, "10× faster", 0.85}} {
		if err := guide(g.d, g.dashed, g.label, g.at); err != nil {
			return err
		}
	}
	return nil
}

// addDiagonal draws the line y = x + d on a scatter whose axes both
// hold log10 values over [llo, lhi], in style, labelled text at the
// fraction at of its visible part, the label over the points; nothing
// when no part of it is in the plot.
func addDiagonal(f *Figure, llo, lhi, d float64, style draw.LineStyle, text string, at float64) error {
	a, b := math.Max(llo, llo-d), math.Min(lhi, lhi-d) // visible x range
	if a >= b {
		return nil
	}
	l, err := plotter.NewLine(plotter.XYs{{X: a, Y: a + d}, {X: b, Y: b + d}})
	if err != nil {
		return err
	}
	l.LineStyle = style
	f.Plot.Add(l)
	x := a + at*(b-a)
	st := textStyle(10, style.Color)
	st.XAlign = draw.XRight
	f.AddLabels(&textPlotter{xs: []float64{x}, ys: []float64{x + d}, texts: []string{text}, style: st,
		dx: vg.Points(-4), dy: vg.Points(2), halo: true})
	return nil
}

// addHighlights marks and labels the highlighted puzzles of the scatter.
func (sc *scatter) addHighlights(f *Figure) {
	hs := sc.highlighted()
	if len(hs) == 0 {
		return
	}
	hp := &pointPlotter{glyph: draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}}
	ht := &pointLabels{style: textStyle(11, highlightColor), gap: vg.Points(7)}
	for _, pr := range hs {
		lx, ly := math.Log10(pr.x.v), math.Log10(pr.y.v)
		hp.xs, hp.ys = append(hp.xs, lx), append(hp.ys, ly)
		ht.xs, ht.ys = append(ht.xs, lx), append(ht.ys, ly)
		ht.texts = append(ht.texts, sc.charts.res.PuzzleLabel(pr.y.e))
	}
	f.Plot.Add(hp)
	f.AddLabels(ht)
	f.Legend.Add("highlighted", hp)
}

// scatterSpots is how many spots across each axis censored marks are
// merged on (about a fifth of a pixel on a chart).
const scatterSpots = 4000

// pairMarks are a scatter's marks of the pairs that did not finish on
// both sides, a plotter per kind in the order y gave up, x gave up,
// both gave up, y stopped, x stopped, both stopped (see pairKind): a
// stop mark or a triangle, drawn once per spot (scatterSpots, a fifth of
// a pixel), every pair counted.
type pairMarks struct {
	plotters [6]*pointPlotter
	counts   [6]int
	spots    map[[3]int32]bool
}

func newPairMarks() *pairMarks {
	m := &pairMarks{spots: map[[3]int32]bool{}}
	for i, side := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		m.plotters[i] = &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: stopMarks{y: side[0], x: side[1]}}}
		m.plotters[3+i] = &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: triangle{up: side[0], right: side[1]}}}
	}
	return m
}

// add marks a pair of kind k at (lx, ly) in axis units, (fx, fy) in
// normalized ones; a pair finished on both sides has no mark.
func (m *pairMarks) add(k pairKind, lx, ly, fx, fy float64) {
	if k.mark == endFinished {
		return
	}
	i := 0
	switch {
	case k.x && k.y:
		i = 2
	case k.x:
		i = 1
	}
	if k.mark == endCensored {
		i += 3
	}
	m.counts[i]++
	spot := [3]int32{int32(i), int32(math.Round(fx * scatterSpots)), int32(math.Round(fy * scatterSpots))}
	if !m.spots[spot] {
		m.spots[spot] = true
		t := m.plotters[i]
		t.xs, t.ys = append(t.xs, lx), append(t.ys, ly)
	}
}

// addTo adds the marks of each kind that occurs to f, and a legend entry
// each: its text (texts in the plotters' order) and its count.
func (m *pairMarks) addTo(f *Figure, texts [6]string) {
	for i, t := range m.plotters {
		if m.counts[i] > 0 {
			f.Plot.Add(t)
			f.Legend.Add(fmt.Sprintf("%s (%d)", texts[i], m.counts[i]), t)
		}
	}
}
