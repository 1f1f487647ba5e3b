package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Foreign strategies are those whose answers the pipeline cannot trust
// (an external solver: a strategy that implements solvers.AnswerChecker,
// Config.checkers). The built-in strategies keep the method of worker.go
// and retime.go; a foreign one differs where a program could cheat,
// stall or blur:
//   - every answer of every run is checked: a repeat's and the
//     re-timing's as the first (checkAgain), a wrong one makes the unit
//     wrong (exit 1), and a status or counters that differ from the
//     first run's make it unstable;
//   - a unit's time is its first request's: a repeat follows the first
//     request within milliseconds, where a program that caches its
//     answers (or worse) answers at once, so the repeats of the sweep
//     check the answer and tell a cache (cacheWatch), and are not timed
//     runs of the row; no warm-up precedes a batch (it would be the
//     first request of its last units);
//   - the re-timing at the end takes its times as a built-in's, unless
//     the strategy answered repeated requests much faster than first
//     ones (a cache): its rows then keep their first request's time and
//     say so (rundir.RetimedCache);
//   - the first Ctrl-C (Config.Stop) ends a unit waiting on its answer:
//     the unit has no row, and -resume runs it again;
//   - a fault found after a unit's Solve returned (a line after its
//     answer, solvers.LateFaulter) makes that unit's row an error at the
//     end of the run.

// cacheFactor and cacheMinUnits decide a cache: a unit's repeats are
// fast when their median took less than 1/cacheFactor of the typical
// first request of its strategy's units of the same calls (the median of
// their group, see groups.go; the unit's own first request when the
// group is too small to tell); a strategy caches when more than half of
// at least cacheMinUnits units repeated were fast. Noise makes a first
// request slow, not the repeats of most units four times faster than
// their peers' first requests. (A cache is per process: a repeat sent to
// another process than the first request's is slow, hence the median.)
const (
	cacheFactor   = 4
	cacheMinUnits = 4
)

// cacheWatch counts, for one foreign strategy, its units repeated and
// those whose repeats were fast. Safe for concurrent use.
type cacheWatch struct {
	judged, fast atomic.Int64
}

// add counts a unit whose repeats took repeat (their median), against
// the reference time of a first request (0: none, not counted).
func (c *cacheWatch) add(repeat, reference int64) {
	if reference <= 0 {
		return
	}
	c.judged.Add(1)
	if cacheFactor*repeat < reference {
		c.fast.Add(1)
	}
}

// caching reports whether the strategy caches its answers.
func (c *cacheWatch) caching() bool {
	j := c.judged.Load()
	return j >= cacheMinUnits && 2*c.fast.Load() > j
}

// checkAgain checks the answer res of a foreign strategy to a request
// of a unit already answered (first: the unit's status and counters,
// firstSolution its solution): it returns why the answer is wrong, ""
// when it is not, and whether it differs from the first (unstable). A
// timeout or an error is no answer (the clock, a crash, the restart cap,
// a stopped run): it neither.
func checkAgain(ctx context.Context, ac solvers.AnswerChecker, p *solvers.Puzzle, first statusCounters, firstSolution string, res *solvers.Result) (wrong string, differs bool) {
	switch res.Status {
	case solvers.StatusTimeout, solvers.StatusError:
		return "", false
	case solvers.StatusWrong:
		return errText(res.Err), false
	}
	same := res.Status != solvers.StatusSolved || sameSolution(res.Solution, firstSolution)
	if !same {
		if err := solvers.Check(*p, res.Solution); err != nil {
			return "wrong solution: " + err.Error(), false
		}
	}
	if res.Counted || res.Status == solvers.StatusUnsolvable && first.status != solvers.StatusUnsolvable {
		ac.CheckAnswer(ctx, *p, res)
		if res.Status == solvers.StatusWrong {
			return errText(res.Err), false
		}
	}
	return "", !same || statusCountersOf(res) != first
}

func errText(err error) string {
	if err == nil {
		return "wrong"
	}
	return err.Error()
}

// sameSolution reports whether g is the solution s, in the grid alphabet.
func sameSolution(g solvers.Grid, s string) bool {
	if len(s) != g.Len() {
		return false
	}
	for i := range len(s) {
		if solvers.Symbol(g.Cells[i]) != s[i] {
			return false
		}
	}
	return true
}

// againForeign solves again, untimed as a row's run, the units of a
// batch of foreign strategy si that worker.go repeats for a built-in
// one: each suspect (a first run that read slow) once, and every
// checkEvery-th other unit once. Their answers are checked (checkAgain):
// a wrong one makes the unit wrong, a different one unstable; their
// times against the first runs of their group tell a cache.
func (w *workers) againForeign(ctx context.Context, batch []unit, out []result, rs []runs, gs *[65]*group) {
	ac, watch := w.cfg.checkers[batch[0].solver], w.cfg.caches[batch[0].solver]
	for i, u := range batch {
		if ctx.Err() != nil {
			return
		}
		if !rs[i].repeat || !rs[i].suspect && i%checkEvery != 0 {
			continue
		}
		var res solvers.Result
		ns, panicked := timeSolve(ctx, w.cfg, w.cfg.Solvers[u.solver], &u.ent.e.Puzzle, u.ent.corpus, u.ent.e.ID, u.ent.seed, w.epoch, w.overhead, &res)
		if panicked {
			continue
		}
		row := &out[i].row
		wrong, differs := checkAgain(ctx, ac, &u.ent.e.Puzzle, rs[i].first, row.Solution, &res)
		switch {
		case wrong != "":
			markWrong(row, wrong)
		case differs:
			rs[i].unstable = true
		}
		if g := groupOf(gs, row.Calls); g.n >= minGroup && res.Status == row.Status {
			watch.add(ns, g.running())
		}
	}
}

