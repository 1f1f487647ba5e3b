// Package report turns the rows of a run into what a user reads: the
// summary (summary.md, summary.json, summary.bench, hard.csv and a table
// for the terminal), the HTML page, the comparison of two runs and the
// report on one puzzle. The charts are drawn by report/chart from the
// same model.
//
// Data flow:
//  1. LoadRun reads a run directory (or a bare results.csv) through
//     rundir's Reader into the one model of a run, Run: its rows as
//     numbers (Results, one Series per strategy) and its run.json.
//  2. Summarize computes a Summary from Results; its Write methods render
//     it, and WriteSummaryFiles writes the four files into a run
//     directory. WritePage writes index.html from the Results, the
//     Summary and the charts that report/chart drew.
//  3. Compare diffs two Runs (`batch compare`): counters unit by unit on
//     (corpus, id), times as ratios NEW/OLD of medians and totals; see
//     Comparison for how stopped units enter. RankPuzzle places one
//     puzzle in each strategy of a Run with Summarize's ranks and
//     medians, and PuzzleShow renders what `batch show` prints about it.
//
// Summary statistics. A unit (one puzzle, one strategy) is measured when
// its search ran: every status but invalid, unsupported and error, which
// are counted but have no time. Time and call statistics are over the
// measured units. Quantiles are gonum's stat.Quantile with the
// stat.Empirical estimator on the sorted values: the q-quantile is the
// smallest value v with at least q*n values <= v. It is always the value
// of an actual unit (integer ns and calls stay integers, and there is a
// puzzle behind every figure) and is right at small n: the only value for
// n = 1, the middle one for odd n, the lower middle one for even n.
// (stat.LinInterp gives 1.5 as the median of 1, 2, 3.)
//
// Censoring. A unit stopped by a timeout or a call limit is never dropped:
// it is counted under its status, listed in hard.csv, and enters the time
// and call statistics at the value it had reached, which is a lower bound
// of its true value. A statistic is marked as a bound (Estimate.Bound;
// "≥" or "≤" in the human outputs) when it would change if every stopped
// unit had gone on forever; it is computed again with those units at +Inf
// to decide. So a mean or a max is a lower bound as soon as one unit was
// stopped, and a quantile only when too few finished units lie at or
// below it: typically when more than a share 1-q of the units were
// stopped, but also when a stopped unit lies below it. Puzzles per second
// (measured units over the sum of their times, i.e. per core) is then an
// upper bound. The no-guess share counts units solved with no guess among
// the measured units; it is a lower bound only if a stopped unit had not
// guessed yet.
//
// Hard puzzles. A unit is hard for its strategy, and is a row of
// hard.csv, when its calls are above the strategy's p99 of calls (its top
// 1%) or a limit stopped it. The cross-strategy list holds the puzzles
// hard for two strategies or more, by how many, then by the geometric
// mean, over every strategy that measured the puzzle, of its calls as a
// multiple of that strategy's median (calls, not time: they do not
// depend on the machine), then by corpus and id.
//
// Memory. Results keeps each strategy's rows in columns (Series), with
// corpus, id and line once per puzzle, times and counters in 16 or 32 bits
// (exact: the rare larger values sit in a side table): 15 to 21 bytes a
// row. Messages and solutions are not kept.
package report
