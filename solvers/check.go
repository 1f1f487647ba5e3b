package solvers

import "fmt"

// Check verifies that g is a solution of p: same size, complete, every
// row, column and box a permutation of 1..N, and every given kept.
// It returns nil for a valid solution and an error that names the first
// fault otherwise.
//
// Check deliberately shares no code with the strategies (not even the
// puzzle validation or the unit tables), so that a bug there cannot hide
// a wrong answer here. It is safe for concurrent use.
func Check(p Puzzle, g Grid) error {
	if g.Box != p.Box {
		return fmt.Errorf("solution has box size %d, puzzle %d", g.Box, p.Box)
	}
	n := p.Box
	if n < 2 || n > 4 {
		return fmt.Errorf("unsupported box size %d", n)
	}
	if n != 3 {
		return fault(&p, &g, n) // 4x4 and 16x16 are rare: the plain count
	}
	// 9x9, every solved unit of a sweep: a fast check, then the plain
	// count to describe a failure.
	if valid9((*[81]uint8)(p.Cells[:81]), (*[81]uint8)(g.Cells[:81])) {
		return nil
	}
	if err := fault(&p, &g, n); err != nil {
		return err
	}
	return fmt.Errorf("wrong solution (a fault that Check cannot name: a bug in solvers.Check)")
}

// valid9 reports whether cells solve the 9x9 puzzle givens: one pass over
// the cells ORs each value's bit into its row, column and box (in
// check9Units, Check's own table, not the strategies'). A unit of nine
// cells holding values in 1..9 holds each once exactly when it holds them
// all; a given is kept when given*(given^v) is 0.
func valid9(givens, cells *[81]uint8) bool {
	var rows, cols, boxes [16]uint16
	var changed uint32
	var top uint8 // the largest value-1 (255 for a 0)
	for i, v := range cells {
		given := uint32(givens[i])
		changed |= given * (given ^ uint32(v))
		top = max(top, v-1)
		bit := uint16(1) << (v & 15)
		u := &check9Units[i]
		rows[u[0]&15] |= bit
		cols[u[1]&15] |= bit
		boxes[u[2]&15] |= bit
	}
	if changed != 0 || top > 8 {
		return false
	}
	all := uint16(0b11_1111_1110)
	for k := range 9 {
		all &= rows[k] & cols[k] & boxes[k]
	}
	// Every unit has nine cells holding values in 1..9: it holds each
	// once exactly when it holds them all.
	return all == 0b11_1111_1110
}

// check9Units holds the row, column and box of each cell of a 9x9 grid.
var check9Units = func() (t [81][3]uint8) {
	for i := range t {
		r, c := i/9, i%9
		t[i] = [3]uint8{uint8(r), uint8(c), uint8(r/3*3 + c/3)}
	}
	return t
}()

// fault names the first fault of g as a solution of p, with box size n
// (nil if there is none): cells in row-major order, then each row, column
// and box, counting every value. It is slow and plain: Check calls it only
// to describe a failure, and the tests compare Check with it.
func fault(p *Puzzle, g *Grid, n int) error {
	side := n * n
	for i := 0; i < side*side; i++ {
		v, given := g.Cells[i], p.Cells[i]
		if v == 0 || int(v) > side {
			return fmt.Errorf("cell r%dc%d holds %d: not a value in 1..%d", i/side+1, i%side+1, v, side)
		}
		if given != 0 && given != v {
			return fmt.Errorf("cell r%dc%d holds %d but the given is %d", i/side+1, i%side+1, v, given)
		}
	}
	// Count each value in each unit.
	for u := 0; u < side; u++ {
		var inRow, inCol, inBox [17]int
		for k := 0; k < side; k++ {
			inRow[g.Cells[u*side+k]]++
			inCol[g.Cells[k*side+u]]++
			r := (u/n)*n + k/n
			c := (u%n)*n + k%n
			inBox[g.Cells[r*side+c]]++
		}
		for v := 1; v <= side; v++ {
			switch {
			case inRow[v] != 1:
				return fmt.Errorf("row %d holds %d %d times", u+1, v, inRow[v])
			case inCol[v] != 1:
				return fmt.Errorf("column %d holds %d %d times", u+1, v, inCol[v])
			case inBox[v] != 1:
				return fmt.Errorf("box %d holds %d %d times", u+1, v, inBox[v])
			}
		}
	}
	return nil
}
