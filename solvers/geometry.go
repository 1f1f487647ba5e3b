package solvers

import "sync"

// geometry holds the unit tables of one grid size, shared read-only by the
// strategies (never by Check). The tables of a size are built once, when
// a strategy first asks for them (not at start: a run of 9x9 puzzles
// needs none of the 4x4 and 16x16 ones, and bitboard none at all), and
// never written afterwards, so they are safe for concurrent use.
type geometry struct {
	box, side, cells int
	row, col, blk    [MaxCells]uint8     // unit index of each cell within its kind
	units            [48][16]uint8       // rows 0..side-1, columns side.., boxes 2*side..
	unitsOf          [MaxCells][3]uint8  // the three units (indexes into units) of each cell
	peers            [MaxCells][39]uint8 // the other cells sharing a unit, row-major order
	npeers           int                 // number of peers of any cell
}

var geometries = [5]func() *geometry{
	2: sync.OnceValue(func() *geometry { return newGeometry(2) }),
	3: sync.OnceValue(func() *geometry { return newGeometry(3) }),
	4: sync.OnceValue(func() *geometry { return newGeometry(4) }),
}

// geometryOf returns the tables for box size box, or nil if unsupported.
func geometryOf(box int) *geometry {
	if box < 2 || box > 4 {
		return nil
	}
	return geometries[box]()
}

func newGeometry(n int) *geometry {
	g := &geometry{box: n, side: n * n, cells: n * n * n * n}
	side := g.side
	for i := 0; i < g.cells; i++ {
		r, c := i/side, i%side
		b := (r/n)*n + c/n
		g.row[i], g.col[i], g.blk[i] = uint8(r), uint8(c), uint8(b)
		g.unitsOf[i] = [3]uint8{uint8(r), uint8(side + c), uint8(2*side + b)}
	}
	for u := 0; u < side; u++ {
		for k := 0; k < side; k++ {
			g.units[u][k] = uint8(u*side + k)
			g.units[side+u][k] = uint8(k*side + u)
			g.units[2*side+u][k] = uint8(((u/n)*n+k/n)*side + (u%n)*n + k%n)
		}
	}
	for i := 0; i < g.cells; i++ {
		k := 0
		for j := 0; j < g.cells; j++ {
			if j != i && (g.row[i] == g.row[j] || g.col[i] == g.col[j] || g.blk[i] == g.blk[j]) {
				g.peers[i][k] = uint8(j)
				k++
			}
		}
		g.npeers = k
	}
	return g
}
