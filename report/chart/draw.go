package chart

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Colors: one per strategy (Okabe-Ito, readable by the color-blind), in
// the order of the results, the same on every chart; highlighted puzzles
// in magenta; censored values in near-black.
var (
	// OkabeIto are the first six colors of every palette of the charts,
	// the run's and the history's (history/chart.go).
	OkabeIto = []color.Color{
		color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
		color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
		color.RGBA{0x00, 0x9E, 0x73, 0xff}, // green
		color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
		color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
		color.RGBA{0x33, 0x22, 0x88, 0xff}, // indigo
	}
	palette = append(slices.Clone(OkabeIto),
		color.RGBA{0x88, 0x88, 0x88, 0xff}, // gray
		color.RGBA{0x99, 0x77, 0x00, 0xff}, // ochre
	)
	highlightColor = color.RGBA{0xE0, 0x00, 0x90, 0xff}
	censorColor    = color.RGBA{0x22, 0x22, 0x22, 0xff}
	guideColor     = color.RGBA{0x99, 0x99, 0x99, 0xff}
	fontFace       = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// seriesColor returns the color of the i-th strategy.
func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// fade returns c with alpha a (0..1), premultiplied.
func fade(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA64{uint16(float64(r) * a), uint16(float64(g) * a), uint16(float64(b) * a), uint16(0xffff * a)}
}

// textStyle returns a text style of the chart font.
func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(fontFace, size), Handler: plot.DefaultTextHandler}
}

// newPlot returns a plot with the chart fonts, a title (split over
// two lines at " — " when it is too wide) and axis labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(fontFace, 14)
	p.Title.Padding = vg.Points(8)
	if p.Title.TextStyle.Width(title) > plotWidth-vg.Points(20) {
		if i := strings.Index(title, " — "); i >= 0 {
			title = title[:i] + "\n" + title[i+len(" — "):]
		}
	}
	p.Title.Text = title
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(fontFace, 12)
		a.Tick.Label.Font = font.From(fontFace, 11)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.TextStyle.Font = font.From(fontFace, 11)
	return p
}

// setLogAxis makes a an axis of log10 values over [lo, hi] (given as
// plain values) with readable labels for the measure. Every chart draws
// log10 of its values on a linear axis rather than using plot.LogScale:
// LogScale panics on a value <= 0 and misplaces the axis label's glyph
// box (at the arithmetic middle of the range), which shrinks the plot.
func setLogAxis(a *plot.Axis, lo, hi float64, m measure) {
	a.Min, a.Max = math.Log10(lo), math.Log10(hi)
	a.Tick.Marker = log10Ticks{m.ticker()}
}

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
// placed around them: each text takes the first of eight spots around
// its point (right-below first) that stays inside the plot and overlaps
// neither a text already placed nor a labelled point; over a light halo.
// Only the first maxLabels points are labelled.
type pointLabels struct {
	xs, ys []float64
	texts  []string
	style  text.Style
	gap    vg.Length // from the point to the text
}

