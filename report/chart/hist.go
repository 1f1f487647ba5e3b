package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
)

// The per-strategy histograms of log time and log calls. Time bins are
// shared by every strategy (equal widths in log space over the range of
// all of them), so two strategies' time histograms read on the same
// axis; calls count different things in each strategy, so each calls
// histogram spans its own range, with integer bin edges. Counts go on a
// log axis when the tallest bar is 50 times the shortest (a long tail
// of single puzzles would not show on a linear one). Finished rows
// (solved, unsolvable: see ending) are bars in the strategy's color;
// the rows that did not finish are stacked on top, at their own value,
// each kind named with its count in the legend: first the rows that
// gave up (stuck, wrong), a pale segment hatched in the strategy's color
// from top left to bottom right, at the value where the strategy gave
// up (exact, but not a solving time); then the censored rows (timeout,
// limit), a segment hatched in near-black from bottom left to top
// right, at the value where they were stopped (a lower bound). The
// slowest puzzles of the report's ranking are labelled with their id
// (and their status when they did not finish), and highlighted
// puzzles are marked in magenta wherever they fall (with their status
// when they did not finish).

// histBins returns the bins of col's histogram and the finished,
// gave-up and censored rows in each.
func (cs *chartSet) histBins(col *column, idx int) (edges, fin, gave, cen []float64) {
	edges, fin, gave, cen = col.edges, col.binFin, col.binGave, col.binCen
	if len(edges) < 2 {
		edges = []float64{1, 10}
	}
	if len(fin) != len(edges)-1 {
		fin, gave, cen = make([]float64, len(edges)-1), make([]float64, len(edges)-1), make([]float64, len(edges)-1)
	}
	return edges, fin, gave, cen
}

// logCounts reports whether the counts of a histogram go on a log
// axis (when the smallest bars would not show on a linear one: a long
// tail of a few puzzles per bin), and the largest count.
func logCounts(fin, gave, cen []float64) (bool, float64) {
	maxN, minN := 0.0, math.Inf(1)
	for b := range fin {
		if n := fin[b] + gave[b] + cen[b]; n > 0 {
			maxN, minN = math.Max(maxN, n), math.Min(minN, n)
		}
	}
	return maxN >= logCountRatio*minN, maxN
}

