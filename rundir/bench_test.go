package rundir

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"sudokubatch/solvers"
)

// benchRows returns n rows like those of a sweep of the fast strategies:
// ids and lines in order, times from 1µs to 10ms and counters from 1 to
// 1000 spread evenly on a log scale, so that the lengths of the numbers
// vary from row to row as they do in results.csv.
func benchRows(n int) []Row {
	rng := rand.New(rand.NewPCG(1, 2))
	logUniform := func(lo, hi float64) uint64 {
		return uint64(math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo))))
	}
	rows := make([]Row, n)
	for i := range rows {
		calls := logUniform(1, 1000)
		rows[i] = Row{ID: 4711 + i, Line: 4712 + i, Solver: "bitboard", Status: solvers.StatusSolved,
			NS: int64(logUniform(1e3, 1e7)), Calls: calls, Guesses: calls - 1, Backtracks: calls / 2,
			Filled: 64, Clues: 17, Solutions: -1, Seed: rng.Uint64(),
			Solution: "693784512487512936125963874932651487568247391741398625319475268856129743274836159",
			Corpus:   "data/sudoku17.txt"}
	}
	return rows
}

// BenchmarkWriter encodes rows of solved 17-clue puzzles, as the writer of
// a sweep does for every unit (ns/row). The rows' numbers vary (benchRows):
// with one row written again and again, every branch on a number's length
// was predicted, as it is not in a sweep.
func BenchmarkWriter(b *testing.B) {
	rows := benchRows(4096)
	w := NewWriter(io.Discard)
	i := 0
	for b.Loop() {
		if err := w.Write(&rows[i&4095]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkReader reads back rows that the Writer wrote (benchRows), as
// the report and Amend read results.csv: ns/row, lean (OmitText) as the
// report reads them.
func BenchmarkReader(b *testing.B) {
	file := encodeRows(benchRows(4096))
	n := 0
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(file), "b.csv")
		if err != nil {
			b.Fatal(err)
		}
		rd.OmitText()
		for rd.Scan() {
			if _, err := rd.Row(); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/row")
	b.ReportMetric(0, "ns/op")
}
