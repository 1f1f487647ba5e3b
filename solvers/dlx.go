package solvers

import (
	"context"
	"encoding/binary"
	"math/bits"
)

// dlx is Knuth's Algorithm X on the Sudoku exact-cover matrix, with the
// matrix held in dancing links (source: Knuth, "Dancing Links", as
// summarised in DESIGN.md's strategy table; the paper itself was not at
// hand, so this follows the algorithm as published and DESIGN.md's counting).
//
// The matrix of a grid of side N has 4*N*N columns, in this header order:
//
//  1. cell (r, c) is filled:       column             r*N + c
//  2. row r holds digit d:         column   N*N   +   r*N + d
//  3. column c holds digit d:      column 2*N*N   +   c*N + d
//  4. box b holds digit d:         column 3*N*N   +   b*N + d
//
// and N*N*N rows, one per candidate (r, c, d), in increasing (r, c, d)
// order, each with one node in each of the four column groups, linked left
// to right in that group order. Every column list is therefore in
// increasing (r, c, d) order from top to bottom.
//
// Solve first selects the rows of the givens (it covers their columns), which
// is not counted. Then the recursive search runs: if no column is left the
// grid is solved; otherwise it chooses the column with the fewest nodes, the
// first such column in header order on ties (Knuth's S heuristic); a column
// with no node makes this search node fail. Otherwise it covers the column
// and tries each row of it from top to bottom: it covers the row's other
// columns, recurses, and uncovers them again if the recursion found no
// solution. The first solution found is returned.
//
// Counters:
//   - Calls: search nodes, i.e. invocations of the recursive search
//     procedure, including the root;
//   - Guesses: rows tried (each leads to exactly one search call, so
//     Calls == Guesses + 1 whenever the search ends or is stopped);
//   - Backtracks: rows that failed (the search below them found no solution).
//
// Limits are checked before each row is tried (and before the root), so a
// stopped search has made exactly as many calls as MaxCalls allows; the
// clock is read every dlxPollEvery calls. Filled for a stopped search is the
// number of rows selected on the current search path (cells holding a
// value).
//
// The links are int16 indices into arrays, not pointers. The matrix of a
// 9x9 or 4x4 grid is one fixed-size array value copied from a template built
// at package initialisation onto the stack, so such a Solve does not
// allocate; a 16x16 Solve makes one allocation (its 17412 nodes).
//
// A dlx value has no state: one value serves any number of goroutines.
type dlx struct{}

var _ Solver = (*dlx)(nil)

func (*dlx) Name() string { return "dlx" }

func (*dlx) Describe() string {
	return "Knuth's Algorithm X with dancing links, column with fewest nodes first; " +
		"calls = search nodes, guesses = rows tried, backtracks = rows that failed"
}

// dlxPollEvery is how many search nodes pass between two clock reads.
const dlxPollEvery = 4096

// dlxNode is a column header or a row node, in its column's up-down list.
//
// Layout of the node array for box size n (N = n*n, C = 4*N*N columns):
// node 0 is the root, nodes 1..C the column headers in header order, then
// padding up to dlxRowBase(n), a multiple of 4, then the rows: candidate
// id = (r*N+c)*N+d has its four nodes at dlxRowBase(n)+4*id+k, k = 0..3 in
// column group order. Algorithm X never relinks a row left to right, so a
// row's left-right cycle is implicit: the node right of x is x&^3 | (x+1)&3.
type dlxNode struct {
	u, d int16 // up and down neighbours
	col  int16 // the node's column header (a header: itself)
	id   int16 // row node: candidate id (r*N+c)*N+d; header: -1
}

// dlxHead holds the left and right neighbours of a column header (or of
// the root) in the list of the columns not yet covered.
type dlxHead struct{ l, r int16 }

// dlxRowBase returns the index of the first row node for box size n.
func dlxRowBase(n int) int { return (1 + 4*n*n*n*n + 3) &^ 3 }

// dlxNodes returns the length of the node array for box size n.
func dlxNodes(n int) int { return dlxRowBase(n) + 4*n*n*n*n*n*n }

// Array sizes for 9x9 (which also holds a 4x4) and for 16x16.
const (
	dlxNodes9    = (1+4*81+3)&^3 + 4*729
	dlxHeads9    = 1 + 4*81
	dlxNodes16   = (1+4*256+3)&^3 + 4*4096
	dlxHeads16   = 1 + 4*256
	dlxSizeBytes = (dlxHeads16 + 7) &^ 7
)

// dlxSmall is the matrix of a 9x9 grid, or of a 4x4 grid in its prefix.
type dlxSmall struct {
	nodes [dlxNodes9]dlxNode
	heads [dlxHeads9]dlxHead
}

// dlxLarge is the matrix of a 16x16 grid.
type dlxLarge struct {
	nodes [dlxNodes16]dlxNode
	heads [dlxHeads16]dlxHead
}

// The number of nodes of each column is kept apart from the links, one byte
// per column header (index h), so that the column with the fewest nodes is
// found eight columns at a time (see choose). A covered column has its high
// bit set (its count does not change while it is covered); the root's byte
// and the padding bytes are 0xFF.
const (
	dlxOnes       = 0x0101010101010101
	dlxHighs      = 0x8080808080808080
	dlxCoveredBit = 0x80
)

