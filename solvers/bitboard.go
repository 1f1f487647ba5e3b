package solvers

import (
	"context"
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"
)

// bitboard is this project's fast solver (docs/DESIGN.md's table: bit masks,
// naked and hidden singles and more, MRV guessing, no allocation in the
// search; 9x9 only). It uses the band-oriented representation of the
// fastest known solvers (zhouyundong's ZSolver and its descendants JCZSolve
// and tdoku): for every digit d and band b (three rows) a 27-bit mask
// f[3d+b] of the cells of the band where d may still go, bit 9*row+column
// (row within the band). A placed digit stays set in its own mask.
//
// Propagation (propagate) repeats until nothing changes:
//
//  1. Band update, for each mask that changed since it was last updated,
//     the three masks of a digit at a time, lowest digit first, until no
//     mask changes (a dirty bit per mask says which changed). In a band a
//     digit takes one mini-row (three cells of a row inside a box) in each
//     row and in each box, i.e. a permutation from rows to boxes. The mask
//     is reduced to the mini-rows used by some permutation compatible with
//     it (this is locked candidates by rows and boxes, and the hidden
//     singles of rows and boxes); none is a contradiction. Then the
//     columns, from the column sets of the three reduced masks (the
//     columns where d may go in each band): a column where d may go in no
//     band is a contradiction; a box of a band that keeps a single possible
//     column c claims c (d leaves column c in the two other bands); a
//     column where d may go in a single band claims its box in that band
//     (d leaves the box's two other columns there; two such columns in one
//     box leave the box empty, a contradiction the next update of the
//     digit finds). This is locked candidates by columns and, with the
//     reduction, the hidden singles of columns. A row whose mini-row is in
//     every compatible permutation and whose box has a single column holds
//     d in one known cell (these are exactly the rows of the reduced mask
//     with a single cell, which is how they are found): that cell is
//     solved and removed from the eight other digits.
//  2. Naked singles: for each band, cells are counted by number of
//     candidates (bit-sliced over the nine digits); a cell with none is a
//     contradiction; each unsolved cell with one candidate is placed (its
//     digit is removed from the cell's row and box in the band, and the band
//     update does the rest). If any was placed, go back to 1.
//  3. At the root only, triads (they let more puzzles be solved without
//     guessing; at deeper nodes they cost more than the nodes they save).
//     The three cells of a mini-row, and of a mini-column (three cells of
//     a column inside a box), hold exactly three digits. For each band,
//     each triad's possible digits are counted, and its locked digits (for
//     a mini-row, the digits whose row has no other mini-row; for a
//     mini-column, those whose box has no other column), bit-sliced over
//     the nine digits. Fewer than three possible or more than three locked
//     digits is a contradiction. When three are locked, the other digits
//     leave the triad's cells (hidden triple); when only three are
//     possible, they leave the rest of the triad's row and box, or column
//     and box (naked triple; triads removes them from the rest of the row,
//     or from the box's other columns, and the band update does the rest).
//     Only triads with an unsolved cell are used. If anything changed, go
//     back to 1.
//
// Search: each node propagates; a contradiction is a dead end; if every cell
// is solved the grid is the answer. Otherwise it branches on a bivalue cell
// (the naked-single count gives them for free): the one with the most
// unsolved cells among its 20 peers, the first in row-major order on a
// tie, as its two digits then constrain the most; without a bivalue cell,
// on the first cell in row-major order with the fewest candidates. It
// tries the cell's candidates in increasing order, each on a copy of the
// state in the frame of the recursive call; after a failed candidate it is
// removed from the parent state, so the next copy inherits that knowledge.
// The first solution is returned. The search is deterministic.
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
// Only 9x9 grids are handled; 4x4 and 16x16 give StatusUnsupported. The
// givens are placed before they are validated, and validate runs only when
// placing them fails, for its message. Solve allocates nothing. A bitboard
// value has no state: one value serves any number of goroutines.
type bitboard struct{}

var _ Solver = (*bitboard)(nil)

func (*bitboard) Name() string { return "bitboard" }

