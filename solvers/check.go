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
	// Each unit must hold every value once: count per (unit, value).
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