// dlxMatrix is the initial matrix for one box size.
type dlxMatrix struct {
	nodes  []dlxNode
	heads  []dlxHead
	sizes  [dlxSizeBytes]uint8
	nwords int       // 8-byte words of sizes in use
	small  *dlxSmall // nodes and heads again as one array value (box 2 and 3)
}

// dlxTemplates holds the initial matrix of each box size, built once and
// never written afterwards (safe for concurrent use).
var dlxTemplates = [5]*dlxMatrix{2: newDLXMatrix(2), 3: newDLXMatrix(3), 4: newDLXMatrix(4)}

// newDLXMatrix builds the full exact-cover matrix for box size n.
func newDLXMatrix(n int) *dlxMatrix {
	side := n * n
	ncols := 4 * side * side
	t := &dlxMatrix{nwords: (ncols + 1 + 7) / 8}
	var m []dlxNode
	if n <= 3 {
		t.small = new(dlxSmall)
		m, t.heads = t.small.nodes[:dlxNodes(n)], t.small.heads[:ncols+1]
	} else {
		m, t.heads = make([]dlxNode, dlxNodes(n)), make([]dlxHead, ncols+1)
	}
	t.nodes = m
	var size [dlxHeads16]int
	// Headers 1..ncols in a circular list through the root 0.
	for i := 0; i <= ncols; i++ {
		m[i] = dlxNode{u: int16(i), d: int16(i), col: int16(i), id: -1}
		t.heads[i] = dlxHead{l: int16(i - 1), r: int16(i + 1)}
	}
	t.heads[0].l, t.heads[ncols].r = int16(ncols), 0
	x := dlxRowBase(n)
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			b := (r/n)*n + c/n
			for d := 0; d < side; d++ {
				cols := [4]int{
					1 + r*side + c,
					1 + side*side + r*side + d,
					1 + 2*side*side + c*side + d,
					1 + 3*side*side + b*side + d,
				}
				for _, h := range cols {
					// Append x at the bottom of column h.
					up := int(m[h].u)
					m[x] = dlxNode{u: int16(up), d: int16(h), col: int16(h), id: int16((r*side+c)*side + d)}
					m[up].d = int16(x)
					m[h].u = int16(x)
					size[h]++
					x++
				}
			}
		}
	}
	for i := range t.sizes {
		t.sizes[i] = 0xFF
	}
	for h := 1; h <= ncols; h++ {
		t.sizes[h] = uint8(size[h])
	}
	return t
}

// dlxSearch is the state of one Solve: the matrix and the search path.
type dlxSearch struct {
	m          []dlxNode
	h          []dlxHead
	sizes      [dlxSizeBytes]uint8 // nodes in each column; see dlxMatrix
	nwords     int
	path       [MaxCells]int16 // the row node selected at each depth
	depth      int
	calls      uint64
	guesses    uint64
	backtracks uint64
	stop       Status // set when a limit stopped the search
	want       int    // solutions to find before stopping (1 for Solve)
	found      int    // solutions found
}

func (x *dlx) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	res, _ := x.solve(ctx, p, lim, 1)
	return res
}

// count returns the number of solutions of p, up to want (see
// CountSolutions), and how the search ended.
func (x *dlx) count(ctx context.Context, p Puzzle, want int) (int, Result) {
	res, found := x.solve(ctx, p, Limits{}, want)
	return found, res
}

// solve searches until it has found want solutions (the Result then holds
// the last one) or the tree is exhausted.
func (*dlx) solve(ctx context.Context, p Puzzle, lim Limits, want int) (Result, int) {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}, 0
	}
	tmpl := dlxTemplates[p.Box]
	var s dlxSearch
	s.want = want
	if tmpl.small != nil {
		mat := *tmpl.small // one copy of a fixed-size array value, on the stack
		s.m, s.h = mat.nodes[:len(tmpl.nodes)], mat.heads[:len(tmpl.heads)]
	} else {
		mat := new(dlxLarge)
		s.m, s.h = mat.nodes[:len(tmpl.nodes)], mat.heads[:len(tmpl.heads)]
		copy(s.m, tmpl.nodes)
		copy(s.h, tmpl.heads)
	}
	s.sizes, s.nwords = tmpl.sizes, tmpl.nwords
	// The budget stays outside s: poll leaks its receiver's pointees, and
	// escape analysis would move the node array to the heap with it.
	b := newBudget(ctx, lim, dlxPollEvery)

	side := p.Side()
	rows := dlxRowBase(p.Box)
	for i, v := range p.Cells[:p.Len()] {
		if v == 0 {
			continue
		}
		row := rows + 4*(i*side+int(v)-1)
		for k := 0; k < 4; k++ {
			s.cover(s.m[row+k].col)
		}
	}

	solved := false
	if s.calls == b.next {
		s.stop = b.poll(s.calls)
	}
	if s.stop == StatusNone {
		solved = s.search(&b)
	}
	res := Result{Calls: s.calls, Guesses: s.guesses, Backtracks: s.backtracks, Filled: s.depth}
	switch {
	case s.stop != StatusNone:
		res.Status, res.Err = s.stop, b.err
	case solved:
		res.Status = StatusSolved
		g := p.Grid
		for _, x := range s.path[:s.depth] {
			id := int(s.m[x].id)
			g.Cells[id/side] = uint8(id%side + 1)
		}
		res.Solution = g
	default:
		res.Status = StatusUnsolvable
	}
	return res, s.found
}

