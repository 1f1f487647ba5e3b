package rundir

import "sudokubatch/solvers"

// Header is the first line of results.csv: the columns of DESIGN.md in
// their order, then `corpus`, the corpus file the puzzle comes from (ids
// restart for each corpus file of a run, so (corpus, id) names a puzzle).
var Header = []string{"id", "line", "solver", "status", "ns", "calls", "guesses", "backtracks",
	"filled", "clues", "solutions", "seed", "solution", "error", "corpus"}

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
}

// Key identifies the (puzzle, solver) pair of a row.
type Key struct {
	Corpus string
	ID     int
	Solver string
}

// Key returns the row's (corpus, id, solver).
func (r *Row) Key() Key { return Key{r.Corpus, r.ID, r.Solver} }
