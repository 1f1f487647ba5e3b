// Package rundir is everything about a run directory, and nothing else:
// the rows file results.csv (Row, Header, Writer, Reader), the provenance
// file run.json (Manifest), creating, resuming and locking a directory (Dir),
// merging shard directories (Merge), the shard and the job that a
// scheduler gives a process (AutoShard for -shard auto, ThisJob for
// run.json), the names of the files a run directory holds, and where
// a run directory sits (Locate: its results root and its name in it). The
// pipeline writes into a Dir; the report and the command read through
// this package. It imports neither.
//
// A run directory, results/<run-id>/ (the UTC start time), holds:
//
//	results.csv    one row per (puzzle, strategy), in (corpus, id, strategy) order;
//	               results.csv.gz instead once the run is finished and reported
//	               (Compress); every reader opens the rows through OpenRows
//	run.json       settings, corpora and one segment per invocation that wrote rows
//	.lock          held (flock) by the process that writes the directory
//	stream-N       the bytes read of corpus N when it is a stream (standard
//	               input, a pipe, a FIFO), so that -resume can read them again
//	summary.md, summary.json, summary.bench, hard.csv, index.html, charts/
//	               the report, rebuilt from results.csv alone by `batch report`
//
// results.csv has the columns of docs/DESIGN.md in their order, then `corpus`:
// the corpus file as given on the command line. Ids restart at 0 in each
// corpus file of a run, so (corpus, id) names a puzzle; a run over a
// single file has the same corpus on every row. Error messages are kept
// on one line (line breaks become spaces), so that every row is one line:
// `tail -f` shows progress, and a resume can cut a torn last line.
//
// A text field (solver, solution, error, corpus) that a spreadsheet
// would run as a formula (it starts with = + - @, a tab or a CR: the
// OWASP CSV-injection list) is written with a single quote in front, and
// the Reader takes it off, so a round trip is exact (EscapeFormula,
// UnescapeFormula; hard.csv follows the same rule). A lone "-" (standard
// input as a corpus) cannot be a formula and is left alone; other tools
// that read results.csv strip one leading quote from such fields.
//
// Rows are always written as a complete prefix of the run's order (the
// pipeline's writer sees to it), so Resume can skip the units already
// there and append the others, and the file stays in order.
//
// The guarantees, and how they are kept:
//   - One process at a time: Create, Resume and Merge take an flock on
//     .lock (the kernel drops it when the process dies, however it dies);
//     a second one fails at once with the holder's pid (ErrLocked).
//   - Creation is atomic for a kill -9 at any instant: the lock, then
//     run.json written whole (a temporary file renamed), then results.csv
//     and its header. Before run.json the directory holds nothing Create
//     would refuse; after it, Resume makes a missing or headerless
//     results.csv again. Create refuses a directory that holds a run
//     (ErrExists) or any other file (ErrNotEmpty: `-out .` in a home
//     directory), and leaves it as it found it.
//   - Create refuses a directory inside another run's (ErrInsideRun,
//     naming that run): its rows would be files of the outer run.
//   - A merge is atomic: Merge builds the run in a hidden directory
//     beside its output (MergeTemp), records it finished and renames it
//     into place, so that the output is either not there or the whole
//     merged run, however the process ends; the next merge into the same
//     output removes what a killed one left and builds the run again.
//     Shards must be finished and run with the same settings (-runs
//     included). A merged run is not resumed (ErrMerged): its units
//     belong to the shards, which are resumed and merged again.
//   - The rows run.json credits (the run's, and the sum of its
//     segments') are the rows results.csv holds: a process that could
//     not write all its rows credits those that reached the file.
//   - run.json is validated like the flags (Manifest.Validate, with the
//     flags' parsers), so a damaged one is refused naming its field. The
//     flags of a sweep are a Request, whose Settings are checked by the
//     same parsers; a run's directory is CreateNew's (results/<run id>
//     unless named), or the one Resume opens (ResumeTarget:
//     results/latest, or a newer run a killed process left running), and
//     Settings.CheckResume refuses a flag given again that disagrees.
//   - Resume checks the corpora (a CorpusCheck: size and SHA-256 against
//     run.json) before it reads a row, then streams results.csv: a row
//     that is not a unit of the run (corpus, strategy, or id outside the
//     corpus's puzzles) or a unit that appears twice is refused with its
//     line; the units done are a bitmap of one bit per unit of the run, so
//     memory does not grow with the rows, nor with a forged id.
//   - Provenance: each process that writes rows is a Segment of run.json,
//     begun (status running) before its first row and closed with its
//     end, rows and status; a segment left running by a killed process is
//     closed by the next Resume as killed, ending at the last write into
//     the directory. A run is finished only when the process that ends it
//     issued every unit and wrote every row, and read every corpus to its
//     end; failed when rows could not be written or a corpus could not be
//     read (CorpusInfo.Error); interrupted after a Ctrl-C. On a full disk,
//     run.json is overwritten in place when the temporary copy cannot be
//     written, so that the run is recorded failed, not left running. A
//     re-timing that could not be written into results.csv leaves the run
//     finished (every row is there, with its sweep time) and its segment
//     says why (error, timing.retime_error).
//   - Retention: Compress gzips the rows of a finished run only, under
//     its lock (results.csv.gz written aside, synced, renamed, then
//     results.csv removed: the rows are whole in one of the two at any
//     instant, and RowsPath prefers the plain file when both are there).
//     An interrupted or failed run stays plain, so `tail -f` and -resume
//     work on it; Resume of a gzipped run makes its rows plain again.
//     Prune removes the rows (and stream copies) of all but the newest N
//     finished runs under a root, each under its lock, and keeps run.json,
//     the summary, hard.csv, the page and its charts, from which the
//     history of runs is built; it never touches an unfinished run, a run
//     in use or the target of latest.
//   - Wall time: a run's is the sum of its segments' (the time its
//     processes ran); a merged run's is the span from the first shard's
//     start to the last one's end. Each segment records its process's CPU
//     time (cpu_ns), and the run their sum.
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
	ChartsPage      = "charts.html"  // the charts full size with their captions, beside the page
	PuzzlesPage     = "puzzles.html" // an entry for each puzzle the page names, beside it
	ChartsDir       = "charts"
	// ComparePreviousDir holds the comparison of the run with the
	// previous night of its series (its page and charts), which the
	// report writes when the run has a previous night.
	ComparePreviousDir = "compare-previous"
	LatestLink         = "latest" // in the results root: the newest run
	DefaultRoot        = "results"
)
