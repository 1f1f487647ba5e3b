// Package report reads and writes results.csv and turns a run's rows into
// summaries and charts.
//
// Data flow:
//  1. The pipeline writes one Row per (puzzle, solver) with a Writer, in
//     (corpus, id, solver) order, flushing as it goes.
//  2. A Reader reads results.csv back, by column name, so that a finished,
//     interrupted, resumed or merged run is read the same way.
//  3. LoadResults holds a run's rows as numbers (Results), and
//     OpenStream reads them by passes without holding them (Stream, what
//     `batch report` uses; see Memory); Summarize (Stream.Summarize)
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
// Memory. `batch report` does not hold a run's rows: a Stream
// (OpenStream) reads results.csv once, copying the numbers of each row
// (strategy, status, corpus, id, line, time, calls, guesses: a few
// varints, about 15 bytes) to a spill file beside it, removed at the
// end, and every figure is then computed by passes over the spill, each
// keeping per strategy only a fixed amount plus what it lists:
//  1. counts, sums, maxima, the top lists, and histograms of times and
//     calls (finished and stopped units apart) in log-linear buckets
//     (exact below 256, 1/128 of a power of two above);
//  2. every quantile (median, p90, p99, the box plot's quartiles, the
//     ECDF's 300 points) is the value of a known rank, so of a known
//     bucket: the next pass collects that bucket's values (4096 at
//     most) and sorts them, or splits it in 256 and counts again, until
//     the value is exact (usually one or two passes);
//  3. the units above the p99 of calls or stopped (hard.csv) and, puzzle
//     by puzzle (a puzzle's rows are adjacent), those hard for several
//     strategies; the histogram bins, the boxes' whiskers and outliers;
//  4. one pass counts, for every listed unit, the units above it (its
//     ranks) and, for the ECDF and the highlighted puzzles, the finished
//     units at or below them; another fills the page's puzzle table;
//  5. each scatter joins a strategy with the baseline puzzle by puzzle
//     while it is drawn (twice: the legend's placement, then the dots,
//     rasterised into one image on PNG charts, where a glyph drawn
//     through gonum/plot costs about 1 kB of garbage a point); censored
//     marks that fall on the same spot (a fifth of a pixel) are drawn
//     once, their counts in the legend are of every puzzle.
//
// Every figure is exactly the one Summarize and WriteCharts compute from
// a Results (the tests compare the outputs byte for byte), and the
// memory of `batch report` is flat in the number of rows (about 30 MB
// for 50 thousand rows as for 1.5 million). Outputs that list units grow
// with what they list: hard.csv and the box plots' outliers (finished
// units beyond the whiskers). A results.csv whose rows are not in run
// order (edited by hand) is loaded in memory instead: Results keeps each
// strategy's rows in columns (Series), with corpus, id and line once per
// puzzle, times and counters in 16 or 32 bits (exact: the rare larger
// values sit in a side table), 15 to 21 bytes a row; `batch compare` and
// `batch show` read runs that way.
//
// results.csv has the columns of DESIGN.md in their order, then `corpus`:
// the corpus file as given on the command line. Ids restart at 0 in each
// corpus file of a run, so (corpus, id) names a puzzle; a run over a
// single file has the same corpus on every row. Error messages are kept
// on one line (line breaks become spaces) so that every row is one line.
package report