// histPlot draws the histogram of col, the idx-th strategy.
func (cs *chartSet) histPlot(col *column, idx int) (*Figure, error) {
	edges, fin, gave, cen := cs.histBins(col, idx)
	nb := len(edges) - 1
	lgEdges := log10s(edges) // the x axis holds log10 values

	logY, maxN := logCounts(fin, gave, cen)
	fy, ylabel := countScale(logY)
	// The tops of the stacked segments: finished, gave up, censored.
	zero, finTop, gaveTop, tops := make([]float64, nb), make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for b := range nb {
		zero[b], finTop[b], gaveTop[b], tops[b] = fy(0), fy(fin[b]), fy(fin[b]+gave[b]), fy(fin[b]+gave[b]+cen[b])
		if fin[b] == 0 {
			finTop[b] = zero[b]
		}
		if fin[b]+gave[b] == 0 {
			gaveTop[b] = zero[b]
		}
	}

	f := NewFigure(cs.histTitle(col), col.measure.axisLabel(), ylabel, plotWidth, plotHeight)
	p := f.Plot
	setLogAxis(&p.X, edges[0], edges[nb], col.measure)
	clr := StrategyColor(col.solver)
	finBars := &histBars{edges: lgEdges, lo: zero, hi: finTop, fill: clr,
		line: draw.LineStyle{Color: fade(clr, 0.5), Width: vg.Points(0.5)}}
	p.Add(finBars)
	// A legend only when there are two kinds of bar.
	if col.unfinished() > 0 && col.fin > 0 {
		f.Legend.Add(fmt.Sprintf("finished (%d)", col.fin), finBars)
	}
	if col.gaveUp() > 0 {
		gaveBars := &histBars{edges: lgEdges, lo: finTop, hi: gaveTop, fill: fade(clr, 0.15),
			line:  draw.LineStyle{Color: clr, Width: vg.Points(1)},
			hatch: &draw.LineStyle{Color: clr, Width: vg.Points(0.9)}, back: true}
		p.Add(gaveBars)
		f.Legend.Add(fmt.Sprintf("%s (%d), at the %s it gave up", col.gaveWord(), col.gaveUp(), col.measure), gaveBars)
	}
	if col.censored() > 0 {
		cenBars := &histBars{edges: lgEdges, lo: gaveTop, hi: tops, fill: fade(censorColor, 0.12),
			line:  draw.LineStyle{Color: censorColor, Width: vg.Points(1)},
			hatch: &draw.LineStyle{Color: censorColor, Width: vg.Points(0.7)}}
		p.Add(cenBars)
		f.Legend.Add(fmt.Sprintf("%s (%d), at the %s reached", col.censorWord(), col.censored(), col.measure), cenBars)
	}

	var labels []barLabel
	for _, hp := range cs.hardest(col) {
		labels = append(labels, barLabel{x: math.Log10(hp.v), top: tops[binIndex(edges, hp.v)], text: hp.text})
	}
	for k, hp := range col.find(cs.opt.Highlight) {
		if k == maxLabels {
			break // see maxLabels
		}
		text := cs.res.PuzzleLabel(hp.e)
		if hp.out != endFinished {
			text += " (" + hp.e.Status.String() + ")"
		}
		labels = append(labels, barLabel{x: math.Log10(hp.v), top: tops[binIndex(edges, hp.v)], text: text,
			color: highlightColor, stem: true})
	}
	var lab *barLabels
	if len(labels) > 0 {
		lab = newBarLabels(labels, lgEdges, tops)
		f.AddLabels(lab)
	}
	margin := (lgEdges[nb] - lgEdges[0]) * 0.015
	p.X.Min, p.X.Max = lgEdges[0]-margin, lgEdges[nb]+margin
	if logY {
		p.Y.Min, p.Y.Max = fy(0), math.Log10(maxN)+0.1
		p.Y.Tick.Marker = countLogTicks{}
	} else {
		p.Y.Min, p.Y.Max = 0, math.Max(maxN*1.05, 1)
		p.Y.Tick.Marker = intTicks{}
	}

	return f, nil
}

// countScale returns how a histogram's counts go on its y axis (on a
// log axis when logY, an empty bin at countFloor) and the axis' label.
func countScale(logY bool) (func(float64) float64, string) {
	if logY {
		return func(n float64) float64 { return math.Log10(math.Max(n, countFloor)) }, "puzzles per bin (log scale)"
	}
	return func(n float64) float64 { return n }, "puzzles per bin"
}

// Histogram count axes: log when the tallest bar is this many times the
// shortest (non-empty) one; on a log axis empty bins sit at the floor.
const (
	logCountRatio = 50
	countFloor    = 0.6
)

// countLogTicks labels a log10 axis of counts of puzzles: 1, 10,
// 100, 1e3, with no ticks below 1.
type countLogTicks struct{}

// Ticks implements plot.Ticker.
func (countLogTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (log10Ticks{logTicks{Format: report.FormatCountTick}}).Ticks(min, max) {
		if t.Value >= 0 {
			out = append(out, t)
		}
	}
	return out
}

// intTicks labels an axis of counts of puzzles: whole numbers at a
// 1-2-5 step giving four to eight labels, with minor ticks between.
type intTicks struct{}

// Ticks implements plot.Ticker.
func (intTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	raw := (max - min) / 5
	step := 1.0
	if raw > 1 {
		mag := math.Pow10(int(math.Floor(math.Log10(raw))))
		for _, m := range []float64{1, 2, 5, 10} {
			if step = m * mag; step >= raw {
				break
			}
		}
	}
	minor := step / 2
	if minor != math.Trunc(minor) {
		minor = step
	}
	var out []plot.Tick
	for v := math.Ceil(min/minor) * minor; v <= max; v += minor {
		t := plot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		out = append(out, t)
	}
	return out
}

// histBars draws histogram bars: bin i spans [edges[i], edges[i+1]]
// across and [lo[i], hi[i]] up, in axis units; bins with hi <= lo are
// not drawn. Hatched bars (rows not finished) get diagonal lines over
// their fill: rising to the right, or falling when back is cs.
type histBars struct {
	edges  []float64
	lo, hi []float64
	fill   color.Color
	line   draw.LineStyle
	hatch  *draw.LineStyle
	back   bool
}

