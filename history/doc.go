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
//  3. The caller (cmd/batch's trend) prints each series: its key, its
//     nights, and the figures of its newest night.
//  4. Not yet built: the detectors (counters, the nightly time gate
//     against a baseline of the previous nights, change points), which
//     take a Series and return its alarms; trend.md, trend.json and the
//     charts; the exit code 1 on an alarm. They belong in this package,
//     one file each (detect_counters.go, detect_gate.go, steps.go), fed
//     by History.Series. The index holds per-night figures, not
//     per-puzzle rows: the counters detector (the two newest nights of a
//     series) and the time gate (the newest night and its baseline of N
//     nights, paired per puzzle) read the rows of those few run
//     directories only, through rundir's reader (results.csv gzipped or
//     not), never the whole series'. Night.Seed tells which nights a
//     randomised strategy's counters may be compared across; Night.Run
//     names the directory of each night's page for the history page.
//  5. WriteFiles writes trend's files in the results root from the history
//     and one Report per series: trend.md, trend.json (TrendFile, versioned,
//     documented field by field), the charts trend/<series>-<measure>.png
//     and .svg (median with its 95% band, p99, total calls, timeouts; steps
//     and alarms marked; a strategy's color fixed by the registry) and the
//     history page index.html (verdicts, alarms, charts, every night
//     linking its own page; static, escaped, readable from file://).
//
// Nothing here is safe for concurrent use; two processes updating one
// index at once each write a whole index, the last one wins.
package history
