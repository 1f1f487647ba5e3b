package solvers

import (
	"bufio"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// known is a known-answer puzzle from testdata/known.txt.
type known struct {
	name     string
	puzzle   Puzzle
	solution Grid
}

func loadKnown(t testing.TB) []known {
	t.Helper()
	var out []known
	for _, f := range readTestdata(t, "testdata/known.txt", 3) {
		p, err := ParsePuzzle(f[1])
		if err != nil {
			t.Fatalf("known.txt %s: %v", f[0], err)
		}
		s, err := ParsePuzzle(f[2])
		if err != nil {
			t.Fatalf("known.txt %s solution: %v", f[0], err)
		}
		if err := Check(p, s.Grid); err != nil {
			t.Fatalf("known.txt %s: the expected solution fails Check: %v", f[0], err)
		}
		out = append(out, known{f[0], p, s.Grid})
	}
	return out
}

// readTestdata returns the comma-separated fields of the non-comment lines.
func readTestdata(t testing.TB, path string, fields int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ",")
		if len(parts) != fields {
			t.Fatalf("%s: %q has %d fields, want %d", path, line, len(parts), fields)
		}
		out = append(out, parts)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func knownByName(t testing.TB, name string) known {
	t.Helper()
	for _, k := range loadKnown(t) {
		if k.name == name {
			return k
		}
	}
	t.Fatalf("no known puzzle %q", name)
	return known{}
}

// corpusPath returns the path of the full corpus, failing with a message
// that says where it comes from when it is missing.
func corpusPath(t testing.TB) string {
	t.Helper()
	const path = "../data/sudoku17.txt"
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt, Gordon Royle's list of 49151 "+
			"17-clue puzzles, is committed in the repository; "+
			"see data/README.md for its provenance and SHA-256", err)
	}
	return path
}

// corpusEntry is one puzzle of the 17-clue corpus: its id (its 0-based
// line index: the file has one puzzle per line and nothing else) and the
// puzzle. Reading corpora in general is package corpus's; these tests
// need only this file.
type corpusEntry struct {
	ID     int
	Puzzle Puzzle
}

