package chart

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The box plots of time per strategy, on a log axis. A box summarises
// every measured unit of its strategy at its value, as the summary's
// table does: a unit stopped by a limit at the value where it was
// stopped (a lower bound), one that gave up (stuck, wrong) at the time
// it took to give up; so its median is the table's median. The
// statistics are taken in log space (a box on a log axis is only
// symmetric there): quartiles and median (the summary's estimator, the
// value of an actual unit); whiskers reach the furthest unit within 1.5
// interquartile ranges; finished units beyond are drawn as rings. A box
// of which fewer than half the units finished is drawn hollow and dashed
// (its upper part is bounds), and a strategy that finished nothing has
// no box. The units that did not finish are also marked right of the
// box, each kind as one mark: those that gave up as a cross at their
// median time; the censored ones (timeout, limit) as a filled triangle
// where the first of them was stopped (a lower bound). The legend names
// the marks. When some strategy did not solve every puzzle, each
// strategy's name on the axis is followed by its shares of outcomes, a
// line each ("84% solved", "16% timeout"); the caption gives the
// counts. Highlighted puzzles are dots at their time, on the box when
// finished and on the marks when not (labelled with their status).

func (cs *chartSet) boxTitle() string {
	return cs.title("Time per puzzle by strategy", cs.res.Puzzles)
}

func (cs *chartSet) boxCaption() string {
	main := "Box plots of the time per puzzle of each strategy on a log scale, over every puzzle it measured (its median is the table's): the box spans the middle half of them with a line at the median, whiskers reach the furthest within 1.5 box heights (in log space) and rings are the finished puzzles beyond"
	var extra []string
	gave, censored, notes := cs.timeNotes()
	if len(gave)+len(censored) > 0 {
		extra = append(extra, "puzzles a strategy did not finish are in its box at their value and marked right of it; under each strategy's name is its share of puzzles solved and of each kind not finished")
	}
	if len(gave) > 0 {
		extra = append(extra, "a cross marks the median time at which a strategy gave up without a solution ("+strings.Join(gave, "; ")+
			"): stuck means it stopped by itself and would never solve those puzzles")
	}
	if len(censored) > 0 {
		extra = append(extra, "a triangle marks where the first timeout or limit was stopped ("+strings.Join(censored, "; ")+
			"): those puzzles took at least that long, and enter the box at the time they were stopped, a lower bound")
	}
	for _, c := range cs.time {
		if c.fin > 0 && 2*c.fin < c.n {
			extra = append(extra, "a hollow dashed box is one of whose puzzles fewer than half finished: its median and upper part are lower bounds")
			break
		}
	}
	for _, c := range cs.time {
		if c.fin == 0 && c.n > 0 {
			extra = append(extra, "a strategy that finished no puzzle has no box")
			break
		}
	}
	if cs.anyHighlighted(cs.time...) {
		extra = append(extra, "highlighted puzzles are magenta dots at their time, on the box when finished, on the marks when not")
	}
	extra = append(extra, cs.absentHighlights(cs.time...))
	extra = append(extra, notes...)
	return sentence(main, extra...)
}

// boxStats is the box of one strategy, in log10 of seconds (the y axis
// holds log10 values).
type boxStats struct {
	x                float64 // position on the nominal axis
	empty            bool    // no row to plot: nothing is drawn
	noBox            bool    // no finished row: marks only, no box
	minority         bool    // the box holds fewer than half the rows
	q1, median, q3   float64
	whiskLo, whiskHi float64
	outliers         []float64 // finished rows beyond the whiskers, increasing
	hasCensor        bool      // some rows are censored:
	censorAt         float64   // where they start
	hasGave          bool      // some rows gave up (stuck, wrong):
	gaveAt           float64   // their median
	color            color.Color
	highlight        []float64 // highlighted puzzles
	highlightText    []string
	highlightBeside  []bool  // drawn beside the box, with the marks: not finished
	valueLo, valueHi float64 // smallest and largest value, in seconds
}

