package solvers

import (
	"context"
	"math/bits"
)

// backtrack is the chained backtracking of Langer, "A quoi bon remplir des
// grilles de Sudoku" (APMEP), for any supported size. The article itself
// was not at hand; this follows DESIGN.md's description of it, which
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
// and box; a value is in the masks while its cell holds it. When the
// search goes forward into a cell, the values that fit it are computed
// once from the three masks. Going back to a cell never changes the cells
// before it, so the values that fit it are still the same: the search
// keeps, per position in the chain, the bit of the value the cell holds
// and the fitting values above it, and a step is then a few bit operations
// (the lowest remaining value is the first that trying current+1,
// current+2, ... in turn would write). A puzzle with no empty cell is
// solved with no step.
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
	// units, the bit of the value it holds (0 for none) and the values
	// above that one that fit it.
	var (
		units                      [256]uint32
		cell, ur, uc, ub           [MaxCells]uint8
		held, rest                 [MaxCells]uint32
		n                          int
		calls, guesses, backtracks uint64
	)
	for i := 0; i < geo.cells; i++ {
		r, c, x := geo.row[i], backtrackColUnits+geo.col[i], backtrackBoxUnits+geo.blk[i]
		if v := p.Cells[i]; v != 0 {
			bit := uint32(1) << v
			units[r] |= bit
			units[c] |= bit
			units[x] |= bit
			continue
		}
		cell[n], ur[n], uc[n], ub[n] = uint8(i), r, c, x
		n++
	}
	if n == 0 {
		return Result{Status: StatusSolved, Solution: p.Grid}
	}

	b := newBudget(ctx, lim, backtrackEvery)
	k := 0
	r, c, x := ur[0], uc[0], ub[0]                   // the current cell's masks
	free := ^(units[r] | units[c] | units[x]) & full // values above its current one that fit it
	var old uint32                                   // the bit of its current value, 0 for none
	for {
		if calls == b.next {
			if st := b.poll(calls); st != StatusNone {
				filled := k
				if old != 0 {
					filled++
				}
				return Result{Status: st, Err: b.err, Calls: calls, Guesses: guesses,
					Backtracks: backtracks, Filled: filled}
			}
		}
		calls++
		if free != 0 {
			// Write the lowest value that fits, the one trying old+1,
			// old+2, ... in turn would find, and go forward.
			bit := free & -free
			t := old ^ bit // old out of the masks, bit in
			units[r] ^= t
			units[c] ^= t
			units[x] ^= t
			held[k], rest[k] = bit, free&^bit
			guesses++
			k++
			if k == n {
				break
			}
			r, c, x = ur[k], uc[k], ub[k]
			free = ^(units[r] | units[c] | units[x]) & full
			old = 0
			continue
		}
		// No value fits: write 0 and go back.
		units[r] ^= old
		units[c] ^= old
		units[x] ^= old
		held[k] = 0
		backtracks++
		k--
		if k < 0 {
			return Result{Status: StatusUnsolvable, Calls: calls, Guesses: guesses, Backtracks: backtracks}
		}
		r, c, x = ur[k], uc[k], ub[k]
		free, old = rest[k], held[k]
	}
	sol := p.Grid
	for j := 0; j < n; j++ {
		sol.Cells[cell[j]] = uint8(bits.TrailingZeros32(held[j]))
	}
	return Result{Status: StatusSolved, Solution: sol, Calls: calls, Guesses: guesses,
		Backtracks: backtracks, Filled: n}
}
