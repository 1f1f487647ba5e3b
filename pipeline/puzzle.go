package pipeline

import (
	"context"
	"fmt"
	"io"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// FindPuzzle reads the corpus at path ("-": stdin, which may be nil for
// os.Stdin; a gzip file is read through gzip) to its end and returns the
// entry with the given id, whether there is one, and the corpus
// description a run would record (puzzle count, size, SHA-256). An entry
// whose line is not a puzzle is found too, with Err set to its
// *solvers.SyntaxError. The error is for a corpus that cannot be opened
// or read.
func FindPuzzle(path string, stdin io.Reader, id int) (solvers.Entry, bool, rundir.CorpusInfo, error) {
	c, err := openCorpus(path, stdin)
	if err != nil {
		return solvers.Entry{}, false, rundir.CorpusInfo{Path: path}, err
	}
	var found solvers.Entry
	ok := false
	sc := solvers.NewScanner(c.text, path)
	c.scanRest(sc, func(e solvers.Entry) {
		if e.ID == id {
			found, ok = e, true
		}
	})
	rerr := c.end(sc, path != "-")
	return found, ok, c.info, rerr
}

// SolveEntry runs each of cfg.Solvers on one puzzle, one after the other,
// exactly as Run runs a unit: the same seed (derived from cfg.Seed, the
// index of the puzzle's corpus in cfg.Corpora and its id), cfg.Timeout
// and cfg.MaxCalls, Solve timed with the monotonic clock, a panic
// recorded as status error, and every solution checked (status wrong when
// the check fails). It returns one row per solver, in cfg.Solvers order;
// an entry that is not a puzzle gives rows with status invalid. Other
// fields of cfg are ignored; cfg.Unique counts the solutions first.
func SolveEntry(ctx context.Context, cfg Config, corpus int, e solvers.Entry) []rundir.Row {
	if cfg.Counter == nil {
		cfg.Counter = solvers.CountSolutions
	}
	if corpus < 0 || corpus >= len(cfg.Corpora) {
		panic(fmt.Sprintf("pipeline.SolveEntry: corpus index %d, have %d corpora", corpus, len(cfg.Corpora)))
	}
	ent := &entry{corpus: corpus, e: e, seed: puzzleSeed(cfg.Seed, corpus, e.ID), clues: e.Puzzle.Clues(), solutions: -1}
	rows := make([]rundir.Row, len(cfg.Solvers))
	epoch := time.Now()
	for i := range cfg.Solvers {
		solve(ctx, &cfg, unit{ent: ent, solver: i}, epoch, &rows[i])
	}
	return rows
}
