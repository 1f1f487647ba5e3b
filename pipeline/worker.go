package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"sudokubatch/internal/quantile"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Repeats: a cheap unit whose first run reads slow for its strategy is
// solved again, up to maxRuns runs while its repeats take less than
// repeatBudget in all, so that its time does not rest on one reading of
// the clock (a solve of a few microseconds preempted once reads as
// milliseconds). A first run reads slow (a suspect) when it is above
// suspectFactor times the median first run of the units of its strategy
// with calls of the same octave (1, 2-3, 4-7, ...) that the worker solved
// so far, or when that group has fewer than minGroup units to judge by.
// A unit is cheap when its group's median is under repeatBudget, or,
// when the group is too small to judge, when its first run is: a
// first run preempted for longer than repeatBudget is the very reading
// the repeats are for, and judging the unit by it would leave it
// unrepeated (a bitboard unit of 2 µs preempted for 100-600 µs was
// timed once, then re-timed as noise at the end: docs/TIMING.md).
// The other units are timed once: repeating every cheap unit would cost
// more CPU than solving it (docs/TIMING.md has the figures).
//
// The repeats are further passes over the batch's suspects, not runs in
// a row, and only in a batch of minPass units or more: the branch
// predictors learn the paths of the puzzles solved again and again, the
// more the fewer puzzles lie between two solves of one, and a puzzle's
// repeats must be as slow as its first run (docs/TIMING.md). A suspect's
// repeats follow only the batch's other suspects, so they may read
// faster than a cold solve: the median of the runs is a bound from
// below, the first run one from above, and the row keeps both (ns_min,
// ns_median, and the first run is the maximum unless a repeat was
// preempted too); a unit still slow is re-timed at the end with the
// branch predictors taken elsewhere (retime.go). The strategies of tens
// of microseconds a unit or less go in batches of a whole block
// (blockPuzzles); a unit of a smaller batch (a strategy's first unit,
// before its mean time is known; the end of a range; a strategy of
// slower units) is timed once.
//
// Every checkEvery-th unit of such a batch that is not a suspect is
// solved once more, untimed, and its status and counters compared with
// its first run's, so that a strategy that is not deterministic is
// caught (Row.Unstable) without the cost of repeating every unit.
//
// The row records the number of timed runs, their minimum and their
// median; ns is the median (medianNS).
const (
	maxRuns       = rundir.MaxRuns // Config.Runs's default and upper bound
	repeatBudget  = 50 * time.Microsecond
	minPass       = blockPuzzles / 2
	suspectFactor = 2
	checkEvery    = 64
)

// runsOf returns the most runs of a cheap unit for Config.Runs n.
func runsOf(n int) int {
	if n <= 0 || n > maxRuns {
		return maxRuns
	}
	return n
}

// medianNS is the time a row reports for its runs (ns): their median,
// by the tool's one estimator (internal/quantile: the lower middle one
// of an even count), so that the row's time is one run's. The minimum is
// recorded too; the median of up to five runs is robust to one preempted
// run, and unlike the minimum it is not biased low by the luckiest of
// the runs (see docs/TIMING.md).
func medianNS(sorted []int64) int64 { return quantile.Median(sorted) }

// workers is what the worker goroutines of a run share.
type workers struct {
	cfg      *Config
	epoch    time.Time // times are read as durations since it
	overhead int64     // the timer's own cost, subtracted from each run (timerOverhead)
	batches  <-chan *unitBatch
	results  chan<- *resultBatch
	pace     *pace
	runs     int // the most runs of a cheap unit (Config.Runs, 1 to maxRuns)
	nextMu   sync.Mutex
	// stopCtx is the context of a foreign strategy's units: canceled at
	// the first Ctrl-C too (foreign.go).
	stopCtx context.Context
}

