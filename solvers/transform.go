package solvers

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Transform is one element of a grid size's symmetry group: the changes
// that map every valid puzzle to a valid puzzle with as many solutions
// (an isomorph, or variant). For box size n (side N = n*n) they are: an
// optional transposition, an order of the n bands and of the rows within
// each band, an order of the n stacks and of the columns within each
// stack, and a relabelling of the N symbols: 2 * (n!)^(2n+2) * N!
// transforms (for 9x9, 2 * 6^8 * 9! = 1,218,998,108,160).
//
// Applied to a grid g, it gives the grid v with
//
//	v[i][j] = Digits[h[Rows[i]][Cols[j]] - 1]   (0 stays 0)
//
// where h is g transposed when Transpose is set, else g. So Rows lists the
// rows of h in their new order (variant row i is row Rows[i] of h), Cols
// the columns, and Digits[d-1] is the new label of symbol d.
//
// A Transform is a plain value; the zero Transform is not valid (Box 0):
// Identity gives the identity of a size.
type Transform struct {
	Box       int
	Transpose bool
	Rows      [16]uint8 // a permutation of 0..N-1 that keeps bands whole
	Cols      [16]uint8 // a permutation of 0..N-1 that keeps stacks whole
	Digits    [16]uint8 // a permutation of 1..N
}

// Identity returns the identity transform of box size box.
func Identity(box int) Transform {
	t := Transform{Box: box}
	for i := range box * box {
		t.Rows[i], t.Cols[i], t.Digits[i] = uint8(i), uint8(i), uint8(i+1)
	}
	return t
}

// RandomTransform draws a transform of box size box uniformly from the
// whole group, transposition included.
func RandomTransform(r *rand.Rand, box int) Transform {
	t := Identity(box)
	t.Transpose = r.IntN(2) == 1
	side := box * box
	r.Shuffle(side, func(i, j int) { t.Digits[i], t.Digits[j] = t.Digits[j], t.Digits[i] })
	for _, lines := range []*[16]uint8{&t.Rows, &t.Cols} {
		bands := r.Perm(box)
		for b, ob := range bands {
			within := r.Perm(box)
			for k, ok := range within {
				lines[b*box+k] = uint8(ob*box + ok)
			}
		}
	}
	return t
}

// Apply returns the variant of g under t. g's box size must be t's.
func (t Transform) Apply(g Grid) Grid {
	if g.Box != t.Box {
		panic(fmt.Sprintf("solvers: a transform of box %d applied to a grid of box %d", t.Box, g.Box))
	}
	side := t.Box * t.Box
	v := Grid{Box: g.Box}
	for i := range side {
		for j := range side {
			r, c := int(t.Rows[i]), int(t.Cols[j])
			if t.Transpose {
				r, c = c, r
			}
			if d := g.Cells[r*side+c]; d != 0 {
				v.Cells[i*side+j] = t.Digits[d-1]
			}
		}
	}
	return v
}

// ApplyPuzzle returns the variant of p under t.
func (t Transform) ApplyPuzzle(p Puzzle) Puzzle { return Puzzle{Grid: t.Apply(p.Grid)} }

// Then returns the transform that applies t, then u (u after t). Both
// must have the same box size.
func (t Transform) Then(u Transform) Transform {
	if t.Box != u.Box {
		panic(fmt.Sprintf("solvers: composing transforms of box %d and %d", t.Box, u.Box))
	}
	side := t.Box * t.Box
	// v = t(g): v[i][j] = Dt(h_t[Rt[i]][Ct[j]]); w = u(v): w[i][j] =
	// Du(h_u(v)[Ru[i]][Cu[j]]). Without u's transposition, w's cell
	// (i, j) reads v's (Ru[i], Cu[j]), which reads h_t's (Rt[Ru[i]],
	// Ct[Cu[j]]). With it, it reads v's (Cu[j], Ru[i]), which reads
	// h_t's (Rt[Cu[j]], Ct[Ru[i]]): the transposition moves to the
	// front (toggling t's), rows taking their order from Ct and
	// columns from Rt.
	w := Transform{Box: t.Box, Transpose: t.Transpose != u.Transpose}
	for i := range side {
		if u.Transpose {
			w.Rows[i], w.Cols[i] = t.Cols[u.Rows[i]], t.Rows[u.Cols[i]]
		} else {
			w.Rows[i], w.Cols[i] = t.Rows[u.Rows[i]], t.Cols[u.Cols[i]]
		}
		w.Digits[i] = u.Digits[t.Digits[i]-1]
	}
	return w
}

