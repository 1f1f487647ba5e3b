package solvers

import (
	"fmt"
	"slices"
	"strings"
)

// Choose returns the strategies that list, a -solvers value (names
// separated by commas), names, in its order and each spelt as the
// registry spells it. extra are names known beside the registry's (the
// external solvers of -ext); "all" is every strategy of the registry,
// then every one of extra. An empty list is refused: given explicitly (a
// script's unset variable), it would otherwise mean the defaults without
// a word.
func Choose(list string, extra []string) ([]string, error) {
	known := append(Names(), extra...)
	switch strings.TrimSpace(list) {
	case "":
		return nil, fmt.Errorf("-solvers is empty: name the strategies (known: %s), or all for every one; omit -solvers for its default",
			strings.Join(known, ", "))
	case "all":
		return known, nil
	}
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		name := n
		if s, ok := Lookup(n); ok {
			name = s.Name()
		} else if !slices.Contains(extra, n) {
			hint := ""
			if len(extra) == 0 {
				hint = "; a program of yours is added with -ext NAME=COMMAND"
			}
			return nil, fmt.Errorf("-solvers: unknown strategy %q (known: %s)%s", n, strings.Join(known, ", "), hint)
		}
		if slices.Contains(names, name) {
			return nil, fmt.Errorf("-solvers: %s is given twice", name)
		}
		names = append(names, name)
	}
	return names, nil
}

// DefaultList is the -solvers of a command that was not given one: the
// default strategies, then every one of extra (the external solvers).
func DefaultList(extra []string) string {
	return strings.Join(append(Defaults(), extra...), ",")
}

// Resolve returns the strategy of each of names, in order: the one of
// extra with that name (an external solver), else the registry's. A name
// that neither has is an error (Choose refuses it first).
func Resolve(names []string, extra []Solver) ([]Solver, error) {
	out := make([]Solver, 0, len(names))
	for _, n := range names {
		if i := slices.IndexFunc(extra, func(s Solver) bool { return s.Name() == n }); i >= 0 {
			out = append(out, extra[i])
		} else if s, ok := Lookup(n); ok {
			out = append(out, s.Solver)
		} else {
			return nil, fmt.Errorf("unknown strategy %q (known: %s)", n, strings.Join(Names(), ", "))
		}
	}
	return out, nil
}
