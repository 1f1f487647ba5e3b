package pipeline

import (
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// The end of the re-timing: each re-timed unit's outcome, and the fix of
// the rows it amends (retime.go re-times the units).

// outcome returns the retimed value of a re-timed unit.
func (c *candidate) outcome() string {
	switch {
	case c.outlier && c.best > outlierFactor*c.predicted():
		return rundir.RetimedSlow
	case 2*c.best < c.ns:
		return rundir.RetimedNoise
	}
	return rundir.RetimedConfirmed
}

// amend counts the outcomes and returns the fix of the rows of the
// re-timed units: the smaller of the two times, and the outcome; of a
// foreign strategy that caches, the outcome only (rundir.RetimedCache);
// of a foreign strategy's unit that answered wrong or otherwise when sent
// again (flagged), its status wrong or its mark unstable.
func (rt *retimer) amend(done map[rundir.Key]*candidate) func(*rundir.Row) bool {
	caching := make([]bool, len(rt.cfg.Solvers))
	for si, w := range rt.cfg.caches {
		caching[si] = w != nil && w.caching()
	}
	for _, c := range done {
		switch {
		case c.wrong != "":
		case caching[c.solver]:
			rt.Stats.Cached++
		case c.outcome() == rundir.RetimedSlow:
			rt.Stats.Slow++
		case c.outcome() == rundir.RetimedNoise:
			rt.Stats.Noise++
		default:
			rt.Stats.Confirmed++
		}
	}
	for _, c := range rt.flagged {
		if c.wrong != "" {
			rt.Stats.Wrong++
			rt.changes = append(rt.changes, statusChange{c.solver, c.status, solvers.StatusWrong})
		}
	}
	counted := map[rundir.Key]bool{} // fix sees a changed row twice
	return func(row *rundir.Row) bool {
		key := row.Key()
		c, ok := done[key]
		f, bad := rt.flagged[key]
		switch {
		case bad && f.wrong != "":
			markWrong(row, f.wrong)
		case bad && f.unstable && !row.Unstable:
			row.Unstable = true
			if !counted[key] {
				counted[key] = true
				rt.Stats.Unstable++
			}
		}
		switch {
		case !ok || c.wrong != "":
		case caching[c.solver]:
			row.Retimed = rundir.RetimedCache
		default:
			row.Retimed = c.outcome()
			row.NS = min(row.NS, c.best)
		}
		return ok || bad
	}
}
