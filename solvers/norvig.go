package solvers

import (
	"context"
	"math/bits"
)

// norvig is Peter Norvig's constraint propagation and search, from
// "Solving Every Sudoku Puzzle" (notebook 001 in docs/DESIGN.md's table). The
// essay itself was not at hand; this follows docs/DESIGN.md's description of
// it, which is restated here.
//
// Propagation is the essay's assign/eliminate pair. Assigning d to cell s
// eliminates every other value from s. Eliminating d from s is a
// contradiction if s is left with no value; (1) if s is left with one
// value d2, d2 is eliminated from every peer of s; (2) for each unit of s,
// if the unit has no place left for d that is a contradiction, and if it
// has one place left, d is assigned there (a hidden single). parse_grid
// starts with every candidate in every cell and assigns each given (row
// major); a contradiction makes the grid False.
//
// Search is the essay's search(values): False fails; a grid whose every
// cell has one value is the solution; otherwise the cell with the fewest
// candidates (more than one) is chosen, the first one in row-major order
// among equals (the essay's min((len(values[s]), s)) over the squares
// A1..I9 is exactly that), and its digits are tried in increasing order,
// each as search(assign(copy of values, s, d)), stopping at the first
// solution. Solve is the essay's solve: search(parse_grid(grid)).
// 4x4 and 16x16 grids use the same rules with their own rows, columns,
// boxes and peers.
//
// The counters:
//   - Calls counts calls of search, including the calls that receive a
//     contradiction (False): the first call plus one per digit tried, so
//     Calls == Guesses+1 whenever the search was not stopped by a limit.
//     When parse_grid itself meets a contradiction, search is still called
//     once with False, as in the essay: Calls 1, status unsolvable.
//   - Guesses counts the digits tried at branching cells (each one is an
//     assign on a copy of the grid followed by a call of search).
//   - Backtracks counts the digits whose search returned False.
//
// Limits are checked before each call of search (the clock and ctx every
// norvigEvery calls): with MaxCalls = m exactly m calls are made. When the
// refused call is the one for a digit just tried, that digit is already in
// Guesses (and not in Backtracks), so a stopped search has Guesses ==
// Calls; a deadline already past stops before the first call (Calls 0).
//
// A puzzle solved by propagation alone has Calls 1, Guesses 0. The
// propagation reaches the unique fixpoint of the two rules (or a
// contradiction exactly when that fixpoint has one), whatever the order in
// which eliminations are carried out, so the counters depend only on the
// search order above. This implementation carries out rule (1) with an
// explicit stack of newly single cells and rule (2) by scanning the units
// in which an elimination happened, and parse_grid sets all the givens
// before propagating them together; it reaches the same fixpoint as the
// essay's recursive functions, which the tests check against a literal
// transcription of them.
//
// Filled: every empty cell when solved; 0 when unsolvable (no value
// stands); for a search stopped by a limit, the empty cells of the puzzle
// that hold a single candidate in the grid handed to the search call that
// was refused (a grid in which propagation may just have met a
// contradiction).
//
// Candidates are bit sets (bit d-1 for digit d) in a fixed array that is
// copied on each branch on the Go stack; Solve allocates nothing on the
// heap. The type has no state: one value serves any number of goroutines.
type norvig struct{}

var _ Solver = (*norvig)(nil)

// norvigEvery is how many search calls go between two reads of the clock
// and ctx: a call (an assign with its propagation and a cell choice)
// costs a few microseconds, so they are read every millisecond or two.
const norvigEvery = 512

func (*norvig) Name() string { return "norvig" }

func (*norvig) Describe() string {
	return "Norvig's assign/eliminate propagation (peer elimination, hidden singles) and search on the first fewest-candidate cell, digits in order; " +
		"calls = search calls (incl. those given a contradiction), guesses = digits tried, backtracks = digits that failed"
}

// norvigGrid holds the candidates of each cell, bit d-1 for digit d.
type norvigGrid [MaxCells]uint16

// norvigRun is the state of one Solve: the limits, the counters and the
// propagation work space, reused by every search call. It lives on the
// stack of Solve.
type norvigRun struct {
	geo      *geometry
	full     uint16           // every candidate of the grid size
	unitBits [MaxCells]uint64 // the three units of each cell, as bits of a unit set
	b        budget
	calls    uint64
	guesses  uint64
	back     uint64
	stop     Status     // why the search was stopped by a limit, or StatusNone
	stopped  norvigGrid // the grid handed to the refused call, when stopped
	solution norvigGrid

	// Propagation work space, empty between two propagations.
	single  [MaxCells]uint8 // cells that became single and whose value is not yet eliminated from their peers
	nsingle int
	dirty   uint64 // units in which an elimination happened since they were last scanned
}

func (*norvig) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}
	}
	geo := geometryOf(p.Box)
	r := norvigRun{geo: geo, full: uint16(1<<geo.side - 1), b: newBudget(ctx, lim, norvigEvery)}
	side := uint(geo.side)
	for i := 0; i < geo.cells; i++ {
		r.unitBits[i] = 1<<geo.row[i] | 1<<(side+uint(geo.col[i])) | 1<<(2*side+uint(geo.blk[i]))
	}

	var root norvigGrid
	ok := r.parseGrid(&root, &p)
	solved := r.search(&root, ok)

	res := Result{Calls: r.calls, Guesses: r.guesses, Backtracks: r.back}
	switch {
	case solved:
		res.Status = StatusSolved
		res.Solution = NewGrid(p.Box)
		for i := 0; i < geo.cells; i++ {
			res.Solution.Cells[i] = uint8(bits.TrailingZeros16(r.solution[i]) + 1)
		}
		res.Filled = p.Empty()
	case r.stop != StatusNone:
		res.Status, res.Err, res.Filled = r.stop, r.b.err, singleEmpty(&r.stopped, &p)
	default:
		res.Status = StatusUnsolvable
	}
	return res
}