// eachCorpus streams the 17-clue corpus and calls fn on each entry in
// order until fn returns false. A line that is not a puzzle fails the test.
func eachCorpus(t testing.TB, fn func(e corpusEntry) bool) {
	t.Helper()
	path := corpusPath(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for id := 0; sc.Scan(); id++ {
		p, err := ParsePuzzle(sc.Text())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, id+1, err)
		}
		if !fn(corpusEntry{ID: id, Puzzle: p}) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// corpusPuzzles returns the corpus puzzles with the given ids.
func corpusPuzzles(t testing.TB, ids ...int) map[int]Puzzle {
	t.Helper()
	out := map[int]Puzzle{}
	last := slices.Max(ids)
	eachCorpus(t, func(e corpusEntry) bool {
		if slices.Contains(ids, e.ID) {
			out[e.ID] = e.Puzzle
		}
		return e.ID < last
	})
	if len(out) != len(slices.Compact(slices.Sorted(slices.Values(ids)))) {
		t.Fatalf("corpus puzzles %v: found only %d", ids, len(out))
	}
	return out
}

// slowOn reports the puzzles a naive strategy is not asked to finish in the
// test suite, with the reason; they are exercised in benchmarks instead.
func slowOn(solver string, k known) bool {
	switch solver {
	case "bruteforce":
		// Whole-grid validation per step: only puzzles whose chained
		// backtracking tree is small (checked in TestBruteforceMatchesBacktrack).
		return !strings.HasPrefix(k.name, "4x4") && !strings.HasPrefix(k.name, "16x16") &&
			k.name != "norvig-grid1" && k.name != "langer-hard-mirror"
	}
	return false
}

// expectSolved runs s on p and checks the answer with Check and against want.
func expectSolved(t *testing.T, s Solver, p Puzzle, want Grid) Result {
	t.Helper()
	r := s.Solve(context.Background(), p, Limits{Seed: 1})
	if r.Status != StatusSolved {
		t.Fatalf("%s: status %v (err %v), want solved", s.Name(), r.Status, r.Err)
	}
	if err := Check(p, r.Solution); err != nil {
		t.Fatalf("%s: wrong solution %s: %v", s.Name(), r.Solution, err)
	}
	if !want.IsZero() && r.Solution != want {
		t.Fatalf("%s: solution %s, want %s", s.Name(), r.Solution, want)
	}
	if r.Filled != p.Empty() {
		t.Errorf("%s: Filled = %d, want %d (every empty cell)", s.Name(), r.Filled, p.Empty())
	}
	return r
}

func TestKnownAnswers(t *testing.T) {
	puzzles := loadKnown(t)
	if len(All()) == 0 {
		t.Fatal("no strategy registered")
	}
	for _, s := range All() {
		for _, k := range puzzles {
			t.Run(s.Name()+"/"+k.name, func(t *testing.T) {
				if slowOn(s.Name(), k) {
					t.Skipf("%s is too slow for %s in unit tests", s.Name(), k.name)
				}
				switch {
				case !s.Supports(k.puzzle.Box):
					r := s.Solve(context.Background(), k.puzzle, Limits{})
					if r.Status != StatusUnsupported {
						t.Fatalf("%s on %dx%d: status %v, want unsupported", s.Name(), k.puzzle.Side(), k.puzzle.Side(), r.Status)
					}
				case s.Name() == "singles":
					r := s.Solve(context.Background(), k.puzzle, Limits{})
					switch r.Status {
					case StatusSolved:
						if err := Check(k.puzzle, r.Solution); err != nil {
							t.Fatalf("wrong solution: %v", err)
						}
					case StatusStuck:
						if r.Filled < 0 || r.Filled >= k.puzzle.Empty() {
							t.Fatalf("stuck with Filled = %d of %d empty cells", r.Filled, k.puzzle.Empty())
						}
					default:
						t.Fatalf("status %v, want solved or stuck", r.Status)
					}
				default:
					expectSolved(t, s, k.puzzle, k.solution)
				}
			})
		}
	}
}

func TestUnsolvable(t *testing.T) {
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		p := MustParse(f[1])
		for _, s := range All() {
			t.Run(s.Name()+"/"+f[0], func(t *testing.T) {
				r := s.Solve(context.Background(), p, Limits{Seed: 3, MaxCalls: 50_000_000})
				want := StatusUnsolvable
				if !s.Supports(p.Box) {
					want = StatusUnsupported
				}
				if r.Status == StatusStuck && s.Name() == "singles" {
					return // singles may stop before it sees the contradiction
				}
				if r.Status != want {
					t.Fatalf("status %v (err %v), want %v", r.Status, r.Err, want)
				}
				if !r.Solution.IsZero() {
					t.Fatalf("unsolvable puzzle returned a solution %s", r.Solution)
				}
			})
		}
	}
}

func TestConflictingGivens(t *testing.T) {
	// These bypass the parser (which rejects them) to check that every
	// strategy refuses them too, instead of panicking or answering.
	bad := map[string]string{
		"4x4-row":   "1100000000000000",
		"9x9-col":   "500000000500000000000000000000000000000000000000000000000000000000000000000000000",
		"9x9-box":   "500000000050000000000000000000000000000000000000000000000000000000000000000000000",
		"16x16-row": "GG" + strings.Repeat("0", 254),
		"9x9-range": "A" + strings.Repeat("0", 80),
	}
	for name, line := range bad {
		if _, err := ParsePuzzle(line); err == nil {
			t.Errorf("ParsePuzzle(%s) accepted conflicting givens", name)
		}
		p := rawPuzzle(t, line)
		for _, s := range All() {
			t.Run(s.Name()+"/"+name, func(t *testing.T) {
				r := s.Solve(context.Background(), p, Limits{})
				if r.Status != StatusInvalid || r.Err == nil {
					t.Fatalf("status %v err %v, want invalid with a message", r.Status, r.Err)
				}
			})
		}
	}
}

