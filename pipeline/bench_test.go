package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// noop is a strategy that returns at once: what remains is the pipeline.
type noop struct{}

func (noop) Name() string { return "noop" }
func (noop) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	return solvers.Result{Status: solvers.StatusStuck, Calls: 1}
}

// discard is a Sink that encodes rows like results.csv and drops them.
type discard struct{ w *report.Writer }

func (d discard) Write(r *report.Row) error { return d.w.Write(r) }
func (d discard) Flush() error              { return d.w.Flush() }

// BenchmarkPipeline measures the cost per unit of the pipeline itself
// (reading, parsing, scheduling, timing, ordering, CSV encoding) with a
// strategy that does nothing, over 20000 puzzles of the corpus.
func BenchmarkPipeline(b *testing.B) {
	src, err := os.ReadFile("../data/sudoku17.txt")
	if err != nil {
		b.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt links to ../../shared/data/sudoku17.txt; see data/README.md", err)
	}
	lines := strings.SplitAfter(string(src), "\n")[:20000]
	path := filepath.Join(b.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("workers=%d/solvers=%d", workers, n), func(b *testing.B) {
				var ss []solvers.Solver
				for range n {
					ss = append(ss, noop{})
				}
				units := 0
				for b.Loop() {
					st, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: ss, Workers: workers,
						Sink: discard{report.NewWriter(nopWriter{})}})
					if err != nil {
						b.Fatal(err)
					}
					units += st.Units
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(units), "ns/unit")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
