package solvers

import (
	"context"
	"testing"
	"time"
)

// naiveCounts are the counters of naiveBacktrack.
type naiveCounts struct {
	steps, written, back uint64 // main-loop steps, values written (not zeros), steps back
	tried                uint64 // values tried against the units, fitting or not
	status               Status
	solution             Grid
}

// naiveBacktrack is the article's loop written as plainly as possible, to
// check the counting of backtrack (and the validations of bruteforce,
// which are the values tried) against: no masks, the cells scanned for
// every value tried. It stops with StatusLimit after maxSteps steps (0:
// no limit).
func naiveBacktrack(p Puzzle, maxSteps uint64) naiveCounts {
	g := p.Grid
	n, side := g.Box, g.Side()
	var chain []int
	for i := 0; i < g.Len(); i++ {
		if g.Cells[i] == 0 {
			chain = append(chain, i)
		}
	}
	fits := func(i int, v uint8) bool {
		r, c := i/side, i%side
		for k := 0; k < side; k++ {
			if g.Cells[r*side+k] == v || g.Cells[k*side+c] == v {
				return false
			}
		}
		br, bc := r/n*n, c/n*n
		for dr := 0; dr < n; dr++ {
			for dc := 0; dc < n; dc++ {
				if g.Cells[(br+dr)*side+bc+dc] == v {
					return false
				}
			}
		}
		return true
	}
	var out naiveCounts
	if len(chain) == 0 {
		out.status, out.solution = StatusSolved, g
		return out
	}
	k := 0
	for {
		if maxSteps != 0 && out.steps == maxSteps {
			out.status = StatusLimit
			return out
		}
		out.steps++
		i := chain[k]
		v := g.Cells[i] + 1
		for ; int(v) <= side; v++ {
			out.tried++
			if fits(i, v) {
				break
			}
		}
		if int(v) <= side {
			g.Cells[i] = v
			out.written++
			k++
			if k == len(chain) {
				out.status, out.solution = StatusSolved, g
				return out
			}
			continue
		}
		g.Cells[i] = 0
		out.back++
		k--
		if k < 0 {
			out.status = StatusUnsolvable
			return out
		}
	}
}

const (
	langerHard       = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
	langerHardMirror = "000000000580300000000020100000705000001000400000000090370000005000010200900040000"
)

func TestBacktrackLangerHard(t *testing.T) {
	// The 138 million steps take about 1 s, and about as long with -race
	// (the search state lives in arrays on the stack, which the race
	// detector does not instrument), so this runs in short mode too.
	s := &backtrack{}
	hard := MustParse(langerHard)
	start := time.Now()
	r := s.Solve(context.Background(), hard, Limits{})
	elapsed := time.Since(start)
	if r.Status != StatusSolved {
		t.Fatalf("langer-hard: status %v (err %v), want solved", r.Status, r.Err)
	}
	if err := Check(hard, r.Solution); err != nil {
		t.Fatalf("langer-hard: wrong solution %s: %v", r.Solution, err)
	}
	if r.Guesses != 69_175_316 {
		t.Errorf("langer-hard: Guesses = %d, want the article's 69175316 values written", r.Guesses)
	}
	if r.Calls != 138_350_568 || r.Backtracks != 69_175_252 {
		t.Errorf("langer-hard: Calls = %d, Backtracks = %d, want 138350568 and 69175252", r.Calls, r.Backtracks)
	}
	t.Logf("langer-hard: %d calls, %d guesses, %d backtracks in %v (%.0f M steps/s)",
		r.Calls, r.Guesses, r.Backtracks, elapsed, float64(r.Calls)/elapsed.Seconds()/1e6)

	mirror := MustParse(langerHardMirror)
	for i := 0; i < mirror.Len(); i++ {
		side := mirror.Side()
		if want := hard.Cells[i/side*side+side-1-i%side]; mirror.Cells[i] != want {
			t.Fatalf("langerHardMirror is not the left-right mirror of langerHard at cell %d", i)
		}
	}
	m := s.Solve(context.Background(), mirror, Limits{})
	if m.Status != StatusSolved {
		t.Fatalf("langer-hard-mirror: status %v, want solved", m.Status)
	}
	if err := Check(mirror, m.Solution); err != nil {
		t.Fatalf("langer-hard-mirror: wrong solution: %v", err)
	}
	if m.Guesses > 50_000 {
		t.Errorf("langer-hard-mirror: Guesses = %d, want at most 50000 (the mirror is easy)", m.Guesses)
	}
	t.Logf("langer-hard-mirror: %d calls, %d guesses, %d backtracks", m.Calls, m.Guesses, m.Backtracks)
}

