package solvers

import (
	"context"
	"errors"
	"math/bits"
)

// bitboard is this project's fast solver (DESIGN.md's table: bit masks,
// naked and hidden singles and more, MRV guessing, no allocation in the
// search; 9x9 only). It uses the band-oriented representation of the
// fastest known solvers (zhouyundong's ZSolver and its descendants JCZSolve
// and tdoku): for every digit d and band b (three rows) a 27-bit mask
// f[3d+b] of the cells of the band where d may still go, bit 9*row+column
// (row within the band). A placed digit stays set in its own mask.
//
// Propagation (propagate) repeats until nothing changes:
//
//  1. Band update, for each mask that changed since it was last updated, in
//     increasing 3d+b order, until no mask changes. In a band a digit takes
//     one mini-row (three cells of a row inside a box) in each row and in
//     each box, i.e. a permutation from rows to boxes. The mask is reduced
//     to the mini-rows used by some permutation compatible with it (this is
//     locked candidates, pointing and claiming, and the hidden singles of
//     rows and boxes; a hidden single of a column is not looked for as
//     such); none is a contradiction. A box of the band that
//     keeps a single possible column c claims c: d is removed from column
//     c in the two other bands. A row whose mini-row is in every compatible
//     permutation and whose box has a single column holds d in one known
//     cell: that cell is solved and removed from the eight other digits.
//  2. Naked singles: for each band, cells are counted by number of
//     candidates (bit-sliced over the nine digits); a cell with none is a
//     contradiction; each unsolved cell with one candidate is placed (its
//     digit is removed from the cell's row and box in the band, and the band
//     update does the rest). If any was placed, go back to 1.
//
// Search: each node propagates; a contradiction is a dead end; if every cell
// is solved the grid is the answer. Otherwise it branches on the first cell
// in row-major order with the fewest candidates (a bivalue cell when there
// is one, which the naked-single count gives for free) and tries its
// candidates in increasing order, each on a copy of the state in a
// fixed-size per-depth array; after a failed candidate it is removed from
// the parent state, so the next copy inherits that knowledge. The first
// solution is returned. The search is deterministic.
//
// Counters:
//   - Calls: search nodes, each entry into the search including the root
//     (Calls == Guesses + 1 whenever the search ends or is stopped);
//   - Guesses: candidates tried at branching cells;
//   - Backtracks: dead ends, i.e. propagations that hit a contradiction
//     (the root's, for a puzzle propagation alone proves unsolvable).
//
// Limits are checked before each node (the clock every bitboardPollEvery
// nodes). Filled for a stopped search is the number of empty cells solved in
// the state of the node whose candidates were being tried.
//
// Only 9x9 grids are handled; 4x4 and 16x16 give StatusUnsupported. Solve
// allocates nothing. A bitboard value has no state: one value serves any
// number of goroutines.
type bitboard struct{}

var _ Solver = (*bitboard)(nil)

func (*bitboard) Name() string { return "bitboard" }

func (*bitboard) Describe() string {
	return "per-digit band bit masks, locked candidates and singles, MRV guessing (9x9 only); " +
		"calls = search nodes, guesses = candidates tried, backtracks = dead ends"
}

// bitboardPollEvery is how many search nodes pass between two clock reads.
const bitboardPollEvery = 4096

var errBitboardSize = errors.New("bitboard solves 9x9 grids only")

const bbAll = 1<<27 - 1 // every cell of a band

// Tables, built once at package initialisation from their definitions and
// never written afterwards. A "shrink" is a 9-bit mask of mini-rows, bit
// 3*row+box; a "column set" is a 9-bit mask of the columns of a band.
var (
	bbShrink     [512]uint32 // 9 cells of a row -> 3-bit mask of its non-empty mini-rows
	bbPermCells  [512]uint32 // shrink -> cells of the mini-rows of every compatible permutation (0: none)
	bbPermLocked [512]uint32 // shrink -> mini-rows in every compatible permutation
	bbColSingle  [512]uint32 // column set -> mini-rows of the boxes with exactly one column
	bbOtherBands [512]uint32 // column set -> band mask without the columns that a box claims alone
	bbRowCells   [8]uint32   // 3-bit row mask -> cells of those rows
	bbSelf       [27]uint32  // cell -> band mask without its row and box, but with the cell itself
	bbColumn     [9]uint32   // column -> its three cells in a band
)

