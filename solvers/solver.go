package solvers

import (
	"context"
	"fmt"
	"time"
)

// Solver is one strategy. Implementations are pure: no globals and no
// shared mutable state, so one value may serve many goroutines at once.
type Solver interface {
	// Name is the stable id used in the CLI, the CSV and the charts.
	Name() string
	// Solve searches for the first solution of p within lim. It never
	// panics on a bad puzzle: conflicting givens give StatusInvalid, a
	// size the strategy does not handle gives StatusUnsupported.
	Solve(ctx context.Context, p Puzzle, lim Limits) Result
}

// Describer is implemented by strategies that can say in one line what
// they do and what their counters count (for `batch solvers`).
type Describer interface {
	Describe() string
}

// Limits bounds one Solve call. The solver checks them itself, cheaply:
// the call counter on every call, the clock and ctx every few thousand
// nodes, so no timer or context is made per unit.
type Limits struct {
	Deadline time.Time // zero: none
	MaxCalls uint64    // zero: none; otherwise at most this many calls are made
	Seed     uint64    // for randomized strategies
	ID       int       // the puzzle's id in its corpus, for strategies that name it (external solvers' requests)
	Corpus   int       // the index of the puzzle's corpus in the run: with ID, it names the unit (LateFault)
}

// Status is the outcome of one Solve.
type Status uint8

// The statuses, in the order the reports list them.
const (
	StatusNone        Status = iota // not a real outcome: the zero value
	StatusSolved                    // a solution was found (and, in the pipeline, checked)
	StatusUnsolvable                // the search space was exhausted: no solution
	StatusStuck                     // the strategy cannot go further (singles)
	StatusTimeout                   // Limits.Deadline passed, or ctx's deadline
	StatusLimit                     // Limits.MaxCalls reached
	StatusUnsupported               // the strategy does not handle this grid size
	StatusInvalid                   // the puzzle line or its givens are not valid
	StatusWrong                     // the claimed solution failed Check (a bug)
	StatusError                     // the solver failed (a panic, or ctx canceled)
)

var statusNames = [...]string{
	StatusNone:        "none",
	StatusSolved:      "solved",
	StatusUnsolvable:  "unsolvable",
	StatusStuck:       "stuck",
	StatusTimeout:     "timeout",
	StatusLimit:       "limit",
	StatusUnsupported: "unsupported",
	StatusInvalid:     "invalid",
	StatusWrong:       "wrong",
	StatusError:       "error",
}

// Statuses lists every real status in report order.
func Statuses() []Status {
	return []Status{StatusSolved, StatusUnsolvable, StatusStuck, StatusTimeout, StatusLimit,
		StatusUnsupported, StatusInvalid, StatusWrong, StatusError}
}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// ParseStatus returns the Status named s.
func ParseStatus(s string) (Status, error) {
	for i, name := range statusNames {
		if name == s && Status(i) != StatusNone {
			return Status(i), nil
		}
	}
	return StatusNone, fmt.Errorf("unknown status %q", s)
}

// Censored reports whether the search was stopped by a limit before it
// ended, so that its time and counters are lower bounds.
func (s Status) Censored() bool { return s == StatusTimeout || s == StatusLimit }

// Measured reports whether a unit of status s has a time and counters
// worth counting: its search ran, to the end or until a limit stopped it.
// Invalid and unsupported units were refused at once, an error's time (a
// panic, a canceled run) says nothing about the puzzle, and StatusNone is
// no outcome.
func (s Status) Measured() bool {
	switch s {
	case StatusNone, StatusInvalid, StatusUnsupported, StatusError:
		return false
	}
	return true
}

// Finished reports whether the search ran to a valid answer: solved, or
// proved unsolvable. Only finished units are a complete measurement of
// a strategy solving (or refuting) a puzzle.
func (s Status) Finished() bool { return s == StatusSolved || s == StatusUnsolvable }

// GaveUp reports whether the strategy stopped by itself without a valid
// answer: stuck, or wrong (the answer failed Check: a bug). Its time is
// exact, but no bound on a solving time. A measured unit is finished,
// gave up or censored: exactly one of the three.
func (s Status) GaveUp() bool { return s == StatusStuck || s == StatusWrong }

// Result is the outcome of one Solve with the strategy's counters. What
// Calls, Guesses and Backtracks count is strategy-specific and documented
// on each strategy; they are the counts reached so far when the search was
// stopped by a limit.
type Result struct {
	Status     Status
	Solution   Grid // set when Status is StatusSolved
	Calls      uint64
	Guesses    uint64
	Backtracks uint64
	Filled     int   // cells filled when the solver stopped (all empty cells when solved)
	Err        error // set for StatusError and StatusInvalid (and others when useful)

	// HarnessNS is time inside Solve that was not the strategy's and is
	// taken off the unit's time: for an external solver, its calibrated
	// null round trip and any wait for its process to (re)start.
	HarnessNS int64
	// SelfNS is the time the strategy measured itself (an external
	// solver's own report), 0 when it reported none.
	SelfNS int64
	// Counted is set when the strategy counted the solutions (an
	// external solver's answer to a count request), Count their number
	// up to 2.
	Counted bool
	Count   int
}

// AnswerChecker is implemented by strategies whose answers need more
// than the pipeline's Check of a solution: an external solver's claim
// that a puzzle has no solution, or its count of solutions, is checked
// with the built-in counter. The pipeline calls CheckAnswer after timing
// the unit; it may turn res into StatusWrong with the reason in res.Err.
type AnswerChecker interface {
	CheckAnswer(ctx context.Context, p Puzzle, res *Result)
}

// LateFault is a fault of a unit found after its Solve returned: an
// external solver that wrote a line after its answer. The unit, named by
// its Limits' Corpus and ID, is an error with Err, whatever it answered.
type LateFault struct {
	Corpus, ID int
	Err        error
}

// LateFaulter is implemented by strategies that can find a unit's fault
// after its Solve returned. The pipeline calls LateFaults once every unit
// of the run has been solved (the re-timing's included) and records each
// fault as its unit's error; each fault is returned once.
type LateFaulter interface {
	LateFaults() []LateFault
}
