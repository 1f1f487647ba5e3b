package solvers

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
)

// norvigHardest is corpus puzzle #45751, the one that costs norvig the most
// search calls (3130) over the 17-clue corpus.
const norvigHardest = "080000094000057000010000000700406000203000000500000000000030570000000200000600000"

// norvigDeadEnd is norvigHardest with a wrong 2 in r1c5: no contradiction
// in parse_grid, but every branch of the search fails.
const norvigDeadEnd = "080020094000057000010000000700406000203000000500000000000030570000000200000600000"

// norvigCorpus calls fn for every puzzle of the full corpus whose id keep
// accepts (every puzzle when keep is nil).
func norvigCorpus(t *testing.T, keep func(id int) bool, fn func(e corpusEntry)) {
	t.Helper()
	eachCorpus(t, func(e corpusEntry) bool {
		if keep == nil || keep(e.ID) {
			fn(e)
		}
		return true
	})
}

// checkNorvigIdentities checks the relations between the counters that
// follow from their definitions, for a search not stopped by a limit.
func checkNorvigIdentities(t *testing.T, name string, r Result) {
	t.Helper()
	if r.Calls != r.Guesses+1 {
		t.Errorf("%s: calls %d != guesses %d + 1", name, r.Calls, r.Guesses)
	}
	if r.Backtracks > r.Guesses {
		t.Errorf("%s: backtracks %d > guesses %d", name, r.Backtracks, r.Guesses)
	}
	switch r.Status {
	case StatusSolved:
		// The digits that did not fail are those on the path to the
		// solution: none without a guess, at least one with guesses.
		if (r.Guesses == 0) != (r.Backtracks == r.Guesses) {
			t.Errorf("%s: solved with guesses %d, backtracks %d", name, r.Guesses, r.Backtracks)
		}
		if r.Guesses == 0 && (r.Calls != 1 || r.Backtracks != 0) {
			t.Errorf("%s: solved by propagation with calls %d, backtracks %d; want 1, 0", name, r.Calls, r.Backtracks)
		}
	case StatusUnsolvable:
		if r.Backtracks != r.Guesses {
			t.Errorf("%s: unsolvable with backtracks %d != guesses %d", name, r.Backtracks, r.Guesses)
		}
	default:
		t.Errorf("%s: status %v (err %v)", name, r.Status, r.Err)
	}
}

func TestNorvigNoGuessShare(t *testing.T) {
	// The published figure for this algorithm on this corpus: 44.6% solved
	// by propagation alone. Unless the heavy tests run (under -race about
	// ten times slower: 25 s for the corpus), every tenth puzzle only, and
	// no assertion on the share.
	sample := !testenv.HeavyEnabled()
	keep := func(int) bool { return true }
	if sample {
		keep = func(id int) bool { return id%10 == 0 }
	}
	s := &norvig{}
	start := time.Now()
	var puzzles, noGuess int
	var calls uint64
	norvigCorpus(t, keep, func(e corpusEntry) {
		r := s.Solve(context.Background(), e.Puzzle, Limits{})
		if r.Status != StatusSolved {
			t.Fatalf("#%d: status %v (err %v)", e.ID, r.Status, r.Err)
		}
		if err := Check(e.Puzzle, r.Solution); err != nil {
			t.Fatalf("#%d: wrong solution %s: %v", e.ID, r.Solution, err)
		}
		checkNorvigIdentities(t, "#"+strconv.Itoa(e.ID), r)
		puzzles++
		calls += r.Calls
		if r.Guesses == 0 {
			noGuess++
		}
	})
	share := 100 * float64(noGuess) / float64(puzzles)
	t.Logf("%d of %d puzzles (%.4f%%) solved without a guess; %d search calls; %v",
		noGuess, puzzles, share, calls, time.Since(start).Round(time.Millisecond))
	if sample {
		return
	}
	if puzzles != 49151 {
		t.Fatalf("read %d puzzles, want 49151", puzzles)
	}
	if got := math.Round(share*10) / 10; got != 44.6 {
		t.Errorf("share solved without a guess = %.4f%% (%d puzzles), rounds to %.1f%%, want 44.6%%", share, noGuess, got)
	}
	// Any faithful implementation gives the same counts (see norvig's doc).
	if noGuess != 21905 || calls != 328774 {
		t.Errorf("%d puzzles without a guess and %d calls, want 21905 and 328774", noGuess, calls)
	}
}

