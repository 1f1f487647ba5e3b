package history

import (
	"strings"
	"testing"
	"time"

	"sudokubatch/report"
)

// TestSeriesKeepsOneTimeBasisPerStrategy: an external solver ranked by
// the round trip on the first night and by its own time since is left
// out of the first night in the series (its figures are of another
// time); the built-in strategy keeps every night, and the index's nights
// are not changed.
func TestSeriesKeepsOneTimeBasisPerStrategy(t *testing.T) {
	sig := Signature{Corpora: []CorpusKey{{Name: "c.txt", SHA256: corpusSHA}}, CPU: "x", NumCPU: 2, Workers: 2}
	day := func(d int) time.Time { return time.Date(2026, 1, d, 23, 0, 0, 0, time.UTC) }
	mk := func(run string, d int, extBasis string) *Night {
		return &Night{Run: run, RunID: run, Start: day(d), Signature: sig, Strategy: []Strategy{
			{Solver: "bitboard", Median: Quantile{Value: 1000}},
			{Solver: "ext", Median: Quantile{Value: 5000}, TimeBasis: extBasis},
		}}
	}
	nights := []*Night{mk("n1", 1, ""), mk("n2", 2, "self"), mk("n3", 3, "self")}
	series := Group(nights)
	if len(series) != 1 || len(series[0].Nights) != 3 {
		t.Fatalf("want one series of 3 nights, got %+v", series)
	}
	for k, n := range series[0].Nights {
		if n.StrategyNamed("bitboard") == nil {
			t.Errorf("night %d lost bitboard", k+1)
		}
		if got, want := n.StrategyNamed("ext") != nil, k > 0; got != want {
			t.Errorf("night %d has ext: %t, want %t", k+1, got, want)
		}
	}
	if nights[0].StrategyNamed("ext") == nil {
		t.Error("Group changed the index's night n1")
	}
	// The newest night decides: back to the round trip, the nights of
	// its own time are left out.
	nights = append(nights, mk("n4", 4, ""))
	got := Group(nights)[0].Nights
	for k, want := range []bool{true, false, false, true} {
		if has := got[k].StrategyNamed("ext") != nil; has != want {
			t.Errorf("with n4 by the round trip: night %d has ext %t, want %t", k+1, has, want)
		}
	}
}

func TestNightRecordsTimeBasis(t *testing.T) {
	for _, tt := range []struct {
		basis report.TimeBasis
		want  string
	}{{report.BasisSelf, "self"}, {report.BasisRoundTrip, ""}, {"", ""}} {
		st := strategyOf(&report.StrategySummary{Solver: "ext", TimeBasis: tt.basis, Statuses: report.StatusCounts{}})
		if st.TimeBasis != tt.want {
			t.Errorf("basis %q recorded as %q, want %q", tt.basis, st.TimeBasis, tt.want)
		}
	}
}

// TestTrendTableMarksOwnTime: trend's verdict table marks the last
// median of a strategy ranked by its own time.
func TestTrendTableMarksOwnTime(t *testing.T) {
	n := &Night{Run: "n1", RunID: "n1", Strategy: []Strategy{
		{Solver: "bitboard", Median: Quantile{Value: 1000}},
		{Solver: "ext", Median: Quantile{Value: 5000}, TimeBasis: "self"},
	}}
	rows := strategyRows(&Series{Nights: []*Night{n}}, nil)
	for _, r := range rows {
		if got, want := strings.HasSuffix(r.Last, " (own time)"), r.Solver == "ext"; got != want {
			t.Errorf("%s: last %q, marked own time %t, want %t", r.Solver, r.Last, got, want)
		}
	}
}
