// Package chart draws the charts of a run with gonum/plot: per strategy,
// histograms of log time and log calls with the hardest puzzles labelled;
// all strategies as ECDF curves and box plots of time; each strategy's
// time against the baseline's, puzzle by puzzle (scatter, log-log).
//
// Data flow (Write):
//  1. newChartSet prepares what the charts share, from the
//     report.Results and the report's Summary of them (Options.Summary,
//     or one Write computes): per strategy and measure a column built
//     from the summary's counts by status and the report's sorted values
//     (report.SortedTimes, SortedCalls, one at a time; the charts do not
//     sort or classify the rows again:
//     counts, range, histogram bins, the thinned ECDF curve, the box
//     plot, the highlighted rows), the labels of the hardest from the
//     summary's ranking (ByTime, ByCalls: the lists summary.md, hard.csv
//     and the page show), the time bins shared by every strategy, and
//     the baseline's time by puzzle for the scatters.
//  2. jobs lists the charts in page order, each with its title, caption
//     and a function that builds the figure (a Figure: the plot, its
//     legend, its size). A strategy that finished nothing has no chart
//     of its own (the ECDF and the box plot say so).
//  3. The jobs run concurrently (GOMAXPROCS at a time); each renders its
//     PNG (and SVG on request), then its small PNG (Figure.Shrink: for a
//     screen under 600 px), and writes each atomically. A panic inside
//     gonum/plot becomes an error for that chart alone.
//
// Every chart of the tool, the history's included (package history), is
// drawn on the base of figure.go, legend.go, palette.go and ticks.go: a
// Figure's legend is a band below its plot, outside the data, so that
// it covers no point, line or label; its labels are drawn after
// everything else (AddLabels); a strategy's color is StrategyColor's, by
// its name, on every chart; log axes are labelled 1k, 10k, 1M (never
// 1e3) and 1µs, 10ms; a scatter of a quantity against itself is square,
// on one range for both axes. The tests draw every chart on a recording
// canvas (internal/vgrec) and check that no text overlaps another, the
// legend or what is drawn after it.
//
// Only finished units (solved, or proved unsolvable) count as finished
// (see ending): an ECDF curve rises with them alone and ends at the
// share of its strategy's units finished. A box summarises every
// measured unit at its value, a stopped one at the value where it was
// stopped, so that its median is the summary table's. The other units are drawn as what they are, never dropped and
// never as finished; captions and legends give their counts and shares:
//   - units that gave up (stuck, or wrong: a bug) stopped by themselves
//     without a valid answer; their time is exact but no lower bound on a
//     solving time (singles, stuck on every 17-clue puzzle, would never
//     solve them): a bold cross where an ECDF curve ends (alone at 0% when
//     the strategy finished nothing) and beside a box, a pale segment
//     hatched in the strategy's color on a histogram bar, a × or + on the
//     scatters;
//   - censored units (timeout, limit) were stopped by a limit, their value
//     a lower bound: a filled triangle where an ECDF curve stops or beside
//     a box (where the first was stopped),
//     a segment hatched in black on a histogram bar, an open triangle on
//     the scatters.
//
// gonum/plot panics on a value <= 0 on a log axis: times of 0 ns are
// drawn at 1 ns and 0 calls at 1 call (timeFloor, callsFloor), and the
// captions say how many. Histograms of time share their bin edges across
// strategies, so that they read on the same axis; histograms of calls
// count different things in each strategy and have their own range, on
// bins aligned to the same fractions of a decade. A scatter of more than
// svgMaxPoints puzzles is written as PNG only (an SVG costs about 120
// bytes a point), and its report.Chart says so in its Note, which the
// command prints and the page shows. Write stops drawing when its
// context is canceled (between charts and between the steps of one).
// Highlighted puzzles are all drawn, and at most maxLabels (40) of them
// are labelled on a chart: an id highlighted in a run over thousands of
// corpus files names a puzzle in each.
//
// The package names no strategy: the baseline of the scatters is
// Options.Baseline (the registry's, from the command).
package chart