// Plot implements plot.Plotter.
func (b *histBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range b.lo {
		if b.hi[i] <= b.lo[i] {
			continue
		}
		r := vg.Rectangle{
			Min: vg.Point{X: trX(b.edges[i]), Y: trY(b.lo[i])},
			Max: vg.Point{X: trX(b.edges[i+1]), Y: trY(b.hi[i])},
		}
		if b.fill != nil {
			c.SetColor(b.fill)
			c.Fill(r.Path())
		}
		if b.hatch != nil {
			drawHatch(&c, *b.hatch, r, vg.Points(4), b.back)
		}
		if b.line.Width > 0 {
			c.SetLineStyle(b.line)
			c.Stroke(r.Path())
		}
	}
}

// DataRange implements plot.DataRanger.
func (b *histBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i := range b.lo {
		ymin, ymax = math.Min(ymin, b.lo[i]), math.Max(ymax, b.hi[i])
	}
	return b.edges[0], b.edges[len(b.edges)-1], ymin, ymax
}

// Thumbnail implements plot.Thumbnailer for the legend.
func (b *histBars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	if b.fill != nil {
		c.SetColor(b.fill)
		c.Fill(r.Path())
	}
	if b.hatch != nil {
		drawHatch(c, *b.hatch, r, vg.Points(4), b.back)
	}
	if b.line.Width > 0 {
		c.SetLineStyle(b.line)
		c.Stroke(r.Path())
	}
}

// drawHatch strokes 45° lines spaced gap apart inside r, rising to the
// right (falling when back is set). The lines are aligned on the
// canvas, so adjacent hatched bars join up.
func drawHatch(c *draw.Canvas, sty draw.LineStyle, r vg.Rectangle, gap vg.Length, back bool) {
	if back {
		// Mirror: lines y = -x + k are lines y = x' - k' with x' = -x.
		m := vg.Rectangle{Min: vg.Point{X: -r.Max.X, Y: r.Min.Y}, Max: vg.Point{X: -r.Min.X, Y: r.Max.Y}}
		lines := hatchLines(m, gap)
		for _, l := range lines {
			for i := range l {
				l[i].X = -l[i].X
			}
		}
		c.StrokeLines(sty, lines...)
		return
	}
	c.StrokeLines(sty, hatchLines(r, gap)...)
}

// hatchLines returns the 45° lines y = x - k, k a multiple of gap,
// inside r.
func hatchLines(r vg.Rectangle, gap vg.Length) [][]vg.Point {
	var lines [][]vg.Point
	// Lines y = x - k for k multiple of gap.
	k0 := math.Floor(float64((r.Min.X - r.Max.Y) / gap))
	k1 := math.Ceil(float64((r.Max.X - r.Min.Y) / gap))
	for k := k0; k <= k1; k++ {
		kk := vg.Length(k) * gap
		x0 := max(r.Min.X, r.Min.Y+kk)
		x1 := min(r.Max.X, r.Max.Y+kk)
		if x1 > x0 {
			lines = append(lines, []vg.Point{{X: x0, Y: x0 - kk}, {X: x1, Y: x1 - kk}})
		}
	}
	return lines
}

// barLabel is a puzzle labelled on a histogram: a marker just above
// the top of its bar and an upright text above it.
type barLabel struct {
	x, top float64 // the value (axis units) and the top of its bar
	text   string
	color  color.Color // nil: black
	stem   bool        // draw a dashed line from the axis up to the marker
}

// barLabels draws labels upright (rotated a quarter turn) above the
// bars of a histogram given by its edges and bar tops, so that labels of
// neighbouring bars do not overlap. Where they would, or where a taller
// bar stands just right of a label, the label moves left, above the bars
// under it, with a leader line to its marker.
type barLabels struct {
	items []barLabel
	edges []float64 // bin edges, axis units
	tops  []float64 // bar tops per bin
	style text.Style
}

const labelGap = vg.Length(9) // points between a bar top and its label

