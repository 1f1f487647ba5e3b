package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// FindPuzzle reads the corpus at path ("-": stdin, which may be nil for
// os.Stdin; a gzip file is read through gzip) up to the entry with the
// given id and returns it, whether there is one, and what is known of the
// corpus: a file's size and SHA-256 (the bytes are hashed first, as a run
// records them), and, when the id is not there, its puzzle count. An
// entry whose line is not a puzzle is found too, with Err set to its
// *solvers.SyntaxError. A stream is read only as far as the id, and a
// read that waits on it ends when ctx is canceled. The error is for a
// corpus that cannot be opened or read.
func FindPuzzle(ctx context.Context, path string, stdin io.Reader, id int) (solvers.Entry, bool, rundir.CorpusInfo, error) {
	info, err := identify(ctx, path)
	if err != nil {
		return solvers.Entry{}, false, info, err
	}
	c, err := openCorpus(ctx, path, source{stdin: stdin, known: &info}, nil)
	if err != nil {
		return solvers.Entry{}, false, info, err
	}
	defer c.close()
	sc := solvers.NewScanner(c.text, path)
	for n := 0; sc.Scan(); n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return solvers.Entry{}, false, c.info, ctx.Err()
		}
		c.info.Puzzles++
		e := sc.Current()
		if e.ID == id {
			return *e, true, c.info, nil
		}
		if e.Err != nil {
			c.info.Invalid++
		}
	}
	c.info.Lines = sc.Lines()
	if err := sc.Err(); err != nil {
		if errors.Is(err, errStopped) {
			return solvers.Entry{}, false, c.info, ctx.Err()
		}
		return solvers.Entry{}, false, c.info, err
	}
	c.info.Complete = true
	c.info.Skipped = c.info.Lines - c.info.Puzzles
	return solvers.Entry{}, false, c.info, nil
}

// SolveEntry runs each of cfg.Solvers on one puzzle, one after the other,
// exactly as Run runs a unit of a small batch: the same seed (derived from cfg.Seed, the
// index of the puzzle's corpus in cfg.Corpora and its id), cfg.Timeout
// and cfg.MaxCalls, Solve timed once with the monotonic clock, a panic
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
	overhead := timerOverhead(epoch)
	for i := range cfg.Solvers {
		// Timed once, as a run times a unit of a batch too small to
		// repeat (see minPass): solved again in a row, a cheap puzzle
		// would run faster than it did the first time (docs/TIMING.md).
		rs := runs{limit: 1}
		solve(ctx, &cfg, unit{ent: ent, solver: i}, epoch, overhead, &rows[i], &rs)
		rs.finish(&rows[i])
	}
	return rows
}
