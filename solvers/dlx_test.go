package solvers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
)

// corpusStep is the sampling step of corpus-wide tests: every puzzle, or
// every 50th under the race detector.
func corpusStep() int {
	if raceEnabled {
		return 50
	}
	return 1
}

// eachCorpusPuzzle streams the 17-clue corpus and calls fn on every
// corpusStep()-th puzzle. It fails the test on an unreadable line and
// returns the number of puzzles passed to fn.
func eachCorpusPuzzle(t *testing.T, fn func(id int, p Puzzle)) int {
	t.Helper()
	step, n := corpusStep(), 0
	eachCorpus(t, func(e corpusEntry) bool {
		if e.ID%step == 0 {
			fn(e.ID, e.Puzzle)
			n++
		}
		return true
	})
	return n
}

// counters is the part of a Result that tests pin down.
type counters struct{ calls, guesses, backtracks uint64 }

func countersOf(r Result) counters { return counters{r.Calls, r.Guesses, r.Backtracks} }

// solveCorpus solves the corpus with s, checks every answer and the
// identities every strategy of this kind keeps (Calls == Guesses+1,
// Backtracks <= Guesses), and logs totals and the mean time per puzzle.
func solveCorpus(t *testing.T, s Solver) {
	t.Helper()
	testenv.Heavy(t, "solves the 49,151 puzzles of the corpus")
	var total counters
	var spent time.Duration
	var worst Result
	worstID := -1
	n := eachCorpusPuzzle(t, func(id int, p Puzzle) {
		start := time.Now()
		r := s.Solve(context.Background(), p, Limits{})
		spent += time.Since(start)
		if r.Status != StatusSolved {
			t.Fatalf("%s on #%d: status %v (err %v), want solved", s.Name(), id, r.Status, r.Err)
		}
		if err := Check(p, r.Solution); err != nil {
			t.Fatalf("%s on #%d: wrong solution %s: %v", s.Name(), id, r.Solution, err)
		}
		if r.Filled != p.Empty() {
			t.Fatalf("%s on #%d: Filled = %d, want %d", s.Name(), id, r.Filled, p.Empty())
		}
		if r.Calls != r.Guesses+1 || r.Backtracks > r.Guesses {
			t.Fatalf("%s on #%d: counters %+v: want calls == guesses+1 and backtracks <= guesses",
				s.Name(), id, countersOf(r))
		}
		total.calls += r.Calls
		total.guesses += r.Guesses
		total.backtracks += r.Backtracks
		if r.Calls > worst.Calls {
			worst, worstID = r, id
		}
	})
	t.Logf("%s: %d puzzles, %.2f µs/puzzle (race %v); mean calls %.1f, guesses %.1f, backtracks %.1f; most calls #%d %+v",
		s.Name(), n, float64(spent.Microseconds())/float64(n), raceEnabled,
		float64(total.calls)/float64(n), float64(total.guesses)/float64(n), float64(total.backtracks)/float64(n),
		worstID, countersOf(worst))
}

func TestDLXCorpus(t *testing.T) { solveCorpus(t, &dlx{}) }

// refAlgorithmX is Algorithm X on plain sets, written independently of
// the dancing links: columns and rows are switched off and on in boolean
// arrays and column sizes are counted afresh at each node. It makes the
// same choices as Knuth's algorithm (first column of least size in column
// order, rows in increasing order), so its counters must equal dlx's.
type refAlgorithmX struct {
	side, ncols int
	rowCols     [][4]int // the columns of each row (candidate)
	colRows     [][]int  // the rows of each column, increasing
	colOn       []bool
	rowOn       []bool
	counters
}

func newRefAlgorithmX(p Puzzle) *refAlgorithmX {
	n, side := p.Box, p.Side()
	x := &refAlgorithmX{side: side, ncols: 4 * side * side}
	x.colRows = make([][]int, x.ncols)
	x.colOn = make([]bool, x.ncols)
	for c := range x.colOn {
		x.colOn[c] = true
	}
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			for d := 0; d < side; d++ {
				b := (r/n)*n + c/n
				cols := [4]int{r*side + c, side*side + r*side + d, 2*side*side + c*side + d, 3*side*side + b*side + d}
				for _, col := range cols {
					x.colRows[col] = append(x.colRows[col], len(x.rowCols))
				}
				x.rowCols = append(x.rowCols, cols)
				x.rowOn = append(x.rowOn, true)
			}
		}
	}
	for i, v := range p.Cells[:p.Len()] {
		if v != 0 {
			x.selectRow(i*side + int(v) - 1)
		}
	}
	return x
}

