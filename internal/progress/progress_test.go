package progress

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// syncBuffer is a bytes.Buffer safe for the display's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgressTotalEarlyOrLate drives a run's progress display (a bar on
// a fake terminal, and the plain line) with its total set before the run
// starts, while it runs, and after it has ended, as the corpus count that
// runs beside the sweep may: no call may find the display missing (a bar
// created only when the run started was a nil dereference), and a total
// set before the start is kept.
func TestProgressTotalEarlyOrLate(t *testing.T) {
	const n = 300
	path := filepath.Join(t.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("4000300200040020\n", n)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, terminal := range []bool{true, false} {
		for _, when := range []string{"early", "during", "late"} {
			t.Run(fmt.Sprintf("terminal=%v/%s", terminal, when), func(t *testing.T) {
				var out syncBuffer
				d := New(&out, terminal, time.Nanosecond)
				cfg := pipeline.Config{Corpora: []string{path}, Solvers: []solvers.Solver{nopSolver{}}, Workers: 2,
					Sink: discardRows{}, Progress: d}
				var wg sync.WaitGroup
				switch when {
				case "early":
					d.SetTotal(n)
				case "during":
					wg.Go(func() {
						for i := range 50 {
							d.SetTotal(n + i%2)
						}
					})
				}
				st, err := pipeline.Run(context.Background(), cfg)
				wg.Wait()
				if when == "late" {
					d.SetTotal(n)
					d.Add(1)
				}
				if err != nil || st.Units != n {
					t.Fatalf("Run: %d units, %v", st.Units, err)
				}
				got := out.String()
				if !terminal && when == "early" && !strings.Contains(got, fmt.Sprintf("/%d units", n)) {
					t.Errorf("the total set before the start is lost:\n%s", got)
				}
				if terminal && !strings.Contains(got, "units") {
					t.Errorf("no bar drawn:\n%q", got)
				}
				if !terminal && when == "late" && strings.Contains(got, fmt.Sprintf("/%d units", n)) {
					t.Errorf("a line has a total that arrived after the end:\n%s", got)
				}
			})
		}
	}
}

// nopSolver answers every puzzle "unsolvable" at once.
type nopSolver struct{}

func (nopSolver) Name() string { return "nop" }
func (nopSolver) Solve(context.Context, solvers.Puzzle, solvers.Limits) solvers.Result {
	return solvers.Result{Status: solvers.StatusUnsolvable}
}

// discardRows is a pipeline.Sink that drops the rows.
type discardRows struct{}

func (discardRows) Write(*rundir.Row) error { return nil }
func (discardRows) Flush() error            { return nil }

// TestInvalidShowsTheFirstAndCountsTheRest: of 7 invalid lines with Show
// 5, the first 5 are printed as they come and the 2 others counted at
// the end; with 5 or fewer, nothing is said at the end.
func TestInvalidShowsTheFirstAndCountsTheRest(t *testing.T) {
	for _, tc := range []struct{ n, lines int }{{7, 6}, {5, 5}, {0, 0}} {
		var out bytes.Buffer
		l := &Invalid{W: &out, Show: 5}
		for i := range tc.n {
			l.Report(fmt.Errorf("c.txt:%d: not a puzzle", i+1))
		}
		l.Rest()
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		if len(got) != tc.lines {
			t.Errorf("%d invalid lines: %d lines printed, want %d:\n%s", tc.n, len(got), tc.lines, out.String())
		}
		if tc.n == 7 && got[5] != "batch: 2 more invalid lines (status invalid in results.csv)" {
			t.Errorf("the count of the rest: %q", got[5])
		}
	}
}

// TestStdoutColumnsFromTheEnvironment: off a terminal, stdout's width is
// $COLUMNS when it is a positive number, else unknown (0).
func TestStdoutColumnsFromTheEnvironment(t *testing.T) {
	if Columns(os.Stdout) > 0 {
		t.Skip("stdout is a terminal")
	}
	for v, want := range map[string]int{"120": 120, "": 0, "wide": 0, "-3": 0} {
		t.Setenv("COLUMNS", v)
		if got := StdoutColumns(); got != want {
			t.Errorf("COLUMNS=%q: %d, want %d", v, got, want)
		}
	}
}
