package solvers

import "context"

// bruteforce is the brute-force search of the notebook "Résolution des
// sudokus 4x4", generalized to 4x4, 9x9 and 16x16 grids. The notebook was
// not at hand; this follows docs/DESIGN.md's description of it.
//
// Algorithm. The empty cells are taken in row-major order. The search
// writes 1 in the first empty cell and validates the whole grid: every
// row, column and box must hold no value twice (empty cells aside). If the
// grid is valid it goes to the next empty cell and writes 1 there (no next
// cell: solved). If not, it increments the last written cell; a cell
// incremented past N is emptied and the search goes back to the previous
// written cell and increments it (no previous cell: unsolvable).
//
// Since the grid is valid before each write, a write passes validation
// exactly when the value fits the cell's row, column and box, so the
// search walks the same tree as backtrack, in the same order: its Guesses
// and Backtracks equal backtrack's on every puzzle, and it ends with the
// same solution. Only the cost per step differs: every value written,
// fitting or not, costs a validation of the whole grid.
//
// Counters:
//   - Calls: whole-grid validations, one per value written, so Calls is
//     the number of values tried, fitting or not (Guesses plus the writes
//     rejected), the values the naive backtrack loop tries one by one;
//   - Guesses: values accepted, writes that pass validation (backtrack's
//     values written);
//   - Backtracks: cells emptied going back (backtrack's steps back),
//     including the first empty cell when a puzzle proves unsolvable.
//
// The validation really checks the whole grid at every step, with no use
// of which cell changed: one pass over all N*N cells with a bit mask per
// column and box and one for the current row, and no early exit, so every
// validation costs the same. It allocates nothing. A puzzle with no empty
// cell is solved with no validation (the givens were checked by
// validate).
//
// Filled for a stopped search is the number of empty cells holding a
// value when it stopped: the cells accepted so far plus the cell written
// and not yet validated.
//
// bruteforce has no state: one value serves any number of goroutines.
type bruteforce struct{}

var _ Solver = (*bruteforce)(nil)

// bruteforceEvery is the number of validations between two reads of the
// clock and ctx: a validation takes about 150 ns on a 9x9 grid and 500 ns
// on a 16x16 one, so the clock is read every 40 to 130 µs.
const bruteforceEvery = 1 << 8

func (*bruteforce) Name() string { return "bruteforce" }

func (*bruteforce) Describe() string {
	return "4x4 notebook's brute force, any size: write 1, 2, ... in the empty cells in row-major order and validate the whole grid after each write; " +
		"calls = grid validations, guesses = values accepted, backtracks = cells emptied going back"
}

func (*bruteforce) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}
	}
	geo := geometryOf(p.Box)
	side := uint8(geo.side)
	g := p.Grid
	var (
		empty                      [MaxCells]uint8 // the empty cells in row-major order
		n                          int
		calls, guesses, backtracks uint64
	)
	for i := 0; i < geo.cells; i++ {
		if p.Cells[i] == 0 {
			empty[n] = uint8(i)
			n++
		}
	}
	if n == 0 {
		return Result{Status: StatusSolved, Solution: g}
	}

	b := newBudget(ctx, lim, bruteforceEvery)
	k := 0
	g.Cells[empty[0]] = 1
	for {
		if calls == b.next {
			if st := b.poll(calls); st != StatusNone {
				return Result{Status: st, Err: b.err, Calls: calls, Guesses: guesses,
					Backtracks: backtracks, Filled: k + 1}
			}
		}
		calls++
		if bruteforceValid(&g.Cells, geo) {
			guesses++
			k++
			if k == n {
				return Result{Status: StatusSolved, Solution: g, Calls: calls, Guesses: guesses,
					Backtracks: backtracks, Filled: n}
			}
			g.Cells[empty[k]] = 1
			continue
		}
		// Increment the last written cell; past N, empty it and go back.
		for g.Cells[empty[k]] == side {
			g.Cells[empty[k]] = 0
			backtracks++
			k--
			if k < 0 {
				return Result{Status: StatusUnsolvable, Calls: calls, Guesses: guesses,
					Backtracks: backtracks}
			}
		}
		g.Cells[empty[k]]++
	}
}

// bruteforceBit is the bit of each cell value in the validation masks:
// 1<<v for a value v, 0 for an empty cell (and for bytes that are no
// value, which validate rejects before any search). It is indexed by a
// byte, so that no bounds check is needed, and never written after
// initialisation.
var bruteforceBit = func() (t [256]uint32) {
	for v := 1; v <= 16; v++ {
		t[v] = 1 << v
	}
	return t
}()

// bruteforceValid reports whether no row, column or box of the grid holds
// a value twice (empty cells aside). It reads every cell whatever it
// finds: one mask for the current row, one per column and per box, and
// dup collects the values seen twice.
func bruteforceValid(cells *[MaxCells]uint8, geo *geometry) bool {
	var cols, boxes [16]uint32
	var dup uint32
	side := geo.side
	for r, i := 0, 0; r < side; r++ {
		var row uint32
		for c := 0; c < side; c, i = c+1, i+1 {
			bit := bruteforceBit[cells[i&(MaxCells-1)]]
			x := geo.blk[i&(MaxCells-1)] & 15
			dup |= (row | cols[c&15] | boxes[x]) & bit
			row |= bit
			cols[c&15] |= bit
			boxes[x] |= bit
		}
	}
	return dup == 0
}
