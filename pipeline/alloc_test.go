package pipeline

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TestSweepAllocatesLittlePerUnit: a sweep of a microsecond strategy
// into a RowCopier allocates nothing per unit, so that the collector,
// whose CPU is the tool's own cost, seldom runs: a unit's Result is its
// worker's, not a new one each time, and its solution's text is in its
// batch's memory.
func TestSweepAllocatesLittlePerUnit(t *testing.T) {
	testenv.SkipUnderRace(t, "the race detector allocates for its own bookkeeping")
	path := corpusHead(t, 20000)
	bb, ok := solvers.Lookup("bitboard")
	if !ok {
		t.Fatal("no strategy bitboard")
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	st, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: []solvers.Solver{bb}, Workers: 1,
		Sink: discard{rundir.NewWriter(nopWriter{})}})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	// The run's fixed allocations (its ring of entries, about 450 KB; its
	// batches) spread over the units; a solution string would be 96 more.
	const most = 128
	per := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(st.Units)
	t.Logf("%.0f bytes allocated a unit over %d units", per, st.Units)
	if per > most {
		t.Errorf("%.0f bytes allocated a unit over %d units, want at most %d", per, st.Units, most)
	}
}

// TestRetimeAllocatesNothingPerSolve: the re-timing solves a unit and
// its fillers thousands of times with the collector off; a Result or a
// Puzzle allocated per solve grew a bitboard sweep's peak memory by 8 MB.
// A call allocates its list of fillers and the set of the units timed,
// whatever the number of solves.
func TestRetimeAllocatesNothingPerSolve(t *testing.T) {
	testenv.SkipUnderRace(t, "the race detector allocates for its own bookkeeping")
	bb, ok := solvers.Lookup("bitboard")
	if !ok {
		t.Fatal("no strategy bitboard")
	}
	src, err := os.ReadFile("../data/sudoku17.txt")
	if err != nil {
		t.Fatal(err)
	}
	rt := newRetimer(&Config{Solvers: []solvers.Solver{bb}})
	var cs []*candidate
	for id, line := range strings.Split(string(src), "\n")[:64] {
		p, err := solvers.ParsePuzzle(line)
		if err != nil {
			t.Fatal(err)
		}
		c := &candidate{key: rundir.Key{ID: id, Solver: bb.Name()}, box: p.Box, cells: slices.Clone(p.Cells[:p.Len()]), status: solvers.StatusSolved}
		if id < 16 {
			cs = append(cs, c)
		} else {
			rt.fillers[0] = append(rt.fillers[0], c)
		}
	}
	never := func() bool { return false }
	allocs := testing.AllocsPerRun(3, func() { rt.timeAll(context.Background(), 0, cs, never) })
	if solves := retimeRuns * (len(cs) + len(rt.fillers[0])); allocs > 16 {
		t.Errorf("a re-timing of %d units and %d fillers (%d solves) allocated %.0f times, want at most 16", len(cs), len(rt.fillers[0]), solves, allocs)
	}
	if cs[0].n == 0 {
		t.Errorf("unit #%d was not re-timed", cs[0].key.ID)
	}
}
