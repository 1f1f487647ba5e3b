package report

// SortedValues is one measure of a strategy's measured units, ascending,
// split by how each unit ended (solvers.Status): finished (solved, or
// proved unsolvable), gave up (stuck, wrong) and censored (timeout,
// limit; their values are lower bounds). It is what the charts draw
// (report/chart), sorted and classified here rather than again by each
// reader.
type SortedValues struct {
	Finished, GaveUp, Censored []float64
}

// SortedTimes returns the times (ns) of the measured units of ser,
// sorted by how they ended; SortedCalls their calls. Each costs 8 bytes a
// measured unit, made when asked: a reader asks for one strategy's one
// measure at a time and lets it go (the Summary keeps none).
func SortedTimes(ser *Series) *SortedValues {
	return sortedValues(ser, func(i int) float64 { return float64(ser.NS(i)) })
}

// SortedCalls is SortedTimes for the calls.
func SortedCalls(ser *Series) *SortedValues {
	return sortedValues(ser, func(i int) float64 { return float64(ser.Calls(i)) })
}

func sortedValues(ser *Series, value func(int) float64) *SortedValues {
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
	v := &SortedValues{make([]float64, 0, fin), make([]float64, 0, gave), make([]float64, 0, cen)}
	for i := range measuredRows(ser) {
		switch st := ser.Status(int(i)); {
		case st.Finished():
			v.Finished = append(v.Finished, value(int(i)))
		case st.GaveUp():
			v.GaveUp = append(v.GaveUp, value(int(i)))
		default:
			v.Censored = append(v.Censored, value(int(i)))
		}
	}
	for _, vs := range [][]float64{v.Finished, v.GaveUp, v.Censored} {
		sortValues(vs)
	}
	return v
}