// newBox returns the box of col at position x.
func newBox(col *column, x float64, clr color.Color) boxStats {
	b := col.box
	b.x, b.color = x, clr
	b.outliers = slices.Clone(b.outliers)
	return b
}

// computeBoxStats computes the statistics of a box over the sorted
// values of a column's finished units, those that gave up and the
// censored ones: the box is of all of them (see the file's comment).
func computeBoxStats(fin, gave, cen []float64) boxStats {
	var b boxStats
	n := len(fin) + len(gave) + len(cen)
	if n == 0 {
		b.empty = true
		return b
	}
	b.valueLo, b.valueHi = math.Inf(1), math.Inf(-1)
	for _, vs := range [][]float64{fin, gave, cen} {
		if len(vs) > 0 {
			b.valueLo, b.valueHi = math.Min(b.valueLo, vs[0]), math.Max(b.valueHi, vs[len(vs)-1])
		}
	}
	if len(cen) > 0 {
		b.hasCensor = true
		b.censorAt = math.Log10(cen[0])
	}
	if len(gave) > 0 {
		b.hasGave = true
		b.gaveAt = math.Log10(quantile(gave, 0.5))
	}
	if len(fin) == 0 {
		b.noBox = true
		return b
	}
	b.minority = 2*len(fin) < n
	all := make([]float64, 0, n)
	all = append(append(append(all, fin...), gave...), cen...)
	slices.Sort(all)
	logs := log10s(all) // increasing
	q1, med, q3 := quantile(logs, 0.25), quantile(logs, 0.5), quantile(logs, 0.75)
	iqr := q3 - q1
	fLo, fHi := q1-1.5*iqr, q3+1.5*iqr
	b.q1, b.median, b.q3 = q1, med, q3
	b.whiskLo, b.whiskHi = b.q1, b.q3
	for _, l := range logs {
		if l >= fLo && l <= fHi {
			b.whiskLo = math.Min(b.whiskLo, l)
			b.whiskHi = math.Max(b.whiskHi, l)
		}
	}
	for _, v := range fin {
		if l := math.Log10(v); l < fLo || l > fHi {
			b.outliers = append(b.outliers, l)
		}
	}
	return b
}

// boxPlotter draws the boxes.
type boxPlotter struct {
	boxes []boxStats
}

// Plot implements plot.Plotter.
func (bs *boxPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	half := (trX(1) - trX(0)) * boxHalf
	for _, b := range bs.boxes {
		if !b.empty {
			b.draw(&c, trX(b.x), half, trY)
		}
	}
	// The highlighted puzzles over every box and mark, so that no box
	// drawn later covers a label.
	for _, b := range bs.boxes {
		if !b.empty {
			b.drawHighlights(&c, trX(b.x), half, trY)
		}
	}
}

// draw draws the box at x (half its width wide each side, values to y by
// trY): its whiskers, box, median and outliers, unless it has none
// (noBox), and right of it a mark per kind of row left out of it.
func (b *boxStats) draw(c *draw.Canvas, x, half vg.Length, trY func(float64) vg.Length) {
	if !b.noBox {
		line := draw.LineStyle{Color: b.color, Width: vg.Points(1.5)}
		if b.minority {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2.5)}
		}
		// Whiskers and caps.
		c.StrokeLine2(line, x, trY(b.whiskLo), x, trY(b.q1))
		c.StrokeLine2(line, x, trY(b.q3), x, trY(b.whiskHi))
		c.StrokeLine2(line, x-half/2, trY(b.whiskLo), x+half/2, trY(b.whiskLo))
		c.StrokeLine2(line, x-half/2, trY(b.whiskHi), x+half/2, trY(b.whiskHi))
		// Box (hollow when it holds a minority of the rows) and median.
		r := vg.Rectangle{Min: vg.Point{X: x - half, Y: trY(b.q1)}, Max: vg.Point{X: x + half, Y: trY(b.q3)}}
		if !b.minority {
			c.SetColor(fade(b.color, 0.3))
			c.Fill(r.Path())
		}
		c.SetLineStyle(line)
		c.Stroke(r.Path())
		c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(2.5)}, x-half, trY(b.median), x+half, trY(b.median))
		// Outliers (sorted): one ring per 0.75 point, since rings
		// closer than that look the same.
		ring := draw.GlyphStyle{Color: fade(b.color, 0.7), Radius: vg.Points(2), Shape: draw.RingGlyph{}}
		last := vg.Length(math.Inf(-1))
		for _, v := range b.outliers {
			if y := trY(v); y-last >= vg.Points(0.75) {
				c.DrawGlyph(ring, vg.Point{X: x, Y: y})
				last = y
			}
		}
	}
	// The rows left out of the box: one mark per kind, right of
	// the box.
	for _, m := range b.marks() {
		c.DrawGlyphNoClip(m.glyph(b.color), vg.Point{X: x + half + markGap, Y: trY(m.at)})
	}
}