func init() {
	minirow := func(row, box int) uint32 { return 7 << (9*row + 3*box) }
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for c := 0; c < 9; c++ {
		bbColumn[c] = 0o001001001 << c
	}
	for r := 0; r < 8; r++ {
		for i := 0; i < 3; i++ {
			if r>>i&1 != 0 {
				bbRowCells[r] |= 0o777 << (9 * i)
			}
		}
	}
	for x := 0; x < 512; x++ {
		for j := 0; j < 3; j++ {
			if x>>(3*j)&7 != 0 {
				bbShrink[x] |= 1 << j
			}
		}
		var cells uint32
		locked := uint32(0o777)
		for _, p := range perms {
			ok := true
			var rows uint32
			for i, j := range p {
				ok = ok && x>>(3*i+j)&1 != 0
				rows |= 1 << (3*i + j)
			}
			if ok {
				for i, j := range p {
					cells |= minirow(i, j)
				}
				locked &= rows
			}
		}
		if cells == 0 {
			locked = 0
		}
		bbPermCells[x], bbPermLocked[x] = cells, locked
		bbOtherBands[x] = bbAll
		for j := 0; j < 3; j++ {
			if cols := uint32(x>>(3*j)) & 7; bits.OnesCount32(cols) == 1 {
				bbColSingle[x] |= 0o111 << j
				bbOtherBands[x] &^= bbColumn[3*j+bits.TrailingZeros32(cols)]
			}
		}
	}
	for k := 0; k < 27; k++ {
		row, col := k/9, k%9
		mask := uint32(bbAll) &^ bbRowCells[1<<row]
		for i := 0; i < 3; i++ {
			mask &^= minirow(i, col/3)
		}
		bbSelf[k] = mask | 1<<k
	}
}

// bbState is the whole state of one search node; it is copied by value.
type bbState struct {
	f        [27]uint32 // f[3*d+b]: cells of band b where digit d+1 may go (or is)
	prev     [27]uint32 // f as the band update last left it
	unsolved [3]uint32  // unsolved cells of each band
	pairs    [3]uint32  // cells with exactly two candidates (after a singles pass)
}

// place puts digit d (0-based) in cell k of band b of a fresh state: the
// givens. It reports false if d is no longer possible there.
func (st *bbState) place(b, k, d int) bool {
	bit := uint32(1) << k
	i := 3*d + b
	if st.f[i]&bit == 0 {
		return false
	}
	st.unsolved[b] &^= bit
	for j := b; j < 27; j += 3 {
		st.f[j] &^= bit
	}
	st.f[i] |= bit
	st.f[i] &= bbSelf[k]
	other := ^bbColumn[k%9]
	st.f[3*d+(b+1)%3] &= other
	st.f[3*d+(b+2)%3] &= other
	return true
}

// update runs the band update to a fixpoint. It reports false on a
// contradiction.
func (st *bbState) update() bool {
	for {
		changed := false
		for d := 0; d < 27; d += 3 {
			for b := 0; b < 3; b++ {
				i := d + b
				f := st.f[i]
				if f == st.prev[i] {
					continue
				}
				changed = true
				sh := bbShrink[f&0o777] | bbShrink[f>>9&0o777]<<3 | bbShrink[f>>18&0o777]<<6
				f &= bbPermCells[sh]
				if f == 0 {
					return false
				}
				st.f[i], st.prev[i] = f, f
				cols := (f | f>>9 | f>>18) & 0o777
				other := bbOtherBands[cols]
				st.f[d+bbNext[b]] &= other
				st.f[d+bbNext[b+1]] &= other
				solved := bbRowCells[bbShrink[bbPermLocked[sh]&bbColSingle[cols]]&7] & f
				if solved&st.unsolved[b] != 0 {
					st.unsolved[b] &^= solved
					for j := b; j < 27; j += 3 {
						st.f[j] &^= solved
					}
					st.f[i] = f
				}
			}
		}
		if !changed {
			return true
		}
	}
}

// bbNext[b] and bbNext[b+1] are the two bands other than b.
var bbNext = [4]int{1, 2, 0, 1}

// singles places the naked singles of every band and records the bivalue
// cells. It reports whether it placed any, and false in ok on a
// contradiction (a cell without candidates).
func (st *bbState) singles() (placed, ok bool) {
	for b := 0; b < 3; b++ {
		var c1, c2, c3 uint32 // cells with at least 1, 2, 3 candidates
		for j := b; j < 27; j += 3 {
			m := st.f[j]
			c3 |= c2 & m
			c2 |= c1 & m
			c1 |= m
		}
		if c1 != bbAll {
			return false, false
		}
		st.pairs[b] = c2 &^ c3
		for s := c1 &^ c2 & st.unsolved[b]; s != 0; s &= s - 1 {
			k := bits.TrailingZeros32(s)
			bit := uint32(1) << k
			j := b
			for j < 27 && st.f[j]&bit == 0 {
				j += 3
			}
			if j >= 27 {
				return false, false // an earlier single took its last candidate
			}
			st.f[j] &= bbSelf[k]
			placed = true
		}
	}
	return placed, true
}

// propagate alternates band updates and naked singles until neither
// changes anything. It reports false on a contradiction.
func (st *bbState) propagate() bool {
	for {
		if !st.update() {
			return false
		}
		if st.unsolved[0]|st.unsolved[1]|st.unsolved[2] == 0 {
			return true
		}
		placed, ok := st.singles()
		if !ok {
			return false
		}
		if !placed {
			return true
		}
	}
}