func (*bitboard) Describe() string {
	return "per-digit band bit masks, locked candidates and singles, triads at the root, MRV guessing (9x9 only); " +
		"calls = search nodes, guesses = candidates tried, backtracks = dead ends"
}

// bitboardPollEvery is how many search nodes pass between two clock reads.
const bitboardPollEvery = 4096

var errBitboardSize = errors.New("bitboard solves 9x9 grids only")

const bbAll = 1<<27 - 1 // every cell of a band

// Tables, built once from their definitions when bitboard first solves
// (bbTables; not at start, which every run of the tool pays) and never
// written afterwards. A "shrink" is a 9-bit mask of mini-rows, bit
// 3*row+box; a "column set" is a 9-bit mask of the columns of a band.
var (
	bbShrink     [512]uint32 // 9 cells of a row -> 3-bit mask of its non-empty mini-rows
	bbPermCells  [512]uint32 // shrink -> cells of the mini-rows of every compatible permutation (0: none)
	bbOtherBands [512]uint32 // column set -> band mask without the columns that a box claims alone
	bbRowSingle  [512]uint32 // 9 cells of a row -> the same if exactly one, else 0
	bbColClaim   [512]uint32 // column set -> band mask without the boxes' other columns (see update)
	bbColCells   [512]uint32 // column set -> its cells in a band
	bbTriad      [512]uint32 // 3x3 bit matrix -> the same, and <<16 its bits alone in their group of three
	bbMiniCells  [512]uint32 // shrink -> the cells of its mini-rows
	bbRowRest    [512]uint32 // shrink -> the cells of the rows of its mini-rows, but not of these
	bbBoxOthers  [512]uint32 // column set -> cells of the other columns of their boxes
	bbSelf       [27]uint32  // cell -> band mask without its row and box, but with the cell itself
	bbColumn     [9]uint32   // column -> its three cells in a band
	bbNotColumn  [27]uint32  // cell -> every cell of a band but those of its column
	bbFull       [27]uint32  // every mask full
)

// bbShrinkOf returns the shrink of the band mask x: bit 3*row+box for
// each mini-row of x with a cell.
func bbShrinkOf(x uint32) uint32 {
	return (bbShrink[x&0o777] | bbShrink[x>>9&0o777]<<3 | bbShrink[x>>18&0o777]<<6) & 0o777
}

// bbCols returns the columns of the cells of the band mask x.
func bbCols(x uint32) uint32 { return (x | x>>9 | x>>18) & 0o777 }

// bbTables builds the tables once (bbInitTables).
var bbTables sync.Once

func bbInitTables() {
	minirow := func(row, box int) uint32 { return 7 << (9*row + 3*box) }
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for c := 0; c < 9; c++ {
		bbColumn[c] = 0o001001001 << c
	}
	boxColumns := func(j int) uint32 { return bbColumn[3*j] | bbColumn[3*j+1] | bbColumn[3*j+2] } // a band's cells in box j's columns
	for x := 0; x < 512; x++ {
		for j := 0; j < 3; j++ {
			if x>>(3*j)&7 != 0 {
				bbShrink[x] |= 1 << j
			}
		}
		for _, p := range perms {
			ok := true
			for i, j := range p {
				ok = ok && x>>(3*i+j)&1 != 0
			}
			if ok {
				for i, j := range p {
					bbPermCells[x] |= minirow(i, j)
				}
			}
		}
		if bits.OnesCount32(uint32(x)) == 1 {
			bbRowSingle[x] = uint32(x)
		}
		for c := 0; c < 9; c++ {
			if x>>c&1 != 0 {
				bbColCells[x] |= bbColumn[c]
				bbBoxOthers[x] |= boxColumns(c/3) &^ bbColumn[c]
			}
		}
		var rows uint32
		for i := 0; i < 9; i++ {
			if x>>i&1 != 0 {
				bbMiniCells[x] |= minirow(i/3, i%3)
				rows |= 0o777 << (9 * (i / 3))
			}
		}
		bbRowRest[x] = rows &^ bbMiniCells[x]
		// By groups of three bits: for bbTriad, the bits alone in their
		// group; for bbOtherBands and bbColClaim, x is a column set and a
		// group a box's columns. bbColClaim's x is the columns where a
		// digit may go in this band only: in a box with one of them the
		// digit is in that column; with two or three, nowhere (the digit
		// cannot be in two columns of one box).
		bbTriad[x], bbOtherBands[x], bbColClaim[x] = uint32(x), bbAll, bbAll
		for j := 0; j < 3; j++ {
			switch cols := uint32(x>>(3*j)) & 7; bits.OnesCount32(cols) {
			case 0:
			case 1:
				col := bbColumn[3*j+bits.TrailingZeros32(cols)]
				bbTriad[x] |= cols << (3*j + 16)
				bbOtherBands[x] &^= col
				bbColClaim[x] &^= boxColumns(j) &^ col
			default:
				bbColClaim[x] &^= boxColumns(j)
			}
		}
	}
	for k := 0; k < 27; k++ {
		bbFull[k] = bbAll
		bbNotColumn[k] = bbAll &^ bbColumn[k%9]
		row, col := k/9, k%9
		mask := uint32(bbAll) &^ (0o777 << (9 * row))
		for i := 0; i < 3; i++ {
			mask &^= minirow(i, col/3)
		}
		bbSelf[k] = mask | 1<<k
	}
}

