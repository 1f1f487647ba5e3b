package pipeline

import (
	"context"
	"runtime"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TestSweepAllocatesLittlePerUnit: a sweep of a microsecond strategy
// allocates little per unit beyond its row's solution, so that the
// collector, whose CPU is the tool's own cost, seldom runs. A unit's
// Result (over 1 KB) is its worker's, not a new one each time.
func TestSweepAllocatesLittlePerUnit(t *testing.T) {
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
	// The solution string (96 bytes), and the run's fixed allocations
	// (its ring of entries, about 450 KB) spread over the units.
	const most = 256
	per := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(st.Units)
	t.Logf("%.0f bytes allocated a unit over %d units", per, st.Units)
	if per > most {
		t.Errorf("%.0f bytes allocated a unit over %d units, want at most %d", per, st.Units, most)
	}
}
