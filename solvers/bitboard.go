package solvers

import (
	"context"
	"errors"
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
