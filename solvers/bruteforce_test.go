package solvers

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBruteforceMatchesBacktrack checks that bruteforce walks backtrack's
// tree: equal guesses, backtracks and solutions on every puzzle where both
// finish, and one whole-grid validation per value tried by the naive loop.
func TestBruteforceMatchesBacktrack(t *testing.T) {
	// Every run has a budget of MaxCalls: the known puzzles need at most
	// 388,751 validations (langer-hard-mirror), the corpus ones get less.
	const budget, corpusBudget = 500_000, 100_000
	type named struct {
		name   string
		puzzle Puzzle
		budget uint64
	}
	var puzzles []named
	for _, k := range loadKnown(t) {
		if k.puzzle.Box == 2 || k.name == "norvig-grid1" || k.name == "langer-hard-mirror" || k.name == "16x16-a" {
			puzzles = append(puzzles, named{k.name, k.puzzle, budget})
		}
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		puzzles = append(puzzles, named{f[0], MustParse(f[1]), budget})
	}
	full := knownByName(t, "norvig-grid1").solution
	puzzles = append(puzzles, named{"9x9-no-empty-cell", Puzzle{Grid: full}, budget})
	// 9x9 puzzles made from known solutions by emptying 40 cells chosen
	// at random (fixed seeds); they may have several solutions, which does
	// not matter here: both strategies find the first one in their order.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"corpus-0", "corpus-2018", "langer-hard", "norvig-grid1"} {
		sol := knownByName(t, name).solution
		for j := 0; j < 2; j++ {
			p := Puzzle{Grid: sol}
			for _, i := range rng.Perm(81)[:40] {
				p.Cells[i] = 0
			}
			puzzles = append(puzzles, named{fmt.Sprintf("%s-minus40-%d", name, j), p, budget})
		}
	}
	// 17-clue corpus puzzles: #647, #1683 and #703 have small chained
	// trees (at most 56,952 validations); #0 stops both at the budget, and
	// is then only checked for the limit.
	corpus := corpusPuzzles(t, 647, 1683, 703, 0)
	for _, id := range []int{647, 1683, 703, 0} {
		puzzles = append(puzzles, named{fmt.Sprintf("corpus-%d", id), corpus[id], corpusBudget})
	}

	bt, bf := &backtrack{}, &bruteforce{}
	compared9x9 := 0
	for _, pz := range puzzles {
		t.Run(pz.name, func(t *testing.T) {
			lim := Limits{MaxCalls: pz.budget}
			a := bt.Solve(context.Background(), pz.puzzle, lim)
			b := bf.Solve(context.Background(), pz.puzzle, lim)
			for _, r := range []Result{a, b} {
				if r.Status == StatusLimit && r.Calls != pz.budget {
					t.Fatalf("stopped at the limit with Calls = %d, want %d", r.Calls, pz.budget)
				}
			}
			if a.Status == StatusLimit || b.Status == StatusLimit {
				t.Logf("not compared: backtrack %v after %d steps, bruteforce %v after %d validations",
					a.Status, a.Calls, b.Status, b.Calls)
				return
			}
			if a.Status != b.Status {
				t.Fatalf("backtrack %v, bruteforce %v", a.Status, b.Status)
			}
			if a.Guesses != b.Guesses || a.Backtracks != b.Backtracks {
				t.Errorf("guesses/backtracks: backtrack %d/%d, bruteforce %d/%d",
					a.Guesses, a.Backtracks, b.Guesses, b.Backtracks)
			}
			if a.Solution != b.Solution || a.Filled != b.Filled {
				t.Errorf("backtrack solution %s (filled %d), bruteforce %s (filled %d)",
					a.Solution, a.Filled, b.Solution, b.Filled)
			}
			if b.Status == StatusSolved {
				if err := Check(pz.puzzle, b.Solution); err != nil {
					t.Fatalf("wrong solution %s: %v", b.Solution, err)
				}
			}
			if want := naiveBacktrack(pz.puzzle, 0); b.Calls != want.tried {
				t.Errorf("bruteforce made %d validations, the naive loop tried %d values", b.Calls, want.tried)
			}
			t.Logf("%v: guesses %d, backtracks %d; backtrack %d steps, bruteforce %d validations",
				b.Status, b.Guesses, b.Backtracks, a.Calls, b.Calls)
			if pz.puzzle.Box == 3 {
				compared9x9++
			}
		})
	}
	if compared9x9 < 12 {
		t.Errorf("only %d 9x9 puzzles were compared, want at least 12", compared9x9)
	}
}

func TestBruteforceValid(t *testing.T) {
	geo := geometryOf(3)
	sol := knownByName(t, "norvig-grid1").solution
	check := func(name string, g Grid, want bool) {
		t.Helper()
		if got := bruteforceValid(&g.Cells, geo); got != want {
			t.Errorf("%s: valid = %v, want %v", name, got, want)
		}
	}
	check("solution", sol, true)
	check("empty", NewGrid(3), true)
	// Put a value twice in one unit only: row, column, box, and last cell.
	for _, tc := range []struct {
		name string
		a, b int // cells given the same value in an empty grid
	}{
		{"row", 0, 8}, {"column", 4, 76}, {"box", 30, 50}, {"last-row", 72, 80},
	} {
		g := NewGrid(3)
		g.Cells[tc.a], g.Cells[tc.b] = 7, 7
		check(tc.name, g, false)
	}
	g := sol
	g.Cells[80], g.Cells[79] = g.Cells[79], g.Cells[80]
	check("solution with two cells swapped", g, false)
}
