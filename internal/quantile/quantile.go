// Package quantile is sudokubatch's one estimator of quantiles and
// medians: the summary, the page, the charts, compare, trend's gate and
// steps, the variants' verdicts and the pipeline's timing all read a
// quantile through it, so that a strategy's median is the same figure
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
//  5. Small samples are where the estimators differ: for even n the lower
//     middle value is below the interpolated median by half the gap
//     between the two middle values. benchstat summarises ten or so runs
//     of one benchmark, none stopped, and interpolates; this tool's samples
//     are mostly corpora of thousands of puzzles, where that gap is below
//     a unit's own noise, and its small ones (a few baseline nights, a few
//     strategies, a few seeds) are read for a value that one of them has:
//     a step's level before and after is a night's median, found on that
//     night's page.
//  6. The nights already recorded carry type 1 quantiles in their
//     summary.json; another estimator would move every new night against
//     them and make a step of the change.
//
// Consumers that hold counts instead of values share the rank (Rank): the
// pipeline's histogram of a group's times, a sketch built as the sweep
// goes, reports the bin that holds the value of the median's rank; the
// bootstrap of compare counts draws per rank.
package quantile

import (
	"cmp"
	"math"
)

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
