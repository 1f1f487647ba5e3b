package report

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/corpus"
	"sudokubatch/internal/golden"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Known puzzles with their solutions (solvers/testdata/known.txt).
const (
	show9     = "010600000000000084000030000403000200000510007800000000200005000000700100000000030"
	show9Sol  = "918654723365271984742839651453967218629518347871342596236185479584793162197426835"
	show4     = "4000300200040020"
	show4Sol  = "4231314223141423"
	show16    = "G3070F0000C09D02E5AC690D0070F4B0480F0C500D960G10D000070G000B000500017B03E80060CD5D00000243B700F00EF0C6D0001900703070F0E0050C129G000200B0A00050E6C6E5D010B00G8F00F040056C002D30GB7BG308AF005E20000C0E500671G24000BF00000A900500271000040BC0E0D60969002G70FB400A8C"
	show16Sol = "G317BF845ECA9D62E5AC692D3G71F4B848BFAC5E2D967G13D269173G84FBCEA52G917B43E8AF65CD5DC691G243B7A8FE8EFAC6D5G219B374347BFAE8D56C129G91D2G3B7AF845CE6C6E5D219B73G8F4AFA48E56C192D37GB7BG348AF6C5E29D1AC8E5D9671G24B3FBF348ECA96D5G127172G34FBCAE8D659695D2G71FB43EA8C"
)

// showUnit is one row of a fixed `batch show` table.
func showUnit(solver string, st solvers.Status, ns int64, calls, guesses, backtracks uint64, filled int, solution, msg string) rundir.Row {
	return rundir.Row{Solver: solver, Status: st, NS: ns, Calls: calls, Guesses: guesses, Backtracks: backtracks,
		Filled: filled, Solution: solution, Error: msg, Solutions: -1}
}

