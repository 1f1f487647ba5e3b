package report

import (
	"fmt"
	"strconv"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// tableRow is one row of the main table: a statistic, with a cell per
// strategy. A time figure with an interval has its spread ("±3.1%", see
// fmtSpread) and its interval ("[2.71ms, 3.05ms]") per strategy too ("" and
// "–" for a strategy with no measured unit).
type tableRow struct {
	Label    string
	Cells    []string
	Spread   []string // nil for a figure without an interval
	Interval []string
}

// mainTable returns the strategy names and the rows of the main table,
// one per statistic: counts, then the robust figures first (median,
// quantiles, trimmed mean), the means, the max.
func (s *Summary) mainTable() (head []string, rows []tableRow) {
	for _, st := range s.Strategies {
		head = append(head, st.Solver)
	}
	row := func(label string, cell func(st *StrategySummary) string) {
		r := tableRow{Label: label}
		for _, st := range s.Strategies {
			r.Cells = append(r.Cells, cell(st))
		}
		rows = append(rows, r)
	}
	stat := func(label string, cell func(st *StrategySummary) string) {
		row(label, func(st *StrategySummary) string {
			if st.Measured == 0 {
				return "–"
			}
			return cell(st)
		})
	}
	// figure adds a row of a statistic e; with spread, its spread and
	// interval too.
	figure := func(label string, e func(st *StrategySummary) (Estimate, Interval), f func(float64) string, spread bool) {
		stat(label, func(st *StrategySummary) string { v, _ := e(st); return fmtEstimate(v, f) })
		if !spread {
			return
		}
		r := &rows[len(rows)-1]
		for _, st := range s.Strategies {
			if st.Measured == 0 {
				r.Spread, r.Interval = append(r.Spread, ""), append(r.Interval, "–")
				continue
			}
			v, iv := e(st)
			r.Spread, r.Interval = append(r.Spread, fmtSpread(v.Value, iv)), append(r.Interval, fmtInterval(iv, f))
		}
	}
	row("puzzles", func(st *StrategySummary) string { return strconv.Itoa(st.Units) })
	for _, status := range s.shownStatuses() {
		row(status.String(), func(st *StrategySummary) string { return strconv.Itoa(st.Count(status)) })
	}
	stat("puzzles/s/core", func(st *StrategySummary) string { return fmtEstimate(st.PuzzlesPerSec, fmtSig3) })
	dist := func(name string, d func(st *StrategySummary) *Distribution, fmean, f func(float64) string, spread bool) {
		figure(name+" median", func(st *StrategySummary) (Estimate, Interval) { return d(st).Median, d(st).MedianCI }, f, spread)
		figure(name+" p90", func(st *StrategySummary) (Estimate, Interval) { return d(st).P90, d(st).P90CI }, f, spread)
		figure(name+" p99", func(st *StrategySummary) (Estimate, Interval) { return d(st).P99, d(st).P99CI }, f, spread)
		figure(name+" trimmed mean", func(st *StrategySummary) (Estimate, Interval) {
			return d(st).TrimmedMean, d(st).TrimmedMeanCI
		}, fmean, spread)
		figure(name+" mean", func(st *StrategySummary) (Estimate, Interval) { return d(st).Mean, d(st).MeanCI }, fmean, spread)
		stat(name+" max", func(st *StrategySummary) string {
			if d(st).MaxAt.Label == "" { // nothing measured
				return "–"
			}
			if d(st).MaxUnconfirmed {
				return fmtEstimate(d(st).Max, f) + UnconfirmedMark
			}
			return fmtEstimate(d(st).Max, f)
		})
		stat(name+" max at", func(st *StrategySummary) string { return orDash(d(st).MaxAt.Label) })
	}
	dist("time", func(st *StrategySummary) *Distribution { return &st.TimeNS }, fmtNS, fmtNS, true)
	dist("calls", func(st *StrategySummary) *Distribution { return &st.Calls }, fmtSig3, fmtCount, false)
	stat("no guess", func(st *StrategySummary) string { return fmtEstimate(st.NoGuessPct, fmtPct) })
	stat("guesses/puzzle", func(st *StrategySummary) string { return fmtEstimate(st.GuessesPerPuzzle, fmtSig3) })
	return head, rows
}

// HeadlineRows is the most rows headlineTable returns.
const HeadlineRows = 12

// headlineTable returns the rows of the short table a terminal shows
// (WriteText): per strategy its puzzles and the statuses that occur
// (solved always), the median and p99 time with their spreads, the
// no-guess rate and its hardest puzzle by calls; at most HeadlineRows
// rows (the rarest statuses go first when there are more). The rest of
// the main table is in summary.md and on the page.
func (s *Summary) headlineTable() (head []string, rows []tableRow) {
	head, all := s.mainTable()
	keep := map[string]bool{"puzzles": true, "time median": true, "time p99": true, "no guess": true}
	for _, status := range s.shownStatuses() {
		keep[status.String()] = true
	}
	for _, r := range all {
		if keep[r.Label] {
			rows = append(rows, r)
		}
	}
	hardest := tableRow{Label: "hardest (calls)"}
	for _, st := range s.Strategies {
		cell := "–"
		if len(st.ByCalls) > 0 {
			cell = st.ByCalls[0].Puzzle.Label
		}
		hardest.Cells = append(hardest.Cells, cell)
	}
	rows = append(rows, hardest)
	for len(rows) > HeadlineRows {
		// Drop the last status row (shownStatuses orders the rare ones last).
		i := len(rows) - 5 // the status rows end before the 4 figure rows
		rows = append(rows[:i], rows[i+1:]...)
	}
	return head, rows
}

// timingRows returns the rows of the noise figure (nil when the run has
// no timing columns): the share of measured units whose time is
// confirmed, the units re-timed and their outcome, the unstable ones;
// with all, a last cell with the run's total.
func (s *Summary) timingRows(all bool) []tableRow {
	if s.Timing == nil {
		return nil
	}
	var rows []tableRow
	row := func(label string, cell func(st *StrategySummary, t *TimingSummary) string, total string) {
		r := tableRow{Label: label}
		for _, st := range s.Strategies {
			if st.Timing == nil {
				r.Cells = append(r.Cells, "–")
				continue
			}
			r.Cells = append(r.Cells, cell(st, st.Timing))
		}
		if all {
			r.Cells = append(r.Cells, total)
		}
		rows = append(rows, r)
	}
	count := func(f func(t *TimingSummary) int) (func(*StrategySummary, *TimingSummary) string, string) {
		return func(_ *StrategySummary, t *TimingSummary) string { return strconv.Itoa(f(t)) }, strconv.Itoa(f(s.Timing))
	}
	confirmed, units := 0, 0
	for _, st := range s.Strategies {
		if st.Timing != nil {
			confirmed, units = confirmed+st.Timing.Confirmed, units+st.Timing.Units
		}
	}
	share := func(n, of int) string {
		if of == 0 {
			return "–"
		}
		return fmtPct(100 * float64(n) / float64(of))
	}
	row("time confirmed", func(_ *StrategySummary, t *TimingSummary) string { return share(t.Confirmed, t.Units) },
		share(confirmed, units))
	for _, c := range []struct {
		label string
		f     func(t *TimingSummary) int
	}{
		{"time retimed", func(t *TimingSummary) int { return t.Retimed }},
		{"time retimed slow", func(t *TimingSummary) int { return t.RetimedSlow }},
		{"time retimed noise", func(t *TimingSummary) int { return t.RetimedNoise }},
		{"time retimed ok", func(t *TimingSummary) int { return t.RetimedConfirmed }},
		{"unstable", func(t *TimingSummary) int { return t.Unstable }},
	} {
		cell, total := count(c.f)
		row(c.label, cell, total)
	}
	return rows
}

// unstable names, per strategy with unstable units, how many and which:
// "norvig 2 (#3, #9)".
func (s *Summary) unstable() []string {
	var out []string
	for _, st := range s.Strategies {
		if t := st.Timing; t != nil && t.Unstable > 0 {
			out = append(out, fmt.Sprintf("%s %d (%s)", st.Solver, t.Unstable, refList(t.UnstableAt, t.Unstable)))
		}
	}
	return out
}

// anyMeasured reports whether some strategy has a measured unit.
func (s *Summary) anyMeasured() bool {
	for _, st := range s.Strategies {
		if st.Measured > 0 {
			return true
		}
	}
	return false
}

// shownStatuses returns solved and every other status some unit has.
func (s *Summary) shownStatuses() []solvers.Status {
	var out []solvers.Status
	for _, status := range solvers.Statuses() {
		if status == solvers.StatusSolved || s.total(status) > 0 {
			out = append(out, status)
		}
	}
	return out
}

func (s *Summary) total(status solvers.Status) int {
	n := 0
	for _, st := range s.Strategies {
		n += st.Count(status)
	}
	return n
}

func (s *Summary) censored() int {
	n := 0
	for _, st := range s.Strategies {
		n += st.Censored
	}
	return n
}

// countsLine says how many puzzles, strategies and rows the summary is
// of: "49151 puzzles, 6 strategies, 294906 rows", and "... so far" for a
// run still being written.
func (s *Summary) countsLine() string {
	line := Count(s.Puzzles, "puzzle", "puzzles") + ", " + Count(len(s.Strategies), "strategy", "strategies") +
		", " + Count(s.Rows, "row", "rows")
	if s.Run.Running() {
		line += " written so far (the run is still running)"
	}
	return line
}

// runningLines says, for a run still being written, how long it has run
// and what run.json knows of each corpus: its size, and its count of
// puzzles once the run has read it to its end. Nil for any other run.
func (s *Summary) runningLines() []string {
	r := s.Run
	if !r.Running() {
		return nil
	}
	out := []string{fmt.Sprintf("run %s is running (started %s before this report): only the rows written so far are summarized",
		r.RunID, fmtNS(float64(r.ElapsedNS)))}
	for _, c := range r.Corpora {
		size, note := corpusSoFar(c)
		out = append(out, "corpus "+c.Path+": "+size+", "+note)
	}
	return out
}

// stoppedLine says that the run stopped before its end (interrupted, or
// failed) and that only its rows written by then are summarized: what
// summary.md says beside its status, for the terminal and the page's
// top; "" for a run finished or running (runningLines).
func (s *Summary) stoppedLine() string {
	r := s.Run
	if r == nil || r.Status == rundir.Finished || r.Running() {
		return ""
	}
	if r.Status == rundir.Interrupted {
		return fmt.Sprintf("run %s was interrupted: only the rows written before it stopped are summarized (batch -resume finishes it)", r.RunID)
	}
	return fmt.Sprintf("run %s ended %s: only the rows written before it stopped are summarized", r.RunID, r.Status)
}

// corpusSoFar says what run.json knows of a corpus of a running run: its
// size ("4.0 MB", with its puzzles once the run has read it to its end)
// and a note ("not read to its end yet: its puzzles are counted when the
// run reaches its end").
func corpusSoFar(c rundir.CorpusInfo) (size, note string) {
	size = FormatBytes(c.Size)
	switch {
	case c.Complete:
		return fmt.Sprintf("%s (%d invalid), %s", Count(c.Puzzles, "puzzle", "puzzles"), c.Invalid, size), "read to its end"
	case c.Error != "":
		return size, "not read to its end: " + c.Error
	}
	return size, "not read to its end yet: its puzzles are counted when the run reaches its end"
}
