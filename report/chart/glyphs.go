package chart

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The glyphs the charts draw beside gonum/plot's own.

// downTriangle is a filled triangle pointing down (a marker above
// a bar).
type downTriangle struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (downTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r*0.6})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r*0.6})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Close()
	c.Fill(p)
}

// triangle is an open triangle pointing up, right, or (both) up
// and right: a censored value whose true value lies that way.
type triangle struct{ up, right bool }

// DrawGlyph implements draw.GlyphDrawer.
func (t triangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var pts []vg.Point
	switch {
	case t.up && t.right:
		pts = []vg.Point{{X: pt.X - r, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y + r}}
	case t.right:
		pts = []vg.Point{{X: pt.X - r*0.8, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y}, {X: pt.X - r*0.8, Y: pt.Y + r}}
	default:
		pts = []vg.Point{{X: pt.X - r, Y: pt.Y - r*0.8}, {X: pt.X + r, Y: pt.Y - r*0.8}, {X: pt.X, Y: pt.Y + r}}
	}
	var p vg.Path
	p.Move(pts[0])
	for _, q := range pts[1:] {
		p.Line(q)
	}
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)})
	c.Stroke(p)
}

// filledTriangle is a filled triangle pointing up with a dark
// outline: where an ECDF curve or a box stops at its censored values.
type filledTriangle struct{ fill color.Color }

// DrawGlyph implements draw.GlyphDrawer.
func (t filledTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r*0.8})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r*0.8})
	p.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Close()
	if t.fill != nil {
		c.SetColor(t.fill)
		c.Fill(p)
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1)})
	c.Stroke(p)
}

// stopCross is a bold cross (×) in a fill color with a dark outline:
// the rows that gave up (stuck, wrong), where an ECDF curve ends or
// beside a box. Its arms reach sty.Radius from the center.
type stopCross struct{ fill color.Color }

// DrawGlyph implements draw.GlyphDrawer.
func (t stopCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 0.8
	arms := func(width vg.Length, clr color.Color) {
		st := draw.LineStyle{Color: clr, Width: width}
		c.StrokeLine2(st, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
		c.StrokeLine2(st, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
	}
	arms(vg.Points(4), sty.Color)
	if t.fill != nil {
		arms(vg.Points(2), t.fill)
	}
}

// stopMarks is a cross (×), a plus (+) or both (*), stroked in the
// glyph's color: on a scatter, a pair whose strategy on y (×), on x (+)
// or on both (both) gave up.
type stopMarks struct{ y, x bool }

// DrawGlyph implements draw.GlyphDrawer.
func (t stopMarks) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	st := draw.LineStyle{Color: sty.Color, Width: vg.Points(1)}
	if t.y {
		d := r * 0.75
		c.StrokeLine2(st, pt.X-d, pt.Y-d, pt.X+d, pt.Y+d)
		c.StrokeLine2(st, pt.X-d, pt.Y+d, pt.X+d, pt.Y-d)
	}
	if t.x {
		c.StrokeLine2(st, pt.X-r, pt.Y, pt.X+r, pt.Y)
		c.StrokeLine2(st, pt.X, pt.Y-r, pt.X, pt.Y+r)
	}
}

// diamond is a filled diamond with a dark outline: the original puzzle
// on a strip chart.
type diamond struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r*0.75, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r*0.75, Y: pt.Y})
	p.Close()
	c.SetColor(sty.Color)
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: censorColor, Width: vg.Points(0.8)})
	c.Stroke(p)
}
