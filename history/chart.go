package history

import (
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
	"time"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	maxXLabels   = 8  // labelled nights on the x axis at most
	pointsUpTo   = 60 // nights up to which each night's point is drawn
	minorTicksTo = 90 // nights up to which every night has a tick
)

// Colors: a strategy's is chart.StrategyColor's, the same on the run's
// charts and on every trend chart of every series; alarms in red,
// acknowledged ones in gray (no strategy is gray).
var (
	alarmColor = color.RGBA{0xD0, 0x00, 0x20, 0xff}
	ackColor   = color.RGBA{0x80, 0x80, 0x80, 0xff}
)

// strategyOrder returns the strategies of the nights in legend order:
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

// TrendChart is one chart written: its files relative to the results
// root, its title and caption.
type TrendChart struct {
	Measure string `json:"measure"`
	PNG     string `json:"png"`
	SVG     string `json:"svg"`
	Title   string `json:"title"`
	Caption string `json:"caption"`
	// Width and Height are the PNG's size in pixels, for the page.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Small is the PNG drawn for a small screen (chart.Figure.Shrink),
	// SmallWidth and SmallHeight its size.
	Small       string `json:"small,omitempty"`
	SmallWidth  int    `json:"small_width,omitempty"`
	SmallHeight int    `json:"small_height,omitempty"`
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
	pages := nightPages(root, r)
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
			charts[i], errs[i] = writeChart(root, s, &chartMeasures[i], marks, pages)
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

// writeChart draws one measure of s as PNG and SVG; pages are the
// nights' pages by run, relative to the root, which the SVG's points
// link.
func writeChart(root string, s *Series, m *chartMeasure, marks *marks, pages map[string]string) (c TrendChart, err error) {
	base := s.ID + "-" + m.Name
	c = TrendChart{Measure: m.Name, PNG: ChartDir + "/" + base + ".png", SVG: ChartDir + "/" + base + ".svg"}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing chart %s: panic: %v", c.PNG, r)
		}
	}()
	f, caption := buildChart(s, m, marks, pages)
	c.Title, c.Caption = f.Plot.Title.Text, caption
	c.Width, c.Height = f.Pixels()
	c.Small = ChartDir + "/" + base + "-small.png"
	for _, out := range []struct {
		rel, format string
		small       bool
	}{{c.PNG, "png", false}, {c.SVG, "svg", false}, {c.Small, "png", true}} {
		if out.small {
			f.Shrink()
			c.SmallWidth, c.SmallHeight = f.Pixels()
		}
		b, err := f.Render(out.format)
		if err != nil {
			return c, fmt.Errorf("drawing chart %s: %w", out.rel, err)
		}
		if err := rundir.WriteFile(filepath.Join(root, filepath.FromSlash(out.rel)), b); err != nil {
			return c, fmt.Errorf("writing chart: %w", err)
		}
	}
	return c, nil
}

// nightPages returns the page of each night of r's rows by run, as a
// link from the charts' directory (root/ChartDir): "../RUN/index.html",
// or a file: URL for a run outside the root.
func nightPages(root string, r *Report) map[string]string {
	out := map[string]string{}
	if r == nil {
		return out
	}
	for _, row := range r.Nights {
		if row.Page == "" {
			continue
		}
		if filepath.IsAbs(row.Page) {
			out[row.Night.Run] = pageHref(row.Page)
		} else {
			out[row.Night.Run] = "../" + strings.TrimPrefix(pageHref(row.Page), "./")
		}
	}
	return out
}

