package solvers

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// bitboardHardest is corpus puzzle #42298, the one on which bitboard needs
// the most search nodes (227).
const bitboardHardest = "901000000000040700000000000100002050040700300000000000000680001200000090050400000"

func TestBitboardCorpus(t *testing.T) { solveCorpus(t, &bitboard{}) }

// TestBitboardCounters pins bitboard's counters on the named puzzles. They
// change only when the propagation or the branching rule changes; update
// them then, deliberately.
func TestBitboardCounters(t *testing.T) {
	tests := []struct {
		name   string
		puzzle Puzzle
		want   counters
	}{
		{"corpus-0", knownByName(t, "corpus-0").puzzle, counters{1, 0, 0}},
		{"corpus-2018", knownByName(t, "corpus-2018").puzzle, counters{1, 0, 0}},
		{"corpus-8145", knownByName(t, "corpus-8145").puzzle, counters{1, 0, 0}},
		{"corpus-39949", knownByName(t, "corpus-39949").puzzle, counters{4, 3, 1}},
		{"langer-hard", knownByName(t, "langer-hard").puzzle, counters{1, 0, 0}},
		{"corpus-42298", MustParse(bitboardHardest), counters{227, 226, 113}},
		{"corpus-46671", MustParse("020700000000640000000000400406300000000000082500000000000050029300000600000001000"), counters{71, 70, 34}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := expectSolved(t, &bitboard{}, tc.puzzle, Grid{})
			if got := countersOf(r); got != tc.want {
				t.Errorf("counters %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestBitboardUnsupported(t *testing.T) {
	tests := []struct {
		name   string
		puzzle Puzzle
	}{
		{"4x4-a", knownByName(t, "4x4-a").puzzle},
		{"16x16-a", knownByName(t, "16x16-a").puzzle},
		{"empty 4x4", Puzzle{Grid: NewGrid(2)}},
		{"empty 16x16", Puzzle{Grid: NewGrid(4)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := (&bitboard{}).Solve(context.Background(), tc.puzzle, Limits{})
			if r.Status != StatusUnsupported || !errors.Is(r.Err, errBitboardSize) {
				t.Fatalf("status %v err %v, want unsupported: %v", r.Status, r.Err, errBitboardSize)
			}
			if !r.Solution.IsZero() || r.Calls != 0 || r.Filled != 0 {
				t.Fatalf("unsupported result carries a search: %+v", r)
			}
		})
	}
}

// TestBitboardSearchPaths covers the cases the corpus does not: a grid
// with many solutions (guessing on cells without a bivalue candidate) and
// contradictions found by propagation at the root.
func TestBitboardSearchPaths(t *testing.T) {
	r := expectSolved(t, &bitboard{}, Puzzle{Grid: NewGrid(3)}, Grid{})
	if r.Backtracks != 0 || r.Calls != r.Guesses+1 {
		t.Errorf("empty grid: counters %+v", countersOf(r))
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		p := MustParse(f[1])
		if p.Box != 3 {
			continue
		}
		t.Run(f[0], func(t *testing.T) {
			r := (&bitboard{}).Solve(context.Background(), p, Limits{})
			if r.Status != StatusUnsolvable || r.Backtracks < 1 || r.Calls != r.Guesses+1 || r.Filled != 0 {
				t.Errorf("status %v, counters %+v, filled %d", r.Status, countersOf(r), r.Filled)
			}
		})
	}
}

// TestBitboardLimits checks a stopped search on the corpus puzzle bitboard
// finds hardest (the shared tests' hard grid needs a single node).
func TestBitboardLimits(t *testing.T) {
	p := MustParse(bitboardHardest)
	checkStoppedSearch(t, &bitboard{}, p, 100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := (&bitboard{}).Solve(ctx, p, Limits{})
	if r.Status != StatusError || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("canceled: status %v err %v, want error wrapping context.Canceled", r.Status, r.Err)
	}
}

func TestBitboardDoesNotAllocate(t *testing.T) {
	for _, line := range []string{bitboardHardest, knownByName(t, "corpus-39949").puzzle.String()} {
		p := MustParse(line)
		allocs := testing.AllocsPerRun(20, func() {
			(&bitboard{}).Solve(context.Background(), p, Limits{})
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Solve, want 0", line, allocs)
		}
	}
}

// TestBitboardTables checks the band tables against their definitions on
// hand-worked cases.
func TestBitboardTables(t *testing.T) {
	cells := func(rows ...string) uint32 { // three rows of 9 '.'/'x', row 0 first
		var m uint32
		for i, s := range strings.Join(rows, "") {
			if s == 'x' {
				m |= 1 << i
			}
		}
		return m
	}
	bbTables.Do(bbInitTables)
	tests := []struct {
		name      string
		got, want uint32
	}{
		{"self r0c0", bbSelf[0], cells("x........", "...xxxxxx", "...xxxxxx")},
		{"self r1c4", bbSelf[13], cells("xxx...xxx", "....x....", "xxx...xxx")},
		{"column 7", bbColumn[7], cells(".......x.", ".......x.", ".......x.")},
		{"shrink", bbShrink[0b100_000_001], 0b101},
		// Mini-rows r0b0 r1b1 r2b2 and r0b1: only the diagonal permutation fits.
		{"perm cells", bbPermCells[1<<0|1<<4|1<<8|1<<1], cells("xxx......", "...xxx...", "......xxx")},
		// Row 2 has no mini-row: no permutation.
		{"perm none", bbPermCells[0b000_111_111], 0},
		{"perm all", bbPermCells[0o777], bbAll},
		// Columns 0 (alone in box 0), 3 and 4 (box 1), 8 (alone in box 2).
		{"other bands", bbOtherBands[1<<0|1<<3|1<<4|1<<8], cells(".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.")},
		// Columns 1 and 2 (two in box 0: none of it), 4 (box 1: not 3 and 5).
		{"col claim", bbColClaim[1<<1|1<<2|1<<4], cells("....x.xxx", "....x.xxx", "....x.xxx")},
		{"col cells", bbColCells[1<<0|1<<8], cells("x.......x", "x.......x", "x.......x")},
		// Column 1 (box 0) and 8 (box 2).
		{"box others", bbBoxOthers[1<<1|1<<8], cells("x.x...xx.", "x.x...xx.", "x.x...xx.")},
		// Groups 0b011 (two), 0b100 (one: bit 8), 0 (none).
		{"triad", bbTriad[0b100_000_011], 0b100_000_011 | 0b100_000_000<<16},
		// Mini-rows r0b2 and r2b0.
		{"mini-row cells", bbMiniCells[1<<2|1<<6], cells("......xxx", ".........", "xxx......")},
		{"row rest", bbRowRest[1<<2|1<<6], cells("xxxxxx...", ".........", "...xxxxxx")},
		{"row single", bbRowSingle[0b000_010_000], 0b000_010_000},
		{"row not single", bbRowSingle[0b000_010_001], 0},
		{"row empty", bbRowSingle[0], 0},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %#o, want %#o", tc.name, tc.got, tc.want)
		}
	}
}

// bbBandRule applies the band rule to the mask f of a digit in a band
// from its definition: the permutations from rows to boxes whose mini-rows
// all meet f, the cells of f on their mini-rows (reduced), and the cells
// solved, i.e. in a row whose mini-row is the same in every such
// permutation (locked) and whose box has a single column in reduced. ok is
// false if no permutation fits.
func bbBandRule(f uint32) (reduced, solved uint32, ok bool) {
	minirow := func(row, box int) uint32 { return 7 << (9*row + 3*box) }
	locked := [3]int{-1, -1, -1} // row -> its box in every permutation, -1 if not locked yet, -2 if not locked
	for _, p := range [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		fits := true
		for row, box := range p {
			fits = fits && f&minirow(row, box) != 0
		}
		if !fits {
			continue
		}
		ok = true
		for row, box := range p {
			reduced |= f & minirow(row, box)
			if locked[row] == -1 {
				locked[row] = box
			} else if locked[row] != box {
				locked[row] = -2
			}
		}
	}
	for row, box := range locked {
		if box < 0 {
			continue
		}
		var boxCells uint32
		for r := 0; r < 3; r++ {
			boxCells |= minirow(r, box)
		}
		cols := reduced & boxCells
		cols = (cols | cols>>9 | cols>>18) & 0o777
		if bits.OnesCount32(cols) == 1 {
			solved |= reduced & minirow(row, box)
		}
	}
	return reduced, solved, ok
}

// TestBitboardBandRule checks the band update's tables and its solved
// cells (the rows of the reduced mask with a single cell) against the
// definition of the rule, on random masks of every density.
func TestBitboardBandRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		f := rng.Uint32() & bbAll
		for range i % 4 { // thin it out: sparse masks are where cells get solved
			f &= rng.Uint32()
		}
		reduced, solved, ok := bbBandRule(f)
		sh := bbShrink[f&0o777] | bbShrink[f>>9&0o777]<<3 | bbShrink[f>>18&0o777]<<6
		got := f & bbPermCells[sh]
		if got != reduced || (got != 0) != ok {
			t.Fatalf("mask %#o: reduced to %#o, want %#o (fits %v)", f, got, reduced, ok)
		}
		if !ok {
			continue
		}
		gotSolved := bbRowSingle[got&0o777] | bbRowSingle[got>>9&0o777]<<9 | bbRowSingle[got>>18&0o777]<<18
		if gotSolved != solved {
			t.Fatalf("mask %#o (reduced %#o): solved %#o, want %#o", f, got, gotSolved, solved)
		}
	}
}

// TestBitboardInvalidGivens checks that bitboard, which places the givens
// before it validates them, refuses exactly the grids that validate
// refuses, with the same message.
func TestBitboardInvalidGivens(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(p Puzzle) {
		t.Helper()
		want := p.validate()
		r := (&bitboard{}).Solve(context.Background(), p, Limits{MaxCalls: 1})
		if want != nil {
			if r.Status != StatusInvalid || r.Err == nil || r.Err.Error() != want.Error() {
				t.Fatalf("%s: status %v err %v, want invalid: %v", p.String(), r.Status, r.Err, want)
			}
		} else if r.Status == StatusInvalid {
			t.Fatalf("%s: refused (%v), validate accepts it", p.String(), r.Err)
		}
	}
	for i := 0; i < 81; i++ { // one given out of range, in every cell
		p := Puzzle{Grid: NewGrid(3)}
		p.Cells[i] = 10 + uint8(i%6)
		check(p)
	}
	for i := 0; i < 20000; i++ { // random givens: conflicts of every kind
		p := Puzzle{Grid: NewGrid(3)}
		for range 1 + i%30 {
			p.Cells[rng.IntN(81)] = uint8(1 + rng.IntN(9))
		}
		check(p)
	}
}

// TestBitboardTriadsSound checks on corpus puzzles that the root's
// propagation with the triad rules keeps every digit of the solution
// (the rules only remove candidates that cannot be) and that the rules
// do remove candidates somewhere.
func TestBitboardTriadsSound(t *testing.T) {
	step := corpusStep()
	if testing.Short() {
		step = 97
	}
	bbTables.Do(bbInitTables)
	fired := 0
	eachCorpus(t, func(e corpusEntry) bool {
		if e.ID%step != 0 {
			return true
		}
		r := (&bitboard{}).Solve(context.Background(), e.Puzzle, Limits{})
		if r.Status != StatusSolved {
			t.Fatalf("corpus #%d: %v", e.ID, r.Status)
		}
		root, _, placed := bbRoot(&e.Puzzle)
		plain := root
		if !placed || !plain.propagate(false) || !root.propagate(true) {
			t.Fatalf("corpus #%d: propagation fails", e.ID)
		}
		for i, v := range r.Solution.Cells[:81] {
			b, k := i/27, uint(i%27)
			if root.f[3*int(v-1)+b]>>k&1 == 0 {
				t.Fatalf("corpus #%d: cell %d lost its digit %d", e.ID, i, v)
			}
		}
		if root.f != plain.f {
			fired++
		}
		return true
	})
	if fired == 0 {
		t.Error("the triad rules never removed a candidate")
	}
}
