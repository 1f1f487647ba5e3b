package solvers

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

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

// bbNext[b] and bbNext[b+1] are the two bands other than b.
var bbNext = [4]uint{1, 2, 0, 1}

// bbFlag is 1 if the band mask x (27 bits) is not empty, else 0.
func bbFlag(x uint32) uint32 { return (x + bbAll) >> 27 }

// unsolvedCells returns the number of unsolved cells of st.
func (st *bbState) unsolvedCells() int {
	return bits.OnesCount32(st.unsolved[0]) + bits.OnesCount32(st.unsolved[1]) + bits.OnesCount32(st.unsolved[2])
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
