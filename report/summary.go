package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// DefaultTop is how many hardest puzzles a summary lists per strategy
// and across strategies when SummaryOptions.Top is not set.
const DefaultTop = 20

// SummaryOptions say what a summary lists beyond the statistics.
type SummaryOptions struct {
	Top       int              // hardest puzzles listed per strategy and across strategies; <= 0: DefaultTop
	Highlight []int            // puzzle ids placed in every strategy (in every corpus that has them)
	Manifest  *rundir.Manifest // the run's run.json, for provenance; may be nil
}

// Summary is what summary.md, summary.json, summary.bench and hard.csv
// say about a run. Summarize computes it; the Write methods render it and
// do not change it, so one Summary may be rendered by several goroutines.
type Summary struct {
	Corpus     string             `json:"corpus"` // Results.CorpusLabel
	Corpora    []string           `json:"corpora"`
	Puzzles    int                `json:"puzzles"` // distinct (corpus, id) pairs
	Rows       int                `json:"rows"`
	Top        int                `json:"top"`
	Confidence float64            `json:"confidence"` // the level of every interval: Confidence
	Trim       float64            `json:"trim"`       // the share a trimmed mean drops at each end: TrimShare
	Run        *RunSummary        `json:"run,omitempty"`
	Strategies []*StrategySummary `json:"strategies"` // in Results order

	// Timed says results.csv has the timing columns (Results.Timed):
	// lists by time rank confirmed times only. Without them every time
	// was measured once, and is unconfirmed.
	Timed bool `json:"timed"`
	// Timing is the run's noise figure over every strategy; nil when
	// not Timed.
	Timing *TimingSummary `json:"timing,omitempty"`

	// Several lists the puzzles hard for two strategies or more (see
	// hard.go), at most Top of them; SeveralTotal counts them all.
	Several      []SharedHard `json:"hard_for_several"`
	SeveralTotal int          `json:"hard_for_several_total"`

	Highlights []Highlight `json:"highlights,omitempty"`
	// HighlightsMissing are the ids of Highlights with no row in the run,
	// in the order asked.
	HighlightsMissing []int `json:"highlights_missing,omitempty"`

	// Solutions is what -unique found: nil when no puzzle's solutions
	// were counted.
	Solutions *SolutionCounts `json:"solutions,omitempty"`

	// Variants is what the run's variants.json found (AttachVariants);
	// nil without one. The listed units of the analysed (puzzle,
	// strategy) pairs carry their verdict (RankedUnit.Variants).
	Variants *VariantsSummary `json:"variants,omitempty"`
	variants *rundir.Variants // the analyses, for the page

	// Hard holds the rows of hard.csv: per strategy, every unit above the
	// strategy's p99 of calls or stopped by a limit, hardest first.
	Hard []RankedUnit `json:"-"`
}

// TimingSummary is how the times of a strategy (or of a run) were
// measured, from the timing columns of results.csv: the run's noise
// figure. Every row counts, measured or not.
type TimingSummary struct {
	Units     int `json:"units"`
	Confirmed int `json:"confirmed"` // time measured more than once (repeated in the sweep, or re-timed)
	// Retimed units were timed again, alone, at the end of the run: the
	// outliers (far slower than their calls predict) and each strategy's
	// slowest units. Of them, RetimedSlow are outliers confirmed slow,
	// RetimedNoise had a sweep time that was not confirmed (their time is
	// the re-timed one), and RetimedConfirmed are slowest units whose
	// time was confirmed: Retimed = RetimedSlow + RetimedNoise +
	// RetimedConfirmed.
	Retimed          int `json:"retimed"`
	RetimedSlow      int `json:"retimed_slow"`
	RetimedNoise     int `json:"retimed_noise"`
	RetimedConfirmed int `json:"retimed_confirmed"`
	// Unstable units had runs that disagreed on status or counters: none
	// for a deterministic strategy. UnstableAt lists the first
	// UnstableListed of them, in file order (per strategy; empty in the
	// run's total).
	Unstable   int         `json:"unstable"`
	UnstableAt []PuzzleRef `json:"unstable_at,omitempty"`
	// NotRetimed (in the run's total only) counts the units the
	// re-timing would have timed again but did not: the time allowed for
	// it was spent (run.json's segments, rundir.Timing.Left).
	NotRetimed int `json:"not_retimed,omitempty"`
	// RetimeErrors (in the run's total only) say why a segment's
	// re-timing could not be written into results.csv (a full disk):
	// its rows keep their sweep times, unconfirmed (rundir.Timing.RetimeErr).
	RetimeErrors []string `json:"retime_errors,omitempty"`
}

// UnstableListed is how many unstable units a TimingSummary names.
const UnstableListed = 10

