package main

// board is a 9x9 grid with the candidates of its rows, columns and boxes.
type board struct {
	cells               [81]int // 0 empty, else 1..9
	row, col, box       [9]uint16
	calls, guesses      uint64
	maxCalls            uint64 // 0: none
	limited             bool   // the search stopped at maxCalls
	solutions, maxCount int
	first               [81]int
	conflict            bool // two givens break a rule
}

func parse(grid string) (*board, bool) {
	if len(grid) != 81 {
		return nil, false
	}
	b := &board{}
	for i := range 81 {
		c := grid[i]
		if c == '0' || c == '.' {
			continue
		}
		if c < '1' || c > '9' {
			return nil, false
		}
		d := int(c - '0')
		bit := uint16(1) << d
		r, k, x := i/9, i%9, (i/27)*3+(i%9)/3
		if (b.row[r]|b.col[k]|b.box[x])&bit != 0 {
			b.conflict = true // no solution
		}
		b.cells[i] = d
		b.row[r] |= bit
		b.col[k] |= bit
		b.box[x] |= bit
	}
	return b, true
}

// search fills the empty cell with the fewest candidates first, counting
// solutions up to maxCount, and stops at maxCalls calls.
func (b *board) search() {
	if b.maxCalls > 0 && b.calls >= b.maxCalls {
		b.limited = true
		return
	}
	b.calls++
	best, bestN := -1, 10
	var bestMask uint16
	for i := range 81 {
		if b.cells[i] != 0 {
			continue
		}
		r, k, x := i/9, i%9, (i/27)*3+(i%9)/3
		mask := ^(b.row[r] | b.col[k] | b.box[x]) & 0x3fe
		n := popcount(mask)
		if n < bestN {
			best, bestN, bestMask = i, n, mask
			if n <= 1 {
				break
			}
		}
	}
	if best < 0 {
		if b.solutions == 0 {
			b.first = b.cells
		}
		b.solutions++
		return
	}
	if bestN > 1 {
		b.guesses++
	}
	r, k, x := best/9, best%9, (best/27)*3+(best%9)/3
	for d := 1; d <= 9 && b.solutions < b.maxCount && !b.limited; d++ {
		bit := uint16(1) << d
		if bestMask&bit == 0 {
			continue
		}
		b.cells[best] = d
		b.row[r] |= bit
		b.col[k] |= bit
		b.box[x] |= bit
		b.search()
		b.cells[best] = 0
		b.row[r] &^= bit
		b.col[k] &^= bit
		b.box[x] &^= bit
	}
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// solve returns the first solution of grid ("" when it has none) and
// the status: solved, unsolvable (solution ""), limit (stopped at
// maxCalls, 0 for none) or unsupported (not a 9x9 grid).
func solve(grid string, maxCalls uint64) (sol string, calls, guesses uint64, status string) {
	b, valid := parse(grid)
	if !valid {
		return "", 0, 0, "unsupported"
	}
	b.maxCount, b.maxCalls = 1, maxCalls
	if !b.conflict {
		b.search()
	}
	switch {
	case b.solutions > 0:
		s := make([]byte, 81)
		for i, d := range b.first {
			s[i] = byte('0' + d)
		}
		return string(s), b.calls, b.guesses, "solved"
	case b.limited:
		return "", b.calls, b.guesses, "limit"
	}
	return "", b.calls, b.guesses, "unsolvable"
}

// count returns the number of solutions of grid, up to two.
func count(grid string) int {
	b, valid := parse(grid)
	if !valid {
		return 0
	}
	b.maxCount = 2
	if !b.conflict {
		b.search()
	}
	return b.solutions
}