// Plot implements plot.Plotter.
func (l *pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := min(len(l.xs), maxLabels)
	marks := make([]vg.Rectangle, n)
	for i := range n {
		pt := vg.Point{X: trX(l.xs[i]), Y: trY(l.ys[i])}
		g := l.gap
		marks[i] = vg.Rectangle{Min: vg.Point{X: pt.X - g, Y: pt.Y - g}, Max: vg.Point{X: pt.X + g, Y: pt.Y + g}}
	}
	overlaps := func(a, b vg.Rectangle) bool {
		return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
	}
	var placed []vg.Rectangle
	for i := range n {
		pt := vg.Point{X: trX(l.xs[i]), Y: trY(l.ys[i])}
		// Score each spot: 0 is free; an overlap costs 1, leaving the
		// plot costs more. The first best spot wins.
		var best labelSpot
		bestScore := -1
		for _, d := range [][2]float64{{1, -1}, {1, 1}, {1, 0}, {-1, 0}, {-1, 1}, {-1, -1}, {0, 1}, {0, -1}} {
			sp := newLabelSpot(l.style, pt, d, l.gap, l.texts[i])
			score := 0
			if sp.rect.Min.X < c.Min.X || sp.rect.Max.X > c.Max.X || sp.rect.Min.Y < c.Min.Y || sp.rect.Max.Y > c.Max.Y {
				score += 10
			}
			for _, r := range placed {
				if overlaps(sp.rect, r) {
					score++
				}
			}
			for j, r := range marks {
				if j != i && overlaps(sp.rect, r) {
					score++
				}
			}
			if bestScore < 0 || score < bestScore {
				best, bestScore = sp, score
			}
			if score == 0 {
				break
			}
		}
		placed = append(placed, best.rect)
		drawHalo(&c, best.style, best.at, l.texts[i])
		c.FillText(best.style, best.at, l.texts[i])
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

// legendCorner places the legend of p where it covers the fewest
// of the points (given in normalized axis coordinates, 0..1): against
// the right or left side, at the top, the bottom or in steps between;
// only in the top band when topOnly (histograms, whose points are bar
// tops). Lines should be given as points along them (densify). Ties
// go to the top right, then the top left.
func legendCorner(p *plot.Plot, nx, ny []float64, topOnly bool) float64 {
	return legendCornerW(p, nx, ny, nil, topOnly)
}

// legendCornerW is legendCorner with a weight per point (nil:
// 1 each). Both return how many points (their weight) the legend covers
// where it is placed.
func legendCornerW(p *plot.Plot, nx, ny, w []float64, topOnly bool) float64 {
	// The legend's share of the data area (which is about the chart
	// less 90 points each way for title, axes and labels), plus a margin.
	size := p.Legend.Rectangle(draw.Canvas{}).Size()
	fw := float64(size.X/(plotWidth-90)) + 0.04
	fh := float64(size.Y/(plotHeight-90)) + 0.04
	type spot struct {
		left bool
		top  float64 // normalized y of the legend's top edge
	}
	var spots []spot
	for _, top := range []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, fh} {
		if top < fh || (topOnly && top < 1) {
			continue
		}
		spots = append(spots, spot{false, top}, spot{true, top})
	}
	best, bestN := spots[0], -1.0
	for _, sp := range spots {
		n := 0.0
		for i := range nx {
			inX := nx[i] <= fw
			if !sp.left {
				inX = nx[i] >= 1-fw
			}
			if inX && ny[i] <= sp.top && ny[i] >= sp.top-fh {
				if w != nil {
					n += w[i]
				} else {
					n++
				}
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = sp, n
		}
	}
	p.Legend.Top, p.Legend.Left = true, best.left
	p.Legend.XOffs = vg.Points(-6)
	if best.left {
		p.Legend.XOffs = vg.Points(6)
	}
	p.Legend.YOffs = -vg.Points(6) - vg.Length(1-best.top)*(plotHeight-90)
	return bestN
}

// legendHeight returns the legend's height as a share of the data area's
// height (as legendCornerW reckons it), its margin included.
func legendHeight(p *plot.Plot) float64 {
	return float64(p.Legend.Rectangle(draw.Canvas{}).Size().Y/(plotHeight-90)) + 0.04
}

// densify returns the points of the polyline (xs, ys), in
// normalized coordinates, with extra points every step along each
// segment, so that a line counts where it passes.
func densify(xs, ys []float64, step float64) (nx, ny []float64) {
	for i := range xs {
		if i > 0 {
			dx, dy := xs[i]-xs[i-1], ys[i]-ys[i-1]
			n := int(math.Hypot(dx, dy) / step)
			for k := 1; k < n; k++ {
				f := float64(k) / float64(n)
				nx, ny = append(nx, xs[i-1]+f*dx), append(ny, ys[i-1]+f*dy)
			}
		}
		nx, ny = append(nx, xs[i]), append(ny, ys[i])
	}
	return nx, ny
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

// densityGrid counts points in normalized coordinates (0..1) on a grid,
// so that a legend can be placed by many points at the cost of a few.
type densityGrid struct {
	n [gridN * gridN]int32
}

const gridN = 200

func (g *densityGrid) add(x, y float64) {
	i := min(max(int(x*gridN), 0), gridN-1)
	j := min(max(int(y*gridN), 0), gridN-1)
	g.n[i*gridN+j]++
}

// points returns the centers of the cells holding points and how many
// each holds.
func (g *densityGrid) points() (xs, ys, ws []float64) {
	for k, n := range g.n {
		if n > 0 {
			xs = append(xs, (float64(k/gridN)+0.5)/gridN)
			ys = append(ys, (float64(k%gridN)+0.5)/gridN)
			ws = append(ws, float64(n))
		}
	}
	return xs, ys, ws
}