// next hands a worker the next batch, or tells it to stop: at the end of
// the batches, or once cfg.Stop is closed, when the batches still queued
// are dropped (their units are not run and not written: the queue can
// hold a window of slow units). Receiving and checking cfg.Stop under one
// lock orders the batches started before the stop ahead of those dropped,
// so the rows written stay a complete prefix and no unit that ran is lost.
func (w *workers) next() (*unitBatch, bool) {
	w.nextMu.Lock()
	defer w.nextMu.Unlock()
	batch, ok := <-w.batches
	if ok && w.cfg.Stop != nil && stopped(w.cfg.Stop) {
		return nil, false
	}
	return batch, ok
}

// runs are the timed runs of one unit.
type runs struct {
	n        int
	limit    int // the most runs (Config.Runs)
	ns       [maxRuns]int64
	total    int64
	repeat   bool           // the unit may be solved again (deterministic outcome, not refused)
	suspect  bool           // its first run reads slow (judge): it is timed again
	cheap    bool           // its group predicts it under repeatBudget (judge)
	first    statusCounters // the first run's status and counters
	unstable bool
	self     [maxRuns]int64 // the times the strategy reported itself (Result.SelfNS), when it did
	nSelf    int
}

// addSelf records a run's self-reported time (0: none).
func (r *runs) addSelf(ns int64) {
	if ns > 0 && r.nSelf < len(r.self) {
		r.self[r.nSelf] = ns
		r.nSelf++
	}
}

// statusCounters is what must be the same in every run of a unit: its
// status and counters (a Result without its solution, a few words rather
// than 300 bytes per unit).
type statusCounters struct {
	status                     solvers.Status
	calls, guesses, backtracks uint64
	filled                     int
}

func statusCountersOf(r *solvers.Result) statusCounters {
	return statusCounters{r.Status, r.Calls, r.Guesses, r.Backtracks, r.Filled}
}

// more reports whether the unit is to be solved again.
func (r *runs) more() bool {
	return r.repeat && r.suspect && r.cheap && r.n < r.limit && r.total-r.ns[0] < int64(repeatBudget)
}

// judge marks the suspects among a batch's units of one strategy (rs,
// with their rows in out): it adds each first run of a unit that may be
// repeated to gs, the worker's groups of the strategy's first runs by
// octave of calls, then marks a unit whose first run is above
// suspectFactor times its group's median, or whose group is under
// minGroup units.
func judge(gs *[65]*group, out []result, rs []runs) {
	for i := range rs {
		if rs[i].repeat {
			groupOf(gs, out[i].row.Calls).add(rs[i].ns[0])
		}
	}
	for i := range rs {
		if rs[i].repeat {
			g := groupOf(gs, out[i].row.Calls)
			if g.n < minGroup {
				rs[i].suspect, rs[i].cheap = true, rs[i].ns[0] < int64(repeatBudget)
			} else {
				med := g.running()
				rs[i].suspect, rs[i].cheap = rs[i].ns[0] > suspectFactor*med, med < int64(repeatBudget)
			}
		}
	}
}

func (r *runs) add(ns int64) {
	r.ns[r.n] = ns
	r.n++
	r.total += ns
}

// finish records the runs in row.
func (r *runs) finish(row *rundir.Row) {
	if r.n == 0 {
		return
	}
	v := r.ns[:r.n]
	slices.Sort(v)
	row.Runs, row.NSMin, row.NSMedian = r.n, v[0], medianNS(v)
	row.NS = row.NSMedian
	row.Unstable = r.unstable
	if r.nSelf > 0 {
		self := r.self[:r.nSelf]
		slices.Sort(self)
		row.SelfNS = medianNS(self)
	}
}

