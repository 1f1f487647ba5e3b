// Package variants tells a puzzle that is hard for a strategy from one
// that met it in a bad orientation (docs/VARIANTS.md). For each puzzle it
// draws N random isomorphs (solvers.Transform: the whole group,
// transposition included), solves them and the original with each
// strategy through the pipeline (the sweep's timing: blocks, repeats of
// cheap units, re-timing of outliers), a randomized strategy under
// several seeds per orientation, and places the original in the
// distribution of its variants. The verdict reads the counters (calls)
// first: they do not depend on the machine; a strategy without counters
// is judged by its time.
//
// It imports the pipeline and writes no file: the command writes the
// rundir.Variants it returns, the report reads it.
package variants

import (
	"fmt"
	"time"

	"sudokubatch/pipeline"
	"sudokubatch/solvers"
)

// Defaults and thresholds (docs/VARIANTS.md says why these values).
const (
	DefaultN     = 100 // random variants per puzzle
	DefaultSeeds = 5   // seeds per orientation for randomized strategies
	// HardFactor: hard when the variants' median is at least this many
	// times the strategy's corpus median.
	HardFactor = 10.0
	// Unlucky when the original is above the UnluckyPct-th percentile of
	// its variants and at least UnluckyFactor times their median.
	UnluckyPct    = 90.0
	UnluckyFactor = 4.0
	// WeakVariants: a verdict over fewer measured variants says it is
	// weak (its p90 rests on the one or two largest of them).
	WeakVariants = 20
)

// Config is one analysis.
type Config struct {
	// Solvers are the strategies; Randomized says which of them draw
	// from their seed (nil: the registry's Randomized flag; an external
	// solver is not randomized).
	Solvers    []solvers.Solver
	Randomized func(solvers.Solver) bool
	N          int    // random variants per puzzle; 0: DefaultN
	Seeds      int    // seeds per orientation of a randomized strategy; 0: DefaultSeeds
	DrawSeed   uint64 // seed of the transforms' draw; 0: 1
	RunSeed    uint64 // the run seed (the original's solve uses the sweep's seed for it)
	Timeout    time.Duration
	MaxCalls   uint64
	Workers    int // 0: GOMAXPROCS
	// Medians holds each strategy's corpus medians (by name). Without
	// one, hard cannot be told from typical: the verdict is unlucky or
	// none (VerdictNone, with a note).
	Medians map[string]CorpusMedian

	Progress pipeline.Progress // told of every solve; nil: none
	Stop     <-chan struct{}   // closed: stop issuing solves (Ctrl-C)
}

// Check refuses settings that no analysis runs with, as batch variants'
// flags give them: N and Seeds below 1 (their 0 means the default only
// in a Config built in code), a negative Timeout, Workers below 1.
func (c Config) Check() error {
	switch {
	case c.N < 1:
		return fmt.Errorf("-n %d: want 1 or more variants", c.N)
	case c.Seeds < 1:
		return fmt.Errorf("-seeds %d: want 1 or more", c.Seeds)
	case c.Timeout < 0:
		return fmt.Errorf("-timeout %s: want a duration >= 0", c.Timeout)
	case c.Workers < 1:
		return fmt.Errorf("-workers %d: want 1 or more", c.Workers)
	}
	return nil
}

// CorpusMedian is a strategy's median calls and time per puzzle over its
// corpus, and where they come from ("run results/latest", "sample of 200
// puzzles").
type CorpusMedian struct {
	Calls float64
	NS    float64
	From  string
}

// Puzzle is one puzzle to analyse.
type Puzzle struct {
	Corpus      string // its corpus's name, as the run records it
	CorpusIndex int    // the corpus's index in the run (the seed derivation); 0 outside a run
	ID          int
	Puzzle      solvers.Puzzle
	// Solvers names the strategies of Config.Solvers to analyse it with;
	// nil: every one.
	Solvers []string
}
