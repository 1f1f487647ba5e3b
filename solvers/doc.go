// Package solvers holds the Sudoku puzzle and grid types, the corpus line
// parser, the independent checker and the solving strategies that
// sudokubatch benchmarks.
//
// Data flow:
//  1. A Scanner reads a corpus line by line; each puzzle line becomes an
//     Entry with an id, its line number and a Puzzle, or a *SyntaxError
//     (wrong length, bad symbol, conflicting givens) that travels with the
//     data instead of stopping the read.
//  2. A Solver (one per strategy, listed by All and found by Lookup) solves
//     a Puzzle within Limits and returns a Result with its status and its
//     counters (calls, guesses, backtracks, filled cells).
//  3. Check verifies a claimed solution against the rules and the givens.
//     It shares no code with the strategies.
//
// Grids have box size 2, 3 or 4 (4x4, 9x9, 16x16); cells are row-major and
// values are 1..N, 0 for an empty cell. In text, values are '1'-'9' then
// 'A'-'G', and an empty cell is '0' or '.'.
//
// Limits are applied by each strategy itself: a call counter compared on
// every call, the clock and the context read every few thousand calls.
// With MaxCalls = m a strategy makes exactly m calls and stops with
// StatusLimit, so limited runs are deterministic. A canceled context gives
// StatusError with Err wrapping context.Canceled.
//
// Every strategy is a value with no mutable state: one value may serve any
// number of goroutines. Randomized strategies take their seed from
// Limits.Seed, so the same seed gives the same counters.
//
// Decisions where the design is silent:
//   - A count header is a bare integer on the first line that is neither
//     blank nor a comment.
//   - A line longer than MaxLineLen bytes is skipped over without being
//     held in memory and becomes an invalid entry.
//   - The seed documents were not at hand when the strategies were written;
//     each strategy's doc comment says what it follows (the algorithm and
//     counting of docs/DESIGN.md) and any choice made where the description is
//     silent.
package solvers
