package history

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// ChartDir is the directory of trend's charts (and bisect scripts) in
// the results root.
const ChartDir = "trend"

// The measures charted per series, in page order: the median time with
// its 95% interval as a band, the p99 time (log axes), the total calls
// (log axis) and the units stopped by -timeout (linear axis).
var chartMeasures = []chartMeasure{
	{Name: "median", Title: "median time", YLabel: "median time per unit", Log: true, Time: true, Band: true,
		Value: func(s *Strategy) (v, lo, hi float64, lower bool) {
			return float64(s.Median.Value), float64(s.Median.Lo), float64(s.Median.Hi), s.Median.Bound == "lower"
		}},
	{Name: "p99", Title: "p99 time", YLabel: "p99 time per unit", Log: true, Time: true,
		Value: func(s *Strategy) (v, lo, hi float64, lower bool) {
			return float64(s.P99.Value), 0, 0, s.P99.Bound == "lower"
		}},
	{Name: "calls", Title: "total calls", YLabel: "calls, all units", Log: true,
		Value: func(s *Strategy) (v, lo, hi float64, lower bool) {
			return float64(s.Calls), 0, 0, s.Censored > 0
		}},
	{Name: "timeouts", Title: "units stopped by -timeout", YLabel: "timeouts",
		Value: func(s *Strategy) (v, lo, hi float64, lower bool) {
			return float64(s.TimedOut), 0, 0, false
		}},
}

// chartMeasure is one measure of the trend charts: how to read it from a
// night's figures of a strategy (its value, the ends of its interval when
// Band, whether it is a lower bound) and how to draw it.
type chartMeasure struct {
	Name, Title, YLabel string
	Log                 bool // a log axis: values below valueFloor are drawn at it
	Time                bool // values are ns: labelled as times; steps are marked
	Band                bool // the 95% interval is drawn as a band
	Value               func(s *Strategy) (v, lo, hi float64, lower bool)
}

// valueFloor is where a log axis draws a value <= 0 (0 ns, 0 calls):
// gonum/plot cannot draw 0 on a log scale, and the captions say how many
// values were moved.
const valueFloor = 1

// Chart geometry: 9x5 inches, 900x500 pixels in PNG.
const (
	trendWidth   = 9 * vg.Inch
	trendHeight  = 5 * vg.Inch
	trendDPI     = 100
	maxXLabels   = 8  // labelled nights on the x axis at most
	pointsUpTo   = 60 // nights up to which each night's point is drawn
	minorTicksTo = 90 // nights up to which every night has a tick
)

