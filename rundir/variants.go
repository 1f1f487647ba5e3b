package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// VariantsFile is the name of the hard-or-unlucky analysis in a run
// directory (batch report -variants K writes it; every later report reads
// it) and in the output directory of batch variants.
const VariantsFile = "variants.json"

// The verdicts of a VariantAnalysis (docs/VARIANTS.md). A puzzle can be
// both hard and unlucky: VerdictHardUnlucky.
const (
	VerdictHard        = "hard"
	VerdictUnlucky     = "unlucky"
	VerdictHardUnlucky = "hard, unlucky"
	VerdictTypical     = "typical"
	VerdictNone        = "" // no verdict: VariantAnalysis.Note says why
)

// Variants is the analysis of puzzles under their isomorphs (and, for
// randomized strategies, seeds): one VariantAnalysis per (puzzle,
// strategy).
type Variants struct {
	Settings VariantSettings `json:"settings"`
	// Units is the number of solves made, ElapsedNS their wall time.
	Units     int               `json:"units"`
	ElapsedNS int64             `json:"elapsed_ns"`
	Analyses  []VariantAnalysis `json:"analyses"`
	// Rows are the run's rows the analysis was made from (batch report
	// -variants; nil from batch variants, and in files written before).
	Rows *VariantRows `json:"rows,omitempty"`
}

// VariantRows identifies the rows of a run an analysis was made from:
// the run, its status, its rows and its end then. A report shows the
// analysis only while they are the run's rows.
type VariantRows struct {
	RunID  string    `json:"run_id"`
	Status string    `json:"status"`
	Rows   int       `json:"rows"`
	End    time.Time `json:"end"`
}

// VariantSettings are the analysis' parameters and the verdicts'
// thresholds, as printed with every verdict.
type VariantSettings struct {
	N        int    `json:"n"`         // random variants per puzzle, beside the original
	Seeds    int    `json:"seeds"`     // seeds per orientation for randomized strategies
	DrawSeed uint64 `json:"draw_seed"` // seed of the draw of the transforms
	RunSeed  uint64 `json:"run_seed"`  // the run seed the puzzle seeds derive from
	// The per-unit limits of the solves.
	TimeoutNS int64  `json:"timeout_ns"`
	MaxCalls  uint64 `json:"max_calls"`
	// HardFactor: hard when the variants' median is at least this many
	// times the strategy's corpus median.
	HardFactor float64 `json:"hard_factor"`
	// Unlucky when the original is above the variants' UnluckyPct-th
	// percentile and at least UnluckyFactor times their median.
	UnluckyPct    float64 `json:"unlucky_pct"`
	UnluckyFactor float64 `json:"unlucky_factor"`
}

// VariantAnalysis is one puzzle under one strategy over its variants.
type VariantAnalysis struct {
	Corpus string `json:"corpus"` // the corpus's name as the run records it
	ID     int    `json:"id"`
	Solver string `json:"solver"`
	Grid   string `json:"grid"` // the original puzzle line
	// Measure is what the verdict reads: "calls" (the counters lead),
	// or "ns" for a strategy that reports no calls.
	Measure      string  `json:"measure"`
	Verdict      string  `json:"verdict"`
	Note         string  `json:"note,omitempty"`
	CorpusMedian float64 `json:"corpus_median"` // the strategy's median of Measure over the corpus
	// CorpusFrom says where CorpusMedian comes from: the run directory,
	// or "sample of N puzzles".
	CorpusFrom string `json:"corpus_from"`
	// Original is the puzzle as given, under the run's seed for it.
	Original VariantUnit `json:"original"`
	// Variants are the N random variants (times Seeds for a randomized
	// strategy, each under its own seed).
	Variants []VariantUnit `json:"variants"`
	// Calls and NS are the distributions over Variants.
	Calls Dist `json:"calls"`
	NS    Dist `json:"ns"`
	// Pct is the share (%) of the variants whose Measure is at most the
	// original's; Ratio the original's Measure over the variants' median.
	Pct   float64 `json:"pct"`
	Ratio float64 `json:"ratio"`
	// Seeds, for a randomized strategy: the original orientation under
	// Settings.Seeds seeds (seed luck), apart from the orientations.
	Seeds *SeedLuck `json:"seeds,omitempty"`
}

// VariantUnit is one solve of one variant.
type VariantUnit struct {
	Transform string `json:"transform"` // solvers.Transform's string; "id" for the original
	Seed      uint64 `json:"seed"`      // the strategy's seed for this solve
	Status    string `json:"status"`
	Calls     uint64 `json:"calls"`
	Guesses   uint64 `json:"guesses"`
	NS        int64  `json:"ns"`
}

// Dist summarises a distribution; Censored counts the units a limit
// stopped (their values are lower bounds, and so may be the quantiles).
type Dist struct {
	N        int     `json:"n"`
	Censored int     `json:"censored"`
	Median   float64 `json:"median"`
	Q1       float64 `json:"q1"`
	Q3       float64 `json:"q3"`
	P90      float64 `json:"p90"`
	Max      float64 `json:"max"`
}

// SeedLuck is a randomized strategy's original orientation under several
// seeds beside its orientations under each seed.
type SeedLuck struct {
	// Original are the original orientation's solves under the run's
	// seed (first) and Settings.Seeds-1 others; Dist their Measure.
	Original []VariantUnit `json:"original"`
	Dist     Dist          `json:"dist"`
	// Pct places the run's seed among them (% at most its Measure).
	Pct float64 `json:"pct"`
	// Orientations is the distribution over the variants of each
	// variant's median over its seeds; OrientationPct places the
	// original's median over its seeds in it.
	Orientations   Dist    `json:"orientations"`
	OrientationPct float64 `json:"orientation_pct"`
}

// Of returns the analyses of corpus c's puzzle id, in order of strategy.
func (v *Variants) Of(c string, id int) []VariantAnalysis {
	var out []VariantAnalysis
	for _, a := range v.Analyses {
		if a.Corpus == c && a.ID == id {
			out = append(out, a)
		}
	}
	return out
}

// Find returns the analysis of (corpus c, puzzle id, solver), if any.
func (v *Variants) Find(c string, id int, solver string) (VariantAnalysis, bool) {
	for _, a := range v.Analyses {
		if a.Corpus == c && a.ID == id && a.Solver == solver {
			return a, true
		}
	}
	return VariantAnalysis{}, false
}

// ReadVariants reads a variants file; a missing file is (nil, nil).
func ReadVariants(path string) (*Variants, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var v Variants
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &v, nil
}

// WriteVariants writes v to path atomically.
func WriteVariants(path string, v *Variants) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteFile(path, append(data, '\n'))
}