// bbState is the whole state of one search node; it is copied by value.
type bbState struct {
	f        [27]uint32 // f[3*d+b]: cells of band b where digit d+1 may go (or is)
	dirty    uint32     // bit 3*d+b: f[3*d+b] changed since the band update last left it
	unsolved [3]uint32  // unsolved cells of each band
	pairs    [3]uint32  // cells with exactly two candidates (after a singles pass)
}

// bbRoot returns the state where the givens of p (a 9x9 grid) are placed,
// the number of empty cells, and false if a given is out of range or if
// two equal givens share a row, column or box (the state is then
// meaningless). Each given of digit d in cell k of band b leaves d in no
// other cell of its row, box and column, and no other digit in k.
func bbRoot(p *Puzzle) (root bbState, empty int, placed bool) {
	var own [27]uint32 // own[3*d+b]: the givens of digit d in band b
	placed = true
	root.f = bbFull
	for b := uint(0); b < 3; b++ {
		cells := (*[27]uint8)(p.Cells[27*b : 27*b+27])
		given := (bbNonZero(p.Cells[27*b:]) | bbNonZero(p.Cells[27*b+8:])<<8 |
			bbNonZero(p.Cells[27*b+16:])<<16 | bbNonZero(p.Cells[27*b+24:])<<24) & bbAll
		root.unsolved[b] = bbAll &^ given
		empty += 27 - bits.OnesCount32(given)
		for ; given != 0; given &= given - 1 {
			k := uint(bits.TrailingZeros32(given))
			v := uint(cells[k])
			if v > 9 {
				placed = false
				continue
			}
			g := (*[3]uint32)(root.f[3*v-3 : 3*v]) // digit v in the three bands
			// Only the givens of the same digit have taken candidates
			// so far: v is still possible in k unless one of them sees k.
			if g[b]>>k&1 == 0 {
				placed = false
			}
			g[b] &= bbSelf[k]
			other := bbNotColumn[k]
			g[bbNext[b]] &= other
			g[bbNext[b+1]] &= other
			own[3*v-3+b] |= 1 << k
		}
	}
	u0, u1, u2 := root.unsolved[0], root.unsolved[1], root.unsolved[2]
	for i := 0; i < 27; i += 3 {
		f, o := (*[3]uint32)(root.f[i:i+3]), (*[3]uint32)(own[i:i+3])
		f[0] = f[0]&u0 | o[0]
		f[1] = f[1]&u1 | o[1]
		f[2] = f[2]&u2 | o[2]
	}
	root.dirty = bbAll
	return root, empty, placed
}

