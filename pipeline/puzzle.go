package pipeline

import (
	"context"
	"fmt"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// SolveEntry runs each of cfg.Solvers on one puzzle, one after the other,
// exactly as Run runs a unit of a small batch: the same seed (derived from cfg.Seed, the
// index of the puzzle's corpus in cfg.Corpora and its id), cfg.Timeout
// and cfg.MaxCalls, Solve timed once with the monotonic clock, a panic
// recorded as status error, and every solution checked (status wrong when
// the check fails). It returns one row per solver, in cfg.Solvers order;
// an entry that is not a puzzle gives rows with status invalid. Other
// fields of cfg are ignored; cfg.Unique counts the solutions first.
func SolveEntry(ctx context.Context, cfg Config, ci int, e corpus.Entry) []rundir.Row {
	if cfg.Counter == nil {
		cfg.Counter = solvers.CountSolutions
	}
	if ci < 0 || ci >= len(cfg.Corpora) {
		panic(fmt.Sprintf("pipeline.SolveEntry: corpus index %d, have %d corpora", ci, len(cfg.Corpora)))
	}
	cfg.setCheckers()
	ent := &entry{corpus: ci, e: e, seed: cfg.seed(ci, e.ID), clues: e.Puzzle.Clues(), solutions: -1}
	rows := make([]rundir.Row, len(cfg.Solvers))
	epoch := time.Now()
	overhead := timerOverhead(epoch)
	var res solvers.Result
	for i := range cfg.Solvers {
		// Timed once, as a run times a unit of a batch too small to
		// repeat (see minPass): solved again in a row, a cheap puzzle
		// would run faster than it did the first time (docs/TIMING.md).
		rs := runs{limit: 1}
		solve(ctx, &cfg, unit{ent: ent, solver: i}, epoch, overhead, &rows[i], &rs, &res, nil)
		rs.finish(&rows[i])
	}
	return rows
}
