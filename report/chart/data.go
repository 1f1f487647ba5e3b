package chart

import (
	"cmp"
	"math"
	"slices"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// measure is what a chart plots of an Entry: its time or its calls.
type measure int

const (
	measureTime measure = iota
	measureCalls
)

// Floors of the log axes: a time of 0 ns is drawn at 1 ns and 0 calls
// at 1 call, since a log axis has no zero.
const (
	timeFloor  = 1e-9 // seconds
	callsFloor = 1.0
)

func (m measure) String() string {
	if m == measureCalls {
		return "calls"
	}
	return "time"
}

func (m measure) floor() float64 {
	if m == measureCalls {
		return callsFloor
	}
	return timeFloor
}

// label formats a value of the measure for annotations.
func (m measure) label(v float64) string {
	if m == measureCalls {
		return report.FormatCountShort(v)
	}
	return report.FormatSecondsShort(v)
}

// ticker returns the axis ticker for the measure.
func (m measure) ticker() logTicks {
	if m == measureCalls {
		return logTicks{Format: report.FormatCountTick}
	}
	return logTicks{Format: report.FormatSecondsShort}
}

// axisLabel is the axis title, with its unit.
func (m measure) axisLabel() string {
	if m == measureCalls {
		return "calls per puzzle (log scale; what a call is depends on the strategy)"
	}
	return "time per puzzle (log scale)"
}

// ending is how a plotted row ended, as the charts draw it. Only a
// finished row is a completed measurement of the strategy solving (or
// refuting) a puzzle: the ECDF curves rise with finished rows alone, a
// box summarises them alone.
// The other rows are drawn as what they are, never as finished:
//   - gave up (stuck, wrong): the strategy stopped by itself without a
//     valid answer. Its value is exact (the time it took to give up), not
//     a lower bound on a solving time: it would never have solved the
//     puzzle. A wrong row (the answer failed the checker: a bug, which
//     the run reports and exits 1 for) is drawn with the stuck rows and
//     named "wrong", so that it shows and is never counted as solved.
//   - censored (timeout, limit): stopped by a limit; its value is a lower
//     bound on the strategy's time.
type ending uint8

const (
	endFinished ending = iota // solved, or proved unsolvable
	endGaveUp                 // stuck or wrong
	endCensored               // timeout or limit
)

// endingOf returns the ending of a plotted row of status s.
func endingOf(s solvers.Status) ending {
	switch {
	case s.Censored():
		return endCensored
	case s.GaveUp():
		return endGaveUp
	}
	return endFinished
}

// point is one plotted row of a series for one measure. Columns
// keep only a few of them (the highlighted puzzles).
type point struct {
	e   *report.Entry
	v   float64 // the measure, clamped to the floor
	out ending  // censored: v is a lower bound
}

// column is one series prepared for one measure: not its values,
// which would cost 24 bytes a row for every chart, but what the charts
// draw of them, computed in one pass over the sorted values: counts,
// range, histogram bins, the ECDF curve (thinned to ecdfPoints
// quantiles), the box plot and the highlighted rows. The hardest rows
// come from the report's ranking (chartSet.hardest).
type column struct {
	solver     string
	measure    measure
	n          int     // plotted rows
	fin        int     // of which finished (solved or unsolvable: see ending)
	lo, hi     float64 // smallest and largest plotted value, when n > 0
	censorAt   float64 // smallest censored value, when censored() > 0
	gaveAt     float64 // median value of the rows that gave up, when gaveUp() > 0
	rows       int     // all rows of the series
	skipped    int     // rows not plotted (invalid, unsupported, error)
	zeros      int     // values of 0 drawn at the floor
	unsolvable int     // finished rows that proved the puzzle unsolvable
	stuck      int     // rows that gave up: stuck
	wrong      int     // and wrong
	timeouts   int     // censored rows: timeout
	limits     int     // and limit

	edges                   []float64 // histogram bin edges
	binFin, binGave, binCen []float64 // finished, gave-up and censored rows per bin
	ecdfX, ecdfY            []float64 // ECDF of the finished values over n (time only)
	finMax                  float64   // largest finished value, when fin > 0
	box                     boxStats  // the box plot, in log10 (time only)
	marked                  []point   // highlighted puzzles, by increasing (v, corpus, id)
	markedLE                []int     // per marked point: finished values <= its value
}

// columnOptions says what newColumn computes besides counts.
type columnOptions struct {
	edges     []float64      // histogram bins; nil: logBins over the column's own range
	highlight map[int32]bool // highlighted ids
	dist      bool           // the ECDF curve and the box plot
	// The report's summary of the series (its counts by status), and the
	// report's sorted values of the measure (ns for time, calls), which
	// newColumn takes over and changes.
	summary *report.StrategySummary
	values  *report.SortedValues
}

// newColumn prepares s for measure m from the report's counts and sorted
// values (opt.summary, opt.values): they are not sorted or classified
// again here; only the highlighted puzzles are looked up in s's rows.
func newColumn(s *report.Series, m measure, opt columnOptions) *column {
	col := &column{solver: s.Solver, measure: m, rows: s.Len()}
	st := opt.summary
	col.skipped = st.Units - st.Measured
	col.unsolvable, col.stuck, col.wrong = st.Count(solvers.StatusUnsolvable), st.Count(solvers.StatusStuck), st.Count(solvers.StatusWrong)
	col.timeouts, col.limits = st.Count(solvers.StatusTimeout), st.Count(solvers.StatusLimit)
	fin, gave, cen := col.plotted(opt.values.Finished), col.plotted(opt.values.GaveUp), col.plotted(opt.values.Censored)
	if len(opt.highlight) > 0 {
		for i := range s.Len() {
			if st := s.Status(i); st.Measured() && opt.highlight[s.PuzzleID(i)] {
				e := s.At(i)
				col.marked = append(col.marked, point{e: &e, v: math.Max(valueOf(s, i, m), m.floor()), out: endingOf(st)})
			}
		}
	}
	col.n, col.fin = len(fin)+len(gave)+len(cen), len(fin)
	slices.SortFunc(col.marked, comparePoints)
	for _, p := range col.marked {
		col.markedLE = append(col.markedLE, countLE(fin, p.v))
	}
	if col.n == 0 {
		col.edges = opt.edges
		return col
	}
	col.lo, col.hi = math.Inf(1), math.Inf(-1)
	if len(fin) > 0 {
		col.lo, col.hi, col.finMax = fin[0], fin[len(fin)-1], fin[len(fin)-1]
	}
	if len(gave) > 0 {
		col.gaveAt = quantile(gave, 0.5)
		col.lo, col.hi = math.Min(col.lo, gave[0]), math.Max(col.hi, gave[len(gave)-1])
	}
	if len(cen) > 0 {
		col.censorAt = cen[0]
		col.lo, col.hi = math.Min(col.lo, cen[0]), math.Max(col.hi, cen[len(cen)-1])
	}
	col.edges = opt.edges
	if col.edges == nil {
		col.edges = logBins(col.lo, col.hi, m == measureCalls)
	}
	if len(col.edges) >= 2 {
		col.binFin, col.binGave, col.binCen = countBins(col.edges, fin), countBins(col.edges, gave), countBins(col.edges, cen)
	}
	if opt.dist {
		// Over n: a curve ends at the share of the plotted rows finished.
		col.ecdfX, col.ecdfY = thinECDF(fin, col.n, ecdfPoints)
		col.box = computeBoxStats(fin, gave, cen)
	}
	return col
}

// plotted turns the sorted values vs of the column's measure, in place,
// into what the charts plot (seconds for time, at least the axis floor),
// counts those drawn at the floor, and returns vs: the column owns them
// (report.SortedTimes and SortedCalls make them for it), and a copy would cost 8 bytes
// a unit more while the charts are prepared.
func (c *column) plotted(vs []float64) []float64 {
	for i, v := range vs {
		if c.measure == measureTime {
			v /= 1e9
		}
		if v < c.measure.floor() {
			v = c.measure.floor()
			c.zeros++
		}
		vs[i] = v
	}
	return vs
}

// valueOf returns the measure of row i of s: seconds or calls,
// unclamped.
func valueOf(s *report.Series, i int, m measure) float64 {
	if m == measureCalls {
		return float64(s.Calls(i))
	}
	return float64(s.NS(i)) / 1e9
}

// countBins counts the values in the bins of edges (see binIndex).
func countBins(edges, vs []float64) []float64 {
	out := make([]float64, len(edges)-1)
	for _, v := range vs {
		out[binIndex(edges, v)]++
	}
	return out
}

// comparePoints orders points by value, then corpus and id.
func comparePoints(a, b point) int {
	return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.e.Corpus, b.e.Corpus), cmp.Compare(a.e.ID, b.e.ID))
}

func (c *column) censored() int { return c.timeouts + c.limits }

// gaveUp is how many rows gave up (stuck or wrong).
func (c *column) gaveUp() int { return c.stuck + c.wrong }

// unfinished is how many plotted rows did not finish: they gave up or
// were censored.
func (c *column) unfinished() int { return c.gaveUp() + c.censored() }

// censorPoint is where the censored values start: the smallest value of
// a censored row (every censored row ran at least that far), and whether
// there is any.
func (c *column) censorPoint() (float64, bool) {
	return c.censorAt, c.censored() > 0 && c.n > 0
}

// find returns the points of the highlighted puzzles in ids, in the
// order of ids. Every corpus is searched: with several corpora an id may
// name several puzzles.
func (c *column) find(ids []int) []point {
	var out []point
	for _, k := range c.findIndex(ids) {
		out = append(out, c.marked[k])
	}
	return out
}

// findIndex returns the indices in c.marked (and c.markedLE) of the
// points find returns.
func (c *column) findIndex(ids []int) []int {
	var out []int
	for _, id := range ids {
		for k, p := range c.marked {
			if int(p.e.ID) == id {
				out = append(out, k)
			}
		}
	}
	return out
}
