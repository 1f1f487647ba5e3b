package report

import "slices"

// SortedValues is one measure of a strategy's measured units, ascending,
// split by how each unit ended (solvers.Status): finished (solved, or
// proved unsolvable), gave up (stuck, wrong) and censored (timeout,
// limit; their values are lower bounds).
type SortedValues struct {
	Finished, GaveUp, Censored []float64
}

// Views are a strategy's sorted values of time (ns) and of calls: what
// the charts draw (report/chart), derived once with the summary rather
// than sorted and classified again by each reader.
type Views struct {
	TimeNS, Calls SortedValues
}

// Views returns the sorted values of the strategy named solver, or nil
// when the summary has no such strategy.
func (s *Summary) Views(solver string) *Views { return s.views[solver] }

// seriesViews sorts the measured units of ser by how they ended.
func seriesViews(ser *Series) *Views {
	v := &Views{}
	for i := range measuredRows(ser) {
		ns, calls := float64(ser.NS(int(i))), float64(ser.Calls(int(i)))
		switch st := ser.Status(int(i)); {
		case st.Finished():
			v.TimeNS.Finished, v.Calls.Finished = append(v.TimeNS.Finished, ns), append(v.Calls.Finished, calls)
		case st.GaveUp():
			v.TimeNS.GaveUp, v.Calls.GaveUp = append(v.TimeNS.GaveUp, ns), append(v.Calls.GaveUp, calls)
		default:
			v.TimeNS.Censored, v.Calls.Censored = append(v.TimeNS.Censored, ns), append(v.Calls.Censored, calls)
		}
	}
	for _, vs := range [][]float64{v.TimeNS.Finished, v.TimeNS.GaveUp, v.TimeNS.Censored,
		v.Calls.Finished, v.Calls.GaveUp, v.Calls.Censored} {
		slices.Sort(vs)
	}
	return v
}
