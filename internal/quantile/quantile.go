// Package quantile is sudokubatch's one estimator of quantiles and
// medians: the summary, the page, the charts, compare, trend's gate, the
// variants' verdicts and the pipeline's timing read the quantiles of
// their units through it, so that a strategy's median is the same figure
// wherever it is read.
//
// The estimator is the inverse of the empirical distribution function
// (Hyndman and Fan's type 1, gonum's stat.Empirical): the q-quantile of n
// sorted values is the value of rank ceil(q·n), at least 1, that is, the
// smallest value with at least q·n of the values at or below it. The
// median is the middle value for odd n and the lower middle one for even
// n; q = 0 gives the smallest value, q = 1 the largest.
//
// Why this estimator, and not one that interpolates between two values
// (R's default, type 7, or type 8, which golang.org/x/perf's benchmath
// takes its median from):
//
//  1. A quantile is the value of one unit. Times and calls stay integers
//     (run.json and summary.json record exact nanoseconds and counts), and
//     a puzzle stands behind every figure: the page can name it, and two
//     readers of the same values get the same figure.
//  2. Units stopped by a limit enter at the value they reached, a lower
//     bound. A quantile that is one unit's value is exact or a lower bound
//     (shown ≥) by one question: would the value of its rank change if
//     every stopped unit had gone on forever (the report asks it of the
//     same rank, Index). An interpolated one leans on two units, one of
//     which may be stopped while the figure lies below every stopped value
//     and looks exact.
//  3. The report's confidence intervals are order statistics (binomial
//     ranks, distribution-free), so a quantile and the ends of its
//     interval are values of the same sorted units, and the quantile lies
//     within its interval.
//  4. Ties need nothing: a tie is a value like another.
//  5. Small samples are where estimators differ: for even n the lower
//     middle value is below the interpolated median by half the gap
//     between the two middle values. benchstat summarises ten or so runs
//     of one benchmark, none stopped, and interpolates; this tool's samples
//     are corpora of puzzles (the variants of one, the sample of a corpus),
//     where that gap is below a unit's own noise. A unit's few timed runs
//     (at most five) take the lower middle one too: a row's time is one of
//     its runs, and a run's noise only adds time (a preempted run is
//     slower, never faster).
//  6. The nights already recorded carry type 1 quantiles in their
//     summary.json; another estimator would move every new night against
//     them and make a step of the change.
//
// Consumers that hold counts instead of values share the rank (Rank): the
// pipeline's histogram of a group's times, a sketch built as the sweep
// goes, reports the bin that holds the value of the median's rank; the
// bootstrap of compare counts draws per rank.
//
// Midpoint is not that estimator: it is the middle value, the mean of the
// two middle ones for an even count (what the interpolating estimators
// give at q = 0.5). The history takes it, and nothing else does, for the
// center of a few measurements of one quantity that it compares with one
// more measurement of that quantity: a puzzle's time over the gate's
// baseline nights, a strategy's level over nights, the machine's factor
// over the strategies' ratios. An even count is common there (4 or 6
// baseline nights, 6 default strategies), and each measurement carries
// the machine's noise: the lower middle one of 4 nights is the second
// fastest of a puzzle's 4 times, below a typical night by as much as that
// noise (on a busy machine, tens of percent for a strategy whose units
// vary), and would read the next night as slower than nights that were
// as slow as it. See docs/TREND.md.
package quantile

import (
	"cmp"
	"math"
)

// Number is a type whose values Midpoint can average.
type Number interface {
	~int | ~int32 | ~int64 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Rank returns the rank (1-based) among n sorted values (n > 0) of their
// q-quantile: ceil(q·n), at least 1 and at most n. A q below 0 or NaN is
// taken as 0, one above 1 as 1. It computes q·n in float64 as
// gonum's stat.Quantile does, so the two agree to the unit.
func Rank(n int, q float64) int {
	if !(q > 0) {
		return 1
	}
	if q >= 1 {
		return n
	}
	return min(max(int(math.Ceil(q*float64(n))), 1), n)
}

// Index returns the index (0-based) among n sorted values (n > 0) of
// their q-quantile: Rank(n, q) - 1.
func Index(n int, q float64) int { return Rank(n, q) - 1 }

// Of returns the q-quantile of sorted, which is in ascending order and
// not empty: sorted[Index(len(sorted), q)].
func Of[S ~[]E, E cmp.Ordered](sorted S, q float64) E { return sorted[Index(len(sorted), q)] }

// Median returns the median of sorted, which is in ascending order and
// not empty: the middle value, the lower middle one for an even count.
func Median[S ~[]E, E cmp.Ordered](sorted S) E { return Of(sorted, 0.5) }

// Middle returns the indexes, among n sorted values (n > 0), of their two
// middle ones: lo == hi, the middle one, for an odd n.
func Middle(n int) (lo, hi int) { return (n - 1) / 2, n / 2 }

// Midpoint returns the middle value of sorted, which is in ascending
// order and not empty, or the mean of its two middle values for an even
// count (an integer mean rounded toward zero). It is the center of a few
// measurements of one quantity, not a quantile of a distribution of
// units: see the package doc for the one consumer.
func Midpoint[S ~[]E, E Number](sorted S) E {
	lo, hi := Middle(len(sorted))
	if lo == hi {
		return sorted[lo]
	}
	return (sorted[lo] + sorted[hi]) / 2
}
