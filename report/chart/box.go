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

// The box plots of time per strategy, on a log axis. The statistics are
// taken in log space (a box on a log axis is only symmetric there):
// quartiles and median over every plotted row, censored rows counted at
// the value where they were stopped; whiskers reach the furthest row
// within 1.5 interquartile ranges; finished rows beyond are drawn as
// rings; censored rows are drawn as one triangle at the censoring point,
// labelled with their count.

func (set *shared) boxTitle() string {
	return set.title("Time per puzzle by strategy", set.res.Puzzles)
}

func (set *shared) boxCaption() string {
	main := "Box plots of time per puzzle for each strategy on a log scale: the box spans the middle half of the puzzles with a line at the median, whiskers reach the furthest puzzle within 1.5 box heights (in log space) and rings are the puzzles beyond"
	var extra []string
	censored, notes := set.timeNotes()
	if len(censored) > 0 {
		extra = append(extra, "a triangle marks the time at which censored rows were stopped ("+strings.Join(censored, "; ")+
			"); they count at that time in the box, so a box that reaches it is a lower bound")
	}
	if set.anyHighlighted(set.time...) {
		extra = append(extra, "highlighted puzzles are magenta dots")
	}
	extra = append(extra, set.absentHighlights(set.time...))
	extra = append(extra, notes...)
	return sentence(main, extra...)
}

// boxStats is the box of one strategy, in log10 of seconds (the y axis
// holds log10 values).
type boxStats struct {
	x                float64 // position on the nominal axis
	empty            bool    // no row to plot: nothing is drawn
	q1, median, q3   float64
	whiskLo, whiskHi float64
	outliers         []float64 // finished rows beyond the whiskers, increasing
	hasCensor        bool      // some rows are censored:
	censorAt         float64   // where they start
	censorText       string    // "394 timeouts"
	color            color.Color
	highlight        []float64 // highlighted puzzles
	highlightText    []string
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
// finished and censored values of a column.
func computeBoxStats(fin, cen []float64) boxStats {
	var b boxStats
	n := len(fin) + len(cen)
	if n == 0 {
		b.empty = true
		return b
	}
	// Every plotted value, increasing, in log10.
	logs := make([]float64, 0, n)
	i, j := 0, 0
	for i < len(fin) || j < len(cen) {
		if j == len(cen) || i < len(fin) && fin[i] <= cen[j] {
			logs = append(logs, math.Log10(fin[i]))
			i++
		} else {
			logs = append(logs, math.Log10(cen[j]))
			j++
		}
	}
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
	if len(cen) > 0 {
		b.hasCensor = true
		b.censorAt = math.Log10(cen[0])
	}
	b.valueLo, b.valueHi = math.Inf(1), math.Inf(-1)
	for _, vs := range [][]float64{fin, cen} {
		if len(vs) > 0 {
			b.valueLo, b.valueHi = math.Min(b.valueLo, vs[0]), math.Max(b.valueHi, vs[len(vs)-1])
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
	half := (trX(1) - trX(0)) * 0.22
	for _, b := range bs.boxes {
		if b.empty {
			continue
		}
		x := trX(b.x)
		line := draw.LineStyle{Color: b.color, Width: vg.Points(1.5)}
		// Whiskers and caps.
		c.StrokeLine2(line, x, trY(b.whiskLo), x, trY(b.q1))
		c.StrokeLine2(line, x, trY(b.q3), x, trY(b.whiskHi))
		c.StrokeLine2(line, x-half/2, trY(b.whiskLo), x+half/2, trY(b.whiskLo))
		c.StrokeLine2(line, x-half/2, trY(b.whiskHi), x+half/2, trY(b.whiskHi))
		// Box and median.
		r := vg.Rectangle{Min: vg.Point{X: x - half, Y: trY(b.q1)}, Max: vg.Point{X: x + half, Y: trY(b.q3)}}
		c.SetColor(fade(b.color, 0.3))
		c.Fill(r.Path())
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
		// Censored rows: one triangle, labelled.
		if b.hasCensor {
			pt := vg.Point{X: x, Y: trY(b.censorAt)}
			c.DrawGlyphNoClip(draw.GlyphStyle{Color: censorColor, Radius: vg.Points(6), Shape: filledTriangle{fill: b.color}}, pt)
			st := textStyle(10, censorColor)
			st.YAlign = draw.YCenter
			tp := vg.Point{X: x + half + vg.Points(4), Y: pt.Y}
			drawHalo(&c, st, tp, b.censorText)
			c.FillText(st, tp, b.censorText)
		}
		// Highlighted puzzles: dots, and labels left of the box, moved
		// apart (with a leader line) when they would overlap.
		st := textStyle(10, highlightColor)
		st.XAlign = draw.XRight
		st.YAlign = draw.YCenter
		h := st.FontExtents().Height
		type label struct {
			y, ly vg.Length
			text  string
		}
		var ls []label
		for i, v := range b.highlight {
			pt := vg.Point{X: x, Y: trY(v)}
			c.DrawGlyph(draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}, pt)
			if i < maxLabels {
				ls = append(ls, label{y: pt.Y, ly: pt.Y, text: b.highlightText[i]})
			}
		}
		slices.SortStableFunc(ls, func(a, b label) int { return cmp.Compare(a.y, b.y) })
		for i := 1; i < len(ls); i++ {
			ls[i].ly = max(ls[i].ly, ls[i-1].ly+h)
		}
		lx := x - half - vg.Points(6)
		for _, l := range ls {
			if l.ly-l.y > vg.Points(1) {
				c.StrokeLine2(draw.LineStyle{Color: highlightColor, Width: vg.Points(0.5)}, x-vg.Points(4), l.y, lx+vg.Points(1), l.ly)
			}
			tp := vg.Point{X: lx, Y: l.ly}
			drawHalo(&c, st, tp, l.text)
			c.FillText(st, tp, l.text)
		}
	}
}

// boxPlot draws the box plots of time of all strategies.
func (set *shared) boxPlot() (*plot.Plot, error) {
	p := newPlot(set.boxTitle(), "strategy", measureTime.axisLabel())
	var names []string
	bs := &boxPlotter{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, col := range set.time {
		name := col.solver
		if col.n == 0 {
			name += " (nothing to plot)"
		}
		names = append(names, name)
		b := newBox(col, float64(i), seriesColor(i))
		b.censorText = col.censorCount()
		for _, hp := range col.find(set.opt.Highlight) {
			b.highlight = append(b.highlight, math.Log10(hp.v))
			b.highlightText = append(b.highlightText, set.res.PuzzleLabel(hp.e))
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
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	setLogAxis(&p.Y, lo, hi, measureTime)
	return p, nil
}
