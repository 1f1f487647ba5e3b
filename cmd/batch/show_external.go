package main

import (
	"fmt"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// showSolvers returns the strategies show runs on the puzzle (-solvers,
// list) and the strategies of run it lists from the run's rows only:
// those not in the registry (external solvers, -ext), which show cannot
// start without their command. A name of list that is not a built-in
// strategy but is one of run's is taken as such; any other unknown name
// is a usage error (solverNames).
func showSolvers(list string, run *report.Run) (names, fromRun []string, err error) {
	var runNames []string
	if run != nil {
		runNames = run.Results.SolverNames()
	}
	for _, n := range runNames {
		if _, ok := solvers.Lookup(n); !ok {
			fromRun = append(fromRun, n)
		}
	}
	if strings.TrimSpace(list) == "all" {
		names, err = solverNames(list, nil)
		return names, fromRun, err
	}
	var builtin []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); slices.Contains(fromRun, n) {
			continue // listed from the run's rows
		}
		builtin = append(builtin, n)
	}
	if len(builtin) == 0 && len(fromRun) > 0 {
		return nil, fromRun, nil
	}
	names, err = solverNames(strings.Join(builtin, ","), nil)
	return names, fromRun, err
}

// fromRunNote says why show lists the strategies names from the run's
// rows only; "" when there are none.
func fromRunNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("Not run now: %s, %s of the run (-ext): show cannot start %s without %s command; "+
		"%s listed from the run's rows only.", strings.Join(names, ", "),
		report.Plural(len(names), "an external solver", "external solvers"), report.Plural(len(names), "it", "them"),
		report.Plural(len(names), "its", "their"), report.Plural(len(names), "it is", "they are"))
}