func TestNorvigCounterIdentities(t *testing.T) {
	s := &norvig{}
	n := 0
	norvigCorpus(t, func(id int) bool { return id%97 == 0 }, func(e corpusEntry) {
		checkNorvigIdentities(t, "#"+strconv.Itoa(e.ID), s.Solve(context.Background(), e.Puzzle, Limits{}))
		n++
	})
	for _, k := range loadKnown(t) {
		checkNorvigIdentities(t, k.name, s.Solve(context.Background(), k.puzzle, Limits{}))
		n++
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		checkNorvigIdentities(t, f[0], s.Solve(context.Background(), MustParse(f[1]), Limits{}))
		n++
	}
	checkNorvigIdentities(t, "dead-end", s.Solve(context.Background(), MustParse(norvigDeadEnd), Limits{}))
	t.Logf("%d puzzles", n+1)
}

func TestNorvigCounters(t *testing.T) {
	// Counters are those of any faithful implementation; the reference
	// transcription below gives the same (TestNorvigMatchesReference).
	tests := []struct {
		name                       string
		puzzle                     string // a known.txt name, or a puzzle line
		status                     Status
		calls, guesses, backtracks uint64
	}{
		{"corpus-0", "corpus-0", StatusSolved, 1, 0, 0},
		{"corpus-2018", "corpus-2018", StatusSolved, 5, 4, 2},
		{"corpus-8145", "corpus-8145", StatusSolved, 1, 0, 0},
		{"corpus-39949", "corpus-39949", StatusSolved, 4, 3, 1},
		{"norvig-hard1", "norvig-hard1", StatusSolved, 26, 25, 19},
		{"langer-hard", "langer-hard", StatusSolved, 1, 0, 0},
		{"16x16-a", "16x16-a", StatusSolved, 1, 0, 0},
		{"corpus-45751", norvigHardest, StatusSolved, 3130, 3129, 3119},
		// parse_grid meets a contradiction: search is called once with False.
		{"empty-cell", "123456780000000009000000000000000000000000000000000000000000000000000000000000000", StatusUnsolvable, 1, 0, 0},
		{"dead-end", norvigDeadEnd, StatusUnsolvable, 245, 244, 244},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Puzzle
			if len(tt.puzzle) == 81 {
				p = MustParse(tt.puzzle)
			} else {
				p = knownByName(t, tt.puzzle).puzzle
			}
			r := (&norvig{}).Solve(context.Background(), p, Limits{})
			if r.Status != tt.status || r.Calls != tt.calls || r.Guesses != tt.guesses || r.Backtracks != tt.backtracks {
				t.Fatalf("status %v calls %d guesses %d backtracks %d, want %v %d %d %d",
					r.Status, r.Calls, r.Guesses, r.Backtracks, tt.status, tt.calls, tt.guesses, tt.backtracks)
			}
			switch r.Status {
			case StatusSolved:
				if err := Check(p, r.Solution); err != nil {
					t.Fatalf("wrong solution: %v", err)
				}
				if r.Filled != p.Empty() {
					t.Errorf("Filled = %d, want %d", r.Filled, p.Empty())
				}
			case StatusUnsolvable:
				if !r.Solution.IsZero() || r.Filled != 0 {
					t.Errorf("unsolvable with solution %q, Filled %d", r.Solution, r.Filled)
				}
			}
		})
	}
}

