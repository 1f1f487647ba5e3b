package report

import (
	"fmt"
	"iter"
	"math"

	"sudokubatch/internal/quantile"
)

// Distribution summarises one measure (time in ns, or calls) over a
// strategy's measured units. The robust figures come first: quantiles
// (values of actual units), then the trimmed mean (TrimShare dropped at
// each end), then the mean; each with its Confidence interval (see
// robust.go). The max has none: it is one unit, not an estimate.
//
// Max is the largest value, so that Max >= P99 >= P90 >= Median always
// holds; for time in a run with the timing columns (Results.Timed),
// MaxUnconfirmed says the unit of the max was measured once, in the sweep
// (the re-timing did not reach it), as its place in ByTime says.
type Distribution struct {
	Median        Estimate  `json:"median"`
	MedianCI      Interval  `json:"median_ci"`
	P90           Estimate  `json:"p90"`
	P90CI         Interval  `json:"p90_ci"`
	P99           Estimate  `json:"p99"`
	P99CI         Interval  `json:"p99_ci"`
	TrimmedMean   Estimate  `json:"trimmed_mean"`
	TrimmedMeanCI Interval  `json:"trimmed_mean_ci"`
	Mean          Estimate  `json:"mean"`
	MeanCI        Interval  `json:"mean_ci"`
	Max           Estimate  `json:"max"`
	MaxAt         PuzzleRef `json:"max_at"` // the first unit, in file order, with the max
	// MaxUnconfirmed: the time of MaxAt was measured once (see above).
	MaxUnconfirmed bool `json:"max_unconfirmed,omitempty"`
}

// absent marks every figure of d as not measured (BoundAbsent): a
// counter the strategy does not report.
func (d *Distribution) absent() {
	*d = Distribution{}
	for _, e := range []*Estimate{&d.Median, &d.P90, &d.P99, &d.TrimmedMean, &d.Mean, &d.Max} {
		e.Bound = BoundAbsent
	}
}

// roundNS rounds the means of a time distribution and their interval
// ends to integer nanoseconds (the quantiles are values of units already).
func (d *Distribution) roundNS() {
	for _, e := range []*Estimate{&d.TrimmedMean, &d.TrimmedMeanCI.Lo, &d.TrimmedMeanCI.Hi,
		&d.Mean, &d.MeanCI.Lo, &d.MeanCI.Hi} {
		e.Value = math.Round(e.Value)
	}
}

// Estimate is a statistic and whether units stopped by a limit may have
// moved it: Bound says on which side the true value lies.
type Estimate struct {
	Value float64 `json:"value"`
	Bound Bound   `json:"bound,omitempty"`
}

// Bound tells whether an Estimate is exact or a bound on the value the
// statistic would have if no unit had been stopped.
type Bound int8

// The bounds.
const (
	BoundExact  Bound = iota // no stopped unit could change it
	BoundLower               // the true value may be higher (shown "≥")
	BoundUpper               // the true value may be lower (shown "≤")
	BoundAbsent              // not measured: the strategy does not count it (shown "–")
)

var boundNames = [...]string{BoundExact: "exact", BoundLower: "lower", BoundUpper: "upper", BoundAbsent: "absent"}

func (b Bound) String() string {
	if int(b) >= 0 && int(b) < len(boundNames) {
		return boundNames[b]
	}
	return fmt.Sprintf("bound(%d)", int8(b))
}

// MarshalText encodes b as "exact", "lower" or "upper".
func (b Bound) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText decodes "exact", "lower" or "upper".
func (b *Bound) UnmarshalText(text []byte) error {
	for i, name := range boundNames {
		if name == string(text) {
			*b = Bound(i)
			return nil
		}
	}
	return fmt.Errorf("unknown bound %q", text)
}

// seriesNS and seriesCalls return the time (ns) and the calls of a row
// of ser as float64, the values the statistics are of.
func seriesNS(ser *Series) func(int32) float64 {
	return func(i int32) float64 { return float64(ser.NS(int(i))) }
}

func seriesCalls(ser *Series) func(int32) float64 {
	return func(i int32) float64 { return float64(ser.Calls(int(i))) }
}

// distribution computes the statistics of value over the n rows of ser
// that rows yields (n > 0), and returns them with the sorted values (for
// the ranks) and the row of the max.
// Quantiles are the tool's one estimator (internal/quantile) on the
// sorted values: the q-quantile is the value of rank ceil(q*n), the
// smallest value v with at least q*n values <= v, always the value of an
// actual unit (so integer ns and calls stay integers): the only value for
// n = 1, the middle one for odd n, the lower middle one for even n.
//
// Stopped units enter at their stopping value. A statistic is marked a
// lower bound when it would change if every stopped unit had gone on
// forever: it is computed again with those units at +Inf and compared;
// so are the ends of the intervals (see Interval).
// The quantiles with the stopped units at +Inf are read off the sorted
// values (finishedAt); the means are computed again over a copy
// (meanEstimates).
func distribution(res *Results, ser *Series, rows iter.Seq[int32], n int, value func(int32) float64) (Distribution, []float64, int32) {
	var d Distribution
	vals := make([]float64, 0, n)
	var cens []float64 // the values of the stopped units
	maxAt, maxV := int32(-1), 0.0
	for i := range rows {
		v := value(i)
		vals = append(vals, v)
		if maxAt < 0 || v > maxV {
			maxAt, maxV = i, v
		}
		if ser.Status(int(i)).Censored() {
			cens = append(cens, v)
		}
	}
	sortValues(vals)
	sortValues(cens)
	quantileOf := func(q float64) Estimate {
		k := quantile.Index(len(vals), q)
		if len(cens) == 0 {
			return Estimate{vals[k], BoundExact}
		}
		return boundBy(vals[k], finishedAt(vals, cens, k))
	}
	d.Median, d.MedianCI = quantileOf(0.5), quantileInterval(vals, cens, 0.5)
	d.P90, d.P90CI = quantileOf(0.9), quantileInterval(vals, cens, 0.9)
	d.P99, d.P99CI = quantileOf(0.99), quantileInterval(vals, cens, 0.99)
	var finished []float64
	if len(cens) > 0 {
		finished = finishedValues(vals, cens)
	}
	d.TrimmedMean, d.TrimmedMeanCI = meanEstimates(vals, cens, finished, trimCount(len(vals)))
	d.Mean, d.MeanCI = meanEstimates(vals, cens, finished, 0)
	d.Max = quantileOf(1)
	e := ser.At(int(maxAt))
	d.MaxAt = puzzleRef(res, &e)
	return d, vals, maxAt
}

// finishedAt returns the k-th smallest (0-based) of the values of vals
// that are not stopped ones, or +Inf when there are not that many: the
// k-th value if every stopped unit had gone on forever. vals and cens
// (the stopped units' values, a part of vals) are sorted; of equal
// values, which are the stopped ones does not matter.
func finishedAt(vals, cens []float64, k int) float64 {
	j := 0
	for _, v := range vals {
		if j < len(cens) && cens[j] == v {
			j++
			continue
		}
		if k == 0 {
			return v
		}
		k--
	}
	return math.Inf(1)
}

// boundBy returns v, a lower bound unless the worst case w equals it.
func boundBy(v, w float64) Estimate {
	if w != v {
		return Estimate{v, BoundLower}
	}
	return Estimate{v, BoundExact}
}