func newBarLabels(items []barLabel, edges, tops []float64) *barLabels {
	st := textStyle(10, color.Black)
	st.Rotation = math.Pi / 2
	st.XAlign = draw.XLeft
	st.YAlign = draw.YCenter
	return &barLabels{items: items, edges: edges, tops: tops, style: st}
}

// width is the width of an upright label.
func (l *barLabels) width() vg.Length { return l.style.FontExtents().Height * 1.1 }

// Plot implements plot.Plotter.
func (l *barLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	w := l.width()
	type placed struct {
		barLabel
		px, py, lx, ly vg.Length
	}
	ps := make([]placed, len(l.items))
	for i, it := range l.items {
		ps[i] = placed{barLabel: it, px: trX(it.x), py: trY(it.top)}
	}
	slices.SortStableFunc(ps, func(a, b placed) int { return cmp.Compare(b.px, a.px) })
	for i := range ps {
		q := &ps[i]
		// right is the furthest right the label may go: left of the
		// first taller bar to the right, of the previous label and of
		// the plot's edge.
		right := c.Max.X - w/2
		for b := binIndex(l.edges, q.x) + 1; b < len(l.tops); b++ {
			if l.tops[b] > q.top {
				right = min(right, trX(l.edges[b])-w/2-vg.Points(1))
				break
			}
		}
		if i > 0 {
			right = min(right, ps[i-1].lx-w)
		}
		q.lx = min(q.px, right)
		// A taller bar just left of the label: move right (by a label
		// width at most) to clear it, when there is room.
		for b := binIndex(l.edges, q.x) - 1; b >= 0; b-- {
			if edge := trX(l.edges[b+1]); edge < q.lx-w/2 {
				break
			} else if x := edge + w/2 + vg.Points(1); l.tops[b] > q.top && x <= right && x <= q.px+w {
				q.lx = x
				break
			}
		}
		// Rise above every bar under the label.
		q.ly = q.py
		for b := range l.tops {
			if trX(l.edges[b+1]) > q.lx-w/2 && trX(l.edges[b]) < q.lx+w/2 {
				q.ly = max(q.ly, trY(l.tops[b]))
			}
		}
		q.ly += labelGap
	}
	// The marks and leader lines first, then the texts over them (on a
	// halo), so that no leader line runs over another label.
	colorOf := func(q placed) color.Color {
		if q.color == nil {
			return color.Black
		}
		return q.color
	}
	for _, q := range ps {
		clr := colorOf(q)
		if q.stem {
			c.StrokeLine2(draw.LineStyle{Color: clr, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}},
				q.px, c.Min.Y, q.px, q.py)
		}
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: clr, Radius: vg.Points(3), Shape: downTriangle{}},
			vg.Point{X: q.px, Y: q.py + vg.Points(3)})
		if q.lx != q.px || q.ly > q.py+labelGap {
			c.StrokeLine2(draw.LineStyle{Color: clr, Width: vg.Points(0.5)}, q.px, q.py+vg.Points(6), q.lx, q.ly-vg.Points(1))
		}
	}
	for _, q := range ps {
		st := l.style
		st.Color = colorOf(q)
		at := vg.Point{X: q.lx, Y: q.ly}
		drawHalo(&c, st, at, q.text)
		c.FillText(st, at, q.text)
	}
}

// GlyphBoxes implements plot.GlyphBoxer, so that the plot leaves room
// above the bars for the labels. A label may rise above a taller bar to
// its left: the box counts the tallest bar within a tenth of the axis.
func (l *barLabels) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	w := l.width()
	var boxes []plot.GlyphBox
	for _, it := range l.items {
		top := it.top
		for b := range l.tops {
			if l.edges[b+1] > it.x-(p.X.Max-p.X.Min)/10 && l.edges[b] <= it.x {
				top = math.Max(top, l.tops[b])
			}
		}
		h := l.style.Width(it.text) + labelGap + vg.Points(2)
		boxes = append(boxes, plot.GlyphBox{
			X: p.X.Norm(it.x), Y: p.Y.Norm(top),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -w / 2, Y: 0}, Max: vg.Point{X: w / 2, Y: h}},
		})
	}
	return boxes
}
