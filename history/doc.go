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
//     removed stays in the index, marked gone.
//  2. Index.All groups every night into Series by Signature (corpora by
//     SHA-256, selection, -timeout, -max-calls, -unique, -runs, CPU model
//     and count, workers); Index.Selected does it for the runs named on
//     the command line, keeping the series of the newest of them and
//     skipping the others as "other signature". Runs that are no night
//     are Skipped, with the reason.
//  3. Evaluate runs the detectors over a series (see docs/TREND.md):
//     detectCounters (detect_counters.go) compares each strategy's
//     counters with the previous night, unit by unit; gateAt
//     (detect_gate.go) pairs the newest night, puzzle by puzzle, with
//     the per-puzzle median of its baseline nights through
//     report.Compare and divides the ratios by the machine's common
//     factor; findSteps (steps.go) finds the change points of the
//     nightly medians from the index alone. The rows of the few nights
//     compared are read through report.LoadRun (rows.go), once each.
//     Acknowledgements (annotations.go, root/annotations.json) silence
//     a night's alarms and restart a strategy's baseline. The gate's
//     verdicts are kept in the index (Options.Memo).
//  4. The caller (cmd/batch's trend) prints each series, its verdicts
//     and alarms, writes trend.md, trend.json, the charts, the history
//     page and a bisect script per alarm, and exits 1 on a new alarm
//     that no annotation acknowledges.
//  5. WriteFiles (page.go) writes trend's files in the results root from
//     the history and one Report per series: trend.md, trend.json
//     (TrendFile, versioned, documented field by field), the charts
//     trend/<series>-<measure>.png and .svg (median with its 95% band,
//     p99, total calls, timeouts; steps and alarms marked; a strategy's
//     color fixed by the registry) and the history page index.html
//     (verdicts, alarms, charts, every night linking its own page;
//     static, escaped, readable from file://).
//  6. For a run's page, Index.EarlierNights gives the last nights of the
//     run's series before it, and PuzzleRows reads, of a night's rows,
//     only the lines of the puzzles the page names (cmd/batch's
//     puzzleHistory).
//
// Nothing here is safe for concurrent use; two processes updating one
// index at once each write a whole index, the last one wins.
package history