func TestNorvigMatchesReference(t *testing.T) {
	// The reference is a literal transcription of the essay's recursive
	// assign/eliminate and search: same counters and same solution.
	type named struct {
		name string
		p    Puzzle
	}
	var puzzles []named
	for _, k := range loadKnown(t) {
		puzzles = append(puzzles, named{k.name, k.puzzle})
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		puzzles = append(puzzles, named{f[0], MustParse(f[1])})
	}
	puzzles = append(puzzles, named{"corpus-45751", MustParse(norvigHardest)}, named{"dead-end", MustParse(norvigDeadEnd)})
	step := 211
	if raceEnabled {
		step = 1009
	}
	norvigCorpus(t, func(id int) bool { return id%step == 0 }, func(e corpusEntry) {
		puzzles = append(puzzles, named{"#" + strconv.Itoa(e.ID), e.Puzzle})
	})
	for _, np := range puzzles {
		got := (&norvig{}).Solve(context.Background(), np.p, Limits{})
		want := refNorvigSolve(np.p)
		if got.Status != want.Status || got.Calls != want.Calls || got.Guesses != want.Guesses ||
			got.Backtracks != want.Backtracks || got.Solution != want.Solution {
			t.Errorf("%s: got %v %d/%d/%d %s, reference %v %d/%d/%d %s", np.name,
				got.Status, got.Calls, got.Guesses, got.Backtracks, got.Solution,
				want.Status, want.Calls, want.Guesses, want.Backtracks, want.Solution)
		}
	}
	t.Logf("%d puzzles agree", len(puzzles))
}

