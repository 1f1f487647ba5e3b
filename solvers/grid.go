package solvers

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
)

// MaxCells is the number of cells of the largest grid (16x16).
const MaxCells = 256

// Grid is a square Sudoku grid of side N = Box*Box, for Box in {2, 3, 4}.
// Cells are row-major; 0 is an empty cell and 1..N are the symbols.
// A Grid is a plain value: copying it copies the cells, so it is safe to
// hand copies to other goroutines. The zero Grid (Box 0) means "no grid".
type Grid struct {
	Box   int             // box size n: 2, 3 or 4
	Cells [MaxCells]uint8 // row-major values, 0 for empty; only the first Len() are used
}

// NewGrid returns an empty grid with the given box size.
func NewGrid(box int) Grid { return Grid{Box: box} }

// Side returns N, the number of cells in a row, a column or a box.
func (g *Grid) Side() int { return g.Box * g.Box }

// Len returns the number of cells, N*N.
func (g *Grid) Len() int { return g.Box * g.Box * g.Box * g.Box }

// Empty returns the number of empty cells.
func (g *Grid) Empty() int {
	n := g.Len()
	if n == 81 {
		// 9x9 (every line a sweep reads, for its clues): ten words and a
		// byte without a loop, whose exit was mispredicted once a call.
		c := (*[81]uint8)(g.Cells[:81])
		w := func(k int) int { return bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(c[8*k:]))) }
		filled := w(0) + w(1) + w(2) + w(3) + w(4) + w(5) + w(6) + w(7) + w(8) + w(9) +
			int(nonZeroBytes(uint64(c[80]))>>7)
		return 81 - filled
	}
	cells := g.Cells[:n]
	// Eight cells at a time: count the bytes that are not zero.
	filled, i := 0, 0
	for ; i+8 <= n; i += 8 {
		filled += bits.OnesCount64(nonZeroBytes(binary.LittleEndian.Uint64(cells[i:])))
	}
	for _, v := range cells[i:] {
		if v != 0 {
			filled++
		}
	}
	return n - filled
}

// Filled returns the number of non-empty cells.
func (g *Grid) Filled() int { return g.Len() - g.Empty() }

// IsZero reports whether g is the zero Grid (no grid at all).
func (g *Grid) IsZero() bool { return g.Box == 0 }

// Symbol returns the character for value v in the input alphabet:
// '0' for empty, '1'-'9', then 'A'-'G' for 10-16.
func Symbol(v uint8) byte {
	switch {
	case v == 0:
		return '0'
	case v <= 9:
		return '0' + v
	default:
		return 'A' + v - 10
	}
}

// symbolValue returns the value of input character c and whether c is a
// symbol at all ('0' and '.' are empty, value 0).
func symbolValue(c byte) (uint8, bool) {
	switch {
	case c == '0' || c == '.':
		return 0, true
	case c >= '1' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'G':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'g':
		return c - 'a' + 10, true
	}
	return 0, false
}

// String returns the grid on one line in the input alphabet ('0' for empty),
// the format of the corpus and of the CSV solution column.
func (g Grid) String() string {
	if g.IsZero() {
		return ""
	}
	var buf [MaxCells]byte // on the stack: string(b) is the one allocation
	b := buf[:g.Len()]
	// Eight cells at a time while they are all 0..9 (every 9x9 grid),
	// then one at a time.
	const low7 = 0x7f * swarLow
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(g.Cells[i:])
		if (w&low7+(0x7f-9)*swarLow|w)&swarHigh != 0 {
			break // a byte above 9
		}
		binary.LittleEndian.PutUint64(b[i:], w+'0'*swarLow)
	}
	for ; i < len(b); i++ {
		b[i] = Symbol(g.Cells[i])
	}
	return string(b)
}

// Format returns the grid as N lines of N symbols with box borders,
// empty cells shown as '.', for people to read.
func (g Grid) Format() string {
	if g.IsZero() {
		return ""
	}
	n, side := g.Box, g.Side()
	var sb strings.Builder
	sep := func() {
		for b := 0; b < n; b++ {
			sb.WriteString("+")
			sb.WriteString(strings.Repeat("-", 2*n+1))
		}
		sb.WriteString("+\n")
	}
	for r := 0; r < side; r++ {
		if r%n == 0 {
			sep()
		}
		for c := 0; c < side; c++ {
			if c%n == 0 {
				sb.WriteString("| ")
			}
			v := g.Cells[r*side+c]
			if v == 0 {
				sb.WriteByte('.')
			} else {
				sb.WriteByte(Symbol(v))
			}
			sb.WriteByte(' ')
		}
		sb.WriteString("|\n")
	}
	sep()
	return sb.String()
}

// Puzzle is a grid of givens (the clues); empty cells are to be solved.
type Puzzle struct {
	Grid
}

// Clues returns the number of givens.
func (p *Puzzle) Clues() int { return p.Filled() }