// markWrong makes a row wrong for an answer to a repeated request.
func markWrong(row *rundir.Row, why string) {
	row.Status = solvers.StatusWrong
	row.Error = why + " (when the puzzle was sent again; the first answer was right)"
}

// stopContext returns a context canceled when parent is, or when stop is
// closed (nil: never): the context of a foreign strategy's Solve, which
// ends a unit waiting on its answer at the first Ctrl-C.
func stopContext(parent context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	if stop != nil {
		go func() {
			select {
			case <-stop:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// dropStopped marks the units of a batch of a foreign strategy that the
// stop cut short (their status is error once ctx is canceled): they get
// no row, and -resume runs them again.
func dropStopped(ctx context.Context, out []result) {
	if ctx.Err() == nil {
		return
	}
	for i := range out {
		if out[i].row.Status == solvers.StatusError {
			out[i].skip = true
		}
	}
}

// statusChange is a row whose status the end of a run changed (the
// re-timing, a late fault): the counts of Stats follow it.
type statusChange struct {
	solver   int
	old, new solvers.Status
}

// restatus moves a row of strategy si from status old to new in the
// counts.
func (stats *Stats) restatus(ch statusChange) {
	s := stats.Solvers[ch.solver]
	s.byStatus[ch.old]--
	s.byStatus[ch.new]++
	for _, st := range []solvers.Status{ch.old, ch.new} {
		if n := s.byStatus[st]; n > 0 {
			s.Statuses[st.String()] = n
		} else {
			delete(s.Statuses, st.String())
		}
	}
	if ch.old == solvers.StatusWrong {
		stats.Wrong--
	}
	if ch.new == solvers.StatusWrong {
		stats.Wrong++
	}
}

// retimed adds what the re-timing found of the foreign strategies'
// answers to the counts.
func (stats *Stats) retimed(cfg *Config) {
	for _, ch := range cfg.retime.changes {
		stats.restatus(ch)
	}
	stats.Unstable += stats.Retime.Unstable
}

// lateFaults makes the row of each unit whose fault a foreign strategy
// found after its Solve returned an error (solvers.LateFaulter), through
// amender.
func (stats *Stats) lateFaults(cfg *Config, amender Amender) error {
	faults := map[rundir.Key]error{}
	for _, s := range cfg.Solvers {
		if lf, ok := s.(solvers.LateFaulter); ok {
			for _, f := range lf.LateFaults() {
				if f.Corpus >= 0 && f.Corpus < len(cfg.Corpora) {
					faults[rundir.Key{Corpus: cfg.Corpora[f.Corpus], ID: f.ID, Solver: s.Name()}] = f.Err
				}
			}
		}
	}
	if len(faults) == 0 {
		return nil
	}
	index := map[string]int{}
	for i, s := range cfg.Solvers {
		index[s.Name()] = i
	}
	changes := map[rundir.Key]statusChange{}
	_, err := amender.Amend(func(row *rundir.Row) bool {
		key := row.Key()
		ferr, ok := faults[key]
		if !ok {
			return false
		}
		if _, seen := changes[key]; !seen {
			changes[key] = statusChange{index[row.Solver], row.Status, solvers.StatusError}
		}
		row.Status, row.Error, row.Solution = solvers.StatusError, ferr.Error(), ""
		return true
	})
	if err != nil {
		return fmt.Errorf("recording the faults found after their units were written: %w", err)
	}
	for _, ch := range changes {
		stats.restatus(ch)
	}
	return nil
}

// The re-timing of a foreign strategy's units (retime.go).

// untimed runs candidate c once more as a filler: untimed, but a foreign
// strategy's answer is checked all the same.
func (rt *retimer) untimed(ctx context.Context, c *candidate) {
	rt.solve(ctx, c, &rt.res)
	if rt.cfg.checkers[c.solver] != nil {
		rt.checkForeign(ctx, c, &rt.res)
	}
}

// checkForeign checks the answer of a foreign strategy's unit sent again
// (checkAgain) and notes what it said in c; it reports whether the
// answer was right.
func (rt *retimer) checkForeign(ctx context.Context, c *candidate, res *solvers.Result) bool {
	p := c.puzzle()
	wrong, differs := checkAgain(ctx, rt.cfg.checkers[c.solver], &p, c.first, c.solution, res)
	if wrong != "" && c.wrong == "" {
		c.wrong = wrong
	}
	c.unstable = c.unstable || differs
	if wrong != "" || differs {
		rt.flagged[c.key] = c
	}
	return wrong == ""
}

// puzzle returns c's puzzle.
func (c *candidate) puzzle() solvers.Puzzle {
	var p solvers.Puzzle
	c.puzzleInto(&p)
	return p
}

// puzzleInto writes c's puzzle into *p.
func (c *candidate) puzzleInto(p *solvers.Puzzle) {
	*p = solvers.Puzzle{Grid: solvers.NewGrid(c.box)}
	copy(p.Cells[:], c.cells)
}

// medianRun returns the median of c's timed runs (internal/quantile:
// the lower middle one), as a row's runs are reduced (medianNS).
func (c *candidate) medianRun() int64 {
	t := c.times[:min(c.n, len(c.times))]
	slices.Sort(t)
	return medianNS(t)
}