// Colors: one per strategy (Okabe-Ito, readable by the color-blind), by
// the strategy's place in the registry counted from its end, so that the
// fast strategies a nightly sweep runs get the strongest colors and a
// strategy has the same color on every trend chart of every series;
// alarms in red, acknowledged ones in gray (no strategy is gray).
var (
	trendPalette = append(slices.Clone(chart.OkabeIto),
		color.RGBA{0x99, 0x77, 0x00, 0xff}, // ochre
		color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	)
	alarmColor = color.RGBA{0xD0, 0x00, 0x20, 0xff}
	ackColor   = color.RGBA{0x80, 0x80, 0x80, 0xff}
	trendFont  = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// strategyOrder returns the strategies of the nights in color order:
// registered ones in registry order, then the others (external solvers)
// by name.
func strategyOrder(nights []*Night) []string {
	seen := map[string]bool{}
	var others []string
	for _, n := range nights {
		for _, st := range n.Strategy {
			if !seen[st.Solver] {
				seen[st.Solver] = true
				if _, ok := solvers.Lookup(st.Solver); !ok {
					others = append(others, st.Solver)
				}
			}
		}
	}
	var out []string
	for _, name := range solvers.Names() {
		if seen[name] {
			out = append(out, name)
		}
	}
	slices.Sort(others)
	return append(out, others...)
}

// strategyColor returns the color of a strategy: by its registry place
// from the end; an external solver's by a hash of its name.
func strategyColor(name string) color.Color {
	names := solvers.Names()
	if i := slices.Index(names, name); i >= 0 {
		return trendPalette[(len(names)-1-i)%len(trendPalette)]
	}
	h := 0
	for _, r := range name {
		h = (h*31 + int(r)) & 0xffff
	}
	return trendPalette[(len(names)+h)%len(trendPalette)]
}

// TrendChart is one chart written: its files relative to the results
// root, its title and caption.
type TrendChart struct {
	Measure string `json:"measure"`
	PNG     string `json:"png"`
	SVG     string `json:"svg"`
	Title   string `json:"title"`
	Caption string `json:"caption"`
}

// errSkipChart leaves out a chart that would show nothing.
var errSkipChart = errors.New("no chart")

// writeCharts draws the charts of series s (one per measure) into
// root/ChartDir and returns those written, in chartMeasures order (no
// chart of timeouts for a series run without -timeout). A
// chart that cannot be drawn (a panic inside gonum/plot included) is
// left out and named in the error; the others are written.
func writeCharts(root string, s *Series, r *Report) ([]TrendChart, error) {
	if err := os.MkdirAll(filepath.Join(root, ChartDir), 0o755); err != nil {
		return nil, fmt.Errorf("writing trend charts: %w", err)
	}
	marks := chartMarks(s, r)
	charts := make([]TrendChart, len(chartMeasures))
	errs := make([]error, len(chartMeasures))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range chartMeasures {
		if chartMeasures[i].Name == "timeouts" && s.Signature.Timeout == 0 {
			errs[i] = errSkipChart // no -timeout: no unit can time out
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			charts[i], errs[i] = writeChart(root, s, &chartMeasures[i], marks)
		}()
	}
	wg.Wait()
	var out []TrendChart
	for i, c := range charts {
		if errs[i] == nil {
			out = append(out, c)
		} else if errs[i] == errSkipChart {
			errs[i] = nil
		}
	}
	return out, errors.Join(errs...)
}

// writeChart draws one measure of s as PNG and SVG.
func writeChart(root string, s *Series, m *chartMeasure, marks *marks) (c TrendChart, err error) {
	base := s.ID + "-" + m.Name
	c = TrendChart{Measure: m.Name, PNG: ChartDir + "/" + base + ".png", SVG: ChartDir + "/" + base + ".svg"}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing chart %s: panic: %v", c.PNG, r)
		}
	}()
	p, caption := buildChart(s, m, marks)
	c.Title, c.Caption = p.Title.Text, caption
	for _, f := range []struct{ rel, format string }{{c.PNG, "png"}, {c.SVG, "svg"}} {
		b, err := renderTrend(p, f.format)
		if err != nil {
			return c, fmt.Errorf("drawing chart %s: %w", f.rel, err)
		}
		if err := rundir.WriteFile(filepath.Join(root, filepath.FromSlash(f.rel)), b); err != nil {
			return c, fmt.Errorf("writing chart: %w", err)
		}
	}
	return c, nil
}

