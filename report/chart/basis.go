package chart

import (
	"strings"

	"sudokubatch/report"
)

// basisNote is the sentence a time chart's caption ends with when a
// strategy it draws is ranked by its own time (report.BasisSelf: an
// external solver's self_ns): which strategies' times are their own. A
// chart of one strategy (solver) names it alone, a scatter also its
// baseline (withBase), the overlays every such strategy; "" when none.
func (cs *chartSet) basisNote(solver string, withBase bool) string {
	var self []string
	for _, ser := range cs.res.Series {
		if ser.Basis() != report.BasisSelf {
			continue
		}
		if solver == "" || ser.Solver == solver || withBase && ser.Solver == cs.baseline {
			self = append(self, ser.Solver)
		}
	}
	switch len(self) {
	case 0:
		return ""
	case 1:
		return " The times of " + self[0] + " are its own (self_ns), not the round trip."
	}
	return " The times of " + strings.Join(self, ", ") + " are their own (self_ns), not the round trip."
}
