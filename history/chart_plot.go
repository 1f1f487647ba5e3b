package history

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/report"
	"sudokubatch/report/chart"
)

// bandReach is how far beyond the values' range (a share of it) the
// axis goes to show the ends of the 95% intervals.
const bandReach = 0.25

// trendPlot is one trend chart being drawn: the figure, the measure, the
// y range of what was drawn, and the counts its caption gives.
type trendPlot struct {
	f *chart.Figure
	s *Series
	m *chartMeasure
	// markEvery: a lower bound is marked on every night up to pointsUpTo
	// nights, on every markEvery-th night beyond (365 triangles make a
	// smear).
	markEvery int
	// tr is the y the measure's value is drawn at: log10 on a log axis,
	// a value below valueFloor (NaN too) at 0.
	tr func(v float64) float64

	ymin, ymax     float64
	bandLo, bandHi []float64                  // the bands' ends drawn (tr)
	point          map[string]map[int]float64 // strategy -> night x -> y drawn
	lowers         int                        // values that are lower bounds
	clamped        int                        // values below valueFloor on a log axis
	steps          *stepLines                 // the steps' lines, nil when none
	rings          int                        // the alarms ringed
}

// buildChart draws measure m of series s, one line per strategy (with its
// band, its lower bounds marked), the steps (a time measure's) and the
// alarms of mk, and returns the figure and its caption. pages are the
// nights' pages by run, which the SVG's points link.
func buildChart(s *Series, m *chartMeasure, mk *marks, pages map[string]string) (*chart.Figure, string) {
	ylabel := m.YLabel
	if m.Log {
		ylabel += " (log)"
	}
	f := chart.NewFigure(fmt.Sprintf("%s per night — series %s", m.Title, s.ID), "night (date UTC, revision)", ylabel, trendWidth, trendHeight)
	f.Plot.Add(plotter.NewGrid())
	n := len(s.Nights)
	t := &trendPlot{f: f, s: s, m: m, markEvery: (n + pointsUpTo - 1) / pointsUpTo, tr: func(v float64) float64 { return v },
		ymin: math.Inf(1), ymax: math.Inf(-1), point: map[string]map[int]float64{}}
	if m.Log {
		t.tr = func(v float64) float64 {
			if !(v >= valueFloor) { // NaN too
				return 0
			}
			return math.Log10(v)
		}
	}
	for _, name := range strategyOrder(s.Nights) {
		t.strategy(name, pages)
	}
	t.fitBands()
	t.markSteps(mk)
	t.ringAlarms(mk)
	t.axes()
	if t.steps != nil {
		f.AddLabels(t.steps)
	}
	return f, t.caption()
}

// strategy draws the line of strategy name over the nights: a segment
// per run of nights it ran on (with its band), its lower bounds marked
// with triangles, and its entry in the legend.
func (t *trendPlot) strategy(name string, pages map[string]string) {
	s, m := t.s, t.m
	col := chart.StrategyColor(name)
	t.point[name] = map[int]float64{}
	var seg, lo, hi []plotter.XY // the segment, its band's low and high ends
	var open plotter.XYs
	for i, night := range s.Nights {
		st := night.StrategyNamed(name)
		if st == nil {
			t.segment(col, seg, lo, hi)
			seg, lo, hi = nil, nil, nil
			continue
		}
		v, vlo, vhi, lower := m.Value(st)
		if m.Log && v < valueFloor {
			t.clamped++
		}
		x := float64(i + 1)
		y := t.tr(v)
		t.point[name][i+1] = y
		seg = append(seg, plotter.XY{X: x, Y: y})
		t.ymin, t.ymax = min(t.ymin, y), max(t.ymax, y)
		t.f.Hover = append(t.f.Hover, chart.HoverPoint{X: x, Y: y, Href: pages[night.Run],
			Title: fmt.Sprintf("night %d (%s), %s UTC, revision %s: %s %s %s", i+1, night.Run,
				night.Start.UTC().Format("2006-01-02 15:04"), ShortRevision(night.Revision), name, m.Title, m.format(v, lower))})
		if m.Band {
			if vlo <= 0 || vlo > v {
				vlo = v
			}
			if vhi < v {
				vhi = v
			}
			lo = append(lo, plotter.XY{X: x, Y: t.tr(vlo)})
			hi = append(hi, plotter.XY{X: x, Y: t.tr(vhi)})
			t.bandLo, t.bandHi = append(t.bandLo, t.tr(vlo)), append(t.bandHi, t.tr(vhi))
		}
		if lower {
			t.lowers++
			if i%t.markEvery == 0 {
				open = append(open, plotter.XY{X: x, Y: y})
			}
		}
	}
	t.segment(col, seg, lo, hi)
	if len(open) > 0 {
		sc, _ := plotter.NewScatter(open)
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
		t.f.Plot.Add(sc)
	}
	t.f.Legend.Add(name, &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(2)}})
}

