package chart

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"math"
	"strings"

	"git.sr.ht/~sbinet/gg"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The base every chart of the tool is drawn on, the run's (this package)
// and the history's (package history): a Figure is a gonum plot with its
// legend in a band of its own below the plot, outside the data, so that
// no legend covers a point, a line or a label; its size; the labels drawn
// over the data after everything else; and, on SVG, the points a reader
// can hover or click (HoverPoint). Render draws it as PNG or SVG.

// DPI is the resolution of every PNG chart: a chart of Width points is
// Width/72*DPI pixels wide.
const DPI = 100

// fontFace is the typeface of every text of every chart.
var fontFace = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Text sizes, in points.
const (
	titleSize  = 14
	axisSize   = 12
	tickSize   = 11
	legendSize = 11
)

// Figure is one chart: its plot, its legend, its size and what an SVG
// reader can hover. Its plot's own legend (plot.Legend) stays empty:
// entries go to Legend, drawn in a band below the plot.
type Figure struct {
	Plot          *plot.Plot
	Legend        Legend
	Width, Height vg.Length
	// Square makes the data area square, the plot centered across the
	// width: a scatter of one quantity against itself on equal axes,
	// where "the same" is the diagonal.
	Square bool
	// Hover are the points an SVG rendering names on hover (an SVG
	// <title>) and links (an <a>); a PNG has none.
	Hover []HoverPoint
	// OnShrink, when set, adapts the chart to its small figure (Shrink):
	// fewer words on a crowded axis, say.
	OnShrink func(*Figure)

	labels []plot.Plotter // drawn over every plotter of Plot (AddLabels)
	sealed bool           // labels added to Plot
	// legendRect is where the legend band was drawn by the last Draw,
	// in the canvas' coordinates (the tests check no text crosses it).
	legendRect vg.Rectangle
	// pixels are those of the image the last PNG was drawn on: the next
	// PNG of the figure (its small one, after Shrink) is drawn on them
	// when they are enough, rather than on new memory.
	pixels []byte
}

// HoverPoint is a point of a chart that its SVG names and links: at (X,
// Y) in the plot's axis units, Title shown on hover, Href followed on a
// click ("" for no link). Href is relative to the SVG file.
type HoverPoint struct {
	X, Y        float64
	Title, Href string

	at vg.Point // where the last Draw put it, in the canvas' points
}

// NewFigure returns a figure of the given size with a plot in the
// charts' fonts, a title (split over two lines at " — " when it is too
// wide for the figure) and axis labels.
func NewFigure(title, xlabel, ylabel string, width, height vg.Length) *Figure {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(fontFace, titleSize)
	p.Title.Padding = vg.Points(8)
	if p.Title.TextStyle.Width(title) > width-vg.Points(20) {
		if i := strings.Index(title, " — "); i >= 0 {
			title = title[:i] + "\n" + title[i+len(" — "):]
		}
	}
	p.Title.Text = title
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(fontFace, axisSize)
		a.Tick.Label.Font = font.From(fontFace, tickSize)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	return &Figure{Plot: p, Width: width, Height: height}
}

// TextStyle returns a text style of the charts' typeface.
func TextStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(fontFace, size), Handler: plot.DefaultTextHandler}
}

// textStyle is TextStyle, for this package.
func textStyle(size vg.Length, c color.Color) text.Style { return TextStyle(size, c) }

// AddLabels adds plotters of texts drawn over the data, after every
// plotter added to the plot, whatever the order of the calls: a label is
// never under a point or a line.
func (f *Figure) AddLabels(ps ...plot.Plotter) { f.labels = append(f.labels, ps...) }

// seal adds the labels to the plot, once.
func (f *Figure) seal() {
	if !f.sealed {
		f.Plot.Add(f.labels...)
		f.sealed = true
	}
}

// Draw draws the figure on c: the plot above, the legend band below.
func (f *Figure) Draw(c draw.Canvas) {
	f.seal()
	band := f.Legend.layout(c.Rectangle.Size().X - 2*legendMargin)
	// A margin all round: the axis label's descenders and the title's
	// ascent stay on the chart.
	pc := draw.Crop(c, figureMargin, -figureMargin, band.height, -figureMargin)
	if f.Square {
		dc := f.Plot.DataCanvas(pc)
		if d := dc.Rectangle.Size().X - dc.Rectangle.Size().Y; d > 0 {
			pc = draw.Crop(pc, d/2, -d/2, 0, 0)
		}
	}
	f.Plot.Draw(pc)
	f.legendRect = vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Max.X, Y: c.Min.Y + band.height}}
	f.Legend.draw(c, band)
	if len(f.Hover) > 0 {
		dc := f.Plot.DataCanvas(pc)
		trX, trY := f.Plot.Transforms(&dc)
		for i := range f.Hover {
			h := &f.Hover[i]
			h.at = vg.Point{X: trX(h.X), Y: trY(h.Y)}
		}
	}
}

// SmallWidth is the width of a figure drawn for a small screen (a phone
// shows it about 370 pixels wide): the text keeps its size in points, so
// that on the screen it is about three quarters of its size at 100%,
// where the full-size chart shrinks it to under half.
const SmallWidth = 5 * vg.Inch