// parseGrid is the essay's parse_grid: every cell starts with every
// candidate and each given is assigned. It reports false on a
// contradiction. Assigning the givens one after the other with full
// propagation each time, or all of them before propagating, reaches the
// same fixpoint; the givens are set first and propagated together.
func (r *norvigRun) parseGrid(g *norvigGrid, p *Puzzle) bool {
	r.nsingle, r.dirty = 0, 0
	for i := 0; i < r.geo.cells; i++ {
		g[i] = r.full
	}
	for i := 0; i < r.geo.cells; i++ {
		if v := p.Cells[i]; v != 0 {
			g[i] = 1 << (v - 1)
			r.single[r.nsingle] = uint8(i)
			r.nsingle++
			r.dirty |= r.unitBits[i]
		}
	}
	return r.propagate(g)
}

// search is the essay's search(values); ok false stands for values being
// False. It reports whether a solution was found (then in r.solution); a
// false return with r.stop set means a limit stopped the search.
func (r *norvigRun) search(g *norvigGrid, ok bool) bool {
	if r.calls == r.b.next {
		if st := r.b.poll(r.calls); st != StatusNone {
			r.stop = st
			r.stopped = *g
			return false
		}
	}
	r.calls++
	if !ok {
		return false
	}
	// The first cell, row-major, with the fewest candidates above one.
	best, bestN := -1, 17
	for i := 0; i < r.geo.cells; i++ {
		if n := bits.OnesCount16(g[i]); n > 1 && n < bestN {
			best, bestN = i, n
			if n == 2 {
				break // no cell can have fewer
			}
		}
	}
	if best < 0 {
		r.solution = *g
		return true
	}
	var child norvigGrid // declared outside the loop so that it stays on the stack
	for m := g[best]; m != 0; m &= m - 1 {
		r.guesses++
		child = *g
		if r.search(&child, r.assign(&child, best, m&-m)) {
			return true
		}
		if r.stop != StatusNone {
			return false
		}
		r.back++
	}
	return false
}

// assign is the essay's assign(values, s, d) for the digit with bit d:
// every other candidate of s is eliminated, then the consequences are
// propagated. It reports false on a contradiction.
func (r *norvigRun) assign(g *norvigGrid, s int, d uint16) bool {
	r.nsingle, r.dirty = 0, 0
	if g[s]&d == 0 {
		return false
	}
	if g[s] == d {
		return true
	}
	g[s] = d
	r.single[0] = uint8(s)
	r.nsingle = 1
	r.dirty = r.unitBits[s]
	return r.propagate(g)
}

// propagate applies the two rules until nothing changes. Rule (1): the
// value of each cell on the single stack is eliminated from its peers
// (a peer left empty is a contradiction, a peer left single is pushed).
// Rule (2): each unit with an elimination since its last scan is scanned;
// a digit with no place is a contradiction, a digit with one place is
// assigned there. Every cell becomes single once, so the stack holds at
// most one entry per cell.
func (r *norvigRun) propagate(g *norvigGrid) bool {
	geo := r.geo
	npeers, side := geo.npeers, geo.side
	for {
		for r.nsingle > 0 {
			r.nsingle--
			s := r.single[r.nsingle]
			v := g[s]
			for _, q := range geo.peers[s][:npeers] {
				c := g[q]
				if c&v == 0 {
					continue
				}
				c &^= v
				if c == 0 {
					return false
				}
				g[q] = c
				r.dirty |= r.unitBits[q]
				if c&(c-1) == 0 {
					r.single[r.nsingle] = q
					r.nsingle++
				}
			}
		}
		if r.dirty == 0 {
			return true
		}
		units := r.dirty
		r.dirty = 0
		for units != 0 {
			u := bits.TrailingZeros64(units)
			units &= units - 1
			cells := geo.units[u][:side]
			var once, twice, placed uint16
			for _, q := range cells {
				c := g[q]
				twice |= once & c
				once |= c
				if c&(c-1) == 0 {
					placed |= c
				}
			}
			if once != r.full {
				return false // a digit has no place left in this unit
			}
			// Digits with one place in the unit, not yet single there.
			for hidden := once &^ twice &^ placed; hidden != 0; hidden &= hidden - 1 {
				d := hidden & -hidden
				for _, q := range cells {
					if c := g[q]; c&d != 0 {
						if c != d {
							// A digit of the unit assigned just before may
							// have taken this cell: the unit is dirty again
							// and its next scan sees d with no place.
							g[q] = d
							r.dirty |= r.unitBits[q]
							r.single[r.nsingle] = q
							r.nsingle++
						}
						break
					}
				}
			}
		}
	}
}

// singleEmpty returns the number of empty cells of p that hold a single
// candidate in g.
func singleEmpty(g *norvigGrid, p *Puzzle) int {
	n := 0
	for i := 0; i < p.Len(); i++ {
		if p.Cells[i] == 0 && g[i] != 0 && g[i]&(g[i]-1) == 0 {
			n++
		}
	}
	return n
}
