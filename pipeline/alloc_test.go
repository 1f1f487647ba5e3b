package pipeline

import (
	"context"
	"runtime"
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
