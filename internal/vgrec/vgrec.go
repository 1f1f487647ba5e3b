// Package vgrec is a gonum/plot canvas that draws nothing and records
// what would be drawn where: each text with its box, each stroke with its
// segments, each fill and image with its bounding box, in drawing order.
// The tests of the charts (report/chart, history) draw a chart on it and
// check that no text overlaps another, that nothing is drawn over a text
// after it, and that texts stay clear of the legend.
package vgrec

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// Kind is what an Op drew.
type Kind int

// The kinds of Op.
const (
	Text Kind = iota
	Stroke
	Fill
	Image
)

// Op is one drawing operation, in the canvas' coordinates (points, the
// origin at the bottom left, as gonum draws).
type Op struct {
	Kind  Kind
	Text  string // a Text's string
	Box   vg.Rectangle
	Color color.Color // the color set when it was drawn
	// Segments are a Stroke's straight pieces (an arc or a curve is
	// given by its box alone).
	Segments [][2]vg.Point
	Width    vg.Length // a Stroke's line width
}

// Canvas is the recording canvas. It implements vg.CanvasSizer.
type Canvas struct {
	w, h  vg.Length
	m     affine
	stack []affine
	color color.Color
	width vg.Length
	Ops   []Op
}

var _ vg.CanvasSizer = (*Canvas)(nil)

// New returns a canvas w by h points.
func New(w, h vg.Length) *Canvas {
	return &Canvas{w: w, h: h, m: identity, color: color.Black, width: 1}
}

// Size implements vg.CanvasSizer.
func (c *Canvas) Size() (w, h vg.Length) { return c.w, c.h }

// affine is x' = a x + c y + e, y' = b x + d y + f.
type affine struct{ a, b, c, d, e, f float64 }

var identity = affine{a: 1, d: 1}

func (m affine) mul(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

// box returns the bounding box of r transformed by m.
func (m affine) box(r vg.Rectangle) vg.Rectangle {
	var out vg.Rectangle
	for i, p := range []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}} {
		q := m.apply(p)
		if i == 0 {
			out = vg.Rectangle{Min: q, Max: q}
			continue
		}
		out.Min.X, out.Min.Y = min(out.Min.X, q.X), min(out.Min.Y, q.Y)
		out.Max.X, out.Max.Y = max(out.Max.X, q.X), max(out.Max.Y, q.Y)
	}
	return out
}

// SetLineWidth implements vg.Canvas.
func (c *Canvas) SetLineWidth(w vg.Length) { c.width = w }

// SetLineDash implements vg.Canvas.
func (c *Canvas) SetLineDash([]vg.Length, vg.Length) {}

// SetColor implements vg.Canvas.
func (c *Canvas) SetColor(clr color.Color) { c.color = clr }

// Rotate implements vg.Canvas.
func (c *Canvas) Rotate(rad float64) {
	s, k := math.Sincos(rad)
	c.m = c.m.mul(affine{a: k, b: s, c: -s, d: k})
}

// Translate implements vg.Canvas.
func (c *Canvas) Translate(pt vg.Point) {
	c.m = c.m.mul(affine{a: 1, d: 1, e: float64(pt.X), f: float64(pt.Y)})
}

// Scale implements vg.Canvas.
func (c *Canvas) Scale(x, y float64) { c.m = c.m.mul(affine{a: x, d: y}) }

// Push implements vg.Canvas.
func (c *Canvas) Push() { c.stack = append(c.stack, c.m) }

// Pop implements vg.Canvas.
func (c *Canvas) Pop() {
	if n := len(c.stack); n > 0 {
		c.m, c.stack = c.stack[n-1], c.stack[:n-1]
	}
}

// pathBox returns the box of p (untransformed) and its straight
// segments, transformed.
func (c *Canvas) path(p vg.Path) (vg.Rectangle, [][2]vg.Point) {
	var pts []vg.Point
	var segs [][2]vg.Point
	var at, start vg.Point
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			at, start = comp.Pos, comp.Pos
			pts = append(pts, comp.Pos)
		case vg.LineComp:
			segs = append(segs, [2]vg.Point{c.m.apply(at), c.m.apply(comp.Pos)})
			at = comp.Pos
			pts = append(pts, comp.Pos)
		case vg.ArcComp:
			r := comp.Radius
			pts = append(pts, vg.Point{X: comp.Pos.X - r, Y: comp.Pos.Y - r}, vg.Point{X: comp.Pos.X + r, Y: comp.Pos.Y + r})
			at = vg.Point{X: comp.Pos.X + r*vg.Length(math.Cos(comp.Start+comp.Angle)), Y: comp.Pos.Y + r*vg.Length(math.Sin(comp.Start+comp.Angle))}
		case vg.CurveComp:
			pts = append(pts, comp.Control...)
			pts = append(pts, comp.Pos)
			at = comp.Pos
		case vg.CloseComp:
			segs = append(segs, [2]vg.Point{c.m.apply(at), c.m.apply(start)})
			at = start
		}
	}
	if len(pts) == 0 {
		return vg.Rectangle{}, nil
	}
	r := vg.Rectangle{Min: pts[0], Max: pts[0]}
	for _, q := range pts[1:] {
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	return c.m.box(r), segs
}

// capHeight is the share of a font's ascent its tallest letters reach
// (Liberation Sans: 0.73 of an em of 0.905).
const capHeight = 0.8

