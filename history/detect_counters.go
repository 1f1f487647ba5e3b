package history

import (
	"errors"
	"fmt"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// detectCounters compares the counters of strategy solver on night k of
// s, unit by unit, with the newest earlier night of s that has the
// strategy and its rows: any unit whose status, calls or guesses differ
// is a behaviour change (a deterministic strategy's counters change only
// when its code does). An earlier night whose rows are gone (batch
// prune) is passed over, and CounterChange.Passed names it: a change is
// not lost because the night before it was pruned. A unit a timeout
// stopped in either night is not compared: where a timeout stops depends
// on the machine. A unit stopped by -max-calls is compared: the limit is
// deterministic. A randomised strategy is compared only between nights
// of the same seed. Units in one night only are not compared (the
// selection is part of the signature: there are none unless a night lost
// rows). It returns nil when no earlier night has the strategy.
func detectCounters(c *rowCache, s *Series, k int, solver string) (*CounterChange, error) {
	cur := s.Nights[k]
	var cc *CounterChange
	for j := k - 1; j >= 0; j-- {
		prev := s.Nights[j]
		if prev.StrategyNamed(solver) == nil {
			continue
		}
		if cc == nil {
			cc = &CounterChange{IDs: []report.PuzzleRef{}}
		}
		cc.Previous, cc.PreviousIndex = prev.Run, j+1
		if st, ok := solvers.Lookup(solver); ok && st.Randomized && prev.Seed != cur.Seed {
			cc.Skipped = fmt.Sprintf("a randomised strategy, and the seeds differ (%d, %d): its counters are compared under the same seed only", prev.Seed, cur.Seed)
			return cc, nil
		}
		pr, err := c.rows(prev)
		if errors.Is(err, errNoRows) {
			cc.Passed = append(cc.Passed, prev.Run)
			continue
		}
		if err != nil {
			return nil, err
		}
		cr, err := c.rows(cur)
		if errors.Is(err, errNoRows) {
			cc.Skipped = "the night's own rows are gone: " + err.Error()
			return cc, nil
		}
		if err != nil {
			return nil, err
		}
		compareCounters(cc, pr, cr, solver)
		return cc, nil
	}
	if cc != nil {
		cc.Previous, cc.PreviousIndex = "", 0
		cc.Skipped = fmt.Sprintf("no earlier night of the series has its rows (those of %s are gone: batch prune)", listRuns(cc.Passed))
	}
	return cc, nil
}

// compareCounters fills cc from the units of solver in both nights.
func compareCounters(cc *CounterChange, pr, cr *nightRows, solver string) {
	po, co := pr.units[solver], cr.units[solver]
	pser, cser := pr.run.Results.Solver(solver), cr.run.Results.Solver(solver)
	if pser == nil || cser == nil {
		cc.Skipped = "the strategy is not in both nights"
		return
	}
	for i, j := 0, 0; i < len(po) && j < len(co); {
		switch {
		case po[i].key < co[j].key:
			i++
			continue
		case po[i].key > co[j].key:
			j++
			continue
		}
		a, b := int(po[i].row), int(co[j].row)
		i++
		j++
		sa, sb := pser.Status(a), cser.Status(b)
		if sa == solvers.StatusTimeout || sb == solvers.StatusTimeout {
			cc.Timeouts++
			continue
		}
		cc.Compared++
		if sa == sb && pser.Calls(a) == cser.Calls(b) && pser.Guesses(a) == cser.Guesses(b) {
			continue
		}
		cc.Changed++
		if len(cc.IDs) < CounterIDs {
			cc.IDs = append(cc.IDs, puzzleRef(cr.run.Results, cser, b))
		}
	}
}
