package rundir

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"

	"sudokubatch/solvers"
)

// benchRows returns n rows like those of a sweep of the fast strategies:
// ids and lines in order, times from 1µs to 10ms and counters from 1 to
// 1000 spread evenly on a log scale, so that the lengths of the numbers
// vary from row to row as they do in results.csv; most units timed once
// (ns_min and ns_median are ns), one in eight five times.
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
		r := &rows[i]
		r.Runs, r.NSMin, r.NSMedian = 1, r.NS, r.NS
		if i%8 == 0 {
			r.Runs, r.NSMin = 5, r.NS*9/10
		}
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

// BenchmarkReadGzip decompresses the results.csv.gz of 49,152 rows
// (benchRows, about 9 MB plain) through OpenRows, as every reader of a
// finished run does (ns/row): the report, compare, trend over each night.
func BenchmarkReadGzip(b *testing.B) {
	path := filepath.Join(b.TempDir(), "results.csv.gz")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw, err := kgzip.NewWriterLevel(f, gzipLevel)
	if err != nil {
		b.Fatal(err)
	}
	zw.Write(encodeRows(benchRows(49152)))
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	n := 0
	for b.Loop() {
		r, err := OpenRows(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			b.Fatal(err)
		}
		r.Close()
		n += 49152
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/row")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkAmend amends 128 rows spread over a results.csv of 49,152
// rows, as the re-timing of a bitboard sweep of the 17-clue corpus does
// (about 9 MB): "ids" reads every row and writes the file again
// (AmendIDs), "at" copies the file's other bytes without reading them
// (AmendAt). Each amend syncs the new file, as every amend does.
func BenchmarkAmend(b *testing.B) {
	rows := benchRows(49152)
	for _, how := range []string{"ids", "at"} {
		b.Run(how, func(b *testing.B) {
			d, err := Create(b.TempDir(), &Manifest{Settings: Settings{Solvers: []string{"bitboard"}, Corpora: []string{"data/sudoku17.txt"}}})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close(Finished, "")
			var at []int64
			ids := map[int]bool{}
			for i := range rows {
				if err := d.Write(&rows[i]); err != nil {
					b.Fatal(err)
				}
				if i%384 == 0 {
					at = append(at, d.LastRowAt())
					ids[rows[i].ID] = true
				}
			}
			// Each amend rewrites the same rows the same way: after the
			// first, the rows stay where they are.
			fix := func(r *Row) bool {
				r.NS, r.Retimed = 7, RetimedNoise
				return true
			}
			amend := func() {
				var n int
				var err error
				if how == "ids" {
					n, err = d.AmendIDs(func(id int) bool { return ids[id] }, fix)
				} else {
					n, err = d.AmendAt(at, fix)
				}
				if err != nil || n != len(at) {
					b.Fatalf("%d rows amended, %v", n, err)
				}
			}
			amend()
			f, _ := os.ReadFile(filepath.Join(d.Path, ResultsFile))
			at = at[:0]
			for off, line := 0, 0; off < len(f); line++ {
				if line > 0 && (line-1)%384 == 0 {
					at = append(at, int64(off))
				}
				off += bytes.IndexByte(f[off:], '\n') + 1
			}
			cpu0 := cpuNS()
			for b.Loop() {
				amend()
			}
			b.ReportMetric(float64(cpuNS()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuNS returns the process's CPU time (user and system) in ns.
func cpuNS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