// renderTrend draws p as "png" or "svg" at the chart size.
func renderTrend(p *plot.Plot, format string) ([]byte, error) {
	var buf bytes.Buffer
	if format == "svg" {
		c := vgsvg.New(trendWidth, trendHeight)
		p.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	c := vgimg.NewWith(vgimg.UseWH(trendWidth, trendHeight), vgimg.UseDPI(trendDPI))
	p.Draw(draw.New(c))
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

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

// buildChart builds the chart of measure m over the nights of s: a line
// per strategy (its points drawn up to pointsUpTo nights; a lower bound
// as a triangle), the interval as a band, steps as dashed vertical
// lines before their first night, alarms as rings on their strategy's
// point. It returns the plot and its caption.
func buildChart(s *Series, m *chartMeasure, mk *marks) (*plot.Plot, string) {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(trendFont, 14)
	p.Title.Text = fmt.Sprintf("%s per night — series %s", m.Title, s.ID)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(trendFont, 12)
		a.Tick.Label.Font = font.From(trendFont, 10)
	}
	p.X.Label.Text = "night (date UTC, revision)"
	p.Y.Label.Text = m.YLabel
	if m.Log {
		p.Y.Label.Text += " (log)"
	}
	p.Legend.TextStyle.Font = font.From(trendFont, 11)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.Padding = vg.Points(3)
	p.Add(plotter.NewGrid())

	n := len(s.Nights)
	names := strategyOrder(s.Nights)
	// A lower bound is marked on every night up to pointsUpTo nights, on
	// every markEvery-th night beyond (365 triangles make a smear).
	markEvery := (n + pointsUpTo - 1) / pointsUpTo
	tr := func(v float64) float64 { return v }
	clamped := 0
	if m.Log {
		tr = func(v float64) float64 {
			if !(v >= valueFloor) { // NaN too
				return 0
			}
			return math.Log10(v)
		}
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	see := func(y float64) { ymin, ymax = min(ymin, y), max(ymax, y) }
	point := map[string]map[int]float64{} // strategy -> night x -> y drawn
	lowers := 0
	for _, name := range names {
		col := strategyColor(name)
		point[name] = map[int]float64{}
		var seg, band []plotter.XY
		var hiSeg []plotter.XY
		var open plotter.XYs
		flush := func() {
			if len(seg) == 0 {
				return
			}
			if m.Band && len(band) > 0 {
				if len(band) == 1 {
					l, _ := plotter.NewLine(plotter.XYs{band[0], hiSeg[0]})
					l.LineStyle = draw.LineStyle{Color: fadeColor(col, 0.45), Width: vg.Points(5)}
					p.Add(l)
				} else {
					pts := append(slices.Clone(band), reverseXY(hiSeg)...)
					poly, err := plotter.NewPolygon(plotter.XYs(pts))
					if err == nil {
						poly.Color = fadeColor(col, 0.18)
						poly.LineStyle.Width = 0
						p.Add(poly)
					}
				}
			}
			l, _ := plotter.NewLine(plotter.XYs(seg))
			l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.6)}
			p.Add(l)
			if n <= pointsUpTo {
				sc, _ := plotter.NewScatter(plotter.XYs(seg))
				sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
				p.Add(sc)
			}
			seg, band, hiSeg = nil, nil, nil
		}
		for i, night := range s.Nights {
			st := night.StrategyNamed(name)
			if st == nil {
				flush()
				continue
			}
			v, lo, hi, lower := m.Value(st)
			if m.Log && v < valueFloor {
				clamped++
			}
			x := float64(i + 1)
			y := tr(v)
			point[name][i+1] = y
			seg = append(seg, plotter.XY{X: x, Y: y})
			see(y)
			if m.Band {
				if lo <= 0 || lo > v {
					lo = v
				}
				if hi < v {
					hi = v
				}
				band = append(band, plotter.XY{X: x, Y: tr(lo)})
				hiSeg = append(hiSeg, plotter.XY{X: x, Y: tr(hi)})
				see(tr(lo))
				see(tr(hi))
			}
			if lower {
				lowers++
				if i%markEvery == 0 {
					open = append(open, plotter.XY{X: x, Y: y})
				}
			}
		}
		flush()
		if len(open) > 0 {
			sc, _ := plotter.NewScatter(open)
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
			p.Add(sc)
		}
		p.Legend.Add(name, &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(2)}})
	}
	if math.IsInf(ymin, 0) { // no strategy has a value: an empty chart
		ymin, ymax = 0, 1
	}

	// Steps: a dashed line between the last night before and the first
	// night of the new level, labelled at the top.
	var stepXs []float64
	var stepTexts []string
	var stepColors []color.Color
	if m.Time {
		for _, st := range mk.steps {
			x := nightX(s, st.Night)
			if x == 0 {
				continue
			}
			stepXs = append(stepXs, x-0.5)
			label := fmt.Sprintf("step %s %s", st.Solver, fmtMultiple(st.Ratio))
			if st.Ack != nil {
				label += " (ack)"
			}
			stepTexts = append(stepTexts, label)
			stepColors = append(stepColors, strategyColor(st.Solver))
		}
	}

	// Alarms: a ring on the strategy's point of that night; counters
	// alarms on the calls chart, time alarms on the time charts.
	var ring, ackRing plotter.XYs
	for _, a := range mk.alarms {
		if (a.Kind == AlarmCounters) == m.Time || m.Name == "timeouts" {
			continue
		}
		x := nightX(s, a.Night)
		y, ok := point[a.Solver][int(x)]
		if x == 0 || !ok {
			continue
		}
		if a.Ack != nil {
			ackRing = append(ackRing, plotter.XY{X: x, Y: y})
		} else {
			ring = append(ring, plotter.XY{X: x, Y: y})
		}
	}
	for _, r := range []struct {
		pts   plotter.XYs
		col   color.Color
		label string
	}{{ring, alarmColor, "alarm"}, {ackRing, ackColor, "alarm, acknowledged"}} {
		if len(r.pts) == 0 {
			continue
		}
		sc, _ := plotter.NewScatter(r.pts)
		sc.GlyphStyle = draw.GlyphStyle{Color: r.col, Radius: vg.Points(7), Shape: thickRing{}}
		p.Add(sc)
		p.Legend.Add(r.label, sc)
	}

	// Axes: room above the data for the legend and the step labels.
	span := ymax - ymin
	if m.Log {
		if span < 0.3 {
			mid := (ymax + ymin) / 2
			ymin, ymax, span = mid-0.15, mid+0.15, 0.3
		}
		p.Y.Min, p.Y.Max = ymin-0.08*span, ymax+0.1*span+0.07*span*float64(len(names)+2)
		p.Y.Tick.Marker = logTicker{time: m.Time}
	} else {
		if ymin > 0 {
			ymin = 0
		}
		ymax = max(ymax, 4) // whole-count ticks when the counts are small
		span = ymax - ymin
		p.Y.Min, p.Y.Max = ymin, ymax+0.1*span+0.07*span*float64(len(names)+2)
		p.Y.Tick.Marker = countTicker{}
	}
	p.X.Min, p.X.Max = 0.5, float64(n)+0.5
	p.X.Tick.Marker = nightTicker{labels: nightLabels(s.Nights)}
	if len(stepXs) > 0 {
		legend := p.Legend.Rectangle(draw.Canvas{}).Size()
		p.Add(&stepLines{xs: stepXs, texts: stepTexts, colors: stepColors, legend: legend,
			style: text.Style{Font: font.From(trendFont, 10), Handler: plot.DefaultTextHandler}})
	}

	var caption []string
	caption = append(caption, fmt.Sprintf("%s of each strategy over the %s of series %s, oldest first", capitalize(m.Title), report.Count(n, "night", "nights"), s.ID))
	if m.Band {
		caption = append(caption, "the band is its 95% interval")
	}
	if lowers > 0 {
		mark := "a triangle"
		if markEvery > 1 {
			mark = fmt.Sprintf("a triangle every %d nights", markEvery)
		}
		caption = append(caption, fmt.Sprintf("%s: units stopped by a limit made the value a lower bound (%s)", report.Count(lowers, "value is a lower bound", "values are lower bounds"), mark))
	}
	if clamped > 0 {
		caption = append(caption, fmt.Sprintf("%s drawn at %g (a log axis has no 0)", report.Count(clamped, "value below 1", "values below 1"), float64(valueFloor)))
	}
	if len(stepXs) > 0 {
		caption = append(caption, "a dashed line marks where a step (a change point of the median time) starts")
	}
	if len(ring)+len(ackRing) > 0 {
		caption = append(caption, "a ring marks a night's alarm on that strategy (gray: acknowledged)")
	}
	return p, strings.Join(caption, "; ") + "."
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

