package chart

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The ECDF chart: for every strategy, the share of its puzzles finished
// within a time, against that time on a log axis, one curve per
// strategy. Each curve is thinned to a few hundred quantile points. A
// strategy with censored rows (timeout, limit) has a curve that stops
// below 100% with a triangle at the censoring point, where those rows
// were stopped.

func (set *shared) ecdfTitle() string {
	return set.title("Time per puzzle, all strategies (ECDF)", set.res.Puzzles)
}

func (set *shared) ecdfCaption() string {
	main := "Share of each strategy's puzzles finished within a given time (log scale): the further left and the steeper a curve, the faster the strategy; read the median where a curve crosses 50%"
	var extra []string
	censored, notes := set.timeNotes()
	if len(censored) > 0 {
		extra = append(extra, "a curve that stops below 100% ends with a triangle at the time its censored rows were stopped ("+
			strings.Join(censored, "; ")+"): those puzzles took at least that long")
	}
	if set.anyHighlighted(set.time...) {
		extra = append(extra, "highlighted puzzles are magenta dots on each curve")
	}
	extra = append(extra, set.absentHighlights(set.time...))
	extra = append(extra, notes...)
	for _, c := range set.time {
		if c.fin > ecdfPoints {
			extra = append(extra, fmt.Sprintf("a curve of more than %d puzzles is drawn through %d of its quantiles, not a step per puzzle", ecdfPoints, ecdfPoints))
			break
		}
	}
	return sentence(main, extra...)
}

// ecdfPlot draws the ECDF curves of time of all strategies.
func (set *shared) ecdfPlot() (*plot.Plot, error) {
	p := newPlot(set.ecdfTitle(), measureTime.axisLabel(), "puzzles finished within that time")
	lo, hi, ok := valueRange(set.time...)
	if !ok {
		lo, hi = 1e-6, 1e-3
	}
	lo, hi = logAxisRange(lo, hi, 0.05)
	p.Y.Tick.Marker = plot.ConstantTicks{
		{Value: 0, Label: "0%"}, {Value: 0.25, Label: "25%"}, {Value: 0.5, Label: "50%"},
		{Value: 0.75, Label: "75%"}, {Value: 1, Label: "100%"},
	}
	p.Add(plotter.NewGrid())
	var nx, ny []float64 // curve points, normalized, to place the legend
	var hx, hy []float64
	var htext []string
	for i, col := range set.time {
		if col.n == 0 {
			continue
		}
		clr := seriesColor(i)
		total := col.n
		xs, ys := col.ecdfX, col.ecdfY
		var xys plotter.XYs
		xs = log10s(xs) // the x axis holds log10 values
		if len(xs) > 0 {
			xys = append(xys, plotter.XY{X: xs[0], Y: 0})
		}
		for k := range xs {
			xys = append(xys, plotter.XY{X: xs[k], Y: ys[k]})
		}
		endY := float64(col.fin) / float64(total)
		cp, censored := col.censorPoint()
		endX := math.Log10(cp)
		if censored && col.fin > 0 {
			endX = math.Log10(math.Max(cp, col.finMax))
			xys = append(xys, plotter.XY{X: endX, Y: endY})
		}
		name := col.solver
		if censored {
			name += " (" + col.censorCount() + ")"
		}
		var thumbs []plot.Thumbnailer
		if len(xys) > 0 {
			line, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			line.Color = clr
			line.Width = vg.Points(2)
			p.Add(line)
			thumbs = append(thumbs, line)
			var cx, cy []float64
			for _, q := range xys {
				cx = append(cx, (q.X-math.Log10(lo))/math.Log10(hi/lo))
				cy = append(cy, q.Y)
			}
			cx, cy = densify(cx, cy, 0.01)
			nx, ny = append(nx, cx...), append(ny, cy...)
		}
		if censored {
			mark := &pointPlotter{xs: []float64{endX}, ys: []float64{endY},
				glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(5), Shape: filledTriangle{fill: clr}}}
			p.Add(mark)
			thumbs = append(thumbs, mark)
			nx, ny = append(nx, (endX-math.Log10(lo))/math.Log10(hi/lo)), append(ny, endY)
		}
		p.Legend.Add(name, thumbs...)
		for _, k := range col.findIndex(set.opt.Highlight) {
			hp := col.marked[k]
			y := endY
			x := endX
			if !hp.censored {
				x = math.Log10(hp.v)
				y = float64(col.markedLE[k]) / float64(total)
			}
			hx, hy = append(hx, x), append(hy, y)
			htext = append(htext, set.res.PuzzleLabel(hp.e))
		}
	}
	if len(hx) > 0 {
		p.Add(&pointPlotter{xs: hx, ys: hy, glyph: draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}})
		p.Add(&pointLabels{xs: hx, ys: hy, texts: htext, style: textStyle(10, highlightColor), gap: vg.Points(6)})
	}
	setLogAxis(&p.X, lo, hi, measureTime)
	p.Y.Min, p.Y.Max = 0, 1
	legendCorner(p, nx, ny, false)
	return p, nil
}

// countLE returns how many of the sorted values vs are <= v.
func countLE(vs []float64, v float64) int {
	lo, hi := 0, len(vs)
	for lo < hi {
		m := (lo + hi) / 2
		if vs[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// timeNotes returns, for the captions of the all-strategy time charts, the
// censored counts per strategy and the notes on what was not plotted.
func (set *shared) timeNotes() (censored, notes []string) {
	for _, c := range set.time {
		if c.censored() > 0 {
			censored = append(censored, fmt.Sprintf("%s %s", c.solver, c.censorCount()))
		}
		for _, n := range c.notes() {
			notes = append(notes, c.solver+": "+n)
		}
		if c.n == 0 {
			notes = append(notes, c.solver+" has no row to plot")
		}
	}
	return censored, notes
}
