package main

import (
	"fmt"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// showSolvers returns the strategies show runs on the puzzle (-solvers,
// list; ext: the names of -ext) and the strategies of run it lists from
// the run's rows only: those neither in the registry nor given with
// -ext (external solvers of the run), which show cannot start without
// their command. A name of list that is such a strategy of run is taken
// as one; any other unknown name is a usage error (solverNames).
func showSolvers(list string, run *report.Run, ext []string) (names, fromRun []string, err error) {
	var runNames []string
	if run != nil {
		runNames = run.Results.SolverNames()
	}
	for _, n := range runNames {
		if _, ok := solvers.Lookup(n); !ok && !slices.Contains(ext, n) {
			fromRun = append(fromRun, n)
		}
	}
	if strings.TrimSpace(list) == "all" {
		names, err = solverNames(list, ext)
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
	names, err = solverNames(strings.Join(builtin, ","), ext)
	return names, fromRun, err
}

// fromRunNote says why show lists the strategies names from the run's
// rows only; "" when there are none.
func fromRunNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("Not run now: %s, %s of the run: show cannot start %s without %s command "+
		"(-ext NAME=COMMAND); %s listed from the run's rows only.", strings.Join(names, ", "),
		report.Plural(len(names), "an external solver", "external solvers"), report.Plural(len(names), "it", "them"),
		report.Plural(len(names), "its", "their"), report.Plural(len(names), "it is", "they are"))
}

// solverNames resolves -solvers (solvers.Choose): a usage error.
func solverNames(list string, ext []string) ([]string, error) {
	names, err := solvers.Choose(list, ext)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return names, nil
}