func TestBacktrackCounters(t *testing.T) {
	s := &backtrack{}
	// The counts of corpus puzzles #0 and #2018, as naiveBacktrack gives
	// them (it takes seconds on #0, so they are written down here).
	cases := []struct {
		name                       string
		calls, guesses, backtracks uint64
	}{
		{"corpus-0", 53_180_522, 26_590_293, 26_590_229},
		{"corpus-2018", 4_000_496, 2_000_280, 2_000_216},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := knownByName(t, tc.name)
			r := expectSolved(t, s, k.puzzle, k.solution)
			if r.Calls != r.Guesses+r.Backtracks {
				t.Errorf("Calls = %d, want Guesses + Backtracks = %d", r.Calls, r.Guesses+r.Backtracks)
			}
			if r.Guesses-r.Backtracks != uint64(k.puzzle.Empty()) {
				t.Errorf("Guesses - Backtracks = %d, want the %d empty cells", r.Guesses-r.Backtracks, k.puzzle.Empty())
			}
			if r.Calls != tc.calls || r.Guesses != tc.guesses || r.Backtracks != tc.backtracks {
				t.Errorf("counters %d/%d/%d, want %d/%d/%d", r.Calls, r.Guesses, r.Backtracks,
					tc.calls, tc.guesses, tc.backtracks)
			}
			// A stopped search keeps the identities, and counts what the
			// naive loop counts after as many steps.
			for _, m := range []uint64{1, 2, 12_345, 200_000} {
				l := s.Solve(context.Background(), k.puzzle, Limits{MaxCalls: m})
				if l.Status != StatusLimit || l.Calls != m {
					t.Fatalf("MaxCalls %d: status %v, Calls %d", m, l.Status, l.Calls)
				}
				if l.Calls != l.Guesses+l.Backtracks {
					t.Errorf("MaxCalls %d: Calls = %d, want Guesses + Backtracks = %d", m, l.Calls, l.Guesses+l.Backtracks)
				}
				// Every cell before the current one holds a value; the
				// current one may hold the value it is about to leave.
				if d := uint64(l.Filled) - (l.Guesses - l.Backtracks); d > 1 {
					t.Errorf("MaxCalls %d: Filled = %d, Guesses - Backtracks = %d", m, l.Filled, l.Guesses-l.Backtracks)
				}
				want := naiveBacktrack(k.puzzle, m)
				if l.Guesses != want.written || l.Backtracks != want.back {
					t.Errorf("MaxCalls %d: guesses/backtracks %d/%d, the naive loop %d/%d", m,
						l.Guesses, l.Backtracks, want.written, want.back)
				}
			}
		})
	}
}

// TestBacktrackMatchesNaive compares backtrack with the plain loop on
// every puzzle small enough for it, solved or not.
func TestBacktrackMatchesNaive(t *testing.T) {
	type named struct {
		name   string
		puzzle Puzzle
	}
	var puzzles []named
	for _, k := range loadKnown(t) {
		if k.puzzle.Box == 2 || k.name == "norvig-grid1" || k.name == "langer-hard-mirror" || k.name == "16x16-a" {
			puzzles = append(puzzles, named{k.name, k.puzzle})
		}
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		puzzles = append(puzzles, named{f[0], MustParse(f[1])})
	}
	full := MustParse("123456789456789123789123456214365897365897214897214365531642978642978531978531642")
	puzzles = append(puzzles, named{"9x9-full", full})
	s := &backtrack{}
	for _, pz := range puzzles {
		t.Run(pz.name, func(t *testing.T) {
			want := naiveBacktrack(pz.puzzle, 0)
			r := s.Solve(context.Background(), pz.puzzle, Limits{})
			if r.Status != want.status {
				t.Fatalf("status %v, the naive loop %v", r.Status, want.status)
			}
			if r.Calls != want.steps || r.Guesses != want.written || r.Backtracks != want.back {
				t.Errorf("counters %d/%d/%d, the naive loop %d/%d/%d", r.Calls, r.Guesses, r.Backtracks,
					want.steps, want.written, want.back)
			}
			switch r.Status {
			case StatusSolved:
				if err := Check(pz.puzzle, r.Solution); err != nil {
					t.Fatalf("wrong solution: %v", err)
				}
				if r.Solution != want.solution {
					t.Errorf("solution %s, the naive loop %s", r.Solution, want.solution)
				}
				if r.Guesses-r.Backtracks != uint64(pz.puzzle.Empty()) || r.Filled != pz.puzzle.Empty() {
					t.Errorf("Guesses - Backtracks = %d, Filled = %d, want %d empty cells",
						r.Guesses-r.Backtracks, r.Filled, pz.puzzle.Empty())
				}
			case StatusUnsolvable:
				if r.Backtracks != r.Guesses+1 || !r.Solution.IsZero() {
					t.Errorf("unsolvable: Guesses %d, Backtracks %d (want one more), solution %q",
						r.Guesses, r.Backtracks, r.Solution)
				}
			}
		})
	}
}
