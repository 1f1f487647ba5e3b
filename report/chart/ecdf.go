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

// The ECDF chart: for every strategy, the share of its plotted puzzles
// it finished (solved, or proved unsolvable: see ending) within a
// time, against that time on a log axis, one curve per strategy. Each
// curve is thinned to a few hundred quantile points. A curve rises only
// with finished rows, over all the strategy's plotted rows, so it ends
// at the share finished: a strategy that gives up fast on every puzzle
// draws no curve at all, rather than the fastest one. Where a curve
// ends below 100%, marks say why:
//   - a cross (stopCross) at the end of the curve when some rows gave
//     up (stuck, wrong): the strategy stopped by itself without a
//     solution, so their time is no lower bound on a solving time; with
//     no finished row the cross stands alone at 0%, at the median time
//     it took to give up;
//   - a filled triangle at the censoring point, where the censored rows
//     (timeout, limit) were stopped, joined to the curve's end by a flat
//     line: those puzzles took at least that long.
//
// When some strategy did not finish every puzzle, each legend entry
// gives the strategy's shares: "backtrack (84% solved; 16% timeout)",
// "singles (0% solved; 100% stuck)".

func (cs *chartSet) ecdfTitle() string {
	return cs.title("Time per puzzle, all strategies (ECDF)", cs.res.Puzzles)
}

func (cs *chartSet) ecdfCaption() string {
	main := "Share of each strategy's puzzles finished (solved, or proved unsolvable) within a given time (log scale): the further left and the steeper a curve, the faster the strategy; read the median where a curve crosses 50%"
	var extra []string
	gave, censored, notes := cs.timeNotes()
	if len(gave)+len(censored) > 0 {
		extra = append(extra, "a curve rises only with the puzzles its strategy finished and ends at the share it finished, below 100% when it did not finish them all (the legend gives each strategy's shares): a curve that stays low solved few puzzles, however fast")
	}
	if len(gave) > 0 {
		extra = append(extra, "a cross ends the curve of a strategy that gave up on puzzles without a solution ("+strings.Join(gave, "; ")+
			"): stuck means it stopped by itself and would never solve them, so they are not a lower bound on a time; a strategy that finished no puzzle has no curve, only its cross at 0%, at the median time it took to give up")
	}
	if len(censored) > 0 {
		extra = append(extra, "a triangle marks the time at which a strategy's timeouts or limits were stopped ("+strings.Join(censored, "; ")+
			"), joined to the end of its curve: those puzzles took at least that long")
	}
	if cs.anyHighlighted(cs.time...) {
		extra = append(extra, "highlighted puzzles are magenta dots on each curve (on its end mark when not finished)")
	}
	extra = append(extra, cs.absentHighlights(cs.time...))
	extra = append(extra, notes...)
	for _, c := range cs.time {
		if c.fin > ecdfPoints {
			extra = append(extra, fmt.Sprintf("a curve of more than %d puzzles is drawn through %d of its quantiles, not a step per puzzle", ecdfPoints, ecdfPoints))
			break
		}
	}
	return sentence(main, extra...)
}

// ecdfCurve is what the ECDF chart draws of one strategy, the x values
// in log10 of seconds.
type ecdfCurve struct {
	xys        plotter.XYs // the line: the rising ECDF of the finished rows, then flat to the censoring point
	endX, endY float64     // the end of the rising part: y is the share finished
	gave       bool        // a cross for the rows that gave up,
	gaveX      float64     // at (gaveX, endY)
	censored   bool        // a triangle for the censored rows,
	censorX    float64     // at (censorX, endY)
	name       string      // the legend entry
}

// anyUnfinished reports whether some strategy has rows it did not
// finish, or proved unsolvable: then legends give every strategy's
// shares.
func (cs *chartSet) anyUnfinished() bool {
	for _, c := range cs.time {
		if c.unfinished() > 0 || c.unsolvable > 0 {
			return true
		}
	}
	return false
}

