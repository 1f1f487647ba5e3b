package pipeline

import (
	"math/bits"

	"sudokubatch/internal/quantile"
)

// The groups by octave of calls predict a unit's time from its calls:
// the worker judges a first run slow against them (worker.go), and the
// re-timing finds the outliers with them (retime.go).
//
// A group is a sketch, not a sample: the writer adds every unit's time
// as the sweep goes, millions of them, and the group keeps only a count
// per quarter octave (256 counters), so that its median costs no memory
// per unit and no sort. Its median agrees with the tool's one estimator
// (internal/quantile) on the rank, the lower middle one (quantile.Rank),
// and reports the lower edge of the bin that holds the unit of that
// rank: less than a fifth below the unit's time (a bin is a quarter of
// its octave's lower edge wide), which is all that judging a unit twice
// or four times its group's median needs.

// group is one strategy's histogram of times for the units of one
// octave of calls.
type group struct {
	n    int
	bins [64 * 4]uint32
	med  int64 // running's median, computed when n reached...
	next int   // ...this count less a sixteenth
}

// groupOf returns the group of gs (a strategy's groups, by octave of
// calls) for a unit of calls, made when first needed.
func groupOf(gs *[65]*group, calls uint64) *group {
	oct := bits.Len64(calls)
	if gs[oct] == nil {
		gs[oct] = new(group)
	}
	return gs[oct]
}

// add counts a unit of time ns in the group.
func (g *group) add(ns int64) {
	g.n++
	g.bins[timeBin(ns)]++
}

// timeBin returns the quarter-octave bin of ns.
func timeBin(ns int64) int {
	if ns <= 1 {
		return 0
	}
	l := bits.Len64(uint64(ns)) // 2..63
	frac := 0
	if l >= 3 {
		frac = int(uint64(ns)>>(l-3)) & 3
	}
	return min((l-1)*4+frac, 64*4-1)
}

// binLow returns the smallest time of bin b.
func binLow(b int) int64 {
	l, frac := b/4+1, b%4
	if l < 3 {
		return int64(1) << (l - 1)
	}
	return int64(4+frac) << (l - 3)
}

// running returns the group's median as the writer goes, computed again
// only when the group has grown by a sixteenth: a walk over its bins for
// every row would cost the writer up to 256 steps a unit.
func (g *group) running() int64 {
	if g.n >= g.next {
		g.med, g.next = g.median(), g.n+max(g.n/16, 1)
	}
	return g.med
}

// median returns the lower edge of the bin that holds the group's
// median: the unit of rank quantile.Rank(n, 0.5), the lower middle one.
func (g *group) median() int64 {
	if g.n == 0 {
		return 0
	}
	half, seen := uint32(quantile.Rank(g.n, 0.5)), uint32(0)
	for b, c := range g.bins {
		if seen += c; seen >= half {
			return binLow(b)
		}
	}
	return 0
}
