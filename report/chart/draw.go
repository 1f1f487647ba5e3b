package chart

import (
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// SetLogAxis makes a an axis of log10 values over [lo, hi] (given as
// plain values) labelled by format (which is given a plain value, not
// its log). Every chart draws log10 of its values on a linear axis
// rather than using plot.LogScale: LogScale panics on a value <= 0 and
// misplaces the axis label's glyph box (at the arithmetic middle of the
// range), which shrinks the plot.
func SetLogAxis(a *plot.Axis, lo, hi float64, format func(float64) string) {
	a.Min, a.Max = math.Log10(lo), math.Log10(hi)
	a.Tick.Marker = LogTicks(format)
}

// LogTicks is the ticker of an axis of log10 values labelled by format
// (see logTicks): every decade of a range up to a dozen decades
// labelled.
func LogTicks(format func(float64) string) plot.Ticker { return log10Ticks{logTicks{Format: format}} }

// setLogAxis is SetLogAxis with the labels of measure m.
func setLogAxis(a *plot.Axis, lo, hi float64, m measure) { SetLogAxis(a, lo, hi, m.ticker().Format) }

// log10Ticks puts the ticks of a log axis on an axis of log10
// values.
type log10Ticks struct{ inner logTicks }

// Ticks implements plot.Ticker.
func (t log10Ticks) Ticks(min, max float64) []plot.Tick {
	ticks := t.inner.Ticks(math.Pow(10, min), math.Pow(10, max))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

// log10s returns log10 of every value of vs.
func log10s(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = math.Log10(v)
	}
	return out
}

// pointPlotter draws a glyph at each (x, y); it has no glyph boxes (the
// axes are set by the caller), so that 50,000 points cost little.
type pointPlotter struct {
	xs, ys []float64
	glyph  draw.GlyphStyle
	noClip bool // draw a glyph whose center is on the edge of the data area (an end mark at 0%)
}

// Plot implements plot.Plotter.
func (s *pointPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range s.xs {
		pt := vg.Point{X: trX(s.xs[i]), Y: trY(s.ys[i])}
		if s.noClip {
			c.DrawGlyphNoClip(s.glyph, pt)
		} else {
			c.DrawGlyph(s.glyph, pt)
		}
	}
}

// Thumbnail implements plot.Thumbnailer for the legend.
func (s *pointPlotter) Thumbnail(c *draw.Canvas) {
	g := s.glyph
	g.Radius = max(g.Radius, vg.Points(3))
	c.DrawGlyph(g, c.Center())
}

// textPlotter draws texts at data points, offset by (dx, dy) points,
// over a white halo when halo is cs.
type textPlotter struct {
	xs, ys []float64
	texts  []string
	style  text.Style
	dx, dy vg.Length
	halo   bool
}

// Plot implements plot.Plotter.
func (t *textPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range t.xs {
		pt := vg.Point{X: trX(t.xs[i]) + t.dx, Y: trY(t.ys[i]) + t.dy}
		if t.halo {
			drawHalo(&c, t.style, pt, t.texts[i])
		}
		c.FillText(t.style, pt, t.texts[i])
	}
}

// GlyphBoxes implements plot.GlyphBoxer, so that texts near an edge
// are not clipped.
func (t *textPlotter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	for i := range t.xs {
		r := t.style.Rectangle(t.texts[i])
		r = r.Add(vg.Point{X: t.dx, Y: t.dy})
		boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(t.xs[i]), Y: p.Y.Norm(t.ys[i]), Rectangle: r})
	}
	return boxes
}

// maxLabels is the most highlighted puzzles a chart labels: the rest are
// drawn, unlabelled. An id highlighted in a run over thousands of corpus
// files names a puzzle in each, and placing that many labels (each
// against all the others) took minutes for an unreadable chart.
const maxLabels = 40

// pointLabels labels points (highlighted puzzles) with texts
// placed around them: each text takes the first spot around its point
// (right-below first, then farther out) that stays inside the plot and
// overlaps neither a text already placed nor a labelled point; over a
// light halo. Only the first maxLabels points are labelled.
type pointLabels struct {
	xs, ys []float64
	texts  []string
	style  text.Style
	gap    vg.Length // from the point to the text
}