// validate reports whether p is well formed for a solver: a supported box
// size, values in range, and no two equal givens in a row, column or box.
// The parser and every strategy call it; Check has its own code.
func (p *Puzzle) validate() error {
	if p.Box == 3 {
		if p.givens9OK() {
			return nil
		}
		return p.validateFault(geometryOf(3))
	}
	if p.Box < 2 || p.Box > 4 {
		return fmt.Errorf("unsupported box size %d (want 2, 3 or 4)", p.Box)
	}
	// The common case, a valid puzzle, is made fast (the parser and every
	// Solve pay for it): the cells are read eight at a time, only the
	// givens are visited, each sets its bit in its row, column and box,
	// and a bit already set is remembered. A fault is then described by
	// validateFault.
	geo := geometryOf(p.Box)
	var rows, cols, boxes [16]uint32
	var dup uint32
	var top uint8
	visit := func(i int, v uint8) {
		r, c, b := geo.row[i]&15, geo.col[i]&15, geo.blk[i]&15
		bit := uint32(1) << (v & 31)
		dup |= (rows[r] | cols[c] | boxes[b]) & bit
		rows[r] |= bit
		cols[c] |= bit
		boxes[b] |= bit
		top = max(top, v)
	}
	n := geo.cells
	i := 0
	for ; i+8 <= n; i += 8 {
		w := binary.LittleEndian.Uint64(p.Cells[i : i+8])
		nz := nonZeroBytes(w) // the high bit of each cell that is not 0
		for nz != 0 {
			j := i + bits.TrailingZeros64(nz)>>3
			visit(j, p.Cells[j])
			nz &= nz - 1
		}
	}
	for ; i < n; i++ {
		if v := p.Cells[i]; v != 0 {
			visit(i, v)
		}
	}
	if dup == 0 && int(top) <= geo.side {
		return nil
	}
	return p.validateFault(geo)
}

// units9[i] is the set of the units of cell i of a 9x9 grid: bit r for
// its row, 9+c for its column, 18+b for its box (128 places: indexed with
// i&127, without a bounds check).
var units9 = func() (t [128]uint32) {
	for i := range 81 {
		r, c := i/9, i%9
		t[i] = 1<<r | 1<<(9+c) | 1<<(18+r/3*3+c/3)
	}
	return t
}()

// givens9OK is validate's fast path for a 9x9 puzzle (every strategy's
// Solve but bitboard's and every parsed line pay for it): the givens'
// positions are gathered into an 81-bit mask, eight cells at a time, and
// visited in one loop (a loop per eight cells mispredicts its exit about
// once per eight cells). acc[v] is the set of units that hold a given v so
// far: a given whose units meet it repeats its value in one of them. One
// word is read and written per given, not the value's bit in each of the
// three units' words (three reads and writes). The values over 9 are
// found eight cells at a time, with the givens' positions (a running
// maximum would be a branch mispredicted every other puzzle). It reports
// whether every given is in 1..9 and no unit holds one twice.
func (p *Puzzle) givens9OK() bool {
	// gather8 maps the high bit of each byte of a word of cells to one bit
	// of a byte, and sets in over the high bit of each byte over 9.
	var over uint64
	gather8 := func(w uint64) uint64 {
		over |= w&(0x7f*swarLow) + 0x76*swarLow | w // no carry crosses a lane
		return (nonZeroBytes(w) >> 7) * 0x0102040810204080 >> 56
	}
	word := func(k int) uint64 { return binary.LittleEndian.Uint64(p.Cells[8*k:]) }
	lo := gather8(word(0)) | gather8(word(1))<<8 | gather8(word(2))<<16 | gather8(word(3))<<24 |
		gather8(word(4))<<32 | gather8(word(5))<<40 | gather8(word(6))<<48 | gather8(word(7))<<56 // cells 0..63
	hi := gather8(word(8)) | gather8(word(9))<<8 | gather8(uint64(p.Cells[80]))<<16 // cells 64..80
	// acc by value, 16 places: indexed with v&15 (a value over 9 fails on over).
	var acc [16]uint32
	var dup uint32
	visit := func(i int) {
		v := p.Cells[i] & 15
		u := units9[i&127]
		a := acc[v]
		dup |= a & u
		acc[v] = a | u
	}
	for ; lo != 0; lo &= lo - 1 {
		visit(bits.TrailingZeros64(lo))
	}
	for ; hi != 0; hi &= hi - 1 {
		visit(64 + bits.TrailingZeros64(hi))
	}
	return dup == 0 && over&swarHigh == 0
}

// validateFault names the first cell of p, in row-major order, that holds a
// value out of range or repeats a given of its row, column or box.
func (p *Puzzle) validateFault(geo *geometry) error {
	side := geo.side
	var rows, cols, boxes [16]uint32
	for i, v := range p.Cells[:geo.cells] {
		if v == 0 {
			continue
		}
		r, c, b := geo.row[i], geo.col[i], geo.blk[i]
		if int(v) > side {
			return fmt.Errorf("cell r%dc%d holds %d, more than %d", r+1, c+1, v, side)
		}
		bit := uint32(1) << v
		switch {
		case rows[r]&bit != 0:
			return fmt.Errorf("conflicting givens: %c twice in row %d", Symbol(v), r+1)
		case cols[c]&bit != 0:
			return fmt.Errorf("conflicting givens: %c twice in column %d", Symbol(v), c+1)
		case boxes[b]&bit != 0:
			return fmt.Errorf("conflicting givens: %c twice in box %d", Symbol(v), b+1)
		}
		rows[r] |= bit
		cols[c] |= bit
		boxes[b] |= bit
	}
	return fmt.Errorf("invalid puzzle (validate found a fault that validateFault cannot name: a bug)")
}