// TestShowGolden renders fixed PuzzleShows: the rows stand for a run of
// every strategy (times fixed), the ranks come from testdata/mini.
func TestShowGolden(t *testing.T) {
	mini, err := LoadResults(context.Background(), filepath.Join("testdata", "mini", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	entry := func(id, line int, puzzle string) corpus.Entry {
		return corpus.Entry{ID: id, Line: line, Puzzle: solvers.MustParse(puzzle)}
	}
	cases := []struct {
		name string
		show PuzzleShow
	}{
		{"9x9", PuzzleShow{Corpus: "testdata/mini.txt", Entry: entry(2, 3, show9), Solutions: 1,
			Limits: "timeout 10s per strategy, seed 1", Run: "testdata/mini", RunSize: mini.Puzzles,
			Ranks: RankPuzzle(mini, "testdata/mini.txt", 2),
			Units: []rundir.Row{
				showUnit("backtrack", solvers.StatusSolved, 162_000_000, 23001848, 11500956, 11500892, 64, show9Sol, ""),
				showUnit("bruteforce", solvers.StatusTimeout, 10_000_036_307, 36561152, 4062369, 4062324, 46, "", "stopped after 36561152 calls: deadline passed"),
				showUnit("singles", solvers.StatusStuck, 5625, 1, 0, 0, 0, "", ""),
				showUnit("randmrv", solvers.StatusWrong, 60_175_368, 140514, 70262, 70251, 64, show9Sol, "wrong solution: row 1 holds 9 2 times"),
				showUnit("norvig", solvers.StatusSolved, 20381, 4, 3, 1, 64, show9Sol, ""),
				showUnit("dlx", solvers.StatusSolved, 90519, 93, 92, 28, 64, show9Sol, ""),
				showUnit("bitboard", solvers.StatusError, 27620, 0, 0, 0, 0, "", "panic: index out of range"),
			}}},
		{"4x4", PuzzleShow{Corpus: "-", Entry: entry(0, 1, show4), Solutions: 1,
			Limits:  "no timeout, at most 1000 calls per strategy, seed 7",
			RunNote: "No ranks: no run in results/latest (rank in a run with -run DIR).",
			Units: []rundir.Row{
				showUnit("backtrack", solvers.StatusSolved, 1500, 20, 14, 2, 12, show4Sol, ""),
				showUnit("bitboard", solvers.StatusUnsupported, 0, 0, 0, 0, 0, "", "bitboard solves 9x9 grids only"),
			}}},
		{"16x16 not in run", PuzzleShow{Corpus: "big.txt", Entry: entry(99, 102, show16), Solutions: 1,
			Limits: "timeout 10s per strategy, seed 1", Run: "testdata/mini", RunLabel: "testdata/mini.txt",
			RunSize: mini.Puzzles, Ranks: RankPuzzle(mini, "testdata/mini.txt", 99),
			Units: []rundir.Row{
				showUnit("dlx", solvers.StatusSolved, 1_234_567, 117, 116, 0, 139, show16Sol, ""),
				showUnit("backtrack", solvers.StatusLimit, 98_765_432, 1000, 990, 980, 75, "", "stopped after 1000 calls: call limit"),
			}}},
		{"no solution", PuzzleShow{Corpus: "c.txt", Entry: entry(5, 6, show4), Solutions: -1, Limits: "timeout 1ms per strategy, seed 1",
			Units: []rundir.Row{
				showUnit("backtrack", solvers.StatusTimeout, 1_000_100, 20, 14, 2, 3, "", ""),
			}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.show.WriteText(&b, 0); err != nil {
				t.Fatal(err)
			}
			name := strings.ReplaceAll(c.name, " ", "-") + ".txt"
			golden.Check(t, filepath.Join("testdata", "show.golden", name), b.Bytes())
		})
	}
}

func TestShowTimeFormatter(t *testing.T) {
	s := PuzzleShow{Corpus: "c.txt", Entry: corpus.Entry{Puzzle: solvers.MustParse(show4)}, Solutions: 2,
		Units: []rundir.Row{showUnit("dlx", solvers.StatusSolved, 123456, 5, 4, 0, 12, show4Sol, "")},
		Time:  func(int64) string { return "T" }}
	var b bytes.Buffer
	if err := s.WriteText(&b, 1000); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "dlx       solved     T") {
		t.Errorf("the injected time formatter is not used:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "5 clues, several solutions\n") {
		t.Errorf("solutions: want several:\n%s", b.String())
	}
}

func TestShowSolutionAndWrong(t *testing.T) {
	other := "4231314223141423"
	s := PuzzleShow{Units: []rundir.Row{
		showUnit("a", solvers.StatusTimeout, 1, 1, 1, 1, 1, "", ""),
		showUnit("b", solvers.StatusWrong, 1, 1, 1, 1, 1, "1111111111111111", "wrong"),
		showUnit("c", solvers.StatusSolved, 1, 1, 1, 1, 1, other, ""),
		showUnit("d", solvers.StatusSolved, 1, 1, 1, 1, 1, "2143342112344312", ""),
	}}
	g, n := s.Solution()
	if g.String() != other || n != 2 {
		t.Errorf("Solution() = %s, %d; want %s (the first checked one), 2", g.String(), n, other)
	}
	if w := s.Wrong(); len(w) != 1 || w[0] != "b" {
		t.Errorf("Wrong() = %v, want [b]", w)
	}
}

func TestRankPuzzle(t *testing.T) {
	// calls = time = 10, 20, ..., 100 for ids 0..9; id 3 stopped by a
	// limit; id 10 invalid; "other" has id 4 only.
	var us []unit
	for i := range 10 {
		st := solvers.StatusSolved
		if i == 3 {
			st = solvers.StatusLimit
		}
		us = append(us, unit{"x", i, st, int64(10 * (i + 1)), uint64(10 * (i + 1)), 0})
	}
	us = append(us, unit{"x", 10, solvers.StatusInvalid, 0, 0, 0}, unit{"other", 4, solvers.StatusSolved, 7, 7, 0})
	res := mkResults(us...)
	check := func(id int, solver string, found bool, rank, measured int, pct, xmed float64) {
		t.Helper()
		for _, r := range RankPuzzle(res, "c.txt", id) {
			if r.Solver != solver {
				continue
			}
			if r.Found != found || r.Unit.RankCalls != rank || r.Unit.RankTime != rank || r.Measured != measured ||
				r.PctCalls != pct || r.PctTime != pct || r.Unit.XMedianCalls != xmed {
				t.Errorf("#%d %s: found %v rank %d/%d pct %v ×%v; want %v %d/%d %v ×%v", id, solver, r.Found,
					r.Unit.RankCalls, r.Measured, r.PctCalls, r.Unit.XMedianCalls, found, rank, measured, pct, xmed)
			}
			return
		}
		t.Errorf("#%d: no rank for %s", id, solver)
	}
	check(9, "x", true, 1, 10, 100, 2)   // the most: rank 1, p100; median 50
	check(0, "x", true, 10, 10, 10, 0.2) // the least: 1 unit of 10 at or below it
	check(4, "x", true, 6, 10, 50, 1)    // the median
	check(3, "x", true, 7, 10, 40, 0.8)  // stopped: ranked at its value
	check(10, "x", true, 0, 10, 0, 0)    // invalid: found, not ranked
	check(42, "x", false, 0, 10, 0, 0)   // not in the run
	check(4, "other", true, 1, 1, 100, 1)
	check(0, "other", false, 0, 1, 0, 0)
	for _, r := range RankPuzzle(res, "elsewhere.txt", 4) {
		if r.Found {
			t.Errorf("%s: found in a corpus the run does not have", r.Solver)
		}
	}
}

func TestFmtPercentile(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{100, "p100"}, {100 * 49150.0 / 49151, "p99.9"}, {50, "p50.0"}, {0.05, "p0.0"}, {48.33, "p48.3"}} {
		if got := fmtPercentile(c.v); got != c.want {
			t.Errorf("fmtPercentile(%v) = %s, want %s", c.v, got, c.want)
		}
	}
}