// Plot implements plot.Plotter. Each text takes the best of eight
// spots around its point at the gap, then at 2.5 to 7 gaps (with a
// leader line to its point): the first free one, else the one with the
// fewest overlaps, a farther ring costing a little. The leader lines
// are drawn first, then every text over its halo, so that no line runs
// over a text.
func (l *pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := min(len(l.xs), maxLabels)
	pts := make([]vg.Point, n)
	marks := make([]vg.Rectangle, n)
	for i := range n {
		pts[i] = vg.Point{X: trX(l.xs[i]), Y: trY(l.ys[i])}
		g := l.gap
		marks[i] = vg.Rectangle{Min: vg.Point{X: pts[i].X - g, Y: pts[i].Y - g}, Max: vg.Point{X: pts[i].X + g, Y: pts[i].Y + g}}
	}
	overlaps := func(a, b vg.Rectangle) bool {
		return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
	}
	spots := make([]labelSpot, n)
	far := make([]bool, n)
	var placed []vg.Rectangle
	for i := range n {
		bestScore := -1.0
	rings:
		for r, ring := range []vg.Length{1, 2.5, 4, 5.5, 7} {
			for _, d := range [][2]float64{{1, -1}, {1, 1}, {1, 0}, {-1, 0}, {-1, 1}, {-1, -1}, {0, 1}, {0, -1}} {
				sp := newLabelSpot(l.style, pts[i], d, l.gap*ring, l.texts[i])
				score := 0.1 * float64(r) // an overlap costs more than the farthest ring
				if sp.rect.Min.X < c.Min.X || sp.rect.Max.X > c.Max.X || sp.rect.Min.Y < c.Min.Y || sp.rect.Max.Y > c.Max.Y {
					score += 10
				}
				for _, q := range placed {
					if overlaps(sp.rect, q) {
						score++
					}
				}
				for j, q := range marks {
					if j != i && overlaps(sp.rect, q) {
						score++
					}
				}
				if bestScore < 0 || score < bestScore {
					spots[i], far[i], bestScore = sp, r > 0, score
				}
				if score == 0 {
					break rings
				}
			}
		}
		placed = append(placed, spots[i].rect)
	}
	for i := range n {
		if far[i] {
			r := spots[i].rect
			to := vg.Point{X: max(r.Min.X, min(pts[i].X, r.Max.X)), Y: max(r.Min.Y, min(pts[i].Y, r.Max.Y))}
			c.StrokeLine2(draw.LineStyle{Color: l.style.Color, Width: vg.Points(0.5)}, pts[i].X, pts[i].Y, to.X, to.Y)
		}
	}
	for i := range n {
		drawHalo(&c, spots[i].style, spots[i].at, l.texts[i])
		c.FillText(spots[i].style, spots[i].at, l.texts[i])
	}
}

// labelSpot is a text placed beside a point.
type labelSpot struct {
	style text.Style
	at    vg.Point
	rect  vg.Rectangle
}

// newLabelSpot places txt beside pt in direction d (each -1, 0 or 1),
// gap away.
func newLabelSpot(st text.Style, pt vg.Point, d [2]float64, gap vg.Length, txt string) labelSpot {
	k := gap
	if d[0] != 0 && d[1] != 0 {
		k = gap * 0.75
	}
	st.XAlign = [3]draw.XAlignment{draw.XRight, draw.XCenter, draw.XLeft}[int(d[0])+1]
	st.YAlign = [3]draw.YAlignment{draw.YTop, draw.YCenter, draw.YBottom}[int(d[1])+1]
	at := vg.Point{X: pt.X + vg.Length(d[0])*k, Y: pt.Y + vg.Length(d[1])*k}
	r := st.Rectangle(txt).Add(at)
	r.Min.X -= 1
	r.Max.X += 1
	return labelSpot{style: st, at: at, rect: r}
}

// drawHalo fills a white, mostly opaque box behind txt drawn at pt,
// so that a label stays readable over points and lines.
func drawHalo(c *draw.Canvas, st text.Style, pt vg.Point, txt string) {
	r := st.Rectangle(txt).Add(pt)
	r.Min.X -= 1
	r.Max.X += 1
	c.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xb0})
	c.Fill(r.Path())
}

