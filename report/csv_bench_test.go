package report

import (
	"io"
	"testing"

	"sudokubatch/solvers"
)

// BenchmarkWriter encodes the row of a solved 17-clue puzzle, as the
// writer of a sweep does for every unit (ns/row).
func BenchmarkWriter(b *testing.B) {
	r := Row{ID: 4711, Line: 4712, Solver: "bitboard", Status: solvers.StatusSolved, NS: 5123,
		Calls: 3, Guesses: 2, Backtracks: 0, Filled: 64, Clues: 17, Solutions: -1,
		Seed:     10451216379200822465,
		Solution: "693784512487512936125963874932651487568247391741398625319475268856129743274836159",
		Corpus:   "data/sudoku17.txt"}
	w := NewWriter(io.Discard)
	for b.Loop() {
		r.NS++ // the time changes from row to row
		if err := w.Write(&r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
	b.ReportMetric(0, "ns/op")
}
