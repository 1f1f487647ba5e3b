package solvers

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// bitboardHardest is corpus puzzle #46671, the one on which bitboard needs
// the most search nodes (1326).
const bitboardHardest = "020700000000640000000000400406300000000000082500000000000050029300000600000001000"

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
		{"corpus-39949", knownByName(t, "corpus-39949").puzzle, counters{3, 2, 0}},
		{"langer-hard", knownByName(t, "langer-hard").puzzle, counters{1, 0, 0}},
		{"corpus-46671", MustParse(bitboardHardest), counters{1326, 1325, 662}},
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
		{"perm locked", bbPermLocked[1<<0|1<<4|1<<8|1<<1], 1<<0 | 1<<4 | 1<<8},
		// Row 2 has no mini-row: no permutation.
		{"perm none", bbPermCells[0b000_111_111], 0},
		{"perm all", bbPermCells[0o777], bbAll},
		{"perm all locked", bbPermLocked[0o777], 0},
		// Columns 0 (alone in box 0), 3 and 4 (box 1), 8 (alone in box 2).
		{"col single", bbColSingle[1<<0|1<<3|1<<4|1<<8], 0o555},
		{"other bands", bbOtherBands[1<<0|1<<3|1<<4|1<<8], cells(".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.")},
		{"row cells", bbRowCells[0b101], cells("xxxxxxxxx", ".........", "xxxxxxxxx")},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %#o, want %#o", tc.name, tc.got, tc.want)
		}
	}
}
