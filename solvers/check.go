package solvers

import (
	"encoding/binary"
	"fmt"
)

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

// valid9 reports whether cells solve the 9x9 puzzle givens, in registers:
// each cell's value becomes one bit in a 16-bit lane (check9Bit: nothing
// for a value out of 1..9), three cells of a row segment to a word, so
// that ORing words gives the units. A row ORs its three words, a column
// lane ORs the words of its segment down the grid, a box the three words
// of its segment in a band. A unit of nine cells holds each of 1..9 once
// exactly when its OR has all nine bits: a cell out of range adds no bit,
// so its units cannot be complete. A given is kept when its byte is zero
// or equal to the cell's (eight bytes at a time).
func valid9(givens, cells *[81]uint8) bool {
	var changed uint64
	for i := 0; i < 80; i += 8 {
		g := binary.LittleEndian.Uint64(givens[i : i+8])
		c := binary.LittleEndian.Uint64(cells[i : i+8])
		changed |= nonZero8(g) & nonZero8(g^c)
	}
	if g := givens[80]; g != 0 && g != cells[80] {
		return false
	}
	all := uint64(0x1ff)
	var col0, col1, col2 uint64 // column lanes of segments 0, 1, 2
	for band := 0; band < 81; band += 27 {
		var box0, box1, box2 uint64
		for r := band; r < band+27; r += 9 {
			c := (*[9]uint8)(cells[r : r+9])
			s0 := uint64(check9Bit[c[0]]) | uint64(check9Bit[c[1]])<<16 | uint64(check9Bit[c[2]])<<32
			s1 := uint64(check9Bit[c[3]]) | uint64(check9Bit[c[4]])<<16 | uint64(check9Bit[c[5]])<<32
			s2 := uint64(check9Bit[c[6]]) | uint64(check9Bit[c[7]])<<16 | uint64(check9Bit[c[8]])<<32
			all &= lanesOr(s0 | s1 | s2)
			col0, col1, col2 = col0|s0, col1|s1, col2|s2
			box0, box1, box2 = box0|s0, box1|s1, box2|s2
		}
		all &= lanesOr(box0) & lanesOr(box1) & lanesOr(box2)
	}
	all &= lanesAnd(col0) & lanesAnd(col1) & lanesAnd(col2)
	return changed == 0 && all == 0x1ff
}

// lanesOr returns the OR of the three low 16-bit lanes of w, in the low
// lane (the bits above are garbage the caller masks off).
func lanesOr(w uint64) uint64 { return (w | w>>16 | w>>32) & 0xffff }

// lanesAnd returns the AND of the three low 16-bit lanes of w.
func lanesAnd(w uint64) uint64 { return w & (w >> 16) & (w >> 32) & 0xffff }

// nonZero8 returns the high bit of each byte of w that is not zero. It is
// Check's own copy of the strategies' nonZeroBytes.
func nonZero8(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return (w | (w&low7 + low7)) & 0x8080808080808080
}

// check9Bit maps a cell's byte to its value's bit (1<<(v-1) for v in
// 1..9) and every other byte to 0.
var check9Bit = func() (t [256]uint16) {
	for v := 1; v <= 9; v++ {
		t[v] = 1 << (v - 1)
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
