package rundir

import "sudokubatch/solvers"

// Header is the first line of results.csv: the columns of docs/DESIGN.md in
// their order, then `corpus`, the corpus file the puzzle comes from (ids
// restart for each corpus file of a run, so (corpus, id) names a puzzle),
// then the timing columns (see Row): runs, ns_min, ns_median, retimed,
// unstable, and self_ns, an external solver's own time. Files written before a column was added lack it and are
// still read (Reader), and a resumed run appends rows with the columns
// its file has.
var Header = []string{"id", "line", "solver", "status", "ns", "calls", "guesses", "backtracks",
	"filled", "clues", "solutions", "seed", "solution", "error", "corpus",
	"runs", "ns_min", "ns_median", "retimed", "unstable", "self_ns"}

// baseColumns is the number of columns every results.csv has had since
// the corpus column: a file with fewer, or with only some of the later
// ones, is read by name all the same.
const baseColumns = 15

// selfColumn is the index of self_ns in Header.
const selfColumn = 20

// The values of the retimed column: why and with what outcome a unit was
// timed again, alone, at the end of its run.
const (
	// RetimedSlow: an outlier (far slower than its calls predict for its
	// strategy) that stayed one when timed alone: a confirmed slow unit.
	RetimedSlow = "slow"
	// RetimedNoise: an outlier, or one of its strategy's slowest units,
	// that timed alone took less than half its sweep time: the sweep
	// time was noise (preemption, a collection, a cold cache).
	RetimedNoise = "noise"
	// RetimedConfirmed: one of its strategy's slowest units whose time
	// the re-timing confirmed (within a factor of two).
	RetimedConfirmed = "confirmed"
	// RetimedCache: re-timed, and the re-timing not taken: the strategy
	// (an external solver) answered repeated requests several times
	// faster than first ones, as a cache does. The row keeps its first
	// request's time, which is not confirmed.
	RetimedCache = "cache"
)

// Row is one (puzzle, solver) result: one line of results.csv.
type Row struct {
	ID         int            // 0-based puzzle index within its corpus file
	Line       int            // 1-based line number in the corpus file
	Solver     string         // strategy name
	Status     solvers.Status // outcome
	NS         int64          // wall time of Solve in nanoseconds (monotonic clock)
	Calls      uint64         // strategy counters, see solvers
	Guesses    uint64
	Backtracks uint64
	Filled     int    // cells filled when the solver stopped
	Clues      int    // givens of the puzzle
	Solutions  int    // -unique: 0, 1 or 2 (two or more); -1 when not counted
	Seed       uint64 // the seed passed to the solver
	Solution   string // the solved grid in the input alphabet, empty unless solved
	Error      string // the error message, if any
	Corpus     string // the corpus file as given on the command line

	// Timing (0 and "" in files written before these columns).
	Runs     int    // timed runs of Solve in the sweep: cheap units are repeated
	NSMin    int64  // the fastest of those runs
	NSMedian int64  // their median (the lower middle one of an even count)
	Retimed  string // "", or RetimedSlow, RetimedNoise, RetimedConfirmed, RetimedCache
	Unstable bool   // the runs disagreed on status or counters
	// SelfNS is the time an external solver reported for the unit (the
	// median of its reports over the unit's runs; docs/PROTOCOL.md), 0
	// when it reported none and for built-in strategies: the column
	// self_ns, empty then.
	SelfNS int64
}

// Confirmed reports whether the row's time was measured more than once:
// repeated in the sweep or timed again at the end of the run. Lists that
// rank units by time rank confirmed times only.
func (r *Row) Confirmed() bool {
	return r.Runs > 1 || r.Retimed != "" && r.Retimed != RetimedCache
}

// Key identifies the (puzzle, solver) pair of a row.
type Key struct {
	Corpus string
	ID     int
	Solver string
}

// Key returns the row's (corpus, id, solver).
func (r *Row) Key() Key { return Key{r.Corpus, r.ID, r.Solver} }