// selectRow switches off the row's columns and every row meeting them, and
// returns what it switched off so that restore can undo it.
func (x *refAlgorithmX) selectRow(row int) (cols, rows []int) {
	for _, c := range x.rowCols[row] {
		x.colOn[c] = false
		cols = append(cols, c)
		for _, r := range x.colRows[c] {
			if x.rowOn[r] {
				x.rowOn[r] = false
				rows = append(rows, r)
			}
		}
	}
	return cols, rows
}

func (x *refAlgorithmX) restore(cols, rows []int) {
	for _, c := range cols {
		x.colOn[c] = true
	}
	for _, r := range rows {
		x.rowOn[r] = true
	}
}

func (x *refAlgorithmX) search() bool {
	x.calls++
	best, size := -1, 1<<30
	for c := 0; c < x.ncols; c++ {
		if !x.colOn[c] {
			continue
		}
		n := 0
		for _, r := range x.colRows[c] {
			if x.rowOn[r] {
				n++
			}
		}
		if n < size {
			best, size = c, n
		}
	}
	if best < 0 {
		return true
	}
	for _, r := range x.colRows[best] {
		if !x.rowOn[r] {
			continue
		}
		x.guesses++
		cols, rows := x.selectRow(r)
		if x.search() {
			return true
		}
		x.backtracks++
		x.restore(cols, rows)
	}
	return false
}

// TestDLXMatchesReference compares dlx's counters with the plain-sets
// Algorithm X on the named puzzles, a sample of the corpus and every 4x4
// known puzzle.
func TestDLXMatchesReference(t *testing.T) {
	check := func(name string, p Puzzle) {
		t.Helper()
		r := (&dlx{}).Solve(context.Background(), p, Limits{})
		ref := newRefAlgorithmX(p)
		solved := ref.search()
		if got := countersOf(r); got != ref.counters || solved != (r.Status == StatusSolved) {
			t.Errorf("%s: dlx %v %+v, reference solved=%v %+v", name, r.Status, got, solved, ref.counters)
		}
	}
	for _, k := range loadKnown(t) {
		if k.puzzle.Box <= 3 {
			check(k.name, k.puzzle)
		}
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		check(f[0], MustParse(f[1]))
	}
	if testing.Short() {
		return
	}
	step := 1000
	if raceEnabled {
		step = 5000
	}
	eachCorpusPuzzle(t, func(id int, p Puzzle) {
		if id%step == 0 || id == 45750 {
			check(fmt.Sprintf("corpus #%d", id), p)
		}
	})
}

// TestDLXCounters pins the counters of Knuth's algorithm on the named
// puzzles: they depend only on the matrix order and the S heuristic, so any
// faithful implementation gives these numbers.
func TestDLXCounters(t *testing.T) {
	want := map[string]counters{
		"corpus-0":     {65, 64, 0},
		"corpus-2018":  {68, 67, 3},
		"corpus-8145":  {65, 64, 0},
		"corpus-39949": {93, 92, 28},
		"langer-hard":  {65, 64, 0},
		"16x16-a":      {117, 116, 0},
		"4x4-a":        {12, 11, 0},
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			k := knownByName(t, name)
			r := expectSolved(t, &dlx{}, k.puzzle, k.solution)
			if got := countersOf(r); got != w {
				t.Errorf("counters %+v, want %+v", got, w)
			}
			if r.Calls != r.Guesses+1 || r.Backtracks > r.Guesses {
				t.Errorf("counters %+v: want calls == guesses+1 and backtracks <= guesses", countersOf(r))
			}
		})
	}
}

