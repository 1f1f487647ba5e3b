package pipeline

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// workers is what the worker goroutines of a run share.
type workers struct {
	cfg     *Config
	epoch   time.Time // times are read as durations since it
	batches <-chan []unit
	results chan<- []result
	meanNS  *atomic.Int64 // running mean unit time, for batchSize
	nextMu  sync.Mutex
}

// next hands a worker the next batch, or tells it to stop: at the end of
// the batches, or once cfg.Stop is closed, when the batches still queued
// are dropped (their units are not run and not written: the queue can
// hold a window of slow units). Receiving and checking cfg.Stop under one
// lock orders the batches started before the stop ahead of those dropped,
// so the rows written stay a complete prefix and no unit that ran is lost.
func (w *workers) next() ([]unit, bool) {
	w.nextMu.Lock()
	defer w.nextMu.Unlock()
	batch, ok := <-w.batches
	if ok && w.cfg.Stop != nil && stopped(w.cfg.Stop) {
		return nil, false
	}
	return batch, ok
}

// work solves batches until there are none or ctx is canceled, and hands
// each batch of results to the writer.
func (w *workers) work(ctx context.Context) error {
	for {
		batch, ok := w.next()
		if !ok {
			return nil
		}
		arr := resultPool.Get().(*[maxBatch]result)
		out := arr[:len(batch)]
		var sum int64
		for i, u := range batch {
			out[i].seq, out[i].solver = u.seq, u.solver
			solve(ctx, w.cfg, u, w.epoch, &out[i].row)
			if i == len(batch)-1 {
				out[i].batch = arr
			}
			sum += out[i].row.NS
		}
		// The running mean moves once per batch, not per unit: a word that
		// every worker wrote per unit would go from core to core at each
		// write. Workers may overwrite each other's update: good enough to
		// size batches.
		mean := max(sum/int64(len(batch)), 1)
		if m := w.meanNS.Load(); m > 0 {
			mean = m + (mean-m)/4
		}
		w.meanNS.Store(mean)
		clear(batch)
		unitPool.Put((*[maxBatch]unit)(batch[:maxBatch]))
		select {
		case w.results <- out:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// solve runs one unit into row (a zero Row): times Solve, recovers a
// panic, checks the answer. Times are read on the monotonic clock as
// durations since epoch, one clock read before Solve and one after.
func solve(ctx context.Context, cfg *Config, u unit, epoch time.Time, row *rundir.Row) {
	ent, s := u.ent, cfg.Solvers[u.solver]
	*row = rundir.Row{
		ID: ent.e.ID, Line: ent.e.Line, Solver: s.Name(), Clues: ent.clues,
		Seed: ent.seed, Corpus: cfg.Corpora[ent.corpus], Solutions: -1,
	}
	if ent.e.Err != nil {
		row.Status = solvers.StatusInvalid
		row.Error = ent.e.Err.Error()
		row.Clues = 0
		return
	}
	if cfg.Unique {
		ent.once.Do(func() {
			n, err := cfg.Counter(ctx, ent.e.Puzzle, 2)
			if err == nil {
				ent.solutions = n
			}
		})
		row.Solutions = ent.solutions
	}
	lim := solvers.Limits{MaxCalls: cfg.MaxCalls, Seed: ent.seed}
	t0 := time.Since(epoch)
	if cfg.Timeout > 0 {
		lim.Deadline = epoch.Add(t0 + cfg.Timeout)
	}
	var res solvers.Result
	panicked := safeSolve(ctx, s, &ent.e.Puzzle, lim, &res)
	row.NS = (time.Since(epoch) - t0).Nanoseconds()
	row.Status = res.Status
	row.Calls, row.Guesses, row.Backtracks = res.Calls, res.Guesses, res.Backtracks
	row.Filled = res.Filled
	if res.Err != nil {
		row.Error = res.Err.Error()
	}
	if panicked {
		return
	}
	if res.Status == solvers.StatusSolved {
		if err := solvers.Check(ent.e.Puzzle, res.Solution); err != nil {
			row.Status = solvers.StatusWrong
			row.Error = "wrong solution: " + err.Error()
		}
		row.Solution = res.Solution.String()
	}
}

// safeSolve calls Solve into *res and turns a panic into StatusError. The
// puzzle and the result go by pointer: each is over 260 bytes, and
// copying them in and out of the frame is a measurable part of a
// microsecond unit.
func safeSolve(ctx context.Context, s solvers.Solver, p *solvers.Puzzle, lim solvers.Limits, res *solvers.Result) (panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			*res = solvers.Result{Status: solvers.StatusError, Err: fmt.Errorf("panic: %v", v)}
			panicked = true
		}
	}()
	*res = s.Solve(ctx, *p, lim)
	return false
}