// branchCell returns the band and cell (within the band) of the first
// unsolved cell in row-major order with the fewest candidates. It must be
// called after a propagation that left unsolved cells.
func (st *bbState) branchCell() (b, k int) {
	for b := 0; b < 3; b++ {
		if p := st.pairs[b]; p != 0 {
			return b, bits.TrailingZeros32(p)
		}
	}
	best := 10
	for band := 0; band < 3; band++ {
		for u := st.unsolved[band]; u != 0; u &= u - 1 {
			cell := bits.TrailingZeros32(u)
			n := 0
			for j := band; j < 27; j += 3 {
				n += int(st.f[j] >> cell & 1)
			}
			if n < best {
				best, b, k = n, band, cell
			}
		}
	}
	return b, k
}

// bbSearch is the state of one Solve.
type bbSearch struct {
	stack      [82]bbState // the state of the node at each depth
	calls      uint64
	guesses    uint64
	backtracks uint64
	stop       Status // set when a limit stopped the search
	last       int    // depth of the solved node, or of the node that was stopped
	want       int    // solutions to find before stopping (1 for Solve)
	found      int    // solutions found
	solution   Grid   // the first solution, when counting goes past it
}

func (bb *bitboard) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	res, _ := bb.solve(ctx, p, lim, 1)
	return res
}

// count returns the number of solutions of p, up to want (see
// CountSolutions). The Result says how the search ended.
func (bb *bitboard) count(ctx context.Context, p Puzzle, want int) (int, Result) {
	res, found := bb.solve(ctx, p, Limits{}, want)
	return found, res
}

// solve searches until it has found want solutions (the Result holds the
// last one) or the tree is exhausted.
func (*bitboard) solve(ctx context.Context, p Puzzle, lim Limits, want int) (Result, int) {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}, 0
	}
	if p.Box != 3 {
		return Result{Status: StatusUnsupported, Err: errBitboardSize}, 0
	}
	var s bbSearch
	s.want = want
	// The budget stays outside s: poll leaks its receiver's pointees, and
	// escape analysis would move s (and its state stack) to the heap.
	b := newBudget(ctx, lim, bitboardPollEvery)
	root := &s.stack[0]
	for i := range root.f {
		root.f[i], root.prev[i] = bbAll, ^uint32(0)
	}
	root.unsolved = [3]uint32{bbAll, bbAll, bbAll}
	consistent := true
	for i, v := range p.Cells[:81] {
		if v != 0 && !root.place(i/27, i%27, int(v)-1) {
			consistent = false // cannot happen once validate passed
		}
	}

	solved := false
	if s.calls == b.next {
		s.stop = b.poll(s.calls)
	}
	if s.stop == StatusNone {
		if consistent {
			solved = s.search(&b, 0)
		} else {
			s.calls++
			s.backtracks++
		}
	}
	res := Result{Calls: s.calls, Guesses: s.guesses, Backtracks: s.backtracks}
	switch {
	case s.stop != StatusNone:
		res.Status, res.Err = s.stop, b.err
		st := &s.stack[s.last]
		unsolved := bits.OnesCount32(st.unsolved[0]) + bits.OnesCount32(st.unsolved[1]) + bits.OnesCount32(st.unsolved[2])
		res.Filled = p.Empty() - unsolved
	case solved:
		res.Status, res.Filled = StatusSolved, p.Empty()
		res.Solution = s.stack[s.last].grid()
	case s.found > 0: // counting: fewer solutions than wanted
		res.Status, res.Filled = StatusSolved, p.Empty()
		res.Solution = s.solution
	default:
		res.Status = StatusUnsolvable
	}
	return res, s.found
}

// search is one search node at the given depth; the caller has checked
// the budget b. It returns true when a solution is found (s.last is then its
// depth) and false when this subtree has none or s.stop is set.
func (s *bbSearch) search(b *budget, depth int) bool {
	s.calls++
	st := &s.stack[depth]
	if !st.propagate() {
		s.backtracks++
		return false
	}
	if st.unsolved[0]|st.unsolved[1]|st.unsolved[2] == 0 {
		s.last = depth
		s.found++
		if s.found < s.want { // counting: keep the first, search on
			if s.found == 1 {
				s.solution = st.grid()
			}
			return false
		}
		return true
	}
	band, k := st.branchCell()
	bit := uint32(1) << k
	for j := band; j < 27; j += 3 {
		if st.f[j]&bit == 0 {
			continue
		}
		if s.calls == b.next {
			if s.stop = b.poll(s.calls); s.stop != StatusNone {
				s.last = depth
				return false
			}
		}
		s.guesses++
		child := &s.stack[depth+1]
		*child = *st
		child.f[j] &= bbSelf[k]
		if s.search(b, depth+1) {
			return true
		}
		if s.stop != StatusNone {
			return false
		}
		st.f[j] &^= bit
	}
	return false
}

// grid returns the solved grid held by a state whose cells are all solved.
func (st *bbState) grid() Grid {
	g := NewGrid(3)
	for i, f := range st.f {
		d, base := uint8(i/3+1), 27*(i%3)
		for ; f != 0; f &= f - 1 {
			g.Cells[base+bits.TrailingZeros32(f)] = d
		}
	}
	return g
}
