package history

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot/vg"

	"sudokubatch/report"
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
	if err := os.MkdirAll(filepath.Join(root, ChartDir), rundir.DirMode); err != nil {
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