// ecdfCurve returns the curve of col (col.n > 0); shares says whether
// its legend entry gives its shares.
func ecdfCurveOf(col *column, shares bool) ecdfCurve {
	cv := ecdfCurve{name: col.solver, endY: float64(col.fin) / float64(col.n)}
	if shares {
		cv.name += " (" + col.shares() + ")"
	}
	xs := log10s(col.ecdfX)
	if len(xs) > 0 {
		cv.xys = append(cv.xys, plotter.XY{X: xs[0], Y: 0})
		for k := range xs {
			cv.xys = append(cv.xys, plotter.XY{X: xs[k], Y: col.ecdfY[k]})
		}
		cv.endX = math.Log10(col.finMax)
	}
	if col.gaveUp() > 0 {
		cv.gave, cv.gaveX = true, cv.endX
		if col.fin == 0 {
			cv.gaveX = math.Log10(col.gaveAt)
		}
	}
	if cp, ok := col.censorPoint(); ok {
		cv.censored, cv.censorX = true, math.Log10(cp)
		if col.fin > 0 {
			cv.censorX = math.Log10(math.Max(cp, col.finMax))
			cv.xys = append(cv.xys, plotter.XY{X: cv.censorX, Y: cv.endY})
		}
	}
	if col.fin == 0 {
		cv.endX = cv.gaveX
		if !cv.gave {
			cv.endX = cv.censorX
		}
	}
	return cv
}

// ecdfPlot draws the ECDF curves of time of all strategies.
func (cs *chartSet) ecdfPlot() (*Figure, error) {
	f := NewFigure(cs.ecdfTitle(), measureTime.axisLabel(), "puzzles finished within that time", plotWidth, plotHeight)
	p := f.Plot
	lo, hi, ok := valueRange(cs.time...)
	if !ok {
		lo, hi = 1e-6, 1e-3
	}
	lo, hi = logAxisRange(lo, hi, 0.05)
	p.Y.Tick.Marker = plot.ConstantTicks{
		{Value: 0, Label: "0%"}, {Value: 0.25, Label: "25%"}, {Value: 0.5, Label: "50%"},
		{Value: 0.75, Label: "75%"}, {Value: 1, Label: "100%"},
	}
	p.Add(plotter.NewGrid())
	shares := cs.anyUnfinished()
	var hx, hy []float64
	var htext []string
	var ends []plot.Plotter // the end marks, drawn over every line
	for _, col := range cs.time {
		if col.n == 0 {
			continue
		}
		clr := StrategyColor(col.solver)
		cv := ecdfCurveOf(col, shares)
		var thumbs []plot.Thumbnailer
		if len(cv.xys) > 0 {
			line, err := plotter.NewLine(cv.xys)
			if err != nil {
				return nil, err
			}
			line.Color = clr
			line.Width = vg.Points(2)
			p.Add(line)
			thumbs = append(thumbs, line)
		}
		// The legend shows the line and one end mark, of the more
		// numerous kind (two marks on one spot read as neither); its
		// text gives every share.
		var thumb plot.Thumbnailer
		if cv.censored {
			mark := &pointPlotter{xs: []float64{cv.censorX}, ys: []float64{cv.endY}, noClip: true,
				glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(5), Shape: filledTriangle{fill: clr}}}
			ends = append(ends, mark)
			thumb = mark
		}
		if cv.gave {
			mark := &pointPlotter{xs: []float64{cv.gaveX}, ys: []float64{cv.endY}, noClip: true,
				glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(5), Shape: stopCross{fill: clr}}}
			ends = append(ends, mark)
			if thumb == nil || col.gaveUp() >= col.censored() {
				thumb = mark
			}
		}
		if thumb != nil {
			thumbs = append(thumbs, thumb)
		}
		f.Legend.Add(cv.name, thumbs...)
		for _, k := range col.findIndex(cs.opt.Highlight) {
			hp := col.marked[k]
			x, y := math.Log10(hp.v), float64(col.markedLE[k])/float64(col.n)
			switch hp.out {
			case endCensored:
				x, y = cv.censorX, cv.endY
			case endGaveUp:
				x, y = cv.gaveX, cv.endY
			}
			hx, hy = append(hx, x), append(hy, y)
			htext = append(htext, cs.res.PuzzleLabel(hp.e))
		}
	}
	p.Add(ends...)
	if len(hx) > 0 {
		p.Add(&pointPlotter{xs: hx, ys: hy, glyph: draw.GlyphStyle{Color: highlightColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}})
		f.AddLabels(&pointLabels{xs: hx, ys: hy, texts: htext, style: textStyle(10, highlightColor), gap: vg.Points(6)})
	}
	setLogAxis(&p.X, lo, hi, measureTime)
	p.Y.Min, p.Y.Max = 0, 1
	return f, nil
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

// timeNotes returns, for the captions of the all-strategy time charts,
// the counts per strategy of the rows that gave up ("singles 300
// stuck") and of the censored rows ("backtrack 273 timeouts"), and the
// notes on what was not plotted.
func (cs *chartSet) timeNotes() (gave, censored, notes []string) {
	for _, c := range cs.time {
		if c.gaveUp() > 0 {
			gave = append(gave, fmt.Sprintf("%s %s", c.solver, c.gaveCount()))
		}
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
	return gave, censored, notes
}
