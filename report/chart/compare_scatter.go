package chart

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// scatterPlot draws the scatter of NEW's time against OLD's.
func (cs *compareSet) scatterPlot() (*Figure, error) {
	f := NewFigure(cs.scatterTitle(), "OLD: "+measureTime.axisLabel(), "NEW: "+measureTime.axisLabel(), squareSide, squareSide)
	f.Square = true
	p := f.Plot
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range cs.pts {
		lo, hi = math.Min(lo, math.Min(pt.x, pt.y)), math.Max(hi, math.Max(pt.x, pt.y))
	}
	// One range for both axes, so that the diagonal is the diagonal.
	lo, hi = logAxisRange(lo, hi, 0.08)
	llo, lhi := math.Log10(lo), math.Log10(hi)
	norm := func(v float64) float64 { return (v - llo) / (lhi - llo) }

	ln := math.Log10(cs.noise())
	if ln > 0 {
		band, err := plotter.NewPolygon(plotter.XYs{{X: llo, Y: llo - ln}, {X: lhi, Y: lhi - ln}, {X: lhi, Y: lhi + ln}, {X: llo, Y: llo + ln}})
		if err != nil {
			return nil, err
		}
		band.Color = bandColor
		band.LineStyle.Width = 0
		p.Add(band)
	}
	clr := StrategyColor(cs.d.Solver)
	line := func(d float64, c color.Color, dashed bool, text string, at float64) error {
		st := draw.LineStyle{Color: c, Width: vg.Points(1)}
		if dashed {
			st.Dashes, st.Width = []vg.Length{vg.Points(5), vg.Points(3)}, vg.Points(1.5)
		}
		return addDiagonal(f, llo, lhi, d, st, text, at)
	}
	if err := line(0, guideColor, false, "same time", 0.9); err != nil {
		return nil, err
	}
	if r := cs.d.MedianRatio.Value; r > 0 && !math.IsInf(r, 0) {
		if err := line(math.Log10(r), clr, true, "median "+fmtRatio(r), 0.7); err != nil {
			return nil, err
		}
	}

	alpha, radius := dotStyle(len(cs.pts))
	marks := newPairMarks()
	fin := 0
	for _, pt := range cs.pts {
		lx, ly := math.Log10(pt.x), math.Log10(pt.y)
		k := kindOf(pt.xo, pt.yo)
		if k.mark == endFinished {
			fin++
		}
		marks.add(k, lx, ly, norm(lx), norm(ly))
	}
	dots := &dotPlotter{n: fin, glyph: draw.GlyphStyle{Color: fade(clr, alpha), Radius: radius, Shape: draw.CircleGlyph{}},
		each: func(fn func(x, y float64)) {
			for _, pt := range cs.pts {
				if pt.xo == endFinished && pt.yo == endFinished {
					fn(math.Log10(pt.x), math.Log10(pt.y))
				}
			}
		}}
	p.Add(dots)
	if fin > 0 {
		f.Legend.Add(fmt.Sprintf("puzzle (%d)", fin), &pointPlotter{glyph: draw.GlyphStyle{Color: clr, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}})
	}
	marks.addTo(f, [6]string{"gave up in NEW", "gave up in OLD", "gave up in both", "stopped in NEW", "stopped in OLD", "stopped in both"})
	if len(cs.moved) > 0 {
		ring := &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(4.5), Shape: draw.RingGlyph{}}}
		labels := &pointLabels{style: textStyle(10, censorColor), gap: vg.Points(7)}
		for _, m := range cs.moved {
			lx, ly := math.Log10(m.x), math.Log10(m.y)
			ring.xs, ring.ys = append(ring.xs, lx), append(ring.ys, ly)
			labels.xs, labels.ys, labels.texts = append(labels.xs, lx), append(labels.ys, ly), append(labels.texts, m.text)
		}
		p.Add(ring)
		f.AddLabels(labels)
		f.Legend.Add("moved most", ring)
	}
	if ln > 0 {
		f.Legend.Add("noise ×"+strconv.FormatFloat(cs.noise(), 'f', -1, 64), &bandThumb{})
	}
	setLogAxis(&p.X, lo, hi, measureTime)
	setLogAxis(&p.Y, lo, hi, measureTime)
	return f, nil
}

// bandColor fills the noise band.
var bandColor = fade(guideColor, 0.22)

// bandThumb is the noise band's legend entry.
type bandThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (bandThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(bandColor)
	c.Fill(c.Rectangle.Path())
}
