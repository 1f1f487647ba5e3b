// Package history is the history of nightly runs: the nights of a results
// root, read once each into an index, and grouped into series of nights
// that may be compared. It reads a run's run.json and summary.json only,
// never its results.csv.
//
// The data flow:
//
//  1. Update lists the run directories of the results root and reads the
//     index file, root/history.json (IndexFile, versioned). A run not in
//     the index, or whose run.json or summary.json changed since (size or
//     modification time, Stamp), is read: a finished run with a summary of
//     its end is a Night (its date, revision, signature and per strategy
//     the median, p90 and p99 time with their 95% intervals, status
//     counts, no-guess rate, total calls and guesses); any other run is
//     an entry with the reason it is none. The index is written back
//     atomically (a temporary file renamed) when anything changed. A
//     missing, damaged or other-version index is rebuilt from the run
//     directories, and Refresh says so. A night whose directory was
//     removed by hand is dropped from the index (Refresh.Dropped names it
//     once); a pruned night keeps its directory and its entry.
//  2. Index.All groups every night into Series by Signature (corpora by
//     SHA-256, selection, -timeout, -max-calls, -unique, -runs, CPU model
//     and count, workers); Index.Selected does it for the runs named on
//     the command line, keeping the series of the newest of them and
//     skipping the others as "other signature". Runs that are no night
//     are Skipped, with the reason.
//  3. Evaluate (evaluate.go, its steps) runs the detectors over a series
//     (see docs/TREND.md), each strategy's verdict and time alarm in
//     evaluate_strategy.go, the other alarms in evaluate_alarms.go, the
//     gates of the nights and their memo in evaluate_gates.go, the table
//     of nights in evaluate_nights.go:
//     detectCounters (detect_counters.go) compares each strategy's
//     counters with the newest earlier night that has its rows, unit by
//     unit; gateAt (detect_gate.go) pairs the newest night, puzzle by
//     puzzle, with the per-puzzle median of its baseline nights (nights
//     as busy as it, none the gate withheld a verdict on: baselineOf)
//     through report.Compare and divides the ratios by the machine's
//     common factor; findSteps (steps.go) finds the change points of the
//     nightly medians from the index alone, busy and quiet nights apart;
//     a strategy of the last nights missing from the newest is an alarm.
//     The rows of the few nights compared are read through
//     report.LoadRun (rows.go), once each. Acknowledgements
//     (annotations.go, root/annotations.json) silence a night's alarms
//     and restart a strategy's baseline. The gate's verdicts are kept in
//     the index (Options.Memo), per settings.
//  4. Trend (trendrun.go) does 1-3 for batch trend with the record of
//     what earlier trends told (delivery.go, root/delivered.json): an
//     alarm is new until a trend has delivered it, and the nights since
//     the last trend are examined for alarms of their own; it writes a
//     bisect script per new alarm (bisect.go). WriteText (output_text.go)
//     prints the history within 80 columns; Outcome.WriteFiles keeps the
//     verdicts and writes the files (5), Outcome.Record the delivery,
//     Outcome.Exit says how trend ends. The files people and trends
//     change (annotations.json, delivered.json) are read, changed and
//     written under the root's lock (lock.go).
//  5. WriteFiles (page.go) writes trend's files in the results root from
//     the history and one Report per series: trend.md, trend.json
//     (TrendFile, versioned, documented field by field), the charts
//     trend/<series>-<measure>.png and .svg (median with its 95% band,
//     p99, total calls, timeouts; steps and alarms marked; a strategy's
//     color fixed by the registry) and the history page index.html
//     (verdicts, alarms, charts, every night linking its own page;
//     static, escaped, readable from file://).
//  6. For a run's page (publish.Report), in the run's results root
//     (rundir.Locate: results/latest is the run it points at):
//     TrendOfRun (runtrend.go) evaluates the series cut after the run's
//     night, for each strategy's verdict of it; PuzzleHistory
//     (puzzlehistory.go) gives the puzzles the page names on the last
//     nights of the run's series before it (Index.EarlierNights),
//     reading of each night's rows only the lines of those puzzles
//     (PuzzleRows); ComparePrevious (previous.go) compares the run with
//     the newest earlier night of its series that has its rows.
//
// Nothing here is safe for concurrent use by goroutines; two processes
// updating one index at once each write a whole index, the last one wins
// (it is rebuilt from the run directories), while annotations.json and
// delivered.json are changed under a lock.
package history
