package solvers

import (
	"slices"
	"strings"
)

// Strategy is a registered strategy and what the rest of the program
// needs to know of it, so that no other package names one.
type Strategy struct {
	Solver
	// Default: in the strategies of `batch` when -solvers is not given.
	Default bool
	// Exhaustive: the search walks values cell by cell with no pruning
	// beyond the rules, so a 17-clue puzzle can take seconds or hours.
	Exhaustive bool
	// Baseline: the strategy the comparison charts plot every other one
	// against (the fastest).
	Baseline bool
	// Randomized: the search draws from Limits.Seed, so its counters
	// repeat only under the same seed (trend compares them only then).
	Randomized bool
	// Boxes lists the box sizes n of the grids it solves (n*n by n*n: 2
	// for 4x4, 3 for 9x9, 4 for 16x16); other sizes give StatusUnsupported.
	Boxes []int
}

// Description says in one line what the strategy does and what its
// counters count (its Describe method), or "".
func (s Strategy) Description() string {
	if d, ok := s.Solver.(Describer); ok {
		return d.Describe()
	}
	return ""
}

// Supports reports whether the strategy solves grids of box size n.
func (s Strategy) Supports(n int) bool { return slices.Contains(s.Boxes, n) }

var allBoxes = []int{2, 3, 4}

// registry lists every strategy in the fixed order of All. One table:
// adding a strategy means one line here and one file beside this one.
var registry = []Strategy{
	{Solver: &backtrack{}, Default: true, Exhaustive: true, Boxes: allBoxes},
	{Solver: &bruteforce{}, Exhaustive: true, Boxes: allBoxes},
	{Solver: singles{}, Default: true, Boxes: allBoxes},
	{Solver: randmrv{}, Default: true, Randomized: true, Boxes: allBoxes},
	{Solver: &norvig{}, Default: true, Boxes: allBoxes},
	{Solver: &dlx{}, Default: true, Boxes: allBoxes},
	{Solver: &bitboard{}, Default: true, Baseline: true, Boxes: []int{3}},
}

// All returns every registered strategy in a fixed order. The slice is
// new at each call; the strategies are safe for concurrent use.
func All() []Strategy { return slices.Clone(registry) }

// Names returns the names of All in order.
func Names() []string {
	names := make([]string, len(registry))
	for i, s := range registry {
		names[i] = s.Name()
	}
	return names
}

// Defaults returns the names of the default strategies, in order.
func Defaults() []string {
	var names []string
	for _, s := range registry {
		if s.Default {
			names = append(names, s.Name())
		}
	}
	return names
}

// Baseline returns the name of the baseline strategy of the charts.
func Baseline() string {
	for _, s := range registry {
		if s.Baseline {
			return s.Name()
		}
	}
	return ""
}

// Lookup returns the strategy with the given name (case-insensitive).
func Lookup(name string) (Strategy, bool) {
	for _, s := range registry {
		if strings.EqualFold(s.Name(), name) {
			return s, true
		}
	}
	return Strategy{}, false
}