// drawHighlights draws the highlighted puzzles of the box at x: dots, at
// the box for finished rows and at the marks for the others, labelled on
// their side (left of the box, right of the marks), the labels moved
// apart (with a leader line) when they would overlap.
func (b *boxStats) drawHighlights(c *draw.Canvas, x, half vg.Length, trY func(float64) vg.Length) {
	type label struct {
		x, y, ly vg.Length
		text     string
	}
	var left, right []label
	for i, v := range b.highlight {
		pt := vg.Point{X: x, Y: trY(v)}
		if b.highlightBeside[i] {
			pt.X = x + half + markGap
		}
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}, pt)
		if i < maxLabels {
			l := label{x: pt.X, y: pt.Y, ly: pt.Y, text: b.highlightText[i]}
			if b.highlightBeside[i] {
				right = append(right, l)
			} else {
				left = append(left, l)
			}
		}
	}
	for _, side := range []struct {
		ls    []label
		align draw.XAlignment
		lx    vg.Length
		dir   vg.Length
	}{{left, draw.XRight, x - half - vg.Points(6), -1}, {right, draw.XLeft, x + half + markGap + vg.Points(10), 1}} {
		st := textStyle(10, highlightColor)
		st.XAlign = side.align
		st.YAlign = draw.YCenter
		h := st.FontExtents().Height
		ls := side.ls
		slices.SortStableFunc(ls, func(a, b label) int { return cmp.Compare(a.y, b.y) })
		for i := 1; i < len(ls); i++ {
			ls[i].ly = max(ls[i].ly, ls[i-1].ly+h)
		}
		for _, l := range ls {
			if l.ly-l.y > vg.Points(1) {
				c.StrokeLine2(draw.LineStyle{Color: highlightColor, Width: vg.Points(0.5)}, l.x+side.dir*vg.Points(4), l.y, side.lx-side.dir*vg.Points(1), l.ly)
			}
			tp := vg.Point{X: side.lx, Y: l.ly}
			drawHalo(c, st, tp, l.text)
			c.FillText(st, tp, l.text)
		}
	}
}

// boxHalf is the half width of a box, in units of the nominal axis
// (one unit between strategies).
const boxHalf = 0.22

// markGap is how far right of a box its marks are drawn.
const markGap = vg.Length(9)

// boxMark is the mark of the rows left out of a box: where it is
// (log10 seconds) and whether the rows gave up or were censored.
type boxMark struct {
	at       float64
	censored bool
}

// glyph returns the style of the mark in the strategy's color clr.
func (m boxMark) glyph(clr color.Color) draw.GlyphStyle {
	if m.censored {
		return draw.GlyphStyle{Color: censorColor, Radius: vg.Points(6), Shape: filledTriangle{fill: clr}}
	}
	return draw.GlyphStyle{Color: censorColor, Radius: vg.Points(6), Shape: stopCross{fill: clr}}
}

