package report

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Robust statistics and their spread. Times of a run are heavy-tailed (a
// few puzzles take a thousand times the median) and noisy (a collection
// or a preemption lengthens one unit), so a summary leads with the median,
// the quantiles and a trimmed mean, which a few extreme units barely move,
// and gives each of them, and the mean, a Confidence interval:
//   - quantiles (median, p90, p99): distribution-free, from order
//     statistics. The interval [x(l), x(u)] of the sorted values covers
//     the q-quantile with probability P(l <= B < u), B ~ Binomial(n, q),
//     whatever the distribution; l and u are chosen with at most
//     (1-Confidence)/2 on each side (so the interval is at least at the
//     level), and are values of actual units, like the quantiles.
//   - the trimmed mean: Yuen's interval, t with h-1 degrees of freedom
//     and the standard error from the winsorized variance (h units kept).
//   - the mean: the same with nothing trimmed, mean ± t·s/√n.
//
// No resampling: every interval is a few passes over the sorted values
// (or a binary search on the binomial distribution), so a summary of
// millions of units stays quick. The intervals treat the measured units
// as a sample of the puzzles their corpus stands for; a time's own noise
// is in the spread of the values.

const (
	// Confidence is the level of every interval of a summary.
	Confidence = 0.95
	// TrimShare is the share of the units a trimmed mean drops at each
	// end: 10%, so it is the mean of the middle 80% (floor(n/10) units
	// dropped at each end; none below 10 units).
	TrimShare = 0.10
)

// Interval is a Confidence interval of a statistic. Each end is an
// Estimate, with a Bound when it is not known exactly:
//   - an end that lies beyond the units (too few of them, e.g. the p99 of
//     fewer than 368 units, or the median of fewer than 6) is the
//     smallest value as an upper bound (≤) or the largest as a lower
//     bound (≥);
//   - units stopped by a limit move the ends as they move the statistic:
//     an end that would change if they had gone on forever is a lower
//     bound (≥), decided as for the statistic (see distribution).
//
// A mean's interval of a single unit is [≤v, ≥v]: unknown.
type Interval struct {
	Lo Estimate `json:"lo"`
	Hi Estimate `json:"hi"`
}

// Bounded reports whether both ends are known exactly.
func (iv Interval) Bounded() bool { return iv.Lo.Bound == BoundExact && iv.Hi.Bound == BoundExact }

// HalfWidth returns the larger distance from v to an end, relative to
// v (0.031 for ±3.1%), and false when an end is not known exactly; 0 when
// v and both ends are 0.
func (iv Interval) HalfWidth(v float64) (float64, bool) {
	if !iv.Bounded() {
		return 0, false
	}
	d := max(v-iv.Lo.Value, iv.Hi.Value-v, 0)
	if d == 0 {
		return 0, true
	}
	if v == 0 {
		return 0, false
	}
	return d / math.Abs(v), true
}

// quantileRanks returns the 0-based indexes, in n sorted values, of the
// ends of the distribution-free Confidence interval of the q-quantile:
// lo is the largest i with P(B <= i) <= α/2, hi the smallest with
// P(B <= i) >= 1-α/2, B ~ Binomial(n, q), α = 1-Confidence. lo is -1
// when even the smallest value is too high, hi is n when even the
// largest is too low.
func quantileRanks(q float64, n int) (lo, hi int) {
	if n == 0 {
		return -1, 0
	}
	b := distuv.Binomial{N: float64(n), P: q}
	tail := (1 - Confidence) / 2
	lo = sort.Search(n, func(i int) bool { return b.CDF(float64(i)) > tail }) - 1
	hi = sort.Search(n, func(i int) bool { return b.CDF(float64(i)) >= 1-tail })
	return lo, hi
}

// quantileInterval returns the Confidence interval of the q-quantile of
// the sorted values vals; cens are the values of the stopped units among
// them (sorted).
func quantileInterval(vals, cens []float64, q float64) Interval {
	n := len(vals)
	lo, hi := quantileRanks(q, n)
	end := func(i int) Estimate {
		if len(cens) == 0 {
			return Estimate{vals[i], BoundExact}
		}
		return boundBy(vals[i], finishedAt(vals, cens, i))
	}
	var iv Interval
	if lo < 0 {
		iv.Lo = Estimate{vals[0], BoundUpper}
	} else {
		iv.Lo = end(lo)
	}
	if hi >= n {
		iv.Hi = Estimate{vals[n-1], BoundLower}
	} else {
		iv.Hi = end(hi)
	}
	return iv
}

// trimCount returns how many of n values a trimmed mean drops at each
// end.
func trimCount(n int) int { return int(math.Floor(TrimShare*float64(n) + 1e-9)) }

// trimmed returns the mean of the sorted values vals without the g
// smallest and the g largest, and the half-width of its Confidence
// interval (Yuen: t with h-1 degrees of freedom times
// sqrt(Σ(w-w̄)² / (h(h-1))), w the winsorized values, h = n-2g kept);
// the half-width is NaN when fewer than two values are kept. With g = 0
// it is the mean and t·s/√n. A +Inf among the kept values gives +Inf.
func trimmed(vals []float64, g int) (mean, half float64) {
	n := len(vals)
	h := n - 2*g
	if h <= 0 {
		return math.NaN(), math.NaN()
	}
	kept := vals[g : n-g]
	sum := 0.0
	for _, v := range kept {
		sum += v
	}
	mean = sum / float64(h)
	if h < 2 {
		return mean, math.NaN()
	}
	if math.IsInf(mean, 0) {
		return mean, math.Inf(1)
	}
	lo, hi := kept[0], kept[h-1]
	wsum := sum + float64(g)*(lo+hi)
	wmean := wsum / float64(n)
	ss := float64(g) * ((lo-wmean)*(lo-wmean) + (hi-wmean)*(hi-wmean))
	for _, v := range kept {
		ss += (v - wmean) * (v - wmean)
	}
	se := math.Sqrt(ss / (float64(h) * float64(h-1)))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(h - 1)}.Quantile(1 - (1-Confidence)/2)
	return mean, t * se
}