// bbNonZero returns the mask of the non-zero bytes among the first eight
// of b, bit i for b[i].
func bbNonZero(b []uint8) uint32 {
	x := nonZeroBytes(binary.LittleEndian.Uint64(b))
	return uint32((x >> 7) * 0x0102040810204080 >> 56)
}

// update runs the band update to a fixpoint. It reports false on a
// contradiction.
//
// A step takes the lowest digit with a dirty bit in any of its three
// masks and updates the three together: the three reductions are
// independent chains of table lookups that the processor overlaps, where
// one mask per step would make each step wait for the one before (it reads
// the masks that step wrote). Then each band keeps the columns that the
// boxes of the other two claim and loses the other columns of the boxes
// that its own columns claim (bbColClaim, indexed by the columns where the
// digit may go in this band only), a band that this changed is dirty
// again, and the cells solved in any band leave the other digits. Every
// change to a mask sets its bit (bbFlag), so the fixpoint is the one that
// the rules reach in any order: the counters do not depend on the order.
func (st *bbState) update() bool {
	dirty := st.dirty
	for dirty != 0 {
		i := uint(bits.TrailingZeros32(dirty)) & 31
		d3 := i * 11 >> 5 * 3 // 3*(i/3), as i < 32
		dirty &^= 7 << d3
		g := (*[3]uint32)(st.f[d3 : d3+3]) // digit i/3 in the three bands
		a0, a1, a2 := g[0], g[1], g[2]
		r0 := a0 & bbPermCells[bbShrinkOf(a0)]
		r1 := a1 & bbPermCells[bbShrinkOf(a1)]
		r2 := a2 & bbPermCells[bbShrinkOf(a2)]
		if bbFlag(r0)&bbFlag(r1)&bbFlag(r2) == 0 { // a band where the digit has no place
			st.dirty = dirty | 7<<d3
			return false
		}
		c0, c1, c2 := bbCols(r0), bbCols(r1), bbCols(r2)
		if c0|c1|c2 != 0o777 { // a column where the digit has no place
			st.dirty = dirty | 7<<d3
			return false
		}
		o0, o1, o2 := bbOtherBands[c0], bbOtherBands[c1], bbOtherBands[c2]
		n0 := r0 & o1 & o2 & bbColClaim[c0&^(c1|c2)]
		n1 := r1 & o0 & o2 & bbColClaim[c1&^(c0|c2)]
		n2 := r2 & o0 & o1 & bbColClaim[c2&^(c0|c1)]
		g[0], g[1], g[2] = n0, n1, n2
		dirty |= (bbFlag(r0^n0) | bbFlag(r1^n1)<<1 | bbFlag(r2^n2)<<2) << d3
		s0 := (bbRowSingle[r0&0o777] | bbRowSingle[r0>>9&0o777]<<9 | bbRowSingle[r0>>18&0o777]<<18) & st.unsolved[0]
		s1 := (bbRowSingle[r1&0o777] | bbRowSingle[r1>>9&0o777]<<9 | bbRowSingle[r1>>18&0o777]<<18) & st.unsolved[1]
		s2 := (bbRowSingle[r2&0o777] | bbRowSingle[r2>>9&0o777]<<9 | bbRowSingle[r2>>18&0o777]<<18) & st.unsolved[2]
		if s0|s1|s2 == 0 {
			continue
		}
		ss := [4]uint32{s0, s1, s2} // 4: indexed by b&3 without a bounds check
		var acc uint32
		for nz := bbFlag(s0) | bbFlag(s1)<<1 | bbFlag(s2)<<2; nz != 0; nz &= nz - 1 {
			b := bits.TrailingZeros32(nz) & 3
			solved := ss[b]
			st.unsolved[b] &^= solved
			h := (*[25]uint32)(st.f[b:]) // band b: h[3*d] is digit d
			keep := h[d3]
			acc |= (bbFlag(h[0]&solved) | bbFlag(h[3]&solved)<<3 | bbFlag(h[6]&solved)<<6 |
				bbFlag(h[9]&solved)<<9 | bbFlag(h[12]&solved)<<12 | bbFlag(h[15]&solved)<<15 |
				bbFlag(h[18]&solved)<<18 | bbFlag(h[21]&solved)<<21 | bbFlag(h[24]&solved)<<24) << b
			h[0] &^= solved
			h[3] &^= solved
			h[6] &^= solved
			h[9] &^= solved
			h[12] &^= solved
			h[15] &^= solved
			h[18] &^= solved
			h[21] &^= solved
			h[24] &^= solved
			h[d3] = keep
		}
		dirty |= acc &^ (7 << d3)
	}
	st.dirty = 0
	return true
}