func TestNorvigLimits(t *testing.T) {
	// The shared limit tests use langer-hard, which norvig solves by
	// propagation alone (1 call); this puzzle needs 3130 calls.
	p := MustParse(norvigHardest)
	s := &norvig{}
	full := s.Solve(context.Background(), p, Limits{})
	if full.Status != StatusSolved || full.Calls != 3130 {
		t.Fatalf("unlimited: status %v calls %d, want solved in 3130", full.Status, full.Calls)
	}
	for _, max := range []uint64{1, 2, 3, norvigEvery, norvigEvery + 1, full.Calls - 1} {
		r := s.Solve(context.Background(), p, Limits{MaxCalls: max})
		if r.Status != StatusLimit || r.Calls != max || r.Err == nil {
			t.Fatalf("MaxCalls %d: status %v calls %d err %v, want limit after exactly %d calls", max, r.Status, r.Calls, r.Err, max)
		}
		if r.Guesses != max || r.Backtracks >= r.Guesses {
			// The refused call is the next digit tried, counted as a guess.
			t.Errorf("MaxCalls %d: guesses %d backtracks %d", max, r.Guesses, r.Backtracks)
		}
		if r.Filled < 0 || r.Filled > p.Empty() || !r.Solution.IsZero() {
			t.Errorf("MaxCalls %d: Filled %d (of %d), solution %q", max, r.Filled, p.Empty(), r.Solution)
		}
		again := s.Solve(context.Background(), p, Limits{MaxCalls: max})
		if again.Calls != r.Calls || again.Guesses != r.Guesses || again.Backtracks != r.Backtracks || again.Filled != r.Filled {
			t.Fatalf("MaxCalls %d: two runs differ: %+v vs %+v", max, r, again)
		}
	}
	if r := s.Solve(context.Background(), p, Limits{MaxCalls: full.Calls}); r.Status != StatusSolved || r.Calls != full.Calls {
		t.Errorf("MaxCalls = calls needed: status %v calls %d, want solved", r.Status, r.Calls)
	}
	r := s.Solve(context.Background(), p, Limits{Deadline: time.Now().Add(-time.Second)})
	if r.Status != StatusTimeout || r.Calls != 0 {
		t.Errorf("past deadline: status %v calls %d, want timeout before the first call", r.Status, r.Calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = s.Solve(ctx, p, Limits{})
	if r.Status != StatusError || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("canceled context: status %v err %v, want error wrapping context.Canceled", r.Status, r.Err)
	}
}

func TestNorvigAllocations(t *testing.T) {
	p := MustParse(norvigHardest)
	s := &norvig{}
	if n := testing.AllocsPerRun(5, func() { s.Solve(context.Background(), p, Limits{}) }); n != 0 {
		t.Errorf("Solve allocates %v times per puzzle, want 0", n)
	}
}

// refNorvig is a literal transcription of the essay's code, kept simple
// and independent of norvig.go (its own units and peers, recursion as in
// the essay): values[s] holds the candidates of cell s as bits, a nil
// slice stands for False.
type refNorvig struct {
	side                       int
	units                      [][][]int // units[s]: the three units of cell s
	peers                      [][]int
	calls, guesses, backtracks uint64
}

func newRefNorvig(box int) *refNorvig {
	side := box * box
	z := &refNorvig{side: side}
	var all [][]int
	for i := 0; i < side; i++ {
		var row, col, blk []int
		for j := 0; j < side; j++ {
			row = append(row, i*side+j)
			col = append(col, j*side+i)
			blk = append(blk, ((i/box)*box+j/box)*side+(i%box)*box+j%box)
		}
		all = append(all, row, col, blk)
	}
	for s := 0; s < side*side; s++ {
		var us [][]int
		seen := map[int]bool{s: true}
		var peers []int
		for _, u := range all {
			for _, c := range u {
				if c == s {
					us = append(us, u)
					for _, q := range u {
						if !seen[q] {
							seen[q] = true
							peers = append(peers, q)
						}
					}
				}
			}
		}
		z.units = append(z.units, us)
		z.peers = append(z.peers, peers)
	}
	return z
}

// refNorvigSolve is solve(grid) = search(parse_grid(grid)).
func refNorvigSolve(p Puzzle) Result {
	z := newRefNorvig(p.Box)
	values := z.search(z.parseGrid(p))
	r := Result{Status: StatusUnsolvable, Calls: z.calls, Guesses: z.guesses, Backtracks: z.backtracks}
	if values != nil {
		r.Status = StatusSolved
		r.Solution = NewGrid(p.Box)
		for s, v := range values {
			r.Solution.Cells[s] = uint8(bits.TrailingZeros32(v) + 1)
		}
	}
	return r
}

func (z *refNorvig) parseGrid(p Puzzle) []uint32 {
	values := make([]uint32, z.side*z.side)
	for s := range values {
		values[s] = 1<<z.side - 1
	}
	for s := range values {
		if d := int(p.Cells[s]); d != 0 && !z.assign(values, s, d-1) {
			return nil
		}
	}
	return values
}

func (z *refNorvig) assign(values []uint32, s, d int) bool {
	other := values[s] &^ (1 << d)
	for d2 := 0; d2 < z.side; d2++ {
		if other&(1<<d2) != 0 && !z.eliminate(values, s, d2) {
			return false
		}
	}
	return true
}

func (z *refNorvig) eliminate(values []uint32, s, d int) bool {
	if values[s]&(1<<d) == 0 {
		return true // already eliminated
	}
	values[s] &^= 1 << d
	switch bits.OnesCount32(values[s]) {
	case 0:
		return false // removed the last value
	case 1:
		d2 := bits.TrailingZeros32(values[s])
		for _, s2 := range z.peers[s] {
			if !z.eliminate(values, s2, d2) {
				return false
			}
		}
	}
	for _, u := range z.units[s] {
		var places []int
		for _, s2 := range u {
			if values[s2]&(1<<d) != 0 {
				places = append(places, s2)
			}
		}
		if len(places) == 0 {
			return false // no place for d in this unit
		}
		if len(places) == 1 && !z.assign(values, places[0], d) {
			return false
		}
	}
	return true
}

func (z *refNorvig) search(values []uint32) []uint32 {
	z.calls++
	if values == nil {
		return nil
	}
	best, bestN := -1, 0
	for s, v := range values {
		if n := bits.OnesCount32(v); n > 1 && (best < 0 || n < bestN) {
			best, bestN = s, n
		}
	}
	if best < 0 {
		return values // solved
	}
	for d := 0; d < z.side; d++ {
		if values[best]&(1<<d) == 0 {
			continue
		}
		z.guesses++
		child := append([]uint32(nil), values...)
		if !z.assign(child, best, d) {
			child = nil
		}
		if solved := z.search(child); solved != nil {
			return solved
		}
		z.backtracks++
	}
	return nil
}
