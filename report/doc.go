// Package report turns the rows of a run into what a user reads: the
// summary (summary.md, summary.json, summary.bench, hard.csv and a table
// for the terminal), the HTML page, the comparison of two runs and the
// report on one puzzle. The charts are drawn by report/chart from the
// same model.
//
// Data flow:
//  1. LoadRun reads a run directory (or a bare results.csv, or the
//     results.csv.gz of a finished run: rundir.OpenRows) through
//     rundir's Reader into the one model of a run, Run: its rows as
//     numbers (Results, one Series per strategy) and its run.json. The
//     rows are checked as they are read (see Validation).
//  2. Summarize computes a Summary from Results; its Write methods render
//     it, and WriteSummaryFiles writes the four files into a run
//     directory. WritePage writes index.html from the Results, the
//     Summary and the charts that report/chart drew: first the verdict
//     and the run's facts (html_top.go), the headline, the highlighted
//     puzzles' entries; and puzzles.html beside it, with an entry for
//     every puzzle the page names (Summary.NamedPuzzles: its grid, ranks,
//     `batch show` command and, from PageOptions.PuzzleHistory, its
//     earlier nights), which the page links. When the run holds variants.json (the
//     hard-or-unlucky analysis, rundir.Variants), Summary.AttachVariants
//     gives the listed units their verdicts, which the summary files and
//     the page show beside the hard lists, and the page's entry of each
//     analysed puzzle shows the figures and strip charts (variants.go).
//  3. Compare diffs two Runs (`batch compare`): counters unit by unit on
//     (corpus, id), times as ratios NEW/OLD of medians and totals; see
//     Comparison for how stopped units enter. RankPuzzle places one
//     puzzle in each strategy of a Run with Summarize's ranks and
//     medians, and PuzzleShow renders what `batch show` prints about it.
//
// Validation. A unit (corpus, id, strategy) is counted once or the run is
// refused: ReadResults stops at the first line it cannot report, with an
// error naming the file and the line that wraps rundir.ErrBadRow. That is
// a line that is not a row (a header line in the middle says the file is
// several results.csv concatenated), an id below 0 or an id or line
// beyond the 32 bits Results keeps, and a second row of a unit already
// read (a *DuplicateError, naming the line of the first row too). A
// duplicate is refused rather than reported and skipped: no writer of
// this tool makes one (the pipeline writes each unit once, -resume skips
// the units done, merge refuses a unit in two shards), so it comes from a
// file assembled by hand or by another tool, the two rows may disagree,
// and a report that kept either would present as whole a run that never
// happened; the error says how to join shards instead. Finding one costs
// a bit per puzzle and strategy while reading. With run.json, an id of a
// corpus that run.json records as read to its end must also be below the
// corpus's count of puzzles. LoadRun refuses a results.csv or a run.json
// that is not a regular file (a FIFO, a device) without reading it.
//
// Cancellation. LoadRun, LoadResults and ReadResults (every 4096 rows),
// SummarizeContext (between strategies and steps) and Compare (between
// strategies and every 4096 units) return the context's error soon after
// it is canceled, as report/chart's Write does between charts.
//
// Summary statistics. A unit (one puzzle, one strategy) is measured when
// its search ran: every status but invalid, unsupported and error, which
// are counted but have no time. Time and call statistics are over the
// measured units. Quantiles are the tool's one estimator
// (internal/quantile, whose doc says why it was chosen; gonum's
// stat.Empirical) on the sorted values: the q-quantile is the smallest
// value v with at least q*n values <= v. It is always the value of an
// actual unit (integer ns and calls stay integers, and there is a puzzle
// behind every figure): the only value for n = 1, the middle one for odd
// n, the lower middle one for even n. Compare, the charts, trend and the
// variants read their quantiles through the same package. Robust figures
// lead: median, p90, p99 and a 10% trimmed mean (the middle 80%), then
// the mean and the max; each time figure has a 95% interval
// (robust.go): distribution-free from order statistics for the
// quantiles (binomial ranks, so its ends are values of units), Yuen's t
// for the trimmed mean, t·s/√n for the mean.
//
// Timing columns. A run written since the timing columns says how each
// time was measured (Entry.Timing): repeated in the sweep, re-timed
// alone at the end (slow, noise or confirmed), unstable. Each strategy
// has one ranking, by calls and by time (StrategySummary.ByCalls and
// ByTime, with every unit's ranks in RankedUnit), that summary.md,
// summary.json, hard.csv, the page and the charts' labels all use: every
// measured unit ranks, a stopped one at the value where its limit
// stopped it (shown ≥), and the time max is the max of the same values,
// so max >= p99 >= p90 >= median. The re-timing confirms the slowest
// first; a listed time it did not reach (its allowance spent) is marked
// † (RankedUnit.Unconfirmed), not dropped. A run without the columns
// says once that its times are unconfirmed. The summary's noise figure
// counts them per strategy.
//
// Paired comparison (compare.go, paired.go). Compare joins two runs puzzle
// by puzzle; per strategy it gives the ratio of median times NEW/OLD with
// a percentile bootstrap interval over timing blocks (a shard's puzzles
// 256 at a time, timed together; see medianRatioCI; 2000 resamples, a
// fixed seed) and the Wilcoxon signed-rank test of the log ratios of
// times and of calls; a change is called only when the interval lies
// beyond CompareOptions.Noise (×1.10 by default: two runs of the same
// build differ by more than the interval's width on a shared machine).
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
// Time basis (basis.go). Each strategy has one time, decided as its
// rows are read (Series.Basis) and read by every output through
// Series.NS and At: an external solver's own time (results.csv's
// self_ns) when every unit it answered (solved, unsolvable, stuck,
// wrong) reported one, else the round trip the tool measured (ns, less
// the null round trip); a unit with no time of its own (a timeout, an
// error) keeps its round trip. Built-in strategies report none. The
// summary states it per strategy (StrategySummary.TimeBasis, External),
// the page and the terminal for each external strategy; Compare compares
// a strategy whose bases differ between OLD and NEW by the round trip of
// both (Series.RoundTrip), with a warning.
//
// Finished units. Only solved and unsolvable units finished: the charts
// draw stuck and wrong units as having given up and timeouts and limits
// as censored, never as finished (report/chart).
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
// corpus, id and line once per puzzle (32 bits each: any number of
// corpus files), times and counters in 16 or 32 bits (exact: the rare
// larger values sit in a side table): 15 to 21 bytes a row, and 16 a
// puzzle. Messages and solutions are not kept.
package report