// rawPuzzle builds a Puzzle without validation.
func rawPuzzle(t *testing.T, line string) Puzzle {
	t.Helper()
	box := map[int]int{16: 2, 81: 3, 256: 4}[len(line)]
	p := Puzzle{Grid: NewGrid(box)}
	for i := 0; i < len(line); i++ {
		v, ok := symbolValue(line[i])
		if !ok {
			t.Fatalf("bad symbol in %q", line)
		}
		p.Cells[i] = v
	}
	return p
}

// hardFor returns a puzzle on which s needs many calls: the article's hard
// grid, or for the strategies that solve it at once the corpus puzzle that
// costs them most.
func hardFor(t *testing.T, s Solver) Puzzle {
	t.Helper()
	switch s.Name() {
	case "singles":
		return knownByName(t, "norvig-grid1").puzzle
	case "randmrv":
		return knownByName(t, "corpus-39949").puzzle
	case "norvig":
		return corpusPuzzles(t, 45751)[45751]
	case "bitboard":
		return corpusPuzzles(t, 46671)[46671]
	}
	return knownByName(t, "langer-hard").puzzle
}

func TestMaxCallsIsExact(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name(), func(t *testing.T) {
			p := hardFor(t, s)
			full := s.Solve(context.Background(), p, Limits{Seed: 5, MaxCalls: 100_000})
			if full.Calls < 3 {
				t.Skipf("%s needs only %d calls: nothing to limit", s.Name(), full.Calls)
			}
			max := full.Calls - 1
			r := s.Solve(context.Background(), p, Limits{Seed: 5, MaxCalls: max})
			if r.Status != StatusLimit {
				t.Fatalf("MaxCalls %d: status %v, want limit", max, r.Status)
			}
			if r.Calls != max {
				t.Fatalf("MaxCalls %d: Calls = %d", max, r.Calls)
			}
			again := s.Solve(context.Background(), p, Limits{Seed: 5, MaxCalls: max})
			if again.Calls != r.Calls || again.Guesses != r.Guesses || again.Backtracks != r.Backtracks {
				t.Fatalf("counters differ between two limited runs: %+v vs %+v", r, again)
			}
		})
	}
}

func TestDeadlineAndCancel(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name(), func(t *testing.T) {
			// The limits are checked before the first call, so even a
			// puzzle solved in one call is stopped.
			p := hardFor(t, s)
			r := s.Solve(context.Background(), p, Limits{Seed: 5, Deadline: time.Now().Add(-time.Second)})
			if r.Status != StatusTimeout {
				t.Errorf("past deadline: status %v, want timeout", r.Status)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			r = s.Solve(ctx, p, Limits{Seed: 5})
			if r.Status != StatusError || !errors.Is(r.Err, context.Canceled) {
				t.Errorf("canceled context: status %v err %v, want error wrapping context.Canceled", r.Status, r.Err)
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"backtrack", "bruteforce", "singles", "randmrv", "norvig", "dlx", "bitboard"}
	got := Names()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, name := range want {
		s, ok := Lookup(strings.ToUpper(name))
		if !ok || s.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, s, ok)
		}
		if s.Description() == "" {
			t.Errorf("%s has no Describe", name)
		}
	}
	// What the rest of the program learns from the registry: bruteforce
	// is the one left out of the default set, bitboard the baseline.
	if got := strings.Join(Defaults(), ","); got != "backtrack,singles,randmrv,norvig,dlx,bitboard" {
		t.Errorf("Defaults() = %s", got)
	}
	if Baseline() != "bitboard" {
		t.Errorf("Baseline() = %q, want bitboard", Baseline())
	}
	for _, s := range All() {
		if len(s.Boxes) == 0 {
			t.Errorf("%s supports no grid size", s.Name())
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
}
