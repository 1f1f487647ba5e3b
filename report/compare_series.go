package report

import (
	"cmp"
	"context"
	"math"
	"slices"

	"sudokubatch/internal/quantile"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// unitPair is a unit of both runs: its row in OLD's series and in NEW's.
type unitPair struct{ old, new int32 }

// join pairs the units of oser and nser on (corpus, id), in NEW's file
// order, and counts (and lists, top of each) the units of one run only.
func (d *StrategyDiff) join(ctx context.Context, oldRes, newRes *Results, oser, nser *Series, newToOld []int, top int) ([]unitPair, error) {
	rowOf := make([]int32, oldRes.PuzzleCount()) // OLD's row of each of its puzzles, -1 if none
	for p := range rowOf {
		rowOf[p] = -1
	}
	for i := range oser.Len() {
		rowOf[oser.Puzzle(i)] = int32(i)
	}
	paired := make([]bool, oser.Len())
	var pairs []unitPair
	for ni := range nser.Len() {
		if ni%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n := nser.At(ni)
		j, ok := -1, false
		if oc := newToOld[n.Corpus]; oc >= 0 {
			if p, found := oldRes.puzzleAt(oc, int(n.ID)); found && rowOf[p] >= 0 {
				j, ok = int(rowOf[p]), true
			}
		}
		if !ok || paired[j] {
			d.OnlyNew++
			if len(d.OnlyNewPuzzles) < top {
				d.OnlyNewPuzzles = append(d.OnlyNewPuzzles, puzzleRef(newRes, &n))
			}
			continue
		}
		paired[j] = true
		d.Common++
		pairs = append(pairs, unitPair{int32(j), int32(ni)})
	}
	for j := range oser.Len() {
		if !paired[j] {
			d.OnlyOld++
			if len(d.OnlyOldPuzzles) < top {
				e := oser.At(j)
				d.OnlyOldPuzzles = append(d.OnlyOldPuzzles, puzzleRef(oldRes, &e))
			}
		}
	}
	return pairs, nil
}

// diffCounters compares the status and counters of a unit of both runs
// (a timeout on either side is counted, not compared: its counters
// depend on the clock), and returns the log NEW/OLD of its calls when
// they changed.
func (d *StrategyDiff) diffCounters(oldRes *Results, o, n *Entry) (callsLog float64, changed bool) {
	to, tn := o.Status == solvers.StatusTimeout, n.Status == solvers.StatusTimeout
	if to {
		d.TimeoutOld++
	}
	if tn {
		d.TimeoutNew++
	}
	if to || tn {
		return 0, false
	}
	d.Compared++
	ch := Changes{}
	if o.Status != n.Status {
		ch.Status = 1
	}
	if o.Calls != n.Calls {
		ch.Calls = 1
		callsLog, changed = math.Log(float64(max(n.Calls, 1))/float64(max(o.Calls, 1))), true
		d.Largest = append(d.Largest, UnitChange{Puzzle: puzzleRef(oldRes, o),
			OldStatus: o.Status.String(), NewStatus: n.Status.String(),
			OldCalls: o.Calls, NewCalls: n.Calls, OldGuesses: o.Guesses, NewGuesses: n.Guesses,
			OldBacktracks: o.Backtracks, NewBacktracks: n.Backtracks,
			CallsRatio: float64(max(n.Calls, 1)) / float64(max(o.Calls, 1))})
	}
	if o.Guesses != n.Guesses {
		ch.Guesses = 1
	}
	if o.Backtracks != n.Backtracks {
		ch.Backtracks = 1
	}
	if ch != (Changes{}) {
		ch.Any = 1
	}
	d.Changed.Any += ch.Any
	d.Changed.Status += ch.Status
	d.Changed.Calls += ch.Calls
	d.Changed.Guesses += ch.Guesses
	d.Changed.Backtracks += ch.Backtracks
	return callsLog, changed
}

// timeStatistics compares the times of the units measured in both runs
// (rows timedOld of oser, timedNew of nser): the medians and totals and
// their ratios, the bootstrap interval of the ratio of medians over
// timing blocks, the signed-rank test, and the verdict.
func (d *StrategyDiff) timeStatistics(ctx context.Context, oldRes, newRes *Results, oser, nser *Series,
	timedOld, timedNew []int32, noise float64, shards [2]int) error {
	oldDist, _, _ := distribution(oldRes, oser, slices.Values(timedOld), len(timedOld), seriesNS(oser))
	newDist, _, _ := distribution(newRes, nser, slices.Values(timedNew), len(timedNew), seriesNS(nser))
	d.MedianOldNS, d.MedianNewNS = oldDist.Median, newDist.Median
	d.MedianRatio = ratio(d.MedianNewNS, d.MedianOldNS)
	total := func(v int64, stopped int) Estimate {
		if stopped > 0 {
			return Estimate{float64(v), BoundLower}
		}
		return Estimate{float64(v), BoundExact}
	}
	d.TotalRatio = ratio(total(d.TotalNewNS, d.StoppedNew), total(d.TotalOldNS, d.StoppedOld))

	oldNS, newNS, timeLog := make([]float64, d.Timed), make([]float64, d.Timed), make([]float64, d.Timed)
	blocks := timingBlocks{byKey: map[[5]int32]int32{}}
	block := make([]int32, d.Timed)
	for k := range d.Timed {
		oldNS[k], newNS[k] = float64(oser.NS(int(timedOld[k]))), float64(nser.NS(int(timedNew[k])))
		timeLog[k] = math.Log(max(newNS[k], 1) / max(oldNS[k], 1)) // equal ratios tie exactly
		block[k] = blocks.of(oldRes.puzzleOf(oser.Puzzle(int(timedOld[k]))), newRes.puzzleOf(nser.Puzzle(int(timedNew[k]))), shards)
	}
	if n := len(blocks.byKey); n >= minBlocks {
		d.Blocks = n // the bootstrap draws blocks (see medianRatioCI)
	}
	var err error
	if d.TimeCI, d.Resamples, err = medianRatioCI(ctx, oldNS, newNS, block); err != nil {
		return err
	}
	d.TimeTest = signedRank(timeLog)
	d.Verdict, d.WithinNoise = timeVerdict(d.MedianRatio, d.TimeCI, d.TimeTest, noise)
	return nil
}

// timingBlocks numbers the timing blocks of compared units. A unit's
// block in a run is (corpus, shard, the shard's block of rundir.TimingBlock
// puzzles in id order), the shard being id mod the run's number of
// shards (shardsOf); a pair's block is the pair of its blocks in OLD
// and NEW.
type timingBlocks struct {
	byKey map[[5]int32]int32
}

// compareSeries joins the units of one strategy on (corpus, id) and
// compares them: their counters (diffCounters), then their times
// (timeStatistics); confirmed: rank the time regressions over confirmed
// times only; noise: Comparison.Noise.
func compareSeries(ctx context.Context, oldRes, newRes *Results, oser, nser *Series, newToOld []int, top int,
	confirmed bool, noise float64, shards [2]int) (*StrategyDiff, error) {
	d := &StrategyDiff{Solver: oser.Solver, OnlyOldPuzzles: []PuzzleRef{}, OnlyNewPuzzles: []PuzzleRef{}, Largest: []UnitChange{},
		Regressions: []TimeChange{}}
	pairs, err := d.join(ctx, oldRes, newRes, oser, nser, newToOld, top)
	if err != nil {
		return nil, err
	}
	var timedOld, timedNew []int32
	var callsLog []float64  // log NEW/OLD calls of the compared units whose calls changed
	var slower []unitRatio  // the finished units (confirmed if need be) that NEW took longer on
	var rankedLog []float64 // log NEW/OLD time of every such unit, slower or not
	for _, pr := range pairs {
		ov, nv := oser.At(int(pr.old)), nser.At(int(pr.new))
		o, n := &ov, &nv
		if o.Status.Measured() && n.Status.Measured() {
			d.Timed++
			timedOld, timedNew = append(timedOld, pr.old), append(timedNew, pr.new)
			d.TotalOldNS += o.NS
			d.TotalNewNS += n.NS
			if o.Status.Censored() {
				d.StoppedOld++
			}
			if n.Status.Censored() {
				d.StoppedNew++
			}
			if !o.Status.Censored() && !n.Status.Censored() &&
				(!confirmed || o.Timing&n.Timing&Confirmed != 0) {
				d.Ranked++
				r := float64(max(n.NS, 1)) / float64(max(o.NS, 1))
				rankedLog = append(rankedLog, math.Log(r))
				if r > 1 {
					slower = append(slower, unitRatio{r, pr.old, pr.new})
				}
			}
		}
		if c, ok := d.diffCounters(oldRes, o, n); ok {
			callsLog = append(callsLog, c)
		}
	}
	// Largest |log ratio| first; ties in (corpus, id) order.
	slices.SortStableFunc(d.Largest, func(a, b UnitChange) int {
		return cmp.Or(cmp.Compare(math.Abs(math.Log(b.CallsRatio)), math.Abs(math.Log(a.CallsRatio))),
			cmp.Compare(a.Puzzle.Corpus, b.Puzzle.Corpus), cmp.Compare(a.Puzzle.ID, b.Puzzle.ID))
	})
	d.Largest = d.Largest[:min(top, len(d.Largest))]

	// The calls of the compared units: the unchanged ones are zeros, which
	// the test drops.
	d.CallsTest = signedRank(callsLog)
	d.CallsTest.Zeros = d.Compared - len(callsLog)
	d.CallsVerdict = callsVerdict(d.Changed.Calls, d.CallsTest)

	if d.Timed > 0 {
		if err := d.timeStatistics(ctx, oldRes, newRes, oser, nser, timedOld, timedNew, noise, shards); err != nil {
			return nil, err
		}
	}
	beyond := regressionFloor(rankedLog, noise)
	slower = slices.DeleteFunc(slower, func(u unitRatio) bool { return u.ratio <= beyond })
	d.Regressions = largestRegressions(oldRes, oser, nser, slower, top)
	return d, nil
}

func (t *timingBlocks) of(o, n puzzleID, shards [2]int) int32 {
	so, sn := int32(max(shards[0], 1)), int32(max(shards[1], 1))
	key := [5]int32{o.corpus, o.id % so, o.id / so / rundir.TimingBlock, n.id % sn, n.id / sn / rundir.TimingBlock}
	b, ok := t.byKey[key]
	if !ok {
		b = int32(len(t.byKey))
		t.byKey[key] = b
	}
	return b
}

// regressionFloor returns the ratio NEW/OLD a unit's time must exceed to
// be listed as a regression: a change beyond the noise. logs are the log
// ratios of the units ranked (finished in both runs, confirmed if need
// be). Their median m is the strategy's own change, which its verdict
// reports: a unit that moved with it says nothing more, so the change is
// counted from m when m is above 0. Beyond it, the change must exceed
// both the noise of a machine's speed (noise, -noise) and the noise of
// single units: 3 robust standard deviations of the logs (1.4826 times
// their median absolute deviation from m). A unit of a few hundred
// nanoseconds moves by more than ×1.10 between two runs of the same code
// (singles: σ 3.9% on the 17-clue corpus), one of microseconds by 1-3%.
func regressionFloor(logs []float64, noise float64) float64 {
	if len(logs) == 0 {
		return math.Inf(1)
	}
	sorted := slices.Sorted(slices.Values(logs))
	m := quantile.Median(sorted)
	dev := make([]float64, len(sorted))
	for i, l := range sorted {
		dev[i] = math.Abs(l - m)
	}
	slices.Sort(dev)
	sigma := 1.4826 * quantile.Median(dev)
	return math.Exp(max(m, 0) + max(math.Log(noise), 3*sigma))
}
