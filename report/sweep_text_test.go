package report

import (
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// sweepEnd is the end of a resumed sweep with a re-timing, timeouts,
// limits, invalid lines and an external solver that restarted.
func sweepEnd() *SweepEnd {
	return &SweepEnd{Dir: "results/20261121-230501", Rows: 120, Elapsed: 2500 * time.Millisecond, Workers: 2, Units: 100,
		Skipped: 20, Peak: 21_500_000, Cached: 1,
		Timing: rundir.Timing{Retimed: 12, RetimeNS: 3_000_000, Slow: 2, Noise: 9, Confirmed: 1, Unstable: 1, TimerNS: 25, GCCPUShare: 0.0123,
			Null: []rundir.NullRoundTrip{{Name: "py", Samples: 40, MedianNS: 21_000, P10NS: 18_000, P90NS: 30_000}}},
		Solvers: []SweepCounts{
			{Name: "backtrack", Units: 60, Statuses: map[string]int{"solved": 50, "timeout": 10}, NS: 60_000_000},
			{Name: "py", Units: 60, Statuses: map[string]int{"solved": 57, "limit": 3}, NS: 6_000_000},
		},
		Corpora: []rundir.CorpusInfo{
			{Path: "c.txt", Lines: 64, Puzzles: 62, Invalid: 2, Skipped: 2, Complete: true},
			{Path: "d.txt", Lines: 0},
		},
		Settings:  rundir.Settings{Timeout: "100ms", TimeoutNS: int64(100 * time.Millisecond), MaxCalls: 5000},
		Invalid:   2,
		Externals: []ExternalEnd{{Name: "py", Restarts: 2, MaxRestarts: 10, Strays: 1}},
	}
}

// TestSweepEndText: what a sweep prints at its end, in 300 columns
// (each sentence a line), and folded in 40.
func TestSweepEndText(t *testing.T) {
	var b strings.Builder
	s := sweepEnd()
	if err := s.WriteSummary(&b, 300); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteNotes(&b, 300); err != nil {
		t.Fatal(err)
	}
	want := `results: results/20261121-230501 (120 rows in results.csv)
took 2.50s with 2 workers: 100 units this run, 20 already done, peak memory 21.5 MB
timing: 12 units re-timed alone in 3.00ms: 2 confirmed slow, 9 noise, 1 slowest confirmed; 1 not taken (an external solver that answers repeated requests as a cache does); 1 unit whose runs disagreed (unstable); timer overhead 25 ns subtracted; collector 1.23% of CPU
corpus c.txt: 64 lines = 60 puzzles + 2 invalid + 2 skipped (blank, comment or count header)
corpus d.txt: not read
note: 10 units stopped at -timeout 100ms (backtrack 10); their rows say timeout. Raise the limit (-timeout 1s), or sweep without one: -timeout 0 -max-calls N.
note: 3 units stopped at -max-calls 5000 (py 3); their rows say limit.
note: 2 corpus lines are not puzzles (status invalid, with file, line and reason)
note: external py: 2 processes started again (after a timeout, a crash or a protocol error; -ext-restarts 10 at most)
note: external py: 1 line came after an answer too many requests back to name its unit
note: external py: null round trip 21.0µs median (p10 18.0µs, p90 30.0µs) over 40 samples during the sweep: part of each round trip (results.csv's ns), not of a time the solver reports (self_ns)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	s.Table, s.Failed = true, true
	s.WriteSummary(&b, 40)
	s.WriteNotes(&b, 40)
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if columns(line) > 40 && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("a line of %d columns in 40: %q", columns(line), line)
		}
	}
	for _, want := range []string{"(incomplete: results.csv stopped by an\n", "backtrack", "mean time"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("in 40 columns, with the table of statuses, no %q:\n%s", want, b.String())
		}
	}
}

// TestEmptySelection says why a sweep solved nothing.
func TestEmptySelection(t *testing.T) {
	if got := EmptySelection([]rundir.CorpusInfo{{Path: "a.txt"}}, []string{"a.txt"}); got != "no puzzle line in a.txt (empty, or only comments and blank lines): nothing was solved" {
		t.Errorf("no puzzle: %q", got)
	}
	if got := EmptySelection([]rundir.CorpusInfo{{Path: "a.txt", Puzzles: 1}, {Path: "b.txt", Puzzles: 3}}, []string{"a.txt", "b.txt"}); got !=
		"the selection matches no puzzle (a.txt has 1 puzzle, b.txt has 3 puzzles; ids count from 0): nothing was solved" {
		t.Errorf("no puzzle selected: %q", got)
	}
}