// fadeColor returns c with alpha a (0..1), premultiplied.
func fadeColor(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA64{uint16(float64(r) * a), uint16(float64(g) * a), uint16(float64(b) * a), uint16(0xffff * a)}
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
// of the data area (stacked when several steps are drawn), below the
// legend (in the top left corner, of size legend) where it would cover it.
type stepLines struct {
	xs     []float64
	texts  []string
	colors []color.Color
	style  text.Style
	legend vg.Point
}

// Plot implements plot.Plotter.
func (s *stepLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for i, x := range s.xs {
		px := trX(x)
		c.StrokeLine2(draw.LineStyle{Color: s.colors[i], Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}},
			px, c.Min.Y, px, c.Max.Y)
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
		if r := st.Rectangle(s.texts[i]).Add(at); r.Min.X < c.Min.X+s.legend.X+vg.Points(6) && r.Max.Y > c.Max.Y-s.legend.Y-vg.Points(3) {
			at.Y -= s.legend.Y + vg.Points(3)
		}
		c.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0}) // a halo over the lines it crosses
		c.Fill(st.Rectangle(s.texts[i]).Add(at).Path())
		c.FillText(st, at, s.texts[i])
	}
}

// nightLabels returns the x label of each night: its date (and time,
// when two nights of the series share a date) and short revision, on two
// lines.
func nightLabels(nights []*Night) []string {
	layout := "2006-01-02"
	for i := 1; i < len(nights); i++ {
		if nights[i].Start.UTC().Format(layout) == nights[i-1].Start.UTC().Format(layout) {
			layout = "01-02 15:04"
			break
		}
	}
	out := make([]string, len(nights))
	for i, n := range nights {
		out[i] = n.Start.UTC().Format(layout) + "\n" + ShortRevision(n.Revision)
	}
	return out
}