// search is one node of Algorithm X. The caller has checked the budget b.
// It returns true when a solution is found (the path then holds it) and
// false when this subtree has none or s.stop is set; in both true and
// stopped cases the matrix is left as it is.
func (s *dlxSearch) search(b *budget) bool {
	s.calls++
	if s.h[0].r == 0 {
		s.found++
		return s.found >= s.want // counting: search on past the first
	}
	c := s.choose()
	if c < 0 {
		return false
	}
	s.cover(c)
	m := s.m
	for x := m[c].d; x != c; x = m[x].d {
		if s.calls == b.next {
			if s.stop = b.poll(s.calls); s.stop != StatusNone {
				return false
			}
		}
		s.guesses++
		s.path[s.depth] = x
		s.depth++
		// The row's other nodes, left to right from x.
		row, k := x&^3, x&3
		c1, c2, c3 := m[row|(k+1)&3].col, m[row|(k+2)&3].col, m[row|(k+3)&3].col
		s.cover(c1)
		s.cover(c2)
		s.cover(c3)
		if s.search(b) {
			return true
		}
		if s.stop != StatusNone {
			return false
		}
		s.backtracks++
		s.uncover(c3)
		s.uncover(c2)
		s.uncover(c1)
		s.depth--
	}
	s.uncover(c)
	return false
}

// choose returns the first column in header order with the fewest nodes
// (Knuth's S heuristic), or -1 if that column has no node. There must be a
// column left. The size bytes are scanned eight at a time: a first scan
// looks for the first column of size 1 while testing every word for a
// column of size 0 (which wins wherever it is); if there is neither, one
// scan per size from 2 up stops at the first column of that size. Covered
// columns never match, their high bit being set.
func (s *dlxSearch) choose() int16 {
	sizes := s.sizes[:8*s.nwords]
	// (w - ones) &^ w & highs is non-zero exactly when a byte of w is zero,
	// and its lowest flagged byte is the first zero byte of w.
	var zeros uint64
	for i := 0; i < len(sizes); i += 8 {
		w := binary.LittleEndian.Uint64(sizes[i:])
		zeros |= (w - dlxOnes) &^ w
		x := w ^ dlxOnes
		if z := (x - dlxOnes) &^ x & dlxHighs; z != 0 {
			for j := i + 8; j < len(sizes); j += 8 {
				w := binary.LittleEndian.Uint64(sizes[j:])
				zeros |= (w - dlxOnes) &^ w
			}
			if zeros&dlxHighs != 0 {
				return -1
			}
			return int16(i + bits.TrailingZeros64(z)/8)
		}
	}
	if zeros&dlxHighs != 0 {
		return -1
	}
	for v := uint64(2); v <= 16; v++ {
		pattern := v * dlxOnes
		for i := 0; i < len(sizes); i += 8 {
			x := binary.LittleEndian.Uint64(sizes[i:]) ^ pattern
			if z := (x - dlxOnes) &^ x & dlxHighs; z != 0 {
				return int16(i + bits.TrailingZeros64(z)/8)
			}
		}
	}
	panic("dlx: choose called with no column left")
}

// cover removes column c from the header list and every row of c from the
// other columns it meets (Knuth's cover; a row's nodes are visited left to
// right from the node in c).
func (s *dlxSearch) cover(c int16) {
	m, h := s.m, s.h
	l, r := h[c].l, h[c].r
	h[l].r = r
	h[r].l = l
	s.sizes[c] |= dlxCoveredBit
	for i := m[c].d; i != c; i = m[i].d {
		row, k := i&^3, i&3
		s.unlink(row | (k+1)&3)
		s.unlink(row | (k+2)&3)
		s.unlink(row | (k+3)&3)
	}
}

// uncover undoes cover(c), in the exact reverse order.
func (s *dlxSearch) uncover(c int16) {
	m, h := s.m, s.h
	for i := m[c].u; i != c; i = m[i].u {
		row, k := i&^3, i&3
		s.relink(row | (k+3)&3)
		s.relink(row | (k+2)&3)
		s.relink(row | (k+1)&3)
	}
	s.sizes[c] &^= dlxCoveredBit
	l, r := h[c].l, h[c].r
	h[l].r = c
	h[r].l = c
}

// unlink removes row node j from its column's list.
func (s *dlxSearch) unlink(j int16) {
	m := s.m
	n := m[j]
	m[n.u].d = n.d
	m[n.d].u = n.u
	s.sizes[n.col]--
}

// relink puts row node j back in its column's list (undoes unlink).
func (s *dlxSearch) relink(j int16) {
	m := s.m
	n := m[j]
	s.sizes[n.col]++
	m[n.u].d = j
	m[n.d].u = j
}