// segment draws a strategy's line over a run of consecutive nights, in
// its color col: the band between lo and hi (a measure with a band; a
// bar on a single night), the line, and its points up to pointsUpTo
// nights.
func (t *trendPlot) segment(col color.Color, seg, lo, hi []plotter.XY) {
	if len(seg) == 0 {
		return
	}
	p := t.f.Plot
	if t.m.Band && len(lo) > 0 {
		if len(lo) == 1 {
			l, _ := plotter.NewLine(plotter.XYs{lo[0], hi[0]})
			l.LineStyle = draw.LineStyle{Color: chart.Fade(col, 0.45), Width: vg.Points(5)}
			p.Add(l)
		} else {
			pts := append(slices.Clone(lo), reverseXY(hi)...)
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
	if len(t.s.Nights) <= pointsUpTo {
		sc, _ := plotter.NewScatter(plotter.XYs(seg))
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
}

// fitBands widens the y range drawn to the bands' ends within bandReach
// of the values (an interval unbounded by the units, or a night's wide
// one, would stretch the axis far past every line); a chart with no
// value gets 0 to 1.
func (t *trendPlot) fitBands() {
	if math.IsInf(t.ymin, 0) { // no strategy has a value: an empty chart
		t.ymin, t.ymax = 0, 1
	}
	reach := bandReach * max(t.ymax-t.ymin, 0.3)
	for _, y := range t.bandLo {
		t.ymin = min(t.ymin, max(y, t.ymin-reach))
	}
	for _, y := range t.bandHi {
		t.ymax = max(t.ymax, min(y, t.ymax+reach))
	}
}

// markSteps makes the steps' lines of a time measure: a dashed line
// between the last night before and the first night of the new level,
// labelled at the top.
func (t *trendPlot) markSteps(mk *marks) {
	if !t.m.Time {
		return
	}
	var sl stepLines
	for _, st := range mk.steps {
		x := nightX(t.s, st.Night)
		if x == 0 {
			continue
		}
		sl.xs = append(sl.xs, x-0.5)
		label := fmt.Sprintf("step %s %s", st.Solver, fmtMultiple(st.Ratio))
		if st.Ack != nil {
			label += " (ack)"
		}
		sl.texts = append(sl.texts, label)
		sl.colors = append(sl.colors, chart.StrategyColor(st.Solver))
	}
	if len(sl.xs) > 0 {
		sl.style = chart.TextStyle(10, color.Black)
		t.steps = &sl
	}
}

// ringAlarms draws a ring on the strategy's point of the night each
// alarm is of (alarmNight): counters alarms on the calls chart, time alarms on the time
// charts; acknowledged ones in gray.
func (t *trendPlot) ringAlarms(mk *marks) {
	var ring, ackRing plotter.XYs
	for _, a := range mk.alarms {
		if (a.Kind == AlarmCounters) == t.m.Time || t.m.Name == "timeouts" {
			continue
		}
		x := float64(alarmNight(t.s, a))
		y, ok := t.point[a.Solver][int(x)]
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
		t.f.Plot.Add(sc)
		t.f.Legend.Add(r.label, sc)
		t.rings += len(r.pts)
	}
}

// axes sets the axes: the values' range and a margin (the legend is
// below the plot); a log axis spans at least 0.3 decades, labelled each
// decade; a linear one (counts) starts at 0.
func (t *trendPlot) axes() {
	p, m := t.f.Plot, t.m
	ymin, ymax := t.ymin, t.ymax
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
	p.X.Min, p.X.Max = 0.5, float64(len(t.s.Nights))+0.5
	labels := nightLabels(t.s.Nights)
	p.X.Tick.Marker = nightTicker{labels: labels, room: t.f.Width - xAxisInset, style: p.X.Tick.Label}
	// The small figure is narrower: fewer labels fit.
	t.f.OnShrink = func(f *chart.Figure) {
		f.Plot.X.Tick.Marker = nightTicker{labels: labels, room: f.Width - xAxisInset, style: f.Plot.X.Tick.Label}
	}
}

// xAxisInset is about what the y axis (its labels and title) and the
// margins take of a chart's width: the rest is the x axis' length.
const xAxisInset = 70

// caption says what the chart shows: the measure, its band, its lower
// bounds and values drawn at the floor, the steps' lines and the rings.
func (t *trendPlot) caption() string {
	m, n := t.m, len(t.s.Nights)
	caption := []string{fmt.Sprintf("%s of each strategy over the %s of series %s, oldest first", capitalize(m.Title), report.Count(n, "night", "nights"), t.s.ID)}
	if m.Band {
		caption = append(caption, "the band is its 95% interval")
	}
	if t.lowers > 0 {
		mark := "a triangle"
		if t.markEvery > 1 {
			mark = fmt.Sprintf("a triangle every %d nights", t.markEvery)
		}
		caption = append(caption, fmt.Sprintf("%s: units stopped by a limit made the value a lower bound (%s)", report.Count(t.lowers, "value is a lower bound", "values are lower bounds"), mark))
	}
	if t.clamped > 0 {
		caption = append(caption, fmt.Sprintf("%s drawn at 1 (a log axis has no 0)", report.Count(t.clamped, "value below 1", "values below 1")))
	}
	if t.steps != nil {
		caption = append(caption, "a dashed line marks where a step (a change point of the median time) starts")
	}
	if t.rings > 0 {
		caption = append(caption, "a ring marks a night's alarm on that strategy (gray: acknowledged)")
	}
	return strings.Join(caption, "; ") + "."
}