// marks returns the marks of the rows left out of the box: the rows
// that gave up, then the censored ones.
func (b *boxStats) marks() []boxMark {
	var out []boxMark
	if b.hasGave {
		out = append(out, boxMark{at: b.gaveAt})
	}
	if b.hasCensor {
		out = append(out, boxMark{at: b.censorAt, censored: true})
	}
	return out
}

// boxTickLabel is the label of a strategy on the box plot's axis: its
// name and, when shares is set, a line per ending with its share of
// the strategy's rows: "backtrack\n84% solved\n16% timeout".
func boxTickLabel(col *column, shares bool) string {
	name := col.solver
	switch {
	case col.n == 0:
		return name + "\n(nothing to plot)"
	case !shares:
		return name
	}
	name += "\n" + percent(col.fin-col.unsolvable, col.n) + " solved"
	for _, k := range []struct {
		n    int
		word string
	}{{col.unsolvable, "unsolvable"}, {col.stuck, "stuck"}, {col.wrong, "wrong"}, {col.timeouts, "timeout"}, {col.limits, "limit"}} {
		if k.n > 0 {
			name += "\n" + percent(k.n, col.n) + " " + k.word
		}
	}
	return name
}

// boxPlot draws the box plots of time of all strategies.
func (cs *chartSet) boxPlot() (*Figure, error) {
	f := NewFigure(cs.boxTitle(), "strategy", measureTime.axisLabel(), plotWidth, plotHeight)
	p := f.Plot
	var names []string
	bs := &boxPlotter{}
	lo, hi := math.Inf(1), math.Inf(-1)
	// Each strategy's name gives its shares of outcomes, when some
	// strategy did not solve every puzzle.
	shares := cs.anyUnfinished()
	var all column // the counts of all strategies, for the legend's words
	for i, col := range cs.time {
		names = append(names, boxTickLabel(col, shares))
		all.stuck, all.wrong, all.timeouts, all.limits = all.stuck+col.stuck, all.wrong+col.wrong, all.timeouts+col.timeouts, all.limits+col.limits
		b := newBox(col, float64(i), StrategyColor(col.solver))
		for _, hp := range col.find(cs.opt.Highlight) {
			b.highlight = append(b.highlight, math.Log10(hp.v))
			text := cs.res.PuzzleLabel(hp.e)
			if hp.out != endFinished {
				text += " (" + hp.e.Status.String() + ")"
			}
			b.highlightText = append(b.highlightText, text)
			b.highlightBeside = append(b.highlightBeside, hp.out != endFinished)
		}
		if !b.empty {
			lo, hi = math.Min(lo, b.valueLo), math.Max(hi, b.valueHi)
		}
		bs.boxes = append(bs.boxes, b)
	}
	if math.IsInf(lo, 0) {
		lo, hi = 1e-6, 1e-3
	}
	lo, hi = logAxisRange(lo, hi, 0.15)
	p.Add(bs)
	p.NominalX(names...)
	p.X.Tick.Label.Font = textStyle(12, color.Black).Font
	// The small figure has no room for the shares under the names (the
	// caption gives them): the names alone, smaller.
	f.OnShrink = func(f *Figure) {
		var short []string
		for _, col := range cs.time {
			short = append(short, col.solver)
		}
		f.Plot.NominalX(short...)
		f.Plot.X.Tick.Label.Font = textStyle(9, color.Black).Font
	}
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	setLogAxis(&p.Y, lo, hi, measureTime)
	// A legend for the marks.
	if all.unfinished() > 0 {
		gray := color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
		for _, m := range []boxMark{{}, {censored: true}} {
			g := m.glyph(gray)
			g.Radius = vg.Points(4.5)
			switch {
			case !m.censored && all.gaveUp() > 0:
				f.Legend.Add(all.gaveWord()+": median time", &pointPlotter{glyph: g})
			case m.censored && all.censored() > 0:
				f.Legend.Add(all.censorWord()+": where the first was stopped (≥)", &pointPlotter{glyph: g})
			}
		}
	}
	return f, nil
}