// work solves batches until there are none or ctx is canceled, and hands
// each batch of results to the writer.
func (w *workers) work(ctx context.Context) error {
	var rs [maxBatch]runs
	// One Result for the worker's units, reused: a few hundred bytes, it
	// would be allocated once a unit otherwise (CheckAnswer, a call
	// through an interface, takes its address), and the collector would
	// run every few milliseconds of a microsecond strategy's sweep.
	res := new(solvers.Result)
	groups := make([][65]*group, len(w.cfg.Solvers)) // per strategy, its first runs by octave of calls (judge)
	last := -1                                       // the strategy of the worker's last batch
	for {
		ub, ok := w.next()
		if !ok {
			return nil
		}
		batch := ub.s
		si := batch[0].solver
		uctx, foreign := ctx, w.cfg.checkers[si] != nil // a foreign strategy: foreign.go
		if foreign {
			uctx = w.stopCtx
		}
		if si != last && len(batch) >= minPass && !foreign {
			warmUp(ctx, w.cfg, batch[len(batch)-warmUnits:], w.epoch)
		}
		last = si
		rb := resultPool.get(len(batch))
		out := rb.s
		var text *[]byte // the solutions' text, in the batch's memory (RowCopier)
		if w.cfg.copier {
			if rb.text == nil {
				rb.text = make([]byte, 0, cap(rb.s)*textCells)
			}
			rb.text = rb.text[:0]
			text = &rb.text
		}
		for i, u := range batch {
			out[i].seq, out[i].solver, out[i].ent, out[i].last = u.seq, u.solver, u.ent, u.last
			rs[i] = runs{limit: w.runs}
			solve(uctx, w.cfg, u, w.epoch, w.overhead, &out[i].row, &rs[i], res, text)
			if i == len(batch)-1 {
				out[i].batch = rb
			}
		}
		if foreign {
			if len(batch) >= minPass && w.runs > 1 {
				judge(&groups[si], out, rs[:len(batch)])
				w.againForeign(uctx, batch, out, rs[:len(batch)], &groups[si])
			}
			dropStopped(uctx, out)
		} else if len(batch) >= minPass && w.runs > 1 {
			// The stability checks (untimed), and the repeats, as passes
			// over the batch's suspects.
			judge(&groups[si], out, rs[:len(batch)])
			for i := 0; i < len(batch) && ctx.Err() == nil; i += checkEvery {
				if rs[i].repeat && !rs[i].suspect {
					solveAgain(ctx, w.cfg, batch[i], w.epoch, 0, &rs[i])
				}
			}
			for pass := 1; pass < maxRuns && ctx.Err() == nil; pass++ {
				again := false
				for i, u := range batch {
					if rs[i].more() {
						again = true
						rs[i].add(solveAgain(ctx, w.cfg, u, w.epoch, w.overhead, &rs[i]))
					}
				}
				if !again {
					break
				}
			}
		}
		// The pace learns each unit's time as its row records it: a cheap
		// unit preempted on its first run was repeated, and its median
		// stands for it. Its first run (a CPU hog's time slice, tens of
		// milliseconds) would raise the running mean past
		// batchTarget/minPass and leave the next blocks in batches too
		// small to repeat or check.
		var sum int64
		ran := 0
		for i := range batch {
			rs[i].finish(&out[i].row)
			if rs[i].n > 0 {
				sum += out[i].row.NS
				ran++
			}
		}
		w.pace.solved(batch[0].solver, sum, ran)
		unitPool.put(ub)
		select {
		case w.results <- rb:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// solve runs one unit into row (a zero Row) the first time: times Solve
// (timeSolve) into res (scratch, overwritten), recovers a panic, checks
// the answer, and records the run in rs. The solution's text goes into
// text when it is not nil (solutionText).
func solve(ctx context.Context, cfg *Config, u unit, epoch time.Time, overhead int64, row *rundir.Row, rs *runs,
	res *solvers.Result, text *[]byte) {
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
	ns, panicked := timeSolve(ctx, cfg, s, &ent.e.Puzzle, ent.corpus, ent.e.ID, ent.seed, epoch, overhead, res)
	rs.add(ns)
	rs.addSelf(res.SelfNS)
	row.NS = ns
	if ac := cfg.checkers[u.solver]; ac != nil && !panicked {
		ac.CheckAnswer(ctx, ent.e.Puzzle, res)
	}
	row.Status = res.Status
	row.Calls, row.Guesses, row.Backtracks = res.Calls, res.Guesses, res.Backtracks
	row.Filled = res.Filled
	if res.Err != nil {
		row.Error = res.Err.Error()
	}
	if panicked {
		return
	}
	switch res.Status {
	case solvers.StatusSolved:
		if err := solvers.Check(ent.e.Puzzle, res.Solution); err != nil {
			row.Status = solvers.StatusWrong
			row.Error = "wrong solution: " + err.Error()
		} else {
			rs.repeat = true
		}
		row.Solution = solutionText(&res.Solution, text)
	case solvers.StatusUnsolvable, solvers.StatusStuck, solvers.StatusLimit:
		// Outcomes that do not depend on the clock: a timeout does, and
		// the other statuses refused the puzzle or failed.
		rs.repeat = true
	}
	rs.first = statusCountersOf(res)
}

// solveAgain solves the unit once more and returns its time; a run whose
// status or counters differ from the first marks the unit unstable (the
// strategies are deterministic for a given seed), and ends its repeats.
func solveAgain(ctx context.Context, cfg *Config, u unit, epoch time.Time, overhead int64, rs *runs) int64 {
	var res solvers.Result
	ns, panicked := timeSolve(ctx, cfg, cfg.Solvers[u.solver], &u.ent.e.Puzzle, u.ent.corpus, u.ent.e.ID, u.ent.seed, epoch, overhead, &res)
	if panicked || statusCountersOf(&res) != rs.first {
		rs.unstable, rs.repeat = true, false
	}
	rs.addSelf(res.SelfNS)
	return ns
}

// warmUnits is how many units a worker solves untimed before a batch of
// a strategy other than its last one's: the first few units timed after
// a switch read slow, the later ones not (docs/TIMING.md).
const warmUnits = 8

// warmUp solves units untimed: the last units of the batch about to be
// timed, whose timed runs come a whole batch later, when the branch
// predictors have seen minPass puzzles or more since (see minPass).
func warmUp(ctx context.Context, cfg *Config, units []unit, epoch time.Time) {
	for _, u := range units {
		if u.ent.e.Err == nil && ctx.Err() == nil {
			var res solvers.Result
			timeSolve(ctx, cfg, cfg.Solvers[u.solver], &u.ent.e.Puzzle, u.ent.corpus, u.ent.e.ID, u.ent.seed, epoch, 0, &res)
		}
	}
}

// timeSolve solves p (puzzle id of corpus ci) with s once, within cfg's
// limits, into *res, and returns the time it took, read on the monotonic
// clock as durations since epoch, one clock read before Solve and one
// after, less the timer's overhead; and whether Solve panicked.
func timeSolve(ctx context.Context, cfg *Config, s solvers.Solver, p *solvers.Puzzle, ci, id int, seed uint64,
	epoch time.Time, overhead int64, res *solvers.Result) (ns int64, panicked bool) {
	lim := solvers.Limits{MaxCalls: cfg.MaxCalls, Seed: seed, ID: id, Corpus: ci}
	t0 := time.Since(epoch)
	if cfg.Timeout > 0 {
		lim.Deadline = epoch.Add(t0 + cfg.Timeout)
	}
	panicked = safeSolve(ctx, s, p, lim, res)
	if slowdownBuild {
		slowdown(s, epoch, t0, overhead)
	}
	return max((time.Since(epoch)-t0).Nanoseconds()-overhead-res.HarnessNS, 0), panicked
}

// timerOverhead returns the cost of timing nothing as solve times a
// unit: the median of many back-to-back readings, which solve subtracts
// from each run, so that a 1 µs solve is not a few percent clock.
func timerOverhead(epoch time.Time) int64 {
	var d [501]int64
	for i := range d {
		t0 := time.Since(epoch)
		d[i] = (time.Since(epoch) - t0).Nanoseconds()
	}
	slices.Sort(d[:])
	return quantile.Median(d[:])
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