// bbNext[b] and bbNext[b+1] are the two bands other than b.
var bbNext = [4]uint{1, 2, 0, 1}

// bbFlag is 1 if the band mask x (27 bits) is not empty, else 0.
func bbFlag(x uint32) uint32 { return (x + bbAll) >> 27 }

// singles places the naked singles of every band and records the bivalue
// cells. It reports whether it placed any, and false in ok on a
// contradiction (a cell without candidates).
func (st *bbState) singles() (placed, ok bool) {
	for b := 0; b < 3; b++ {
		h := (*[25]uint32)(st.f[b:]) // band b: h[3*d] is digit d
		var c1, c2, c3 uint32        // cells with at least 1, 2, 3 candidates
		count := func(m uint32) { c3, c2, c1 = c3|c2&m, c2|c1&m, c1|m }
		count(h[0])
		count(h[3])
		count(h[6])
		count(h[9])
		count(h[12])
		count(h[15])
		count(h[18])
		count(h[21])
		count(h[24])
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
			st.dirty |= bbFlag(st.f[j]&^bbSelf[k]) << j
			st.f[j] &= bbSelf[k]
			placed = true
		}
	}
	return placed, true
}

// triads applies the triad rules (see the package doc) to every band. It
// reports whether it changed a mask, and false in ok on a contradiction.
// propagate calls it after an update, when every mask is reduced.
//
// For a digit in a band, one 64-bit word holds: bits 0-8, its shrink (the
// mini-rows where it may go, bit 3*row+box); bits 16-24, those alone in
// their row (the digit is locked to them); bits 32-40, the columns where
// it may go (its mini-columns); bits 48-56, those alone in their box. The
// nine words are added up bit-sliced (c1..c4: at least 1..4 digits), so
// c3 &^ c4 is exactly three.
func (st *bbState) triads() (changed, ok bool) {
	const occ = 0o777 | 0o777<<32
	const lock = occ << 16
	for b := 0; b < 3; b++ {
		h := (*[25]uint32)(st.f[b:]) // band b: h[3*d] is digit d
		var t [9]uint64
		var c1, c2, c3, c4 uint64
		for d := 0; d < 9; d++ {
			x := h[3*d]
			sh := bbShrinkOf(x)
			w := uint64(bbTriad[sh]) | uint64(bbTriad[bbCols(x)])<<32
			t[d] = w
			c4, c3, c2, c1 = c4|c3&w, c3|c2&w, c2|c1&w, c1|w
		}
		if c3&occ != occ || c4&lock != 0 {
			return false, false
		}
		u := st.unsolved[b]
		// The triads with an unsolved cell.
		us := uint64(bbShrinkOf(u)) | uint64(bbCols(u))<<32
		ex := c3 &^ c4
		// Hidden triples: the triads with three locked digits lose the others.
		if hl := ex >> 16 & occ & us; hl != 0 {
			for d := 0; d < 9; d++ {
				w := t[d]
				if rm := hl &^ (w >> 16) & w; rm != 0 {
					h[3*d] &^= bbMiniCells[rm&0o777] | bbColCells[rm>>32&0o777]
					st.dirty |= 1 << (3*d + b)
					changed = true
				}
			}
		}
		// Naked triples: the three possible digits of a triad are in it.
		// They leave the rest of the rows of the mini-rows (the band update
		// then clears the rest of their boxes) and the other columns of the
		// boxes of the mini-columns (the band update then clears the rest
		// of the columns).
		e := ex & occ & us
		if e == 0 {
			continue
		}
		for d := 0; d < 9; d++ {
			l := e & t[d]
			rm := bbRowRest[l&0o777] | bbBoxOthers[l>>32&0o777]
			if x := h[3*d]; x&rm != 0 {
				h[3*d] = x &^ rm
				st.dirty |= 1 << (3*d + b)
				changed = true
			}
		}
	}
	return changed, true
}