// buildChart builds the chart of measure m over the nights of s: a line
// per strategy (its points drawn up to pointsUpTo nights; a lower bound
// as a triangle), the interval as a band, steps as dashed vertical
// lines before their first night, alarms as rings on their strategy's
// point; the y axis fitted to the values (a band end far beyond them is
// cut at the edge); on SVG, each point names its night, revision and
// value on hover and links the night's page (pages, by run). It returns
// the figure and its caption.
func buildChart(s *Series, m *chartMeasure, mk *marks, pages map[string]string) (*chart.Figure, string) {
	ylabel := m.YLabel
	if m.Log {
		ylabel += " (log)"
	}
	f := chart.NewFigure(fmt.Sprintf("%s per night — series %s", m.Title, s.ID), "night (date UTC, revision)", ylabel, trendWidth, trendHeight)
	p := f.Plot
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
	// The y range: the values, and the band's ends within bandReach of
	// them (an interval unbounded by the units, or a night's wide one,
	// would stretch the axis far past every line).
	ymin, ymax := math.Inf(1), math.Inf(-1)
	see := func(y float64) { ymin, ymax = min(ymin, y), max(ymax, y) }
	var bandLo, bandHi []float64
	point := map[string]map[int]float64{} // strategy -> night x -> y drawn
	lowers := 0
	for _, name := range names {
		col := chart.StrategyColor(name)
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
					l.LineStyle = draw.LineStyle{Color: chart.Fade(col, 0.45), Width: vg.Points(5)}
					p.Add(l)
				} else {
					pts := append(slices.Clone(band), reverseXY(hiSeg)...)
					poly, err := plotter.NewPolygon(plotter.XYs(pts))
					if err == nil {
						poly.Color = chart.Fade(col, 0.18)
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
			f.Hover = append(f.Hover, chart.HoverPoint{X: x, Y: y, Href: pages[night.Run],
				Title: fmt.Sprintf("night %d (%s), %s UTC, revision %s: %s %s %s", i+1, night.Run,
					night.Start.UTC().Format("2006-01-02 15:04"), ShortRevision(night.Revision), name, m.Title, m.format(v, lower))})
			if m.Band {
				if lo <= 0 || lo > v {
					lo = v
				}
				if hi < v {
					hi = v
				}
				band = append(band, plotter.XY{X: x, Y: tr(lo)})
				hiSeg = append(hiSeg, plotter.XY{X: x, Y: tr(hi)})
				bandLo, bandHi = append(bandLo, tr(lo)), append(bandHi, tr(hi))
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
		f.Legend.Add(name, &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(2)}})
	}
	if math.IsInf(ymin, 0) { // no strategy has a value: an empty chart
		ymin, ymax = 0, 1
	}
	reach := bandReach * max(ymax-ymin, 0.3)
	for _, y := range bandLo {
		ymin = min(ymin, max(y, ymin-reach))
	}
	for _, y := range bandHi {
		ymax = max(ymax, min(y, ymax+reach))
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
			stepColors = append(stepColors, chart.StrategyColor(st.Solver))
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
		f.Legend.Add(r.label, sc)
	}

	// Axes: the values' range and a margin (the legend is below the
	// plot); a log axis spans at least 0.3 decades, labelled each decade.
	span := ymax - ymin
	if m.Log {
		if span < 0.3 {
			mid := (ymax + ymin) / 2
			ymin, ymax, span = mid-0.15, mid+0.15, 0.3
		}
		p.Y.Min, p.Y.Max = ymin-0.06*span, ymax+0.06*span
		format := report.FormatCountTick
		if m.Time {
			format = func(ns float64) string { return report.FormatSecondsShort(ns / 1e9) }
		}
		p.Y.Tick.Marker = chart.LogTicks(format)
	} else {
		if ymin > 0 {
			ymin = 0
		}
		ymax = max(ymax, 4) // whole-count ticks when the counts are small
		p.Y.Min, p.Y.Max = ymin, ymax*1.06
		p.Y.Tick.Marker = countTicker{}
	}
	p.X.Min, p.X.Max = 0.5, float64(n)+0.5
	p.X.Tick.Marker = nightTicker{labels: nightLabels(s.Nights)}
	if len(stepXs) > 0 {
		f.AddLabels(&stepLines{xs: stepXs, texts: stepTexts, colors: stepColors, style: chart.TextStyle(10, color.Black)})
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
		caption = append(caption, fmt.Sprintf("%s drawn at 1 (a log axis has no 0)", report.Count(clamped, "value below 1", "values below 1")))
	}
	if len(stepXs) > 0 {
		caption = append(caption, "a dashed line marks where a step (a change point of the median time) starts")
	}
	if len(ring)+len(ackRing) > 0 {
		caption = append(caption, "a ring marks a night's alarm on that strategy (gray: acknowledged)")
	}
	return f, strings.Join(caption, "; ") + "."
}

// bandReach is how far beyond the values' range (a share of it) the
// axis goes to show the ends of the 95% intervals.
const bandReach = 0.25

// format is a value of the measure for people: a time, a count, ≥ in
// front when it is a lower bound.
func (m *chartMeasure) format(v float64, lower bool) string {
	s := report.FormatCountShort(v)
	if m.Time {
		s = report.FormatDuration(time.Duration(v))
	}
	if lower {
		s = "≥" + s
	}
	return s
}