// rasterDots says whether dotPlotter rasterises its dots on PNG charts;
// false draws each as a glyph (as on SVG charts), for the tests.
var rasterDots = true

// dotPlotter draws many same dots (a scatter's finished pairs): on a PNG
// canvas it rasterises them into one image, a disc blended per point,
// which costs no allocation per point (a glyph drawn through the canvas
// costs a path and its rasterisation: about 1 kB per point); elsewhere
// (SVG) it draws a glyph per point. Like c.DrawGlyph, it leaves out the
// dots whose center is outside the data area. It has no glyph boxes:
// the axes are set by the caller.
type dotPlotter struct {
	n     int // dots, for the legend
	glyph draw.GlyphStyle
	each  func(fn func(x, y float64)) // calls fn at each dot, in data units
}

// Plot implements plot.Plotter.
func (d *dotPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	img, ok := imageCanvas(c.Canvas)
	if !ok || !rasterDots {
		d.each(func(x, y float64) { c.DrawGlyph(d.glyph, vg.Point{X: trX(x), Y: trY(y)}) })
		return
	}
	k := img.DPI() / float64(vg.Inch) // pixels per point
	_, ch := img.Size()
	h := float64(ch) * k // canvas height in pixels; pixel rows go down
	rad := float64(d.glyph.Radius) * k
	pad := rad + 2
	r := c.Rectangle
	x0, x1 := math.Floor(float64(r.Min.X)*k-pad), math.Ceil(float64(r.Max.X)*k+pad)
	y0, y1 := math.Floor(h-float64(r.Max.Y)*k-pad), math.Ceil(h-float64(r.Min.Y)*k+pad)
	dst := image.NewRGBA(image.Rect(0, 0, int(x1-x0), int(y1-y0)))
	clr := color.RGBA64Model.Convert(d.glyph.Color).(color.RGBA64)
	d.each(func(x, y float64) {
		pt := vg.Point{X: trX(x), Y: trY(y)}
		if !c.Contains(pt) {
			return
		}
		fillDisc(dst, float64(pt.X)*k-x0, h-float64(pt.Y)*k-y0, rad, clr)
	})
	c.DrawImage(vg.Rectangle{
		Min: vg.Point{X: vg.Length(x0 / k), Y: vg.Length((h - y1) / k)},
		Max: vg.Point{X: vg.Length(x1 / k), Y: vg.Length((h - y0) / k)},
	}, dst)
}

// imageCanvas returns the image canvas under c (gonum/plot wraps
// it in draw.Canvas values), if it is one.
func imageCanvas(c vg.Canvas) (*vgimg.Canvas, bool) {
	for {
		switch v := c.(type) {
		case *vgimg.Canvas:
			return v, true
		case draw.Canvas:
			c = v.Canvas
		case *draw.Canvas:
			c = v.Canvas
		default:
			return nil, false
		}
	}
}

// fillDisc blends a disc of radius r (pixels) centered at (cx, cy)
// (pixels from the top left) in color c (premultiplied) onto dst, its
// edge antialiased by the share of each pixel it covers (approximated
// by the distance of the pixel's center to the circle).
func fillDisc(dst *image.RGBA, cx, cy, r float64, c color.RGBA64) {
	b := dst.Bounds()
	px0, px1 := max(int(math.Floor(cx-r-1)), b.Min.X), min(int(math.Ceil(cx+r+1)), b.Max.X-1)
	py0, py1 := max(int(math.Floor(cy-r-1)), b.Min.Y), min(int(math.Ceil(cy+r+1)), b.Max.Y-1)
	src := [4]float64{float64(c.R) / 257, float64(c.G) / 257, float64(c.B) / 257, float64(c.A) / 257}
	for py := py0; py <= py1; py++ {
		dy := float64(py) + 0.5 - cy
		for px := px0; px <= px1; px++ {
			dx := float64(px) + 0.5 - cx
			cov := min(r+0.5-math.Sqrt(dx*dx+dy*dy), 1)
			if cov <= 0 {
				continue
			}
			keep := 1 - src[3]*cov/255
			i := dst.PixOffset(px, py)
			for ch := range 4 {
				dst.Pix[i+ch] = uint8(min(src[ch]*cov+float64(dst.Pix[i+ch])*keep+0.5, 255))
			}
		}
	}
}
