package chart

import (
	"math"

	"gonum.org/v1/plot"

	"sudokubatch/report"
)

// logTicks is a plot.Ticker for a log-scale axis whose labels are
// written by Format: report.FormatSecondsShort for times in seconds,
// report.FormatCountTick for counters. Unlike plot.LogTicks it labels ranges of
// any width readably and never panics: it labels every power of ten in
// range (every second or third one on very wide ranges), falls back to
// 1-2-5 multiples when fewer than three powers of ten are in range, to
// 1..9 multiples when fewer than three of those are, and to
// plot.DefaultTicks on a range narrower than one step of those. Ticks
// outside [min, max] are not returned.
type logTicks struct {
	Format func(v float64) string
}

var _ plot.Ticker = logTicks{}

// Ticks returns the ticks in [min, max].
func (t logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > 0) || math.IsInf(max, 0) || math.IsNaN(min) || math.IsNaN(max) {
		return nil
	}
	if min > max {
		min, max = max, min
	}
	format := t.Format
	if format == nil {
		format = report.FormatCountTick
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	in := func(v float64) bool { return v >= min*(1-1e-9) && v <= max*(1+1e-9) }
	var ticks []plot.Tick
	add := func(v float64, label bool) {
		if !in(v) {
			return
		}
		tk := plot.Tick{Value: v}
		if label {
			tk.Label = format(v)
		}
		ticks = append(ticks, tk)
	}
	// Try labelled multiples: powers of ten only, then 1-2-5, then 1..9.
	for _, mult := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		n := 0
		for d := lo; d <= hi; d++ {
			for _, m := range mult {
				if in(float64(m) * math.Pow10(d)) {
					n++
				}
			}
		}
		if n < 3 && len(mult) < 9 || n < 2 {
			continue
		}
		step := 1
		if len(mult) == 1 && n > 12 {
			step = (n + 9) / 10 // at most about ten labels
		}
		ticks = ticks[:0]
		for d := lo; d <= hi; d++ {
			dec := math.Pow10(d)
			for m := 1; m <= 9; m++ {
				labelled := false
				for _, k := range mult {
					if k == m && (m != 1 || floorMod(d, step) == 0) {
						labelled = true
					}
				}
				if m > 1 && hi-lo > 8 {
					continue // minor ticks at powers of ten only on wide ranges
				}
				add(float64(m)*dec, labelled)
			}
		}
		return ticks
	}
	// A range narrower than one 1..9 step: linear ticks, our labels.
	for _, tk := range (plot.DefaultTicks{}).Ticks(min, max) {
		if tk.Value > 0 && in(tk.Value) {
			if tk.Label != "" {
				tk.Label = format(tk.Value)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

func floorMod(a, b int) int {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
