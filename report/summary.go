package report

import (
	"cmp"
	"context"
	"slices"

	"sudokubatch/rundir"
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
		s.Timing = runTiming(s.Strategies, opt.Manifest)
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
