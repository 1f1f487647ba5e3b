package corpus

import (
	"bytes"
	"context"
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

// BenchmarkOpenScan reads the whole corpus file as a run reads it: Open
// (its identity known, as Identify gave it) and a Scanner, the file's
// bytes read from the page cache. ns/line.
func BenchmarkOpenScan(b *testing.B) {
	path := corpusPath(b)
	infos, err := Identify(context.Background(), []string{path})
	if err != nil {
		b.Fatal(err)
	}
	lines := 0
	for b.Loop() {
		c, err := Open(context.Background(), path, Source{Known: &infos[0], Hash: true}, nil)
		if err != nil {
			b.Fatal(err)
		}
		sc := c.Scanner(path)
		for sc.Scan() {
			lines++
		}
		if err := c.Finish(); err != nil || sc.Err() != nil {
			b.Fatal(err, sc.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines), "ns/line")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIdentify identifies the corpus file (its size and SHA-256),
// as a run does before it starts: after the first time, from the hash
// kept in the user's cache (rundir.KeptSHA256) while the file is
// unchanged. ms/op.
func BenchmarkIdentify(b *testing.B) {
	path := corpusPath(b)
	for b.Loop() {
		if _, err := Identify(context.Background(), []string{path}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
	b.ReportMetric(0, "ns/op")
}
