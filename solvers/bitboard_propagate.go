package solvers

import "math/bits"

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
