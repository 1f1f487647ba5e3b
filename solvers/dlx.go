package solvers

import (
	"context"
	"encoding/binary"
	"math/bits"
)

// dlx is Knuth's Algorithm X on the Sudoku exact-cover matrix, with the
// matrix held in dancing links (source: Knuth, "Dancing Links", as
// summarised in docs/DESIGN.md's strategy table; the paper itself was not at
// hand, so this follows the algorithm as published and docs/DESIGN.md's counting).
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
// is not counted; it does so by building directly the matrix that covering
// them would leave (see build). Then the recursive search runs (written as
// a loop): if no column is left the grid is solved; otherwise it chooses
// the column with the fewest nodes, the first such column in header order
// on ties (Knuth's S heuristic); a column with no node makes this search
// node fail. Otherwise it covers the column and tries each row of it from
// top to bottom: it covers the row's other columns, recurses, and uncovers
// them again if the recursion found no solution. The first solution found
// is returned.
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
// The links are indices into arrays, not pointers. The matrix of a
// 9x9 or 4x4 grid is a fixed-size array on the stack, so such a Solve does
// not allocate; a 16x16 Solve makes one allocation (room for 17412 nodes).
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
// padding up to dlxRowBase(n), a multiple of 4, then the rows left after
// the givens, four nodes each in column group order, in increasing
// candidate id (r*N+c)*N+d. Algorithm X never relinks a row left to right,
// so a row's left-right cycle is implicit: the node right of x is
// x&^3 | (x+1)&3.
//
// A node's links are 32-bit, and its column is kept apart, in dlxSearch.col
// (a row's candidate id too, in dlxSearch.ids at its first node's index / 4):
// amd64 has no 16-bit load or store indexed by 8, so each 16-bit field of an
// 8-byte node cost two address computations more.
type dlxNode struct {
	u, d uint32 // up and down neighbours
}

// dlxHead holds the left and right neighbours of a column header (or of
// the root) in the list of the columns not yet covered. They are 32-bit
// for the same reason as a node's links (amd64 has no 16-bit load indexed
// by 4 either).
type dlxHead struct{ l, r uint32 }

// dlxRowBase returns the index of the first row node for box size n.
func dlxRowBase(n int) int { return (1 + 4*n*n*n*n + 3) &^ 3 }

// dlxNodes returns the length of the node array for box size n (room for
// every row of an empty grid).
func dlxNodes(n int) int { return dlxRowBase(n) + 4*n*n*n*n*n*n }

// Array sizes for 9x9 (which also holds a 4x4) and for 16x16.
const (
	dlxNodes9    = (1+4*81+3)&^3 + 4*729
	dlxHeads9    = 1 + 4*81
	dlxNodes16   = (1+4*256+3)&^3 + 4*4096
	dlxHeads16   = 1 + 4*256
	dlxSizeBytes = 2048 // > dlxHeads16, a power of two: indexes are masked
)

// dlxSmall is the matrix of a 9x9 grid, or of a 4x4 grid in its prefix.
type dlxSmall struct {
	nodes [dlxNodes9]dlxNode
	cols  [dlxNodes9]uint16
	ids   [dlxNodes9 / 4]uint16
	heads [dlxHeads9]dlxHead
}

// dlxLarge is the matrix of a 16x16 grid.
type dlxLarge struct {
	nodes [dlxNodes16]dlxNode
	cols  [dlxNodes16]uint16
	ids   [dlxNodes16 / 4]uint16
	heads [dlxHeads16]dlxHead
}

// The number of nodes of each column is kept apart from the links, one byte
// per column header (index h), so that the column with the fewest nodes is
// found eight columns at a time (see choose). A covered column has its high
// bit set (its count does not change while it is covered); the root's byte
// and the padding bytes are 0xFF.
const (
	dlxCoveredBit = 0x80
)