// newDLXSearch returns the search state of p with its matrix built.
func newDLXSearch(p Puzzle) *dlxSearch {
	s := &dlxSearch{m: make([]dlxNode, dlxNodes(p.Box)), col: make([]uint16, dlxNodes(p.Box)), ids: make([]uint16, dlxNodes(p.Box)/4), h: make([]dlxHead, 1+4*p.Len())}
	s.build(&p)
	return s
}

// TestDLXMatrix checks the layout the doc comment promises on an empty
// grid: the column order, one node per column group in each row, rows in
// (r, c, d) order down every column.
func TestDLXMatrix(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		s := newDLXSearch(Puzzle{Grid: NewGrid(n)})
		m := s.m
		side := n * n
		ncols := 4 * side * side
		if len(m) != dlxNodes(n) {
			t.Fatalf("box %d: %d nodes, want %d", n, len(m), dlxNodes(n))
		}
		// Headers in order through the root, each with side nodes.
		h, count := s.h[0].r, 0
		for ; h != 0; h = s.h[h].r {
			count++
			if size := s.sizes[h]; int(h) != count || int(size) != side {
				t.Fatalf("box %d: header %d at position %d with size %d", n, h, count, size)
			}
			// Rows strictly increasing from top to bottom.
			prev := -1
			for x := m[h].d; x != h; x = m[x].d {
				if id := int(s.ids[x/4]); id <= prev || uint32(s.col[x]) != h {
					t.Fatalf("box %d column %d: row %d after %d", n, h, id, prev)
				}
				prev = int(s.ids[x/4])
			}
		}
		if count != ncols || s.nzero != 0 {
			t.Fatalf("box %d: %d headers, want %d; %d empty", n, count, ncols, s.nzero)
		}
		for id := 0; id < side*side*side; id++ {
			r, c, d := id/(side*side), id/side%side, id%side
			b := (r/n)*n + c/n
			want := [4]int{r*side + c, side*side + r*side + d, 2*side*side + c*side + d, 3*side*side + b*side + d}
			for k := 0; k < 4; k++ {
				x := dlxRowBase(n) + 4*id + k
				if got := int(s.col[x]) - 1; got != want[k] || int(s.ids[x/4]) != id {
					t.Fatalf("box %d row %d node %d: column %d id %d, want %d %d", n, id, k, got, s.ids[x/4], want[k], id)
				}
			}
		}
	}
}

// dlxColumns lists, for each column in the header list in order, its
// header, its size byte and the candidate ids down its list.
func dlxColumns(s *dlxSearch) [][]int {
	var out [][]int
	for h := s.h[0].r; h != 0; h = s.h[h].r {
		col := []int{int(h), int(s.sizes[h])}
		for x := s.m[h].d; x != h; x = s.m[x].d {
			col = append(col, int(s.ids[x/4]))
		}
		out = append(out, col)
	}
	return out
}

// TestDLXBuildMatchesCover checks that build leaves the matrix that
// covering the givens' rows on the full matrix (as Knuth's algorithm
// would) leaves: same header list, sizes and rows, the same covered
// columns, and the same count of empty columns (kept up to date by cover).
func TestDLXBuildMatchesCover(t *testing.T) {
	check := func(name string, p Puzzle) {
		t.Helper()
		got := newDLXSearch(p)
		full := newDLXSearch(Puzzle{Grid: NewGrid(p.Box)})
		side := p.Side()
		for i, v := range p.Cells[:p.Len()] {
			if v != 0 {
				row := dlxRowBase(p.Box) + 4*(i*side+int(v)-1)
				for k := 0; k < 4; k++ {
					full.cover(full.col[row+k])
				}
			}
		}
		empty := 0
		for h := full.h[0].r; h != 0; h = full.h[h].r {
			if full.sizes[h] == 0 {
				empty++
			}
		}
		if a, b := fmt.Sprint(dlxColumns(got)), fmt.Sprint(dlxColumns(full)); a != b {
			t.Errorf("%s: built %s\ncovered %s", name, a, b)
		}
		if got.nzero != empty || full.nzero != empty {
			t.Errorf("%s: %d empty columns, built %d, counted by cover %d", name, empty, got.nzero, full.nzero)
		}
		for h := 1; h <= 4*p.Len(); h++ {
			if a, b := got.sizes[h]&dlxCoveredBit, full.sizes[h]&dlxCoveredBit; a != b {
				t.Errorf("%s: column %d: covered bit %#x built, %#x covered", name, h, a, b)
			}
		}
	}
	for _, k := range loadKnown(t) {
		check(k.name, k.puzzle)
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		check(f[0], MustParse(f[1]))
	}
	if testing.Short() {
		return
	}
	eachCorpusPuzzle(t, func(id int, p Puzzle) {
		if id%997 == 0 {
			check(fmt.Sprintf("corpus #%d", id), p)
		}
	})
}

