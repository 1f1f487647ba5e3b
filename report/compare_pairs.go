package report

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// TimePair is one unit measured in both runs of a comparison: its row in
// OLD and its row in NEW (the puzzle as OLD names it).
type TimePair struct {
	Old, New Entry
}

// Ratio returns the unit's time ratio NEW/OLD, a time below 1 ns taken
// as 1 ns (as the comparison's ratios take it).
func (p *TimePair) Ratio() float64 {
	return float64(max(p.New.NS, 1)) / float64(max(p.Old.NS, 1))
}

// Finished reports whether the unit finished (solved, or proved
// unsolvable) in both runs: only then is its ratio not a bound.
func (p *TimePair) Finished() bool { return p.Old.Status.Finished() && p.New.Status.Finished() }

// Pairs returns the units of strategy solver measured in both runs, in
// NEW's file order: the units whose times the comparison's ratios are
// over (StrategyDiff.Timed of them), of the same time basis
// (StrategyDiff.TimeBasis). oldRun and newRun are the runs c
// compared; they are only read. It returns ctx.Err() when ctx is canceled.
func (c *Comparison) Pairs(ctx context.Context, oldRun, newRun *Run, solver string) ([]TimePair, error) {
	oser, nser := oldRun.Results.Solver(solver), newRun.Results.Solver(solver)
	if oser == nil || nser == nil {
		return nil, fmt.Errorf("pairing the times of %s: not a strategy of both runs", solver)
	}
	oser, nser, _, _ = sameBasis(oser, nser) // the times Compare compared
	// The join as Compare made it; its warnings and corpora go to a
	// scratch comparison.
	newToOld := (&Comparison{}).joinCorpora(oldRun, newRun)
	units, err := (&StrategyDiff{}).join(ctx, oldRun.Results, newRun.Results, oser, nser, newToOld, 0)
	if err != nil {
		return nil, err
	}
	pairs := make([]TimePair, 0, len(units))
	for _, u := range units {
		o, n := oser.At(int(u.old)), nser.At(int(u.new))
		if o.Status.Measured() && n.Status.Measured() {
			pairs = append(pairs, TimePair{Old: o, New: n})
		}
	}
	return pairs, nil
}

// Confirmed reports whether the unit's times were confirmed in both runs
// (measured more than once: a single time can be a preemption).
func (p *TimePair) Confirmed() bool { return p.Old.Timing&p.New.Timing&Confirmed != 0 }

// MostMoved returns at most k of pairs whose time moved most either way,
// by |log NEW/OLD|, the largest first (ties in the order of pairs), among
// the units finished in both runs: a ratio with a stopped side is a
// bound. Units whose ratio is within ×1.01 of 1 are not listed. Their
// times may be unconfirmed (TimePair.Confirmed): the slow units of a
// sweep are measured once, and those are the ones that move most.
func MostMoved(pairs []TimePair, k int) []TimePair {
	if k <= 0 {
		return nil
	}
	// The top k kept in order, by insertion: k is small.
	type moved struct {
		by float64
		i  int
	}
	top := make([]moved, 0, k)
	for i := range pairs {
		p := &pairs[i]
		if !p.Finished() {
			continue
		}
		by := math.Abs(math.Log(p.Ratio()))
		if by < math.Log(1.01) || len(top) == k && by <= top[k-1].by {
			continue
		}
		// After every equal one: ties keep the order of pairs.
		at, _ := slices.BinarySearchFunc(top, by, func(m moved, by float64) int {
			if m.by >= by {
				return -1
			}
			return 1
		})
		if len(top) == k {
			top = top[:k-1]
		}
		top = slices.Insert(top, at, moved{by, i})
	}
	out := make([]TimePair, len(top))
	for j, m := range top {
		out[j] = pairs[m.i]
	}
	return out
}