// dlxSearch is the state of one Solve: the matrix and the search path.
type dlxSearch struct {
	m          []dlxNode
	col        []uint16 // each node's column header (a header: itself)
	ids        []uint16 // at x/4 for the first node x of a row: candidate id (r*N+c)*N+d
	h          []dlxHead
	sizes      [dlxSizeBytes]uint8 // nodes in each column; see the constants above
	nwords     int                 // 8-byte words of sizes in use
	nzero      int                 // columns not covered that have no node
	path       [MaxCells]uint16    // the row node selected at each depth
	chosen     [MaxCells]uint16    // the column covered at each depth
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
	if countersChangeBuild { // the counterschange tag (counterschange.go); removed otherwise
		countersChange(&p, lim, &res)
	}
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
	var s dlxSearch
	s.want = want
	if p.Box <= 3 {
		var mat dlxSmall // on the stack
		s.m, s.col, s.ids, s.h = mat.nodes[:], mat.cols[:], mat.ids[:], mat.heads[:]
	} else {
		mat := new(dlxLarge)
		s.m, s.col, s.ids, s.h = mat.nodes[:], mat.cols[:], mat.ids[:], mat.heads[:]
	}
	s.build(&p)
	// The budget stays outside s: poll leaks its receiver's pointees, and
	// escape analysis would move the node array to the heap with it.
	b := newBudget(ctx, lim, dlxPollEvery)

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
		side := p.Side()
		for _, x := range s.path[:s.depth] {
			id := int(s.ids[x/4])
			g.Cells[id/side] = uint8(id%side + 1)
		}
		res.Solution = g
	default:
		res.Status = StatusUnsolvable
	}
	return res, s.found
}

// build makes in s.m, s.col, s.ids and s.h (zeroed, at least dlxNodes,
// dlxNodes, dlxNodes/4 and C+1 long) the matrix of p as it is once the rows
// of its givens are selected, that is once the givens' columns are
// covered: those columns are out of the header list (their size bytes
// have the covered bit), and the columns left hold
// exactly the rows none of whose columns is covered, the candidates that
// no given rules out, in increasing order. Covering the givens one by one
// on the full matrix leaves the same lists, so the search that follows is
// the same; building them directly skips the rows that are ruled out.
// p must be valid.
func (s *dlxSearch) build(p *Puzzle) {
	geo := geometryOf(p.Box)
	side := geo.side
	area := side * side
	ncols := 4 * area
	// used[0][r] has bit c set when cell (r, c) is given; used[1][r],
	// used[2][c] and used[3][b] have bit d-1 set when digit d is given in
	// row r, column c, box b. So column 1 + g*N*N + u*N + k is covered
	// exactly when bit k of used[g][u] is set.
	var used [4][16]uint32
	cells := p.Cells[:geo.cells]
	for i, v := range cells {
		if v != 0 {
			r, c := geo.row[i]&15, geo.col[i]&15
			bit := uint32(1) << (v - 1)
			used[0][r] |= 1 << c
			used[1][r] |= bit
			used[2][c] |= bit
			used[3][geo.blk[i]&15] |= bit
		}
	}
	s.m, s.col, s.ids, s.h = s.m[:dlxNodes(p.Box)], s.col[:dlxNodes(p.Box)], s.ids[:dlxNodes(p.Box)/4], s.h[:ncols+1]
	m, h, col, ids := s.m, s.h, s.col, s.ids
	s.nwords = (ncols + 1 + 7) / 8
	sizes := s.sizes[:8*s.nwords]
	sizes[0] = 0xFF
	for i := ncols + 1; i < len(sizes); i++ {
		sizes[i] = 0xFF
	}
	// The headers; the columns not covered in a circular list through the
	// root, in header order. (A covered column is linked from the last
	// column kept, which the next column kept overwrites.)
	copy(m, dlxHeaders[:ncols+1])
	copy(col, dlxHeaderCols[:ncols+1])
	prev, hc := 0, 1
	for g := range used {
		for _, w := range used[g][:side] {
			for k := 0; k < side; k, hc = k+1, hc+1 {
				covered := int(w >> k & 1)
				sizes[hc] = uint8(covered << 7)
				h[prev].r, h[hc].l = uint32(hc), uint32(prev)
				prev += (hc - prev) & (covered - 1)
			}
		}
	}
	h[prev].r, h[0].l = 0, uint32(prev)
	// The rows left, each appended at the bottom of its four columns; the
	// header's u is the bottom of its column. The rows of a cell are
	// consecutive, and so is its column.
	x := dlxRowBase(p.Box)
	all := uint32(1)<<side - 1
	for i, v := range cells {
		if v != 0 {
			continue
		}
		r, c, b := int(geo.row[i]&15), int(geo.col[i]&15), int(geo.blk[i]&15)
		cand := all &^ (used[1][r] | used[2][c] | used[3][b])
		h0, h1, h2, h3 := 1+i, 1+area+r*side, 1+2*area+c*side, 1+3*area+b*side
		sizes[h0] = uint8(bits.OnesCount32(cand))
		up := h0
		for ; cand != 0; cand &= cand - 1 {
			d := bits.TrailingZeros32(cand)
			id := uint16(i*side + d)
			m[x] = dlxNode{u: uint32(up), d: uint32(h0)}
			col[x] = uint16(h0)
			ids[x/4] = id
			m[up].d = uint32(x)
			up = x
			dlxAppend(m, col, sizes, x+1, h1+d)
			dlxAppend(m, col, sizes, x+2, h2+d)
			dlxAppend(m, col, sizes, x+3, h3+d)
			x += 4
		}
		m[h0].u = uint32(up)
	}
	// Count the columns left with no node, eight at a time.
	for i := 0; i < len(sizes); i += 8 {
		w := binary.LittleEndian.Uint64(sizes[i:])
		s.nzero += 8 - bits.OnesCount64(nonZeroBytes(w))
	}
}

