package pipeline

import (
	"context"
	"testing"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// countingSolver records the puzzles it solves (by the first cell, which
// holds a candidate's number) and closes stop after limit solves: the
// re-timing's allowance, spent after a known number of runs.
type countingSolver struct {
	log   []int
	limit int
	stop  chan struct{}
}

func (f *countingSolver) Name() string { return "counting" }

func (f *countingSolver) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	f.log = append(f.log, int(p.Cells[0]))
	if len(f.log) == f.limit {
		close(f.stop)
	}
	return solvers.Result{Status: solvers.StatusSolved, Calls: 1}
}

// TestRetimeConfirmsSlowestFirst: when the re-timing's allowance runs
// out, the units it confirmed are the strategy's slowest, from the
// slowest down (the ones the lists by time show), not the outliers far
// slower than their calls predict, which come after them.
func TestRetimeConfirmsSlowestFirst(t *testing.T) {
	f := &countingSolver{limit: 2 * retimeChunk, stop: make(chan struct{})}
	rt := newRetimer(&Config{Solvers: []solvers.Solver{f}})
	rt.epoch = time.Now()
	g := new(group) // the outliers' group: a median of 1 µs
	for range 4 * minGroup {
		g.add(1000)
	}
	mk := func(n int, ns int64) *candidate {
		c := &candidate{key: rundir.Key{ID: n}, box: 2, cells: make([]byte, 16), ns: ns, status: solvers.StatusSolved, group: g}
		c.cells[0] = byte(n)
		return c
	}
	// Outliers of 40 µs (40 times their group's median), and 100 slowest
	// units of 1 to 100 ms that their calls predict (a group of their
	// own, too small to judge).
	for n := range 5 {
		rt.cands[0] = append(rt.cands[0], mk(200+n, 40_000))
	}
	slowGroup := new(group)
	for n := range 100 {
		c := mk(n, int64(n+1)*1e6)
		c.group = slowGroup
		rt.tops[0] = append(rt.tops[0], c)
	}
	// A pass over a chunk is retimeChunk runs: the allowance runs out in
	// the second pass over the first chunk.
	done := rt.run(context.Background(), f.stop, time.Hour)
	for n := range 200 + 5 {
		_, retimed := done[rundir.Key{ID: n}]
		slowest := n >= 100-retimeChunk && n < 100 // the 16 slowest: 85 to 100 ms
		if n >= 200 && retimed {
			t.Errorf("outlier %d re-timed before the slowest units", n)
		}
		if slowest && !retimed {
			t.Errorf("unit %d (%d ms, among the slowest) not re-timed", n, n+1)
		}
	}
	if len(f.log) == 0 || f.log[0] != 99 {
		t.Errorf("solved %v, want the slowest (99) first", f.log[:min(len(f.log), 5)])
	}
	if rt.Stats.Left == 0 {
		t.Errorf("stats %+v: want the units not reached counted as left", rt.Stats)
	}
}
