package solvers

import (
	"context"
	"math/bits"
)

// backtrack is the chained backtracking of Langer, "A quoi bon remplir des
// grilles de Sudoku" (APMEP), for any supported size. The article itself
// was not at hand; this follows docs/DESIGN.md's description of it, which
// fixes the search order and the counting.
//
// Algorithm. The empty cells are chained in row-major order (the
// article's prec/suiv links: the previous and next empty cell). The search
// starts at the first empty cell with current value 0. Each step of the
// main loop works on the current cell: it tries the values from the
// cell's current value + 1 up to N against the cell's row, column and
// box, writes the first one that fits and goes forward to the next empty
// cell (none: solved); when no value fits it writes 0 in the cell and goes
// back to the previous empty cell (none: unsolvable), where the next step
// resumes from that cell's current value + 1.
//
// Counters, exactly as the naive loop above would count them:
//   - Calls: main-loop steps, one per iteration (a step forward or a step
//     back);
//   - Guesses: values written, the article's "valeurs essayées": one per
//     step that finds a fitting value and writes it. The zeros written
//     when going back are not counted, nor are values tried that do not
//     fit. This is the convention that gives the article's figure of
//     69,175,316 on its hard grid
//     000000000000003085001020000000507000004000100090000000500000073002010000000040009
//     (138,350,568 steps; counting the values tried, fitting or not,
//     would give 622,577,597; counting the zeros too, 138,350,568);
//   - Backtracks: steps back, one per zero written, including the final
//     step back from the first empty cell that proves a puzzle
//     unsolvable.
//
// So every step is a guess or a backtrack: Calls == Guesses + Backtracks
// always, also for a stopped search. When solved, Guesses - Backtracks ==
// Filled (the number of empty cells); when unsolvable, Guesses -
// Backtracks == -1.
//
// The implementation gives the same steps, the same writes and the same
// counts as that naive loop, faster. It keeps one bit mask per row, column
// and box of the values no cell of the unit holds. When the
// search goes forward into a cell, the values that fit it are computed
// once from the three masks. Going back to a cell never changes the cells
// before it, so the values that fit it are still the same: the search
// keeps, per position in the chain, the bit of the value the cell holds
// and the fitting values above it, and a step is then a few bit operations
// (the lowest remaining value is the first that trying current+1,
// current+2, ... in turn would write). The loop runs forward, then back,
// in two inner loops, so that a run of steps in one direction stays in
// one tight loop. Only Calls is counted in the loop: every step is a
// guess (k goes up by one) or a backtrack (k goes down by one), so
// Guesses - Backtracks is k and Guesses + Backtracks is Calls. A puzzle
// with no empty cell is solved with no step.
//
// Decisions where the description is silent: the search handles 4x4, 9x9
// and 16x16 grids alike (16x16 puzzles with few givens may take forever:
// use a limit); Filled for a stopped search is the number of empty cells
// holding a value when it stopped (the cells before the current one, plus
// the current one if it holds a value it is about to move past).
//
// backtrack has no state: one value serves any number of goroutines.
type backtrack struct{}

var _ Solver = (*backtrack)(nil)

// backtrackEvery is the number of main-loop steps between two reads of the
// clock and ctx: at 150 to 300 million steps a second, every 30 to 60 µs,
// for about 100 ns each time.
const backtrackEvery = 1 << 13

func (*backtrack) Name() string { return "backtrack" }

func (*backtrack) Describe() string {
	return "Langer's chained backtracking: empty cells in row-major order, next value that fits or step back; " +
		"calls = main-loop steps, guesses = values written, backtracks = steps back (calls = guesses + backtracks)"
}

// Unit mask indexes in backtrack: rows at 0..15, columns at 16..31, boxes
// at 32..47, in an array of 256 masks so that a uint8 index needs no
// bounds check.
const (
	backtrackColUnits = 16
	backtrackBoxUnits = 32
)

