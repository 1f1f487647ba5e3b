// Package rundir is everything about a run directory, and nothing else:
// the rows file results.csv (Row, Header, Writer, Reader), the provenance
// file run.json (Manifest), creating, resuming and locking a directory (Dir),
// merging shard directories (Merge), and the names of the files a run
// directory holds. The pipeline writes into a Dir; the report and the
// command read through this package. It imports neither.
//
// A run directory, results/<run-id>/ (the UTC start time), holds:
//
//	results.csv    one row per (puzzle, strategy), in (corpus, id, strategy) order
//	run.json       settings, corpora and one segment per invocation that wrote rows
//	.lock          held (flock) by the process that writes the directory
//	summary.md, summary.json, summary.bench, hard.csv, index.html, charts/
//	               the report, rebuilt from results.csv alone by `batch report`
//
// results.csv has the columns of DESIGN.md in their order, then `corpus`:
// the corpus file as given on the command line. Ids restart at 0 in each
// corpus file of a run, so (corpus, id) names a puzzle; a run over a
// single file has the same corpus on every row. Error messages are kept
// on one line (line breaks become spaces), so that every row is one line:
// `tail -f` shows progress, and a resume can cut a torn last line.
//
// Rows are always written as a complete prefix of the run's order (the
// pipeline's writer sees to it), so Resume can skip the units already
// there and append the others, and the file stays in order.
package rundir

// The files of a run directory.
const (
	ResultsFile     = "results.csv"
	ManifestFile    = "run.json"
	LockFile        = ".lock"
	SummaryMarkdown = "summary.md"
	SummaryJSON     = "summary.json"
	SummaryBench    = "summary.bench"
	HardCSV         = "hard.csv"
	PageFile        = "index.html"
	ChartsDir       = "charts"
	LatestLink      = "latest" // in the results root: the newest run
	DefaultRoot     = "results"
)