// add adds o's counts to t (not its list).
func (t *TimingSummary) add(o *TimingSummary) {
	t.Units += o.Units
	t.Confirmed += o.Confirmed
	t.Retimed += o.Retimed
	t.RetimedSlow += o.RetimedSlow
	t.RetimedNoise += o.RetimedNoise
	t.RetimedConfirmed += o.RetimedConfirmed
	t.Unstable += o.Unstable
}

// SolutionCounts is what -unique found about the puzzles of a run: how
// many had their solutions counted, how many have none or two or more,
// and the first SolutionsListed of each, in corpus and id order.
type SolutionCounts struct {
	Counted   int         `json:"counted"`
	None      int         `json:"none"`
	Several   int         `json:"several"` // two or more
	NoneAt    []PuzzleRef `json:"none_at"`
	SeveralAt []PuzzleRef `json:"several_at"`
}

// SolutionsListed is how many puzzles with no or several solutions a
// summary names.
const SolutionsListed = 20

// RunSummary is the part of run.json a summary repeats: what decides the
// rows and where they were measured, but no time of day.
type RunSummary struct {
	RunID      string              `json:"run_id"`
	Status     string              `json:"status"`
	DurationNS int64               `json:"duration_ns"`
	Settings   rundir.Settings     `json:"settings"`
	Corpora    []rundir.CorpusInfo `json:"corpora"`
	Workers    int                 `json:"workers"`  // of the first segment
	Machines   []rundir.Machine    `json:"machines"` // distinct, in segment order
	// ElapsedNS is, for a run still being written (Status running), the
	// time from its start to this summary: DurationNS is set when it
	// ends.
	ElapsedNS int64 `json:"elapsed_ns,omitempty"`
	// Start is when the run started.
	Start time.Time `json:"start,omitzero"`
	// OtherShare is the share of the workers' CPU time that other work
	// took while the units were timed: the largest of the segments that
	// wrote rows (rundir.Segment.OtherShare); nil when run.json does not
	// record it.
	OtherShare *float64 `json:"other_share,omitempty"`
}

// Running reports whether the run was still being written (or was killed
// before it could say otherwise) when it was summarized: its counts are
// those of the rows written so far.
func (r *RunSummary) Running() bool { return r != nil && r.Status == rundir.Running }

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

// PuzzleRef names one puzzle of a run.
type PuzzleRef struct {
	Corpus string `json:"corpus"`
	ID     int    `json:"id"`
	Line   int    `json:"line"`
	Label  string `json:"label"` // Results.PuzzleLabel: "#39949", or "file#12" with several corpora
}

