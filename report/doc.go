// Package report reads and writes results.csv and turns a run's rows into
// summaries and charts.
//
// Data flow:
//  1. The pipeline writes one Row per (puzzle, solver) with a Writer, in
//     (corpus, id, solver) order, flushing as it goes.
//  2. A Reader reads results.csv back, by column name, so that a finished,
//     interrupted, resumed or merged run is read the same way.
//  3. LoadResults holds a run's rows as numbers (Results); Summarize
//     computes a Summary from them, and its Write methods render it:
//     summary.md, summary.json, summary.bench (Go benchmark format, for
//     benchstat), hard.csv and a text table for the terminal.
//     WriteSummaryFiles writes the four files into a run directory.
//  4. Two runs, loaded with LoadRun (a run directory or a results.csv,
//     with run.json when it is beside it), are compared by Compare
//     (`batch compare`): counters unit by unit on (corpus, id), times as
//     ratios NEW/OLD of medians and totals; see Comparison for how
//     stopped units enter. RankPuzzle places one puzzle in each strategy
//     of a run with Summarize's ranks and medians, and PuzzleShow renders
//     what `batch show` prints about it.
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
// Memory. A report holds a run's rows, not its text: Results keeps each
// strategy's rows in columns (Series), with corpus, id and line once per
// puzzle, times and counters in 16 or 32 bits (exact: the rare larger
// values sit in a side table), no solution and no message: 15 to 21
// bytes a row, about 30 MB for 1.5 million rows. Summaries sort a copy of
// one strategy's values at a time and keep only what they list; the
// ranks of units listed after the per-strategy pass (hard for several
// strategies, highlighted, `batch show`) are counted again then. Charts
// keep per strategy and measure only what they draw (counts, histogram
// bins, the ECDF thinned to 300 quantiles, the box, the hardest and the
// highlighted rows), and scatters join the strategies again by puzzle
// while drawing. Nothing is thinned on a scatter: every finished pair is
// drawn, rasterised into one image on PNG charts (a disc blended per
// point, where a glyph drawn through gonum/plot costs about 1 kB of
// garbage a point); censored marks that fall on the same spot (a fifth
// of a pixel) are drawn once, their counts in the legend are of every
// puzzle. `batch report` thus stays under 100 MB for 1.5 million rows.
//
// results.csv has the columns of DESIGN.md in their order, then `corpus`:
// the corpus file as given on the command line. Ids restart at 0 in each
// corpus file of a run, so (corpus, id) names a puzzle; a run over a
// single file has the same corpus on every row. Error messages are kept
// on one line (line breaks become spaces) so that every row is one line.
package report