func (*backtrack) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}
	}
	geo := geometryOf(p.Box)
	full := uint32(1)<<(geo.side+1) - 2 // bits 1..N: the values

	// The chain of empty cells by position k = 0..n-1 (suiv is k+1, prec
	// is k-1): the cell, the indexes of its row, column and box masks in
	// fits, and, for the positions before the current one, the bit of the
	// value the cell holds and the values above that one that fit it
	// (written on each step forward from a position, read on each step
	// back to it; a step back leaves them stale, unread until rewritten).
	var (
		fits             [256]uint32 // per unit, the values no cell of it holds
		cell, ur, uc, ub [MaxCells]uint8
		held, rest       [MaxCells]uint32
		n                int
		calls            uint64
	)
	for i := range fits {
		fits[i] = full
	}
	for i := 0; i < geo.cells; i++ {
		r, c, x := geo.row[i], backtrackColUnits+geo.col[i], backtrackBoxUnits+geo.blk[i]
		if v := p.Cells[i]; v != 0 {
			bit := uint32(1) << v
			fits[r] &^= bit
			fits[c] &^= bit
			fits[x] &^= bit
			continue
		}
		cell[n], ur[n], uc[n], ub[n] = uint8(i), r, c, x
		n++
	}
	if n == 0 {
		return Result{Status: StatusSolved, Solution: p.Grid}
	}

	b := newBudget(ctx, lim, backtrackEvery)
	k := 0                              // indexes the chain as uint8(k): 256 places, no bounds check
	r, c, x := ur[0], uc[0], ub[0]      // the current cell's masks
	free := fits[r] & fits[c] & fits[x] // values above its current one that fit it
	var old uint32                      // the bit of its current value, 0 for none
	for {
		// Forward while a value fits: write the lowest one, the one trying
		// old+1, old+2, ... in turn would find, and go to the next cell.
		for free != 0 {
			if calls == b.next {
				if st := b.poll(calls); st != StatusNone {
					return backtrackStopped(st, b.err, calls, k, old)
				}
			}
			calls++
			bit := free & -free
			t := old ^ bit // old out of the masks, bit in
			fits[r] ^= t
			fits[c] ^= t
			fits[x] ^= t
			held[uint8(k)], rest[uint8(k)] = bit, free^bit
			k++
			if k == n {
				goto solved
			}
			r, c, x = ur[uint8(k)], uc[uint8(k)], ub[uint8(k)]
			free = fits[r] & fits[c] & fits[x]
			old = 0
		}
		// Back while none fits: write 0 and go to the previous cell.
		for {
			if calls == b.next {
				if st := b.poll(calls); st != StatusNone {
					return backtrackStopped(st, b.err, calls, k, old)
				}
			}
			calls++
			fits[r] ^= old
			fits[c] ^= old
			fits[x] ^= old
			k--
			if k < 0 {
				g, bt := backtrackCounts(calls, k)
				return Result{Status: StatusUnsolvable, Calls: calls, Guesses: g, Backtracks: bt}
			}
			r, c, x = ur[uint8(k)], uc[uint8(k)], ub[uint8(k)]
			free, old = rest[uint8(k)], held[uint8(k)]
			if free != 0 {
				break
			}
		}
	}
solved:
	g, bt := backtrackCounts(calls, n)
	sol := p.Grid
	for j := 0; j < n; j++ {
		sol.Cells[cell[j]] = uint8(bits.TrailingZeros32(held[j]))
	}
	return Result{Status: StatusSolved, Solution: sol, Calls: calls, Guesses: g, Backtracks: bt, Filled: n}
}

// backtrackCounts returns Guesses and Backtracks for a search that took
// calls steps and ended at position k of the chain (n solved, -1
// exhausted, or where its budget stopped it): every step is a guess (k
// up by one) or a backtrack (k down by one), from k = 0, so Guesses -
// Backtracks is k and Guesses + Backtracks is calls. (uint64(-1) wraps:
// calls + uint64(k) is calls - 1 then.)
func backtrackCounts(calls uint64, k int) (guesses, backtracks uint64) {
	guesses = (calls + uint64(k)) / 2
	return guesses, calls - guesses
}

// backtrackStopped is the Result of a search stopped by its budget before
// step calls+1, at position k of the chain, whose cell holds old (0 for
// none). Filled counts the cells before k, and k's cell if it holds a
// value.
func backtrackStopped(st Status, err error, calls uint64, k int, old uint32) Result {
	filled := k
	if old != 0 {
		filled++
	}
	g, bt := backtrackCounts(calls, k)
	return Result{Status: st, Err: err, Calls: calls, Guesses: g, Backtracks: bt, Filled: filled}
}