// meanEstimates returns the trimmed mean (g values dropped at each end)
// of the sorted values vals and its interval, each marked as a bound when
// the stopped units (cens, sorted) could move it: they are computed again
// with those units at +Inf (finished holds the other values, sorted; nil
// when no unit was stopped) and compared. The lower end of an interval
// is never below 0: times and counts are not negative.
func meanEstimates(vals, cens, finished []float64, g int) (Estimate, Interval) {
	v, half := trimmed(vals, g)
	mean := Estimate{v, BoundExact}
	wv, whalf := v, half // with the stopped units at +Inf
	if len(cens) > 0 {
		wv, whalf = math.Inf(1), math.Inf(1)
		if len(cens) <= g { // they may all be among the values dropped
			worst := make([]float64, len(vals))
			copy(worst, finished)
			for i := len(finished); i < len(worst); i++ {
				worst[i] = math.Inf(1)
			}
			wv, whalf = trimmed(worst, g)
		}
		mean = boundBy(v, wv)
	}
	if math.IsNaN(half) { // one value: no spread
		return mean, Interval{Estimate{v, BoundUpper}, Estimate{v, BoundLower}}
	}
	lo, hi := max(v-half, 0), v+half
	iv := Interval{boundBy(lo, max(wv-whalf, 0)), boundBy(hi, wv+whalf)}
	if mean.Bound != BoundExact { // the interval moves with the statistic
		iv.Lo.Bound, iv.Hi.Bound = BoundLower, BoundLower
	}
	return mean, iv
}

// finishedValues returns the values of vals (sorted) that are not those
// of stopped units (cens, sorted, a part of vals), sorted.
func finishedValues(vals, cens []float64) []float64 {
	out := make([]float64, 0, len(vals)-len(cens))
	j := 0
	for _, v := range vals {
		if j < len(cens) && cens[j] == v {
			j++
			continue
		}
		out = append(out, v)
	}
	return out
}

// fmtSpread formats the spread of a figure v for a table: the larger
// distance to an end of its interval, relative to v, as "±3.1%" (one
// decimal below 10%, none above); "±?" when an end is not known exactly.
func fmtSpread(v float64, iv Interval) string {
	h, ok := iv.HalfWidth(v)
	switch pct := h * 100; {
	case !ok:
		return "±?"
	case pct < 9.95:
		return fmt.Sprintf("±%.1f%%", pct)
	default:
		return fmt.Sprintf("±%.0f%%", pct)
	}
}

// fmtInterval formats an interval with f, each end marked "≥" or "≤"
// when it is a bound: "2.71ms – 3.05ms".
func fmtInterval(iv Interval, f func(float64) string) string {
	return fmtEstimate(iv.Lo, f) + " – " + fmtEstimate(iv.Hi, f)
}
