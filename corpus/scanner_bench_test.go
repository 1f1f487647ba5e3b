package corpus

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkScan reads the whole corpus from memory with a Scanner and
// reports ns/line.
func BenchmarkScan(b *testing.B) {
	src, err := os.ReadFile(corpusPath(b))
	if err != nil {
		b.Fatal(err)
	}
	lines := 0
	for b.Loop() {
		sc := NewScanner(bytes.NewReader(src), "sudoku17.txt")
		for sc.Scan() {
			if sc.Entry().Err != nil {
				b.Fatal(sc.Entry().Err)
			}
			lines++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines), "ns/line")
	b.ReportMetric(0, "ns/op")
}