// ShortRevision is a revision cut to its first 7 hex digits, "+" after them
// for a build of a tree with changes ("+dirty"); what follows the hash
// (" (checkout)") is left out. A revision that is no hash ("unknown",
// "(devel)") is kept.
func ShortRevision(rev string) string {
	hex := len(rev) - len(strings.TrimLeft(rev, "0123456789abcdef"))
	if hex >= 7 {
		h := rev[:7]
		if strings.Contains(rev[hex:], "dirty") {
			h += "+"
		}
		return h
	}
	if rev == "" {
		return "unknown"
	}
	return rev
}

// nightTicker labels at most maxXLabels nights (every k-th, k chosen
// so), the first always; every night has an unlabelled tick up to
// minorTicksTo nights.
type nightTicker struct{ labels []string }

// Ticks implements plot.Ticker.
func (t nightTicker) Ticks(lo, hi float64) []plot.Tick {
	n := len(t.labels)
	step := 1
	for n > step*maxXLabels {
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

// logTicker puts ticks on an axis of log10 values: labelled powers of
// ten (every second or third on wide ranges), or 1-2-5 and 1..9
// multiples on narrow ones; times labelled as times, counts as counts.
type logTicker struct{ time bool }

// Ticks implements plot.Ticker.
func (t logTicker) Ticks(lo, hi float64) []plot.Tick {
	format := report.FormatCountTick
	if t.time {
		format = func(ns float64) string { return report.FormatSecondsShort(ns / 1e9) }
	}
	in := func(v float64) bool { return v >= lo-1e-9 && v <= hi+1e-9 }
	dlo, dhi := int(math.Floor(lo)), int(math.Ceil(hi))
	for _, mult := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		var ticks []plot.Tick
		labelled := 0
		step := max(1, (dhi-dlo+7)/8) // at most about 8 labelled decades
		for d := dlo; d <= dhi; d++ {
			for m := 1; m <= 9; m++ {
				v := math.Log10(float64(m)) + float64(d)
				if !in(v) {
					continue
				}
				label := slices.Contains(mult, m) && (m != 1 || len(mult) > 1 || (d-dlo)%step == 0)
				if m > 1 && dhi-dlo > 6 && !label {
					continue // minor ticks at decades only on wide ranges
				}
				tk := plot.Tick{Value: v}
				if label {
					tk.Label = format(float64(m) * math.Pow10(d))
					labelled++
				}
				ticks = append(ticks, tk)
			}
		}
		if labelled >= 3 || len(mult) == 9 && labelled >= 2 {
			return ticks
		}
	}
	// A range narrower than one 1..9 step: linear ticks in value.
	var ticks []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(math.Pow(10, lo), math.Pow(10, hi)) {
		if tk.Value <= 0 {
			continue
		}
		v := math.Log10(tk.Value)
		if !in(v) {
			continue
		}
		out := plot.Tick{Value: v}
		if tk.Label != "" {
			out.Label = format(tk.Value)
		}
		ticks = append(ticks, out)
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
