package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// noop is a strategy that returns at once: what remains is the pipeline.
type noop struct{}

func (noop) Name() string { return "noop" }
func (noop) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	return solvers.Result{Status: solvers.StatusStuck, Calls: 1}
}

// corpusHead writes the first n puzzles of the 17-clue corpus to a file
// and returns its path.
func corpusHead(b testing.TB, n int) string {
	src, err := os.ReadFile("../data/sudoku17.txt")
	if err != nil {
		b.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt is committed in the repository; see data/README.md", err)
	}
	lines := strings.SplitAfter(string(src), "\n")[:n]
	path := filepath.Join(b.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// discard is a Sink that encodes rows like results.csv and drops them.
type discard struct{ w *rundir.Writer }

func (d discard) Write(r *rundir.Row) error { return d.w.Write(r) }
func (d discard) Flush() error              { return d.w.Flush() }
func (d discard) CopiesRows()               {}

// BenchmarkPipeline measures the cost per unit of the pipeline itself
// (reading, parsing, scheduling, timing, ordering, CSV encoding) with a
// strategy that does nothing, over 20000 puzzles of the corpus: wall time
// and CPU time per unit, as BenchmarkSweep.
func BenchmarkPipeline(b *testing.B) {
	path := corpusHead(b, 20000)
	for _, workers := range []int{1, 2} {
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("workers=%d/solvers=%d", workers, n), func(b *testing.B) {
				var ss []solvers.Solver
				for range n {
					ss = append(ss, noop{})
				}
				benchRuns(b, path, ss, workers)
			})
		}
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkSweep runs the whole 17-clue corpus through real strategies,
// with 1 and 2 workers, and reports wall time and CPU time (user+system,
// all threads, from getrusage) per unit: how -workers scales, and what
// the reader, the workers and the writer cost together. The CSV encoding
// is done and dropped.
func BenchmarkSweep(b *testing.B) {
	const path = "../data/sudoku17.txt"
	if _, err := os.Stat(path); err != nil {
		b.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt is committed in the repository; see data/README.md", err)
	}
	for _, set := range []string{"bitboard", "norvig,dlx,bitboard"} {
		var ss []solvers.Solver
		for _, name := range strings.Split(set, ",") {
			s, ok := solvers.Lookup(name)
			if !ok {
				b.Fatalf("no strategy %s", name)
			}
			ss = append(ss, s)
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", set, workers), func(b *testing.B) {
				benchRuns(b, path, ss, workers)
			})
		}
	}
}

// benchRuns runs the corpus at path through ss until the benchmark has
// run enough, and reports per unit the wall time (ns/unit), the CPU time
// of the process, all threads (cpu-ns/unit), and the time measured
// inside Solve, the rows' ns column (solve-ns/unit): CPU time less the
// solve time is what the pipeline and the runtime cost.
func benchRuns(b *testing.B, path string, ss []solvers.Solver, workers int) {
	units := 0
	var solveNS int64
	cpu0 := cpuTime(b)
	for b.Loop() {
		st, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: ss, Workers: workers,
			Sink: discard{rundir.NewWriter(nopWriter{})}})
		if err != nil {
			b.Fatal(err)
		}
		units += st.Units
		for _, s := range st.Solvers {
			solveNS += s.NS
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(units), "ns/unit")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(units), "cpu-ns/unit")
	b.ReportMetric(float64(solveNS)/float64(units), "solve-ns/unit")
	b.ReportMetric(0, "ns/op")
}

// cpuTime returns the user and system time of the process so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rowSink keeps the rows of one strategy.
type rowSink struct {
	solver string
	ns     []int64
	runs   int
}

func (s *rowSink) Write(r *rundir.Row) error {
	if r.Solver == s.solver {
		s.ns = append(s.ns, r.NS)
		s.runs += r.Runs
	}
	return nil
}
func (s *rowSink) Flush() error { return nil }

// BenchmarkTimingMethod measures what the timing method is for: the time
// a fast strategy gets should not depend on what runs beside it. It
// times bitboard over the first 1000 puzzles alone and beside backtrack
// (stopped after 300,000 steps: up to about 1 ms a puzzle, a slow
// neighbour on the same core), one worker, and reports
// bitboard's median ns of each and their ratio (beside/alone: 1 when the
// neighbour does not matter; 3 to 4 when units were scheduled one by one,
// before the strategy blocks), and the mean runs per bitboard unit (the
// repeats). Compare two builds with benchstat on the metrics.
func BenchmarkTimingMethod(b *testing.B) {
	path := corpusHead(b, 1000)
	bb, _ := solvers.Lookup("bitboard")
	bt, _ := solvers.Lookup("backtrack")
	median := func(ss []solvers.Solver) (float64, float64) {
		sink := &rowSink{solver: "bitboard"}
		if _, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: ss, Workers: 1,
			MaxCalls: 300000, Sink: sink}); err != nil {
			b.Fatal(err)
		}
		slices.Sort(sink.ns)
		return float64(sink.ns[len(sink.ns)/2]), float64(sink.runs) / float64(len(sink.ns))
	}
	var alone, beside, runs float64
	n := 0
	for b.Loop() {
		// Interleaved: alone, beside, alone, beside...
		a, r := median([]solvers.Solver{bb})
		s, _ := median([]solvers.Solver{bt, bb})
		alone, beside, runs = alone+a, beside+s, runs+r
		n++
	}
	b.ReportMetric(alone/float64(n), "alone-median-ns")
	b.ReportMetric(beside/float64(n), "beside-median-ns")
	b.ReportMetric(beside/alone, "beside/alone")
	b.ReportMetric(runs/float64(n), "runs/unit")
	b.ReportMetric(0, "ns/op")
}