// dlxAppend makes x a node of row id at the bottom of column hc: the
// header's u is the bottom node.
func dlxAppend(m []dlxNode, col []uint16, sizes []uint8, x, hc int) {
	up := m[hc].u
	m[x] = dlxNode{u: up, d: uint32(hc)}
	col[x] = uint16(hc)
	m[up].d = uint32(x)
	m[hc].u = uint32(x)
	sizes[hc]++
}

// dlxHeaders holds the column headers of every box size, each alone in
// its column, for build to copy.
var dlxHeaders, dlxHeaderCols = func() (m [dlxHeads16]dlxNode, col [dlxHeads16]uint16) {
	for hc := range m {
		m[hc] = dlxNode{u: uint32(hc), d: uint32(hc)}
		col[hc] = uint16(hc)
	}
	return m, col
}()

// search runs Algorithm X from the root node. The caller has checked the
// budget b. It returns true when a solution is found (the path then holds
// it) and false when there is none or s.stop is set; in both true and
// stopped cases the matrix is left as it is.
//
// It is the recursive procedure of the doc comment with the recursion
// unrolled: the search node at depth d has covered column s.chosen[d] and
// is trying row s.path[d]; the counters and the order of every cover and
// uncover are those of the recursion.
func (s *dlxSearch) search(b *budget) bool {
	m, col := s.m, s.col
	depth := s.depth
	for {
		// A new search node at depth: choose its column and its first row x.
		s.calls++
		var x uint16
		haveRow := false
		if s.h[0].r == 0 {
			s.found++
			if s.found >= s.want { // counting: search on past the first
				s.depth = depth
				return true
			}
		} else if c := s.choose(); c != 0 {
			s.cover(c)
			s.chosen[depth] = c
			x, haveRow = uint16(m[c].d), true // c has a node
		}
		// While the node at depth failed, go back to its parent and move on
		// to the parent's next row.
		for !haveRow {
			if depth == 0 {
				s.depth = 0
				return false
			}
			depth--
			s.backtracks++
			x = s.path[depth]
			row, k := x&^3, x&3
			s.uncover(col[row|(k+3)&3])
			s.uncover(col[row|(k+2)&3])
			s.uncover(col[row|(k+1)&3])
			c := s.chosen[depth]
			if x = uint16(m[x].d); x != c {
				haveRow = true
			} else {
				s.uncover(c)
			}
		}
		// Try row x: select it and cover its other columns, left to right.
		if s.calls == b.next {
			if s.stop = b.poll(s.calls); s.stop != StatusNone {
				s.depth = depth
				return false
			}
		}
		s.guesses++
		s.path[depth] = x
		depth++
		row, k := x&^3, x&3
		s.cover(col[row|(k+1)&3])
		s.cover(col[row|(k+2)&3])
		s.cover(col[row|(k+3)&3])
	}
}