// Shrink makes f the small figure of the same chart: SmallWidth wide,
// relatively taller (its legend takes more rows) up to square, its
// title's first line alone (the page gives the rest), an axis label
// that would not fit cut before its parenthesis, then set smaller; and
// whatever the chart's OnShrink changes besides.
func (f *Figure) Shrink() {
	f.Width, f.Height = smallSize(f.Width, f.Height)
	p := f.Plot
	p.Title.Text, _, _ = strings.Cut(p.Title.Text, "\n")
	p.Title.Text, _, _ = strings.Cut(p.Title.Text, " — ")
	band := f.Legend.layout(f.Width - 2*legendMargin).height
	title := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		room := f.Width - 70 // the y axis' labels and title
		if a == &p.Y {
			room = f.Height - band - title - 50 // the x axis' labels and title
		}
		if a.Label.TextStyle.Width(a.Label.Text) > room {
			if i := strings.Index(a.Label.Text, " ("); i > 0 {
				a.Label.Text = a.Label.Text[:i]
			}
		}
		for a.Label.TextStyle.Width(a.Label.Text) > room && a.Label.TextStyle.Font.Size > 8 {
			a.Label.TextStyle.Font.Size--
		}
	}
	if f.OnShrink != nil {
		f.OnShrink(f)
	}
}

// smallSize is the size of the small figure of one w by h.
func smallSize(w, h vg.Length) (vg.Length, vg.Length) {
	return SmallWidth, min(SmallWidth*h/w*1.2, SmallWidth)
}

// pixels is the size in pixels of a PNG w by h.
func pixels(w, h vg.Length) (int, int) {
	return int(math.Round(w.Points() / 72 * DPI)), int(math.Round(h.Points() / 72 * DPI))
}

// LegendRect is where the last Draw put the legend band (empty without a
// legend).
func (f *Figure) LegendRect() vg.Rectangle { return f.legendRect }

// Pixels returns the figure's size in pixels, as a PNG.
func (f *Figure) Pixels() (w, h int) { return pixels(f.Width, f.Height) }

// Render draws the figure as "png" or "svg".
func (f *Figure) Render(format string) ([]byte, error) {
	var buf bytes.Buffer
	switch format {
	case "png":
		img := f.raster()
		buf.Grow(len(img.Pix)/40 + 1024) // the file: 5-8% of the pixels (writePaletted), and its palette
		if err := encodePNG(&buf, img); err != nil {
			return nil, err
		}
		f.pixels = img.Pix
	case "svg":
		c := vgsvg.New(f.Width, f.Height)
		f.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		if len(f.Hover) > 0 {
			return f.hoverSVG(buf.Bytes()), nil
		}
	default:
		return nil, fmt.Errorf("unknown chart format %q", format)
	}
	return buf.Bytes(), nil
}

// raster draws the figure on an image of its size in pixels, white (on
// the pixels of its last PNG when they are enough: the canvas paints
// every pixel white first). Its texts are drawn as their glyphs come, at
// whole pixels (gonum's canvas would resample each glyph, bilinear, at
// the same place: a fifth of a chart's drawing time), and its plot
// without its background, which the image has already.
func (f *Figure) raster() *image.RGBA {
	w, h := f.Pixels()
	img := &image.RGBA{Pix: f.pixels, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	if n := 4 * w * h; cap(img.Pix) >= n {
		img.Pix = img.Pix[:n]
	} else {
		img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	ctx := gg.NewContextForRGBA(img)
	ctx.SetLineCapButt()
	ctx.InvertY()
	ctx.SetInterpolator(xdraw.NearestNeighbor)
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI)) // white
	bg := f.Plot.BackgroundColor
	f.Plot.BackgroundColor = nil
	f.Draw(draw.New(c))
	f.Plot.BackgroundColor = bg
	return img
}

// figureMargin is the room left round the plot, in points.
const figureMargin = vg.Length(3)

// hoverRadius is the radius of the area around a hover point that shows
// its title and takes its click.
const hoverRadius = 7

// hoverSVG adds to svg, before its end, a transparent disc at each hover
// point with its title and its link. gonum's SVG draws in points with
// the origin at the bottom left under a flip; these discs are outside
// that group, in the SVG's own coordinates (the origin at the top left).
func (f *Figure) hoverSVG(svg []byte) []byte {
	end := bytes.LastIndex(svg, []byte("</svg>"))
	if end < 0 {
		return svg
	}
	var b bytes.Buffer
	b.Write(svg[:end])
	b.WriteString("<g class=\"hover\" fill=\"#000\" fill-opacity=\"0\" stroke=\"none\">\n")
	h := f.Height.Points()
	for _, p := range f.Hover {
		disc := fmt.Sprintf(`<circle cx="%.2f" cy="%.2f" r="%d"><title>%s</title></circle>`,
			p.at.X.Points(), h-p.at.Y.Points(), hoverRadius, html.EscapeString(p.Title))
		if p.Href != "" {
			disc = fmt.Sprintf(`<a href="%s" target="_top">%s</a>`, html.EscapeString(p.Href), disc)
		}
		b.WriteString(disc + "\n")
	}
	b.WriteString("</g>\n")
	b.Write(svg[end:])
	return b.Bytes()
}
