package report

import (
	"encoding/json"
	"fmt"
	"iter"
	"sudokubatch/solvers"
)

// StrategySummary is the statistics of one strategy's units (its rows).
// A unit is measured when it has a meaningful time: every status but
// invalid, unsupported and error. Time and call statistics are over the
// measured units, stopped (censored) ones included at their stopping value.
type StrategySummary struct {
	Solver   string       `json:"solver"`
	Units    int          `json:"units"`
	Statuses StatusCounts `json:"statuses"`
	Measured int          `json:"measured"`
	Censored int          `json:"censored"` // measured units stopped by a timeout or a call limit
	TotalNS  int64        `json:"total_ns"` // sum of the measured units' Solve times

	// TimeBasis is the time every time figure of the strategy is of
	// (Series.Basis): BasisSelf when every answer of an external solver
	// reported its own time, else BasisRoundTrip. BasisNote says why when
	// the strategy reported times of its own ("" otherwise).
	TimeBasis TimeBasis `json:"time_basis"`
	BasisNote string    `json:"time_basis_note,omitempty"`
	// External is the program of an external solver, from run.json; nil
	// for a built-in strategy (and without run.json).
	External *ExternalSummary `json:"external,omitempty"`

	PuzzlesPerSec Estimate     `json:"puzzles_per_sec"` // Measured / TotalNS: per core
	TimeNS        Distribution `json:"time_ns"`
	Calls         Distribution `json:"calls"`

	NoGuess          int      `json:"no_guess"`     // units solved with no guess
	NoGuessPct       Estimate `json:"no_guess_pct"` // 100 * NoGuess / Measured
	GuessesPerPuzzle Estimate `json:"guesses_per_puzzle"`

	// ByCalls and ByTime are the strategy's ranking, the one the summary,
	// hard.csv, the page and the charts' labels use: its Top measured
	// units with the most calls and the longest times, ties in file
	// order. A unit stopped by a limit ranks at the value where the limit
	// stopped it (a lower bound, shown ≥). In a run with the timing
	// columns, a listed time that was measured once, in the sweep, is
	// marked (RankedUnit.Unconfirmed): the re-timing, which confirms the
	// slowest first, ran out of time before it.
	Hard    int          `json:"hard"` // rows of this strategy in hard.csv
	ByCalls []RankedUnit `json:"hardest_by_calls"`
	ByTime  []RankedUnit `json:"hardest_by_time"`

	// Timing is the strategy's noise figure; nil when the run has no
	// timing columns.
	Timing *TimingSummary `json:"timing,omitempty"`

	// Bench holds the samples of summary.bench: the measured units in
	// BenchGroups fixed groups of puzzles.
	Bench []BenchSample `json:"-"`
}

// Count returns the number of units with status st.
func (s *StrategySummary) Count(st solvers.Status) int { return s.Statuses[st] }

// StatusCounts counts units by status. It encodes in JSON as an object
// with every status of solvers.Statuses, in report order, zeros included.
type StatusCounts map[solvers.Status]int

// MarshalJSON encodes c as {"solved": n, "unsolvable": n, ...}.
func (c StatusCounts) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, st := range solvers.Statuses() {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%q:%d", st.String(), c[st])
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (c *StatusCounts) UnmarshalJSON(data []byte) error {
	var m map[string]int
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*c = StatusCounts{}
	for name, n := range m {
		st, err := solvers.ParseStatus(name)
		if err != nil {
			return err
		}
		(*c)[st] = n
	}
	return nil
}

// summarizeSeries computes the statistics of one strategy and ranks its
// measured units.
func summarizeSeries(res *Results, ser *Series, top int, hard *[]RankedUnit) (*StrategySummary, *rankedSeries) {
	st := &StrategySummary{Solver: ser.Solver, Units: ser.Len(), Statuses: StatusCounts{},
		ByCalls: []RankedUnit{}, ByTime: []RankedUnit{}, TimeBasis: ser.Basis(), BasisNote: ser.BasisNote()}
	for _, s := range solvers.Statuses() {
		st.Statuses[s] = 0
	}
	if res.Timed {
		st.Timing = seriesTiming(res, ser)
	}
	var guesses float64
	noGuessOpen := false // a stopped unit had made no guess yet: it might end as a no-guess solve
	for i := range ser.Len() {
		status := ser.Status(i)
		st.Statuses[status]++
		if !status.Measured() {
			continue
		}
		st.Measured++
		st.TotalNS += ser.NS(i)
		g := ser.Guesses(i)
		guesses += float64(g)
		if status.Censored() {
			st.Censored++
			noGuessOpen = noGuessOpen || g == 0
		}
		if status == solvers.StatusSolved && g == 0 {
			st.NoGuess++
		}
	}
	rs := newRankedSeries(res, ser, st.Measured)
	if st.Measured == 0 {
		return st, rs
	}
	st.setRates(guesses, noGuessOpen)
	var maxRow int32
	var times, calls []float64 // sorted, for the ranks
	st.TimeNS, times, maxRow = distribution(res, ser, measuredRows(ser), st.Measured, seriesNS(ser))
	st.TimeNS.roundNS() // integer ns
	st.TimeNS.MaxUnconfirmed = unconfirmed(res, ser, int(maxRow))
	st.Calls, calls, _ = distribution(res, ser, measuredRows(ser), st.Measured, seriesCalls(ser))
	// Counters an external solver does not report are absent, not 0.
	if !ser.Counts(countGuesses) {
		st.NoGuess, st.NoGuessPct, st.GuessesPerPuzzle = 0, Estimate{Bound: BoundAbsent}, Estimate{Bound: BoundAbsent}
	}
	if !ser.Counts(countCalls) {
		st.Calls.absent()
	}
	rs.rank(st, top, hard, times, calls)
	st.Bench = benchSamples(ser)
	return st, rs
}

// measuredRows yields the rows of ser whose units are measured, in file
// order.
func measuredRows(ser *Series) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for i := range ser.Len() {
			if ser.Status(i).Measured() && !yield(int32(i)) {
				return
			}
		}
	}
}

// unconfirmed reports whether row i of ser has a time that the run
// could have confirmed and did not: in a run with the timing columns, a
// measured unit that finished (a stopped unit's time is a bound anyway)
// and was timed once, in the sweep.
func unconfirmed(res *Results, ser *Series, i int) bool {
	st := ser.Status(i)
	return res.Timed && st.Measured() && !st.Censored() && ser.Timing(i)&Confirmed == 0
}

// setRates sets puzzles/s, guesses per puzzle and the no-guess share of
// st from its counts (Measured > 0), with their bounds: stopped units make
// puzzles/s an upper bound and guesses a lower one; noGuessOpen says a
// stopped unit could still have finished with no guess.
func (st *StrategySummary) setRates(guesses float64, noGuessOpen bool) {
	some := BoundExact
	if st.Censored > 0 {
		some = BoundLower
	}
	n := float64(st.Measured)
	if st.TotalNS > 0 {
		st.PuzzlesPerSec = Estimate{n / (float64(st.TotalNS) / 1e9), BoundExact}
		if st.Censored > 0 {
			st.PuzzlesPerSec.Bound = BoundUpper
		}
	}
	st.GuessesPerPuzzle = Estimate{guesses / n, some}
	st.NoGuessPct = Estimate{100 * float64(st.NoGuess) / n, BoundExact}
	if noGuessOpen {
		st.NoGuessPct.Bound = BoundLower
	}
}