// choose returns the first column in header order with the fewest nodes
// (Knuth's S heuristic), or 0 (the root) if that column has no node. There must be a
// column left. Columns with no node are counted as they appear (nzero), so
// only the sizes from 1 up are searched for: the size bytes are scanned
// eight at a time, one scan per size, and a scan stops at the first column
// of its size. Covered columns never match, their high bit being set.
func (s *dlxSearch) choose() uint16 {
	if s.nzero != 0 {
		return 0
	}
	sizes := s.sizes[:8*s.nwords]
	for v := uint64(1); v <= 16; v++ {
		pattern := v * swarLow
		for i := 0; i < len(sizes); i += 8 {
			// (x - ones) &^ x & highs is non-zero exactly when a byte of x
			// is zero, and its lowest flagged byte is the first zero byte.
			x := binary.LittleEndian.Uint64(sizes[i:]) ^ pattern
			if z := (x - swarLow) &^ x & swarHigh; z != 0 {
				return uint16(i + bits.TrailingZeros64(z)/8)
			}
		}
	}
	panic("dlx: choose called with no column left")
}

// cover removes column c from the header list and every row of c from the
// other columns it meets (Knuth's cover; a row's nodes are visited left to
// right from the node in c).
func (s *dlxSearch) cover(c uint16) {
	m, col, h, sizes := s.m, s.col, s.h, &s.sizes
	l, r := h[c].l, h[c].r
	h[l].r = r
	h[r].l = l
	nz := s.nzero
	if sizes[c%dlxSizeBytes] == 0 {
		nz--
	}
	sizes[c%dlxSizeBytes] |= dlxCoveredBit
	for i := m[c].d; i != uint32(c); i = m[i].d {
		row, k := i&^3, i&3
		nz += dlxUnlink(m, col, sizes, row|(k+1)&3)
		nz += dlxUnlink(m, col, sizes, row|(k+2)&3)
		nz += dlxUnlink(m, col, sizes, row|(k+3)&3)
	}
	s.nzero = nz
}

// uncover undoes cover(c), in the exact reverse order.
func (s *dlxSearch) uncover(c uint16) {
	m, col, h, sizes := s.m, s.col, s.h, &s.sizes
	nz := s.nzero
	for i := m[c].u; i != uint32(c); i = m[i].u {
		row, k := i&^3, i&3
		nz -= dlxRelink(m, col, sizes, row|(k+3)&3)
		nz -= dlxRelink(m, col, sizes, row|(k+2)&3)
		nz -= dlxRelink(m, col, sizes, row|(k+1)&3)
	}
	if sizes[c%dlxSizeBytes] &^= dlxCoveredBit; sizes[c%dlxSizeBytes] == 0 {
		nz++
	}
	s.nzero = nz
	l, r := h[c].l, h[c].r
	h[l].r = uint32(c)
	h[r].l = uint32(c)
}

// dlxUnlink removes row node j from its column's list, and returns 1 if
// the column is left with no node, else 0. The column is not covered (a
// row met by a covered column is out of every other column).
func dlxUnlink(m []dlxNode, col []uint16, sizes *[dlxSizeBytes]uint8, j uint32) int {
	n := m[j]
	m[n.u].d = n.d
	m[n.d].u = n.u
	size := &sizes[col[j]%dlxSizeBytes]
	*size--
	if *size == 0 {
		return 1
	}
	return 0
}

// dlxRelink puts row node j back in its column's list (undoes dlxUnlink),
// and returns 1 if the column had no node, else 0.
func dlxRelink(m []dlxNode, col []uint16, sizes *[dlxSizeBytes]uint8, j uint32) int {
	n := m[j]
	size := &sizes[col[j]%dlxSizeBytes]
	was := *size
	*size = was + 1
	m[n.u].d = j
	m[n.d].u = j
	if was == 0 {
		return 1
	}
	return 0
}
