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
// the charts draw (report/chart), sorted and classified here rather than
// again by each reader. They cost 16 bytes a measured unit: a reader
// asks for one strategy's at a time and lets them go (the summary keeps
// none).
type Views struct {
	TimeNS, Calls SortedValues
}

// SeriesViews sorts the measured units of ser by how they ended.
func SeriesViews(ser *Series) *Views {
	var fin, gave, cen int
	for i := range ser.Len() {
		switch st := ser.Status(i); {
		case !st.Measured():
		case st.Finished():
			fin++
		case st.GaveUp():
			gave++
		default:
			cen++
		}
	}
	v := &Views{
		TimeNS: SortedValues{make([]float64, 0, fin), make([]float64, 0, gave), make([]float64, 0, cen)},
		Calls:  SortedValues{make([]float64, 0, fin), make([]float64, 0, gave), make([]float64, 0, cen)},
	}
	for i := range measuredRows(ser) {
		ns, calls := float64(ser.NS(int(i))), float64(ser.Calls(int(i)))
		t, c := &v.TimeNS.Censored, &v.Calls.Censored
		switch st := ser.Status(int(i)); {
		case st.Finished():
			t, c = &v.TimeNS.Finished, &v.Calls.Finished
		case st.GaveUp():
			t, c = &v.TimeNS.GaveUp, &v.Calls.GaveUp
		}
		*t, *c = append(*t, ns), append(*c, calls)
	}
	for _, vs := range [][]float64{v.TimeNS.Finished, v.TimeNS.GaveUp, v.TimeNS.Censored,
		v.Calls.Finished, v.Calls.GaveUp, v.Calls.Censored} {
		slices.Sort(vs)
	}
	return v
}
