package history

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
)

// marks are the steps and alarms of a series, placed on its nights.
type marks struct {
	steps  []*Step
	alarms []*Alarm // every night's, deduplicated
}

// chartMarks gathers the steps and the alarms of r (the newest night's
// and those of the earlier nights that the history page lists).
func chartMarks(s *Series, r *Report) *marks {
	m := &marks{}
	if r == nil {
		return m
	}
	m.steps = r.Steps
	seen := map[*Alarm]bool{}
	add := func(a *Alarm) {
		if a != nil && !seen[a] {
			seen[a] = true
			m.alarms = append(m.alarms, a)
		}
	}
	for _, row := range r.Nights {
		for _, a := range row.Alarms {
			add(a)
		}
	}
	for _, a := range r.Alarms {
		add(a)
	}
	return m
}

// nightX returns the x of a night of s (its 1-based place in the
// series, found by run; ref.Index when the run is not in s), or 0.
func nightX(s *Series, ref NightRef) float64 {
	for i, n := range s.Nights {
		if n.Run == ref.Run && (ref.Start.IsZero() || n.Start.Equal(ref.Start)) {
			return float64(i + 1)
		}
	}
	if ref.Index >= 1 && ref.Index <= len(s.Nights) {
		return float64(ref.Index)
	}
	return 0
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func reverseXY(pts []plotter.XY) []plotter.XY {
	out := slices.Clone(pts)
	slices.Reverse(out)
	return out
}

// thickRing is an open circle drawn with a wide line: the alarm mark.
type thickRing struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// stepLines draws a dashed vertical line at each x, its text at the top
// of the data area (stacked when several steps are drawn), over a halo.
// The legend is outside the plot: nothing to keep clear.
type stepLines struct {
	xs     []float64
	texts  []string
	colors []color.Color
	style  text.Style
}

// Plot implements plot.Plotter.
func (s *stepLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for i, x := range s.xs {
		px := trX(x)
		c.StrokeLine2(draw.LineStyle{Color: s.colors[i], Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}},
			px, c.Min.Y, px, c.Max.Y)
	}
	for i, x := range s.xs {
		px := trX(x)
		st := s.style
		st.Color = s.colors[i]
		st.XAlign = draw.XLeft
		st.YAlign = draw.YTop
		if px > c.Center().X {
			st.XAlign = draw.XRight
		}
		dx := vg.Points(3)
		if st.XAlign == draw.XRight {
			dx = -dx
		}
		at := vg.Point{X: px + dx, Y: c.Max.Y - vg.Points(3) - vg.Length(i%4)*st.Height(s.texts[i])*1.3}
		c.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0}) // a halo over the lines it crosses
		c.Fill(st.Rectangle(s.texts[i]).Add(at).Path())
		c.FillText(st, at, s.texts[i])
	}
}

// nightLabels returns the x label of each night: its date (and time,
// to the second if need be, when two nights of the series share a date)
// and short revision, on two lines.
func nightLabels(nights []*Night) []string {
	layout := "2006-01-02"
	for _, l := range []string{"01-02 15:04", "01-02 15:04:05"} {
		same := false
		for i := 1; i < len(nights); i++ {
			if nights[i].Start.UTC().Format(layout) == nights[i-1].Start.UTC().Format(layout) {
				same = true
				break
			}
		}
		if !same {
			break
		}
		layout = l
	}
	out := make([]string, len(nights))
	for i, n := range nights {
		out[i] = n.Start.UTC().Format(layout) + "\n" + ShortRevision(n.Revision)
	}
	return out
}

// ShortRevision is a revision cut to its first 7 hex digits
// (report.ShortRevision, the one the run's page shows).
func ShortRevision(rev string) string { return report.ShortRevision(rev) }

// nightTicker labels at most maxXLabels nights (every k-th, k chosen
// so), the first always, and no more than fit side by side in room
// (when set) in style: the small figure has room for fewer. Every night
// has an unlabelled tick up to minorTicksTo nights.
type nightTicker struct {
	labels []string
	room   vg.Length // the x axis' length, 0: unknown
	style  text.Style
}

// most is how many labels the ticker draws at most.
func (t nightTicker) most() int {
	if t.room <= 0 {
		return maxXLabels
	}
	var widest vg.Length
	for _, l := range t.labels {
		widest = max(widest, t.style.Width(l))
	}
	gap := t.style.Font.Size // a letter's room between two labels
	return max(1, min(maxXLabels, int(t.room/(widest+gap))))
}

// Ticks implements plot.Ticker.
func (t nightTicker) Ticks(lo, hi float64) []plot.Tick {
	n := len(t.labels)
	most := t.most()
	step := 1
	for n > step*most {
		step++
	}
	var ticks []plot.Tick
	for i := range n {
		x := float64(i + 1)
		if x < lo || x > hi {
			continue
		}
		switch {
		case i%step == 0:
			ticks = append(ticks, plot.Tick{Value: x, Label: t.labels[i]})
		case n <= minorTicksTo:
			ticks = append(ticks, plot.Tick{Value: x})
		}
	}
	return ticks
}

// countTicker is plot.DefaultTicks with whole counts only.
type countTicker struct{}

// Ticks implements plot.Ticker.
func (countTicker) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if tk.Value != math.Trunc(tk.Value) {
			if tk.Label == "" {
				continue
			}
			tk.Label = ""
		}
		if tk.Label != "" {
			tk.Label = report.TrimNumber(tk.Value)
		}
		out = append(out, tk)
	}
	return out
}