func puzzleRef(res *Results, e *Entry) PuzzleRef {
	return PuzzleRef{Corpus: res.Corpora[e.Corpus], ID: int(e.ID), Line: int(e.Line), Label: res.PuzzleLabel(e)}
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

// newSummary returns a Summary of res with no strategy yet.
func newSummary(res *Results, top int, opt SummaryOptions) *Summary {
	return &Summary{
		Corpus:     res.CorpusLabel(),
		Corpora:    append([]string{}, res.Corpora...),
		Puzzles:    res.Puzzles,
		Rows:       res.Rows,
		Top:        top,
		Confidence: Confidence,
		Trim:       TrimShare,
		Run:        summarizeRun(opt.Manifest),
		Timed:      res.Timed,
		Strategies: []*StrategySummary{},
	}
}

// Summarize computes the summary of res. It reads res and keeps no
// reference to its entries.
func Summarize(res *Results, opt SummaryOptions) *Summary {
	s, _ := SummarizeContext(context.Background(), res, opt)
	return s
}

// SummarizeContext is Summarize, stopped with ctx.Err() (and no Summary)
// when ctx is canceled: it looks at ctx between strategies and steps.
func SummarizeContext(ctx context.Context, res *Results, opt SummaryOptions) (*Summary, error) {
	top := opt.Top
	if top <= 0 {
		top = DefaultTop
	}
	s := newSummary(res, top, opt)
	ranked := make([]*rankedSeries, len(res.Series))
	for i, ser := range res.Series {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st, rs := summarizeSeries(res, ser, top, &s.Hard)
		st.External = externalSummary(opt.Manifest, ser.Solver)
		s.Strategies = append(s.Strategies, st)
		ranked[i] = rs
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.Several, s.SeveralTotal = hardForSeveral(res, ranked, top)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.Highlights = highlights(res, ranked, opt.Highlight)
	for _, h := range s.Highlights {
		if len(h.Units) == 0 {
			s.HighlightsMissing = append(s.HighlightsMissing, h.ID)
		}
	}
	if res.Timed {
		s.Timing = &TimingSummary{}
		for _, st := range s.Strategies {
			s.Timing.add(st.Timing)
		}
		if m := opt.Manifest; m != nil {
			for _, seg := range m.Segments {
				if seg.Timing != nil {
					s.Timing.NotRetimed += seg.Timing.Left
					if e := seg.Timing.RetimeErr; e != "" {
						s.Timing.RetimeErrors = append(s.Timing.RetimeErrors, e)
					}
				}
			}
		}
	}
	s.Solutions = solutionCounts(res)
	return s, nil
}

// solutionCounts counts the puzzles whose solutions -unique counted, and
// those with none or with two or more; nil when none was counted.
func solutionCounts(res *Results) *SolutionCounts {
	var c *SolutionCounts
	var none, several []int32
	for p := range int32(res.PuzzleCount()) {
		n := res.Solutions(p)
		if n < 0 {
			continue
		}
		if c == nil {
			c = &SolutionCounts{NoneAt: []PuzzleRef{}, SeveralAt: []PuzzleRef{}}
		}
		c.Counted++
		switch {
		case n == 0:
			none = append(none, p)
		case n >= 2:
			several = append(several, p)
		}
	}
	if c == nil {
		return nil
	}
	c.None, c.Several = len(none), len(several)
	refs := func(ps []int32) []PuzzleRef {
		slices.SortFunc(ps, func(a, b int32) int {
			ka, kb := res.puzzleOf(a), res.puzzleOf(b)
			return cmp.Or(cmp.Compare(ka.corpus, kb.corpus), cmp.Compare(ka.id, kb.id))
		})
		out := []PuzzleRef{}
		for _, p := range ps[:min(len(ps), SolutionsListed)] {
			e := Entry{Corpus: res.tab.corpus[p], ID: res.tab.id[p], Line: res.tab.line[p]}
			out = append(out, puzzleRef(res, &e))
		}
		return out
	}
	c.NoneAt, c.SeveralAt = refs(none), refs(several)
	return c
}

func summarizeRun(ri *rundir.Manifest) *RunSummary {
	if ri == nil {
		return nil
	}
	rs := &RunSummary{RunID: ri.RunID, Status: ri.Status, DurationNS: ri.DurationNS,
		Settings: ri.Settings, Corpora: ri.Corpora, Machines: []rundir.Machine{}, Start: ri.Start}
	if rs.Running() && !ri.Start.IsZero() {
		rs.ElapsedNS = max(time.Since(ri.Start).Nanoseconds(), 0)
	}
	for i, seg := range ri.Segments {
		if i == 0 {
			rs.Workers = seg.Workers
		}
		if !slices.Contains(rs.Machines, seg.Machine) {
			rs.Machines = append(rs.Machines, seg.Machine)
		}
		if share, ok := seg.OtherShare(); ok && seg.Rows > 0 && (rs.OtherShare == nil || share > *rs.OtherShare) {
			rs.OtherShare = &share
		}
	}
	return rs
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
	st.TimeNS, _, maxRow = distribution(res, ser, measuredRows(ser), st.Measured, seriesNS(ser))
	st.TimeNS.roundNS() // integer ns
	st.TimeNS.MaxUnconfirmed = unconfirmed(res, ser, int(maxRow))
	st.Calls, _, _ = distribution(res, ser, measuredRows(ser), st.Measured, seriesCalls(ser))
	// Counters an external solver does not report are absent, not 0.
	if !ser.Counts(countGuesses) {
		st.NoGuess, st.NoGuessPct, st.GuessesPerPuzzle = 0, Estimate{Bound: BoundAbsent}, Estimate{Bound: BoundAbsent}
	}
	if !ser.Counts(countCalls) {
		st.Calls.absent()
	}
	rs.rank(st, top, hard)
	st.Bench = benchSamples(ser)
	return st, rs
}

// unconfirmed reports whether row i of ser has a time that the run
// could have confirmed and did not: in a run with the timing columns, a
// measured unit that finished (a stopped unit's time is a bound anyway)
// and was timed once, in the sweep.
func unconfirmed(res *Results, ser *Series, i int) bool {
	st := ser.Status(i)
	return res.Timed && st.Measured() && !st.Censored() && ser.Timing(i)&Confirmed == 0
}

// seriesTiming counts how the times of ser were measured.
func seriesTiming(res *Results, ser *Series) *TimingSummary {
	t := &TimingSummary{Units: ser.Len()}
	for i := range ser.Len() {
		tm := ser.Timing(i)
		if tm&Confirmed != 0 {
			t.Confirmed++
		}
		if tm&Retimed != 0 {
			t.Retimed++
			switch {
			case tm&Slow != 0:
				t.RetimedSlow++
			case tm&Noise != 0:
				t.RetimedNoise++
			default:
				t.RetimedConfirmed++
			}
		}
		if tm&Unstable != 0 {
			t.Unstable++
			if len(t.UnstableAt) < UnstableListed {
				e := ser.At(i)
				t.UnstableAt = append(t.UnstableAt, puzzleRef(res, &e))
			}
		}
	}
	return t
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
