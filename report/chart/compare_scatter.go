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
		a, b := math.Max(llo, llo-d), math.Min(lhi, lhi-d)
		if a >= b {
			return nil
		}
		l, err := plotter.NewLine(plotter.XYs{{X: a, Y: a + d}, {X: b, Y: b + d}})
		if err != nil {
			return err
		}
		l.Color = c
		l.Width = vg.Points(1)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.Width = vg.Points(1.5)
		}
		p.Add(l)
		x := a + at*(b-a)
		st := textStyle(10, c)
		st.XAlign = draw.XRight
		f.AddLabels(&textPlotter{xs: []float64{x}, ys: []float64{x + d}, texts: []string{text}, style: st,
			dx: vg.Points(-4), dy: vg.Points(2), halo: true})
		return nil
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
	tri := func(up, right bool) *pointPlotter {
		return &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: triangle{up: up, right: right}}}
	}
	stop := func(y, x bool) *pointPlotter {
		return &pointPlotter{glyph: draw.GlyphStyle{Color: censorColor, Radius: vg.Points(3.5), Shape: stopMarks{y: y, x: x}}}
	}
	cy, cx, cxy, sy, sx, sxy := tri(true, false), tri(false, true), tri(true, true), stop(true, false), stop(false, true), stop(true, true)
	// The marks of one kind that fall on the same spot (a fifth of a
	// pixel: scatterSpots) are drawn once, as on the run's scatters;
	// the legend counts them all.
	fin := 0
	counts := map[*pointPlotter]int{}
	spots := map[[3]int32]bool{}
	for _, pt := range cs.pts {
		lx, ly := math.Log10(pt.x), math.Log10(pt.y)
		fx, fy := norm(lx), norm(ly)
		k := kindOf(pt.xo, pt.yo)
		var t *pointPlotter
		kind := int32(0)
		switch {
		case k.mark == endFinished:
			fin++
			continue
		case k.mark == endGaveUp && k.x && k.y:
			t, kind = sxy, 5
		case k.mark == endGaveUp && k.x:
			t, kind = sx, 4
		case k.mark == endGaveUp:
			t, kind = sy, 3
		case k.x && k.y:
			t, kind = cxy, 2
		case k.x:
			t, kind = cx, 1
		default:
			t = cy
		}
		counts[t]++
		spot := [3]int32{kind, int32(math.Round(fx * scatterSpots)), int32(math.Round(fy * scatterSpots))}
		if !spots[spot] {
			spots[spot] = true
			t.xs, t.ys = append(t.xs, lx), append(t.ys, ly)
		}
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
	for _, m := range []struct {
		pts  *pointPlotter
		text string
	}{
		{sy, "gave up in NEW"}, {sx, "gave up in OLD"}, {sxy, "gave up in both"},
		{cy, "stopped in NEW"}, {cx, "stopped in OLD"}, {cxy, "stopped in both"},
	} {
		if n := counts[m.pts]; n > 0 {
			p.Add(m.pts)
			f.Legend.Add(fmt.Sprintf("%s (%d)", m.text, n), m.pts)
		}
	}
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