// propagate alternates band updates and naked singles, and with triads the
// triad rules, until none changes anything. It reports false on a
// contradiction.
func (st *bbState) propagate(triads bool) bool {
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
			if !triads {
				return true
			}
			placed, ok = st.triads()
			if !ok {
				return false
			}
			if !placed {
				return true
			}
		}
	}
}

// branchCell returns the band and cell (within the band) to branch on:
// the bivalue cell with the most unsolved peers, else the unsolved cell
// with the fewest candidates, the first in row-major order on a tie. It
// must be called after a propagation that left unsolved cells.
func (st *bbState) branchCell() (b, k int) {
	if st.pairs[0]|st.pairs[1]|st.pairs[2] != 0 {
		best := -1
		for band := 0; band < 3; band++ {
			for p := st.pairs[band]; p != 0; p &= p - 1 {
				cell := bits.TrailingZeros32(p)
				// Unsolved peers: in the row and box (bbSelf has neither but
				// the cell itself), and in the column in the other bands.
				sc := bits.OnesCount32(st.unsolved[band]&^bbSelf[cell]) +
					bits.OnesCount32((st.unsolved[bbNext[band]]|st.unsolved[bbNext[band+1]])&bbColumn[cell%9])
				if sc > best {
					best, b, k = sc, band, cell
				}
			}
		}
		return b, k
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

// bbSearch is the state of one Solve. The state of a node is a local
// variable of its parent's search call (the root's of solve), so nothing
// is cleared per Solve beyond the root.
type bbSearch struct {
	calls      uint64
	guesses    uint64
	backtracks uint64
	stop       Status // set when a limit stopped the search
	unsolved   int    // with stop: unsolved cells of the node that was stopped
	want       int    // solutions to find before stopping (1 for Solve)
	found      int    // solutions found
	solution   Grid   // the want-th solution, or the first while fewer are found
}

func (bb *bitboard) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	res, _ := bb.solve(ctx, &p, lim, 1)
	return res
}

// count returns the number of solutions of p, up to want (see
// CountSolutions). The Result says how the search ended.
func (bb *bitboard) count(ctx context.Context, p Puzzle, want int) (int, Result) {
	res, found := bb.solve(ctx, &p, Limits{}, want)
	return found, res
}

// solve searches until it has found want solutions (the Result holds the
// last one) or the tree is exhausted.
func (*bitboard) solve(ctx context.Context, p *Puzzle, lim Limits, want int) (Result, int) {
	if p.Box != 3 {
		if err := p.validate(); err != nil {
			return Result{Status: StatusInvalid, Err: err}, 0
		}
		return Result{Status: StatusUnsupported, Err: errBitboardSize}, 0
	}
	bbTables.Do(bbInitTables)
	root, empty, placed := bbRoot(p)
	if !placed {
		if err := p.validate(); err != nil {
			return Result{Status: StatusInvalid, Err: err}, 0
		}
	}

	var s bbSearch
	s.want = want
	// The budget stays outside s: poll leaks its receiver's pointees, and
	// escape analysis would move s to the heap.
	b := newBudget(ctx, lim, bitboardPollEvery)
	solved := false
	if s.calls == b.next {
		if s.stop = b.poll(s.calls); s.stop != StatusNone {
			s.unsolved = root.unsolvedCells()
		}
	}
	if s.stop == StatusNone {
		if placed {
			solved = s.search(&b, &root)
		} else { // cannot happen once validate passed
			s.calls++
			s.backtracks++
		}
	}
	res := Result{Calls: s.calls, Guesses: s.guesses, Backtracks: s.backtracks}
	switch {
	case s.stop != StatusNone:
		res.Status, res.Err = s.stop, b.err
		res.Filled = empty - s.unsolved
	case solved, s.found > 0: // s.found > 0: counting, fewer solutions than wanted
		res.Status, res.Filled = StatusSolved, empty
		res.Solution = s.solution
	default:
		res.Status = StatusUnsolvable
	}
	return res, s.found
}

// unsolvedCells returns the number of unsolved cells of st.
func (st *bbState) unsolvedCells() int {
	return bits.OnesCount32(st.unsolved[0]) + bits.OnesCount32(st.unsolved[1]) + bits.OnesCount32(st.unsolved[2])
}

// search is the search node of state st; the caller has checked the budget
// b. It returns true when the want-th solution is found and false when
// this subtree has no more or s.stop is set. The node's candidates are
// tried on a copy of st in this call's frame.
func (s *bbSearch) search(b *budget, st *bbState) bool {
	s.calls++
	if !st.propagate(s.calls == 1) { // the root is the first node
		s.backtracks++
		return false
	}
	if st.unsolved[0]|st.unsolved[1]|st.unsolved[2] == 0 {
		s.found++
		if s.found == 1 || s.found == s.want { // counting keeps the first
			st.grid(&s.solution)
		}
		return s.found >= s.want
	}
	band, k := st.branchCell()
	bit := uint32(1) << k
	for j := band; j < 27; j += 3 {
		if st.f[j]&bit == 0 {
			continue
		}
		if s.calls == b.next {
			if s.stop = b.poll(s.calls); s.stop != StatusNone {
				s.unsolved = st.unsolvedCells()
				return false
			}
		}
		s.guesses++
		if s.guess(b, st, j, k) {
			return true
		}
		if s.stop != StatusNone {
			return false
		}
		st.f[j] &^= bit
		st.dirty |= 1 << j
	}
	return false
}

// guess searches the child of st where digit j/3 is in cell k of band
// j%3. The child's state is a copy of st in this call's frame (a variable
// of search's loop would escape to the heap).
//
//go:noinline
func (s *bbSearch) guess(b *budget, st *bbState, j, k int) bool {
	child := *st
	child.dirty |= bbFlag(child.f[j]&^bbSelf[k]) << j
	child.f[j] &= bbSelf[k]
	return s.search(b, &child)
}

// grid writes into g the solved grid held by a state whose cells are all
// solved; g's cells beyond the 81st must be zero. Each cell's digit is
// written in binary: bit plane p of a band is the union of the masks of the
// digits with bit p set. For eight cells at a time, the four planes' bytes
// are the rows of an 8x8 bit matrix whose transpose has the cells' digits
// as its bytes. A band's 27 cells are written as four words, the last one
// spilling five zero bytes over the next band, which is written after it
// (and over cells 81-85 of the grid, zero anyway).
func (st *bbState) grid(g *Grid) {
	g.Box = 3
	for b := 0; b < 3; b++ {
		h := (*[25]uint32)(st.f[b:])              // band b: h[3*d] is digit d+1
		p0 := h[0] | h[6] | h[12] | h[18] | h[24] // 1, 3, 5, 7, 9
		p1 := h[3] | h[6] | h[15] | h[18]         // 2, 3, 6, 7
		p2 := h[9] | h[12] | h[15] | h[18]        // 4, 5, 6, 7
		p3 := h[21] | h[24]                       // 8, 9
		out := (*[32]uint8)(g.Cells[27*b : 27*b+32])
		for c := 0; c < 32; c += 8 {
			x := uint64(p0>>c&0xff) | uint64(p1>>c&0xff)<<8 | uint64(p2>>c&0xff)<<16 | uint64(p3>>c&0xff)<<24
			binary.LittleEndian.PutUint64(out[c:], bbTranspose(x))
		}
	}
}

// bbTranspose returns the transpose of the 8x8 bit matrix x (row i is byte
// i, column j is bit j): bit j of byte i goes to bit i of byte j.
func bbTranspose(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00aa00aa00aa00aa
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000cccc0000cccc
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000f0f0f0f0
	return x ^ t ^ t<<28
}
