// Package publish makes what a run directory shows its reader: the
// report of a run (Report: the summary files, the charts, the page, the
// comparison with the previous night, the history's verdict, the
// hard-or-unlucky analysis) and the page of a comparison of two runs
// (Compare, WriteComparePage). It sits above the packages it wires
// (report, report/chart, history, variants, rundir), none of which may
// import another's caller: report cannot import history, which imports
// report, so the history's verdicts reach the run's page here. The
// command (cmd/batch) parses the flags, prints what Report returns and
// what its Trace is told, and maps its errors to exit codes.
//
// Report, step by step:
//
//  1. report.LoadRun reads the run's rows (results.csv or its gzip)
//     and run.json; a run that cannot be read is an *InputError.
//  2. The highlighted puzzles are resolved (the first that says wins:
//     Options.Highlight when given, the run's own in run.json, else
//     ClassicID on the default 17-clue corpus, by its SHA-256), and
//     report.SummarizeContext computes the summary.
//  3. With Options.Variants, the hard-or-unlucky analysis: each
//     strategy's VariantsTop hardest puzzles by calls (the summary's
//     lists) with its corpus medians, their grids read from the run's
//     corpora, the bound of the cost told to Trace.VariantsBound before
//     the first solve, variants.Analyze, variants.json written. Then the
//     run's variants.json, when it is of the run's rows as they are
//     now (variants.Stale), is attached to the summary.
//  4. report.WriteSummaryFiles writes summary.md, summary.json,
//     summary.bench and hard.csv; chart.Write draws the charts, and
//     chart.StripCharts the strips of the analysis.
//  5. The previous night: history.ComparePrevious finds the newest
//     earlier night of the run's series that has its rows and compares;
//     its page and charts go to compare-previous/ (WriteComparePage),
//     linked from the run's page with the one-line verdict. No night to
//     compare with removes an earlier report's comparison.
//  6. The history, when the run's results root keeps one
//     (rundir.Locate finds the root, through results/latest too):
//     history.TrendOfRun gives each strategy's verdict of the run's
//     night, history.PuzzleHistory the named puzzles on earlier nights.
//  7. report.WritePage writes index.html and its puzzles and charts
//     pages.
//
// What cannot be had in steps 3 (an unreadable or stale variants.json),
// 4 (a chart), 5 and 6 is a note (Trace.Note), never a failed report.
// When ctx is canceled Report stops between steps (and within them,
// between rows, strategies and charts) and returns ctx.Err(): the files
// written by then are whole, the report may lack some; a canceled
// analysis writes nothing and says so (*InterruptedError).
package publish