// Stroke implements vg.Canvas.
func (c *Canvas) Stroke(p vg.Path) {
	box, segs := c.path(p)
	c.Ops = append(c.Ops, Op{Kind: Stroke, Box: box, Color: c.color, Segments: segs, Width: c.width})
}

// Fill implements vg.Canvas.
func (c *Canvas) Fill(p vg.Path) {
	box, _ := c.path(p)
	c.Ops = append(c.Ops, Op{Kind: Fill, Box: box, Color: c.color})
}

// FillString implements vg.Canvas: the text's box runs from its
// baseline's start down by the font's descent and up by the height of
// its capitals and tall letters, capHeight of the font's ascent (which
// makes room for accents: gonum sets the lines of a text one font size
// apart, closer than ascent and descent).
func (c *Canvas) FillString(f font.Face, pt vg.Point, text string) {
	e := f.Extents()
	r := vg.Rectangle{Min: vg.Point{X: pt.X, Y: pt.Y - e.Descent}, Max: vg.Point{X: pt.X + f.Width(text), Y: pt.Y + capHeight*e.Ascent}}
	c.Ops = append(c.Ops, Op{Kind: Text, Text: text, Box: c.m.box(r), Color: c.color})
}

// DrawImage implements vg.Canvas.
func (c *Canvas) DrawImage(r vg.Rectangle, _ image.Image) {
	c.Ops = append(c.Ops, Op{Kind: Image, Box: c.m.box(r), Color: c.color})
}

// Texts returns the text ops, in drawing order.
func (c *Canvas) Texts() []Op {
	var out []Op
	for _, o := range c.Ops {
		if o.Kind == Text {
			out = append(out, o)
		}
	}
	return out
}

// Overlap returns the area two rectangles share, each shrunk by tol on
// every side first (touching boxes, or ones that meet by a sliver of
// antialiasing, do not overlap).
func Overlap(a, b vg.Rectangle, tol vg.Length) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X) - 2*tol
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y) - 2*tol
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Crosses reports whether the stroke o passes through r shrunk by tol:
// one of its segments (or, for an arc or a curve, its box) meets it.
func (o Op) Crosses(r vg.Rectangle, tol vg.Length) bool {
	r = vg.Rectangle{Min: vg.Point{X: r.Min.X + tol, Y: r.Min.Y + tol}, Max: vg.Point{X: r.Max.X - tol, Y: r.Max.Y - tol}}
	if r.Min.X >= r.Max.X || r.Min.Y >= r.Max.Y {
		return false
	}
	if len(o.Segments) == 0 {
		return Overlap(o.Box, r, 0) > 0
	}
	for _, s := range o.Segments {
		if segmentMeets(s[0], s[1], r) {
			return true
		}
	}
	return false
}

// segmentMeets reports whether the segment p-q meets the rectangle r
// (Liang-Barsky clipping).
func segmentMeets(p, q vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(q.X-p.X), float64(q.Y-p.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(p.X - r.Min.X)}, {dx, float64(r.Max.X - p.X)},
		{-dy, float64(p.Y - r.Min.Y)}, {dy, float64(r.Max.Y - p.Y)},
	} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq < 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// tol is how far, in points, two boxes may run into each other before
// they overlap: the fonts' boxes include some air.
const tol = vg.Length(0.5)

// Check returns what is wrong with the texts drawn on c, whose legend
// band is legend (empty: none) with the entries' texts legendTexts:
//   - a text that leaves the canvas;
//   - two texts whose boxes overlap;
//   - a text other than the legend's in the legend's band;
//   - a stroke, a fill (not transparent) or an image drawn after a text
//     and over it: the text is under it.
func (c *Canvas) Check(legend vg.Rectangle, legendTexts []string) []string {
	var bad []string
	isLegend := map[string]bool{}
	for _, t := range legendTexts {
		isLegend[t] = true
	}
	page := vg.Rectangle{Max: vg.Point{X: c.w, Y: c.h}}
	var texts []int
	for i, o := range c.Ops {
		if o.Kind == Text && o.Text != "" {
			texts = append(texts, i)
		}
	}
	for k, i := range texts {
		t := c.Ops[i]
		if t.Box.Min.X < page.Min.X-tol || t.Box.Min.Y < page.Min.Y-tol || t.Box.Max.X > page.Max.X+tol || t.Box.Max.Y > page.Max.Y+tol {
			bad = append(bad, fmt.Sprintf("text %q (%v) leaves the canvas", t.Text, t.Box))
		}
		for _, j := range texts[k+1:] {
			if u := c.Ops[j]; Overlap(t.Box, u.Box, tol) > 0 {
				bad = append(bad, fmt.Sprintf("text %q overlaps text %q", t.Text, u.Text))
			}
		}
		if legend.Max.Y > legend.Min.Y && Overlap(t.Box, legend, tol) > 0 && !isLegend[t.Text] {
			bad = append(bad, fmt.Sprintf("text %q is in the legend's band", t.Text))
		}
		for _, o := range c.Ops[i+1:] {
			over := false
			switch o.Kind {
			case Stroke:
				over = o.Crosses(t.Box, tol)
			case Fill, Image:
				if o.Color != nil {
					if _, _, _, a := o.Color.RGBA(); a == 0 {
						continue
					}
				}
				over = Overlap(t.Box, o.Box, tol) > 0
			}
			if over {
				bad = append(bad, fmt.Sprintf("text %q is under a %s drawn after it (%v)", t.Text, o.Kind, o.Box))
				break
			}
		}
	}
	return bad
}

func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case Stroke:
		return "stroke"
	case Fill:
		return "fill"
	}
	return "image"
}