// Inverse returns the transform that undoes t: t.Then(t.Inverse()) is
// the identity.
func (t Transform) Inverse() Transform {
	side := t.Box * t.Box
	inv := Transform{Box: t.Box, Transpose: t.Transpose}
	var ri, ci [16]uint8
	for i := range side {
		ri[t.Rows[i]], ci[t.Cols[i]] = uint8(i), uint8(i)
		inv.Digits[t.Digits[i]-1] = uint8(i + 1)
	}
	// Without transposition the inverse reorders by the inverse
	// permutations. With it, t maps (r, c) of g to the cell whose row
	// lists c and whose column lists r, so the inverse's rows come from
	// t's columns and its columns from t's rows.
	if t.Transpose {
		inv.Rows, inv.Cols = ci, ri
	} else {
		inv.Rows, inv.Cols = ri, ci
	}
	return inv
}

// IsIdentity reports whether t changes no grid.
func (t Transform) IsIdentity() bool { return t == Identity(t.Box) }

// String writes t in the form ParseTransform reads: "T" when it
// transposes, then "R" and the row order, "C" and the column order, "D"
// and the new labels of 1..N, each part left out when it changes nothing
// ("id" for the identity). Row and column indexes are written 0-9 then
// A-F; labels as in a puzzle line (1-9, then A-G). The 180-degree turn of
// a 9x9 grid is "R876543210C876543210"; a quarter turn clockwise is
// "TC876543210".
func (t Transform) String() string {
	if t.Box == 0 {
		return "invalid"
	}
	id := Identity(t.Box)
	side := t.Box * t.Box
	var b strings.Builder
	if t.Transpose {
		b.WriteByte('T')
	}
	if t.Rows != id.Rows {
		b.WriteByte('R')
		for _, r := range t.Rows[:side] {
			b.WriteByte(indexSymbol(r))
		}
	}
	if t.Cols != id.Cols {
		b.WriteByte('C')
		for _, c := range t.Cols[:side] {
			b.WriteByte(indexSymbol(c))
		}
	}
	if t.Digits != id.Digits {
		b.WriteByte('D')
		for _, d := range t.Digits[:side] {
			b.WriteByte(Symbol(d))
		}
	}
	if b.Len() == 0 {
		return "id"
	}
	return b.String()
}

func indexSymbol(i uint8) byte {
	if i < 10 {
		return '0' + i
	}
	return 'A' + i - 10
}

// ParseTransform reads a transform of box size box written as String
// writes it (case-insensitive; parts in any order, each at most once; "id"
// or "" is the identity). It says what is wrong: an unknown letter, a part
// of the wrong length, an order that is not a permutation or that splits
// a band or a stack.
func ParseTransform(s string, box int) (Transform, error) {
	if box < 2 || box > 4 {
		return Transform{}, fmt.Errorf("transform %q: unsupported box size %d", s, box)
	}
	t := Identity(box)
	side := box * box
	u := strings.ToUpper(strings.TrimSpace(s))
	if u == "" || u == "ID" {
		return t, nil
	}
	seen := map[byte]bool{}
	for i := 0; i < len(u); {
		part := u[i]
		if seen[part] {
			return Transform{}, fmt.Errorf("transform %q: %c given twice", s, part)
		}
		seen[part] = true
		i++
		if part == 'T' {
			t.Transpose = true
			continue
		}
		if part != 'R' && part != 'C' && part != 'D' {
			return Transform{}, fmt.Errorf("transform %q: unknown part %q at %d (want T, R, C or D)", s, part, i)
		}
		// A part is its letter and exactly side symbols (a 16x16 grid's
		// symbols include C and D).
		j := i
		for j < len(u) && j < i+side && u[j] != 'T' {
			j++
		}
		body := u[i:j]
		i = j
		if len(body) != side {
			return Transform{}, fmt.Errorf("transform %q: %c has %d symbols, want %d (a %dx%d grid)", s, part, len(body), side, side, side)
		}
		var perm [16]uint8
		var used [17]bool
		for k := range side {
			var v uint8
			var ok bool
			if part == 'D' {
				v, ok = symbolValue(body[k])
				ok = ok && v >= 1 && int(v) <= side
			} else {
				v, ok = indexValue(body[k])
				ok = ok && int(v) < side
			}
			if !ok || used[v] {
				return Transform{}, fmt.Errorf("transform %q: %c%s is not a permutation of %s", s, part, body, permRange(part, side))
			}
			used[v] = true
			perm[k] = v
		}
		if part != 'D' {
			for k := range side {
				if perm[k]/uint8(box) != perm[k-k%box]/uint8(box) {
					what := "band"
					if part == 'C' {
						what = "stack"
					}
					return Transform{}, fmt.Errorf("transform %q: %c%s splits a %s: lines %d to %d must come from one %s",
						s, part, body, what, k-k%box, k-k%box+box-1, what)
				}
			}
		}
		switch part {
		case 'R':
			t.Rows = perm
		case 'C':
			t.Cols = perm
		case 'D':
			t.Digits = perm
		}
	}
	return t, nil
}

func indexValue(c byte) (uint8, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func permRange(part byte, side int) string {
	if part == 'D' {
		return fmt.Sprintf("the symbols 1 to %c", Symbol(uint8(side)))
	}
	return fmt.Sprintf("the indexes 0 to %c", indexSymbol(uint8(side-1)))
}
