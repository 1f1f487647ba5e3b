package external

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sudokubatch/solvers"
)

// Specs is the repeatable -ext NAME=COMMAND of a command, as a
// flag.Value: each value is parsed (ParseSpec), and the name of a
// built-in strategy or a name given twice is refused.
type Specs []Spec

func (l *Specs) String() string {
	if l == nil {
		return ""
	}
	var s []string
	for _, sp := range *l {
		s = append(s, sp.Name+"="+sp.Command)
	}
	return strings.Join(s, " ")
}

// Set adds the spec of one -ext value.
func (l *Specs) Set(v string) error {
	sp, err := ParseSpec(v)
	if err != nil {
		return err
	}
	if _, ok := solvers.Lookup(sp.Name); ok {
		return fmt.Errorf("%s is a built-in strategy: name the program otherwise", sp.Name)
	}
	if slices.ContainsFunc(*l, func(o Spec) bool { return o.Name == sp.Name }) {
		return fmt.Errorf("%s is given twice", sp.Name)
	}
	*l = append(*l, sp)
	return nil
}

// Names returns the strategies' names of the specs, in order.
func (l Specs) Names() []string {
	var n []string
	for _, sp := range l {
		n = append(n, sp.Name)
	}
	return n
}

// ReplayFlags returns the -ext NAME=COMMAND and -ext-files NAME=PATH
// flags, as given, of the specs among the strategies ss: a command that
// replays a unit of one of them (batch show) cannot run it without.
func (l Specs) ReplayFlags(ss []solvers.Solver) []string {
	var flags []string
	for _, sp := range l {
		if !slices.ContainsFunc(ss, func(s solvers.Solver) bool { return s.Name() == sp.Name }) {
			continue
		}
		flags = append(flags, "-ext", sp.Name+"="+sp.Command)
		for _, p := range sp.Files {
			flags = append(flags, "-ext-files", sp.Name+"="+p)
		}
	}
	return flags
}

// Set is the external solvers a command started, in the order of their
// specs. Close ends them all.
type Set []*Solver

// StartAll starts, in order, the program of each spec that names (the
// strategies of the command) lists. A spec it does not list is not
// started, and warn says so; warn also tells each spec's own warning
// (Spec.Warning) before its program starts, and started each program
// started with the time its processes took. An error (a program that
// does not start, ctx canceled) ends those already started.
func StartAll(ctx context.Context, specs []Spec, names []string, opt Options, warn func(string), started func(*Solver, time.Duration)) (Set, error) {
	var xs Set
	for _, sp := range specs {
		if !slices.Contains(names, sp.Name) {
			warn(fmt.Sprintf("-ext %s is not run: -solvers does not name it (add %s to -solvers, or omit -solvers for the default strategies and every -ext one)",
				sp.Name, sp.Name))
			continue
		}
		if w := sp.Warning(); w != "" {
			warn(w)
		}
		t0 := time.Now()
		x, err := Start(ctx, sp, opt)
		if err != nil {
			xs.Close()
			return nil, err
		}
		started(x, time.Since(t0))
		xs = append(xs, x)
	}
	return xs, nil
}

// Close ends every process of the solvers.
func (xs Set) Close() {
	for _, x := range xs {
		x.Close()
	}
}

// Solvers returns them as strategies (for solvers.Resolve).
func (xs Set) Solvers() []solvers.Solver {
	out := make([]solvers.Solver, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Uncounted returns, per solver, the counters its program does not
// report (Program.Uncounted).
func (xs Set) Uncounted() map[string][]string {
	out := map[string][]string{}
	for _, x := range xs {
		out[x.Name()] = x.Program().Uncounted()
	}
	return out
}

// Failures returns the line of each solver that failed wholesale in a
// sweep (Solver.Failure), statuses giving the counts by status of a
// strategy's units by its name.
func (xs Set) Failures(statuses func(name string) map[string]int) []string {
	var out []string
	for _, x := range xs {
		if why := x.Failure(statuses(x.Name())); why != "" {
			out = append(out, why)
		}
	}
	return out
}
