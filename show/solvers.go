package show

import (
	"fmt"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// Solvers returns the strategies show runs on the puzzle (list, a
// -solvers value; ext: the names of -ext, solvers.Choose) and the
// strategies of run it lists from the run's rows only: those neither in
// the registry nor given with -ext (external solvers of the run), which
// show cannot start without their command. A name of list that is such
// a strategy of run is taken as one; any other unknown name is an error.
func Solvers(list string, run *report.Run, ext []string) (names, fromRun []string, err error) {
	if run != nil {
		for _, n := range run.Results.SolverNames() {
			if _, ok := solvers.Lookup(n); !ok && !slices.Contains(ext, n) {
				fromRun = append(fromRun, n)
			}
		}
	}
	if strings.TrimSpace(list) == "all" {
		names, err = solvers.Choose(list, ext)
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
	names, err = solvers.Choose(strings.Join(builtin, ","), ext)
	return names, fromRun, err
}

// NotRunNote says why show lists the strategies names from the run's
// rows only (report.PuzzleShow.NotRun); "" when there are none.
func NotRunNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("Not run now: %s, %s of the run: show cannot start %s without %s command "+
		"(-ext NAME=COMMAND); %s listed from the run's rows only.", strings.Join(names, ", "),
		report.Plural(len(names), "an external solver", "external solvers"), report.Plural(len(names), "it", "them"),
		report.Plural(len(names), "its", "their"), report.Plural(len(names), "it is", "they are"))
}