func TestDLX16x16(t *testing.T) {
	k := knownByName(t, "16x16-a")
	r := expectSolved(t, &dlx{}, k.puzzle, k.solution)
	if r.Calls != r.Guesses+1 || r.Backtracks > r.Guesses {
		t.Errorf("counters %+v: want calls == guesses+1 and backtracks <= guesses", countersOf(r))
	}
	// An empty 16x16 grid: a deep search (256 levels) that must still end.
	empty := Puzzle{Grid: NewGrid(4)}
	r = expectSolved(t, &dlx{}, empty, Grid{})
	if r.Calls != 257 || r.Backtracks != 0 {
		t.Errorf("empty 16x16: counters %+v, want 257 calls and no backtrack", countersOf(r))
	}
}

// TestDLXLimits checks a stopped search: exact calls, the identity, and
// Filled = the depth reached.
func TestDLXLimits(t *testing.T) {
	checkStoppedSearch(t, &dlx{}, knownByName(t, "corpus-39949").puzzle, 7)
}

// checkStoppedSearch checks a strategy whose calls == guesses + 1 (dlx,
// bitboard) stopped by limits on p: MaxCalls of 1, 2, mid, half and all
// but one of the calls needed give status limit after exactly that many
// calls, the identity, a partial Filled, no solution and the same
// counters twice; MaxCalls = the calls needed solves; a past deadline
// stops before the first call.
func checkStoppedSearch(t *testing.T, s Solver, p Puzzle, mid uint64) {
	t.Helper()
	ctx := context.Background()
	full := s.Solve(ctx, p, Limits{})
	for _, max := range []uint64{1, 2, mid, full.Calls / 2, full.Calls - 1} {
		r := s.Solve(ctx, p, Limits{MaxCalls: max})
		if r.Status != StatusLimit || r.Calls != max || r.Err == nil {
			t.Fatalf("MaxCalls %d: status %v calls %d err %v", max, r.Status, r.Calls, r.Err)
		}
		if r.Calls != r.Guesses+1 || r.Backtracks > r.Guesses {
			t.Errorf("MaxCalls %d: counters %+v break calls == guesses+1", max, countersOf(r))
		}
		if r.Filled < 0 || r.Filled >= p.Empty() || !r.Solution.IsZero() {
			t.Errorf("MaxCalls %d: Filled %d, solution %q", max, r.Filled, r.Solution)
		}
		again := s.Solve(ctx, p, Limits{MaxCalls: max})
		if countersOf(again) != countersOf(r) || again.Filled != r.Filled {
			t.Errorf("MaxCalls %d: two runs differ: %+v vs %+v", max, r, again)
		}
	}
	r := s.Solve(ctx, p, Limits{MaxCalls: full.Calls})
	if r.Status != StatusSolved || countersOf(r) != countersOf(full) {
		t.Errorf("MaxCalls = calls needed: %v %+v, want solved %+v", r.Status, countersOf(r), countersOf(full))
	}
	r = s.Solve(ctx, p, Limits{Deadline: time.Now().Add(-time.Second)})
	if r.Status != StatusTimeout || r.Calls != 0 {
		t.Errorf("past deadline: %v after %d calls, want timeout before the first", r.Status, r.Calls)
	}
}

func TestDLXDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"corpus-39949", "4x4-a"} {
		p := knownByName(t, name).puzzle
		allocs := testing.AllocsPerRun(20, func() {
			(&dlx{}).Solve(context.Background(), p, Limits{})
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Solve, want 0", name, allocs)
		}
	}
}
