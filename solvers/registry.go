package solvers

import "strings"

// registry lists every strategy in the fixed order of All. One table:
// adding a strategy means one line here and one file beside this one.
var registry = []Solver{
	&backtrack{},
	&bruteforce{},
	singles{},
	randmrv{},
	&norvig{},
	&dlx{},
	&bitboard{},
}

// All returns every registered strategy in a fixed order. The slice is
// new at each call; the strategies are safe for concurrent use.
func All() []Solver { return append([]Solver(nil), registry...) }

// Names returns the names of All in order.
func Names() []string {
	names := make([]string, len(registry))
	for i, s := range registry {
		names[i] = s.Name()
	}
	return names
}

// Lookup returns the strategy with the given name (case-insensitive).
func Lookup(name string) (Solver, bool) {
	for _, s := range registry {
		if strings.EqualFold(s.Name(), name) {
			return s, true
		}
	}
	return nil, false
}
