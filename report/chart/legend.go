package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Legend is a figure's legend: entries of one or more thumbnails (a
// line, a mark, a bar) and a text, drawn in a band below the plot, as
// many entries a row as fit the figure's width, each row centered.
type Legend struct {
	entries []legendEntry
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
}

// Add adds an entry: text after its thumbnails, drawn over each other.
func (l *Legend) Add(text string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text: text, thumbs: thumbs})
}

// Len returns the number of entries.
func (l *Legend) Len() int { return len(l.entries) }

// Texts returns the entries' texts, in order.
func (l *Legend) Texts() []string {
	out := make([]string, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.text
	}
	return out
}

// The legend band's geometry, in points.
const (
	legendMargin = vg.Length(8)  // left and right of the rows
	legendThumb  = vg.Length(20) // a thumbnail's width
	legendGap    = vg.Length(5)  // between a thumbnail and its text
	legendSpace  = vg.Length(16) // between two entries of a row
	legendPadTop = vg.Length(6)  // above the first row
	legendPadBot = vg.Length(5)  // below the last row
)

// legendBand is the entries laid out in rows.
type legendBand struct {
	height vg.Length
	rows   [][]int     // entry indices per row
	widths []vg.Length // each row's width
	line   vg.Length   // a row's height
	style  text.Style
}

// layout places the entries in rows at most width wide (an entry wider
// than width has a row of its own).
func (l *Legend) layout(width vg.Length) legendBand {
	b := legendBand{style: textStyle(legendSize, censorColor)}
	if len(l.entries) == 0 {
		return b
	}
	b.style.YAlign = draw.YCenter
	b.line = b.style.FontExtents().Height * 1.3
	var row []int
	var w vg.Length
	for i, e := range l.entries {
		ew := l.entryWidth(b.style, e)
		if len(row) > 0 && w+legendSpace+ew > width {
			b.rows, b.widths = append(b.rows, row), append(b.widths, w)
			row, w = nil, 0
		}
		if len(row) > 0 {
			w += legendSpace
		}
		row, w = append(row, i), w+ew
	}
	b.rows, b.widths = append(b.rows, row), append(b.widths, w)
	b.height = legendPadTop + vg.Length(len(b.rows))*b.line + legendPadBot
	return b
}

func (l *Legend) entryWidth(st text.Style, e legendEntry) vg.Length {
	return legendThumb + legendGap + st.Width(e.text)
}

// draw draws the laid-out band at the bottom of c.
func (l *Legend) draw(c draw.Canvas, b legendBand) {
	if len(b.rows) == 0 {
		return
	}
	for r, row := range b.rows {
		y := c.Min.Y + b.height - legendPadTop - (vg.Length(r)+0.5)*b.line
		x := c.Min.X + (c.Rectangle.Size().X-b.widths[r])/2
		for _, i := range row {
			e := l.entries[i]
			h := b.style.FontExtents().Height
			tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - h/2}, Max: vg.Point{X: x + legendThumb, Y: y + h/2}}}
			for _, t := range e.thumbs {
				t.Thumbnail(&tc)
			}
			c.FillText(b.style, vg.Point{X: x + legendThumb + legendGap, Y: y}, e.text)
			x += l.entryWidth(b.style, e) + legendSpace
		}
	}
}
