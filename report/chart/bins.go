package chart

import (
	"math"
	"slices"

	quantiles "sudokubatch/internal/quantile"
)

// valueRange returns the smallest and largest value over the columns,
// and false when no column has a point.
func valueRange(cols ...*column) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range cols {
		if c.n == 0 {
			continue
		}
		lo = math.Min(lo, c.lo)
		hi = math.Max(hi, c.hi)
		ok = true
	}
	return lo, hi, ok
}

// logAxisRange widens [lo, hi] for a log axis: a margin of pad decades
// on each side and at least one decade in all, so that the ticker finds
// labels and a single value is drawn mid-axis.
func logAxisRange(lo, hi, pad float64) (float64, float64) {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return 1, 10
	}
	a, b := math.Log10(lo)-pad, math.Log10(hi)+pad
	if w := b - a; w < 1 {
		a -= (1 - w) / 2
		b += (1 - w) / 2
	}
	return math.Pow(10, a), math.Pow(10, b)
}

// logBins returns shared histogram bin edges covering [lo, hi]: equal
// widths in log space, aligned on fractions of a decade (1, 2, 4, 5, 10
// or 20 bins per decade, about 30 to 60 bins in all). For integer
// counters (calls) the edges are rounded up to integers and merged, so
// that no bin falls between two integers and stays empty.
func logBins(lo, hi float64, integer bool) []float64 {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return []float64{1, 10}
	}
	a, b := math.Log10(lo), math.Log10(hi)
	if b-a < 1 {
		mid := (a + b) / 2
		a, b = mid-0.5, mid+0.5
		if integer && a < 0 {
			a, b = 0, math.Max(b-a, b)
		}
	}
	perDecade := 1
	for _, k := range []int{20, 10, 5, 4, 2, 1} {
		if (b-a)*float64(k) <= 60 {
			perDecade = k
			break
		}
	}
	k := float64(perDecade)
	i0, i1 := math.Floor(a*k+1e-9), math.Ceil(b*k-1e-9)
	if i1 <= i0 {
		i1 = i0 + 1
	}
	var edges []float64
	for i := i0; i <= i1; i++ {
		e := math.Pow(10, i/k)
		if integer {
			e = math.Ceil(e - 1e-9)
			if len(edges) > 0 && e <= edges[len(edges)-1] {
				continue
			}
		}
		edges = append(edges, e)
	}
	if integer && hi >= edges[len(edges)-1] {
		edges = append(edges, math.Floor(hi)+1)
	}
	if len(edges) < 2 {
		edges = append(edges, edges[0]*10)
	}
	return edges
}

// binOf returns the index of the bin of v in edges: bins are [e[i],
// e[i+1]), the last one closed; values outside go to the end bins.
func binIndex(edges []float64, v float64) int {
	i, _ := slices.BinarySearch(edges, v)
	// BinarySearch gives the first edge >= v; v == edges[i] starts bin i.
	if i < len(edges) && edges[i] == v {
		return min(i, len(edges)-2)
	}
	return min(max(i-1, 0), len(edges)-2)
}

// ecdfThin returns about n points (x, F(x)) of the empirical
// distribution of the sorted values vs, with F counted over total rows:
// the quantiles at n evenly spaced probabilities, plus the first and
// last value, as a step curve would pass through them.
func thinECDF(vs []float64, total, n int) (xs, ys []float64) {
	if len(vs) == 0 || total == 0 {
		return nil, nil
	}
	m := len(vs)
	last := -1
	step := func(i int) {
		if i <= last {
			return
		}
		// The step of F at vs[i]: from i/total to (i+1)/total. Take
		// the last index with the same value so F(vs[i]) is exact.
		j := i
		for j+1 < m && vs[j+1] == vs[i] {
			j++
		}
		xs = append(xs, vs[j])
		ys = append(ys, float64(j+1)/float64(total))
		last = j
	}
	if n < 2 {
		n = 2
	}
	for k := 0; k <= n; k++ {
		i := int(math.Ceil(float64(k)/float64(n)*float64(m))) - 1
		step(max(i, 0))
	}
	step(m - 1)
	return xs, ys
}

// quantile returns the q-quantile of the sorted values vs, NaN when
// there are none: the tool's one estimator (internal/quantile), as the
// summary's quantiles, so that a box's median is the page's.
func quantile(vs []float64, q float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	return quantiles.Of(vs, q)
}
