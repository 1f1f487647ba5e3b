package pipeline

import (
	"cmp"
	"context"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Re-timing (Config.Retime): a unit whose time is far above what its
// calls predict for its strategy, and each strategy's slowest units, are
// timed again at the end of the run, alone (the sweep's workers are
// done), and the row keeps the smaller time and says so (rundir.Row.Retimed).
//
// The prediction is fitted during the run, per strategy, from the units
// that finished (solved, unsolvable or stuck): the units are grouped by
// the octave of their calls (1, 2-3, 4-7, ...), and each group keeps a
// histogram of its times in quarter octaves. A unit is an outlier when
// its time is above outlierFactor times the median of its group, judged
// at the end with the whole run's histograms (a group of fewer than
// minGroup units predicts nothing). The writer keeps, as it writes rows,
// the units that may be outliers (above outlierFactor times the median
// so far, or in a group too small to judge yet) and each strategy's
// topUnits slowest, with their puzzles. The slowest come first, as the
// lists ranked by time show them: they are re-timed from the slowest down
// until the confirmTop slowest re-timed times all exceed the sweep time
// of the next unit (a delay only adds time, so no unit left could rank
// among them); then the outliers not among them, the largest ratios
// first. When the time allowed runs out, the units the lists show are
// the ones confirmed, and the lists mark the others (report).
//
// Each unit is re-timed in passes over the units of its strategy, up to
// retimeRuns runs or retimeUnitBudget of time, with the garbage
// collector off, and its re-timed time is the minimum of those runs: on
// a machine that only adds delays, the minimum is the closest to the
// strategy's own time. As in the sweep's repeats (see minPass), a
// puzzle solved again after only a few others runs faster than it did
// the first time (the branch predictors learned its path): each pass
// starts with untimed solves of filler puzzles of the strategy (its
// first cheap units of the run), so that a pass covers blockPuzzles
// puzzles however slow its units (docs/TIMING.md: fewer fillers moved
// the re-timed times); the first pass's fillers also warm the strategy
// up after the one re-timed before it. Its outcome:
//   - an outlier still above outlierFactor times its group's median is
//     confirmed slow (rundir.RetimedSlow);
//   - a unit re-timed below half its sweep time was noise
//     (rundir.RetimedNoise);
//   - one of the slowest units otherwise is confirmed
//     (rundir.RetimedConfirmed).
//
// The re-timing takes at most retimeShare of the run's time (at least
// retimeFloor); the units it could not reach keep their sweep times and
// are counted (Stats.RetimeLeft).
const (
	outlierFactor    = 4
	minGroup         = 16
	topUnits         = 256 // the slowest units kept per strategy, to re-time until confirmTop are sure
	confirmTop       = 32
	retimeChunk      = 16
	maxCandidates    = 2048 // per strategy: possible outliers kept (a few hundred bytes each)
	retimeRuns       = 5
	retimeUnitBudget = 100 * time.Millisecond
	retimeShare      = 0.05
	retimeFloor      = 2 * time.Second
	fillerMaxNS      = 100_000 // a filler's sweep time, at most
	// retimeHeapGrowth is how much the heap may grow while the collector
	// is off: past it, a pass starts with a collection, so that the
	// fillers of a strategy that allocates (dlx) do not grow the peak
	// memory of the run.
	retimeHeapGrowth = 8 << 20
)

// RetimeStats is what the re-timing at the end of a run did.
type RetimeStats struct {
	Retimed   int   `json:"retimed"`
	Slow      int   `json:"slow"`      // outliers confirmed slow
	Noise     int   `json:"noise"`     // sweep times not confirmed
	Confirmed int   `json:"confirmed"` // slowest units confirmed
	Left      int   `json:"left"`      // not re-timed: the time allowed was spent
	NS        int64 `json:"ns"`        // time spent re-timing
	// Of a foreign strategy's units (foreign.go): Cached were re-timed
	// but keep their first request's time (the strategy caches), Wrong
	// answered wrong and Unstable differently when sent again.
	Cached   int `json:"cached,omitempty"`
	Wrong    int `json:"wrong,omitempty"`
	Unstable int `json:"unstable,omitempty"`
	// Error: the rows could not be amended (a full disk): they keep
	// their sweep times, and the counts above are zero.
	Error string `json:"error,omitempty"`
}

// candidate is a unit to re-time, with what re-timing it needs.
type candidate struct {
	solver  int
	key     rundir.Key
	box     int    // the puzzle's box size
	cells   []byte // and its cells (81 for a 9x9), not a whole Puzzle (256 cells)
	seed    uint64
	ns      int64 // the sweep's time
	status  solvers.Status
	group   *group
	outlier bool
	ci      int            // the corpus's index
	at      int64          // where the row starts in its file (placedAmender)
	first   statusCounters // the row's status and counters
	// solution is the row's, for a foreign strategy (checkAgain): its own
	// copy.
	solution string
	// the re-timing
	n     int
	total int64
	best  int64
	// of a foreign strategy: what its answers when sent again said
	wrong    string            // why one was wrong
	unstable bool              // one differed from the row's
	times    [retimeRuns]int64 // its timed runs' times (the first n)
}

// retimer fits the predictions and keeps the candidates as the writer
// writes rows.
type retimer struct {
	cfg     *Config
	epoch   time.Time // times are read as durations since it (the run's start)
	timerNS int64
	groups  [][65]*group   // per solver, per octave of calls
	cands   [][]*candidate // per solver: possible outliers
	tops    [][]*candidate // per solver: the slowest units, a min-heap by ns
	fillers [][]*candidate // per solver: up to blockPuzzles cheap units, solved untimed between passes
	heap    [1]metrics.Sample
	heapAt  uint64 // the bytes allocated at the last collection
	// flagged are the foreign strategies' units that answered wrong or
	// otherwise when sent again; changes the statuses amend changed.
	flagged map[rundir.Key]*candidate
	changes []statusChange
	// res and puzzle are the one result and puzzle every re-timed or
	// filler solve uses (the re-timing runs on one goroutine): a Result
	// allocated per solve, thousands of them while the collector is off,
	// grew the peak memory of a fast strategy's run by 8 MB.
	res    solvers.Result
	puzzle solvers.Puzzle
	// placer is the Sink when it places its rows (placedAmender): the
	// rows are amended where they start, the rest of the file unread.
	placer placedAmender
	Stats  RetimeStats
}

func newRetimer(cfg *Config) *retimer {
	n := len(cfg.Solvers)
	if len(cfg.checkers) != n {
		cfg.setCheckers()
	}
	rt := &retimer{cfg: cfg, groups: make([][65]*group, n), cands: make([][]*candidate, n), tops: make([][]*candidate, n),
		fillers: make([][]*candidate, n), flagged: map[rundir.Key]*candidate{}}
	rt.placer, _ = cfg.Sink.(placedAmender)
	return rt
}

// observe takes in the row of r as the writer writes it (before its
// entry may be reused).
func (rt *retimer) observe(r *result) {
	row := &r.row
	if st := row.Status; !st.Finished() && st != solvers.StatusStuck {
		return // only a unit that ran to an outcome its calls describe predicts a time
	}
	si := r.solver
	g := groupOf(&rt.groups[si], row.Calls)
	g.add(row.NS)
	var c *candidate
	mk := func() *candidate {
		if c == nil {
			p := &r.ent.e.Puzzle
			c = &candidate{solver: si, key: row.Key(), box: p.Box, cells: slices.Clone(p.Cells[:p.Len()]), seed: r.ent.seed,
				ns: row.NS, status: row.Status, group: g, ci: r.ent.corpus,
				first: statusCounters{row.Status, row.Calls, row.Guesses, row.Backtracks, row.Filled}}
			if rt.placer != nil {
				c.at = rt.placer.LastRowAt() // the row just written
			}
			if rt.cfg.checkers[si] != nil {
				// A copy: the row's text is in its batch's memory
				// (RowCopier), which later batches reuse.
				c.solution = strings.Clone(row.Solution)
			}
		}
		return c
	}
	if len(rt.fillers[si]) < blockPuzzles && row.NS <= fillerMaxNS {
		rt.fillers[si] = append(rt.fillers[si], mk())
	}
	if g.n <= minGroup || row.NS > outlierFactor*g.running() {
		if len(rt.cands[si]) < maxCandidates {
			rt.cands[si] = append(rt.cands[si], mk())
		} else {
			rt.Stats.Left++
		}
	}
	top := rt.tops[si]
	switch {
	case len(top) < topUnits:
		top = append(top, mk())
		for i := len(top) - 1; i > 0 && top[(i-1)/2].ns > top[i].ns; i = (i - 1) / 2 {
			top[i], top[(i-1)/2] = top[(i-1)/2], top[i]
		}
		rt.tops[si] = top
	case row.NS > top[0].ns:
		top[0] = mk()
		for i := 0; ; {
			l, m := 2*i+1, i
			if l < len(top) && top[l].ns < top[m].ns {
				m = l
			}
			if l+1 < len(top) && top[l+1].ns < top[m].ns {
				m = l + 1
			}
			if m == i {
				break
			}
			top[i], top[m] = top[m], top[i]
			i = m
		}
	}
}

// predicted returns the median time of c's group, or 0 when the group is
// too small to predict.
func (c *candidate) predicted() int64 {
	if c.group.n < minGroup {
		return 0
	}
	return c.group.median()
}

// runAndAmend re-times the run's candidates within retimeShare of the
// sweep's time (retimeFloor at least) and writes their times into the
// rows through amender. When the write fails the rows stand with their
// sweep times (Amend changes nothing when it fails): the run is whole,
// and the stats carry the error instead of the counts.
func (rt *retimer) runAndAmend(ctx context.Context, stop <-chan struct{}, amender Amender, sweep time.Duration) RetimeStats {
	budget := max(time.Duration(float64(sweep)*retimeShare), retimeFloor)
	done := rt.run(ctx, stop, budget)
	if len(done) > 0 || len(rt.flagged) > 0 {
		fix := rt.amend(done)
		var err error
		if rt.placer != nil {
			at := make([]int64, 0, len(done)+len(rt.flagged))
			for _, c := range done {
				at = append(at, c.at)
			}
			for _, c := range rt.flagged {
				at = append(at, c.at)
			}
			_, err = rt.placer.AmendAt(at, fix)
		} else {
			_, err = amender.Amend(fix)
		}
		if err != nil {
			rt.Stats, rt.changes = RetimeStats{Error: err.Error()}, nil
		}
	}
	return rt.Stats
}

// run re-times the candidates, strategy by strategy, until done, stop is
// closed or budget is spent, and returns the amendments to the rows. The
// strategies go cheapest first (by the sweep times of their units), each
// with an equal share of the time left, so that a strategy of slow
// units cannot spend the budget of the others.
func (rt *retimer) run(ctx context.Context, stop <-chan struct{}, budget time.Duration) map[rundir.Key]*candidate {
	start := time.Now()
	type work struct {
		si       int          // the strategy
		tops     []*candidate // the slowest first, outliers among them included
		outliers []*candidate // the largest ratios first
		cost     int64
	}
	var all []work
	for si := range rt.cfg.Solvers {
		w := work{si: si}
		for _, c := range rt.cands[si] {
			if p := c.predicted(); p > 0 && c.ns > outlierFactor*p {
				c.outlier = true
				w.outliers = append(w.outliers, c)
			}
		}
		slices.SortFunc(w.outliers, func(a, b *candidate) int {
			return cmp.Compare(float64(b.ns)/float64(b.predicted()), float64(a.ns)/float64(a.predicted()))
		})
		w.tops = slices.Clone(rt.tops[si])
		slices.SortFunc(w.tops, func(a, b *candidate) int { return cmp.Compare(b.ns, a.ns) })
		costed := map[*candidate]bool{}
		for _, c := range slices.Concat(w.tops[:min(len(w.tops), confirmTop)], w.outliers) {
			if !costed[c] {
				costed[c] = true
				w.cost += c.ns
			}
		}
		all = append(all, w)
	}
	slices.SortStableFunc(all, func(a, b work) int { return cmp.Compare(a.cost, b.cost) })
	// No collection while units are re-timed: a strategy that allocates
	// would pay the collector's assists in its re-timed runs (the sweep
	// measured up to a few percent of CPU). The collector is off from here
	// (SetGCPercent waits for a cycle in progress to end); a pass starts
	// with a collection once retimeHeapGrowth has been allocated.
	rt.heap[0].Name = "/gc/heap/allocs:bytes"
	rt.heapAt = rt.allocated()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	out := map[rundir.Key]*candidate{}
	for k, w := range all {
		share := (budget - time.Since(start)) / time.Duration(len(all)-k)
		deadline := time.Now().Add(share)
		over := func() bool { return ctx.Err() != nil || stopped(stop) || time.Now().After(deadline) }
		watch := rt.cfg.caches[w.si]
		for _, c := range rt.retimeStrategy(ctx, w.si, w.tops, w.outliers, over) {
			if c.n == 0 {
				rt.Stats.Left++
				continue
			}
			rt.Stats.Retimed++
			out[c.key] = c
			if watch != nil {
				ref := c.predicted()
				if ref == 0 {
					ref = c.ns
				}
				watch.add(c.medianRun(), ref)
			}
		}
	}
	rt.Stats.NS = time.Since(start).Nanoseconds()
	return out
}

// retimeStrategy re-times the units of strategy si until over, and
// returns those it took up (a unit the time did not reach has n == 0).
// First the slowest units (tops, the slowest first), as the lists by
// time show them, a chunk at a time, until the confirmTop slowest
// re-timed times are all at least the sweep time of the next unit (noise
// only adds time: no unit left can rank among them), or none is left;
// then the outliers not re-timed yet, the largest ratios first.
func (rt *retimer) retimeStrategy(ctx context.Context, si int, tops, outliers []*candidate, over func() bool) []*candidate {
	var done []*candidate
	taken := map[*candidate]bool{}
	for len(tops) > 0 && !over() {
		chunk := tops[:min(len(tops), retimeChunk)]
		tops = tops[len(chunk):]
		rt.timeAll(ctx, si, chunk, over)
		done = append(done, chunk...)
		for _, c := range chunk {
			taken[c] = true
		}
		if len(tops) > 0 && kthBest(done, confirmTop) >= tops[0].ns {
			tops = nil
		}
	}
	for _, c := range tops {
		if !c.outlier {
			rt.Stats.Left++ // the time ran out before the rule held
		}
	}
	var rest []*candidate
	for _, c := range outliers {
		if !taken[c] {
			rest = append(rest, c)
		}
	}
	rt.timeAll(ctx, si, rest, over)
	return append(done, rest...)
}

// timeAll times the units cs of strategy si, in passes that the filler
// puzzles make up to blockPuzzles long, up to retimeRuns each or
// retimeUnitBudget of time, until over.
func (rt *retimer) timeAll(ctx context.Context, si int, cs []*candidate, over func() bool) {
	if len(cs) == 0 {
		return
	}
	// The fillers: other puzzles than those timed, each once a pass (a
	// filler solved again and again, or one of the units timed, would be
	// the very puzzle the predictors learn).
	timed := make(map[*candidate]bool, len(cs))
	for _, c := range cs {
		timed[c] = true
	}
	var fill []*candidate
	for _, f := range rt.fillers[si] {
		if len(fill) < blockPuzzles-len(cs) && !timed[f] {
			fill = append(fill, f)
		}
	}
	for pass := 0; pass < retimeRuns; pass++ {
		if rt.allocated()-rt.heapAt > retimeHeapGrowth {
			rt.collect()
		}
		for k, f := range fill {
			if k%16 == 0 && over() {
				return
			}
			rt.untimed(ctx, f)
		}
		for _, c := range cs {
			if over() {
				return
			}
			if pass > 0 && c.total >= int64(retimeUnitBudget) {
				continue
			}
			rt.time(ctx, c)
		}
	}
}

// kthBest returns the k-th largest re-timed time of cs (0 if fewer were
// re-timed).
func kthBest(cs []*candidate, k int) int64 {
	var v []int64
	for _, c := range cs {
		if c.n > 0 {
			v = append(v, c.best)
		}
	}
	if len(v) < k {
		return 0
	}
	slices.Sort(v)
	return v[len(v)-k]
}

// time runs candidate c once more. A run that ends otherwise than the
// sweep's (an external solver's fault, or past the restart cap) did not
// time the same work: it is not counted; nor is a wrong answer.
func (rt *retimer) time(ctx context.Context, c *candidate) {
	res := &rt.res
	ns := rt.solve(ctx, c, res)
	if rt.cfg.checkers[c.solver] != nil && !rt.checkForeign(ctx, c, res) {
		return
	}
	if res.Status != c.status {
		return
	}
	if c.n == 0 || ns < c.best {
		c.best = ns
	}
	if c.n < len(c.times) {
		c.times[c.n] = ns
	}
	c.n++
	c.total += ns
}

// solve solves c's puzzle once into res and returns the time it took.
func (rt *retimer) solve(ctx context.Context, c *candidate, res *solvers.Result) int64 {
	c.puzzleInto(&rt.puzzle)
	ns, _ := timeSolve(ctx, rt.cfg, rt.cfg.Solvers[c.solver], &rt.puzzle, c.ci, c.key.ID, c.seed, rt.epoch, rt.timerNS, res)
	return ns
}
