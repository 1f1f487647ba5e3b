package main

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"sudokubatch/internal/testenv"
)

// TestLoadMemory runs the fast strategy over ten copies of the 17-clue
// list, gzipped (491510 puzzles), and over one copy, and compares their
// peak memory: the sweep's must not grow with the corpus; the report holds
// the rows as numbers, so its memory grows with them, by a bounded amount
// a row.
func TestLoadMemory(t *testing.T) {
	testenv.Heavy(t, "the load test sweeps 491,510 puzzles")
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ten := filepath.Join(t.TempDir(), "sudoku17x10.txt.gz")
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	for range 10 {
		zw.Write(src)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ten, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	sweep := func(corpus string, puzzles int) (sweep, report result, dir string) {
		t.Helper()
		dir = filepath.Join(t.TempDir(), "run")
		sweep = batch(t, root, "-solvers", "bitboard", "-timeout", "0", "-quiet", "-report=false", "-out", dir, corpus)
		mustOK(t, sweep)
		if n := readRowsTolerant(t, filepath.Join(dir, "results.csv")); n != puzzles {
			t.Fatalf("%s: %d rows, want %d", corpus, n, puzzles)
		}
		report = batch(t, root, "report", dir)
		mustOK(t, report)
		return sweep, report, dir
	}
	const one, rowsOne, rowsTen = "data/sudoku17.txt", 49151, 491510
	sweep1, report1, dir1 := sweep(one, rowsOne)
	sweep10, report10, dir10 := sweep(ten, rowsTen)
	// batch prints its own peak (VmHWM): the rusage of a child also counts
	// the test process it was forked from.
	peak := func(r result, line string) int64 {
		t.Helper()
		m := regexp.MustCompile(`(?m)^` + line + `.*, peak memory ([0-9.]+) MB$`).FindStringSubmatch(r.stdout)
		if m == nil {
			t.Skipf("no peak memory in the output (not Linux?):\n%s", r.stdout)
		}
		mb, _ := strconv.ParseFloat(m[1], 64) // decimal megabytes: in MiB
		return int64(math.Round(mb * 1e6 / (1 << 20)))
	}
	// reportPeak is the smallest peak of three reports of dir: when the
	// collector runs and when the runtime gives freed pages back only add
	// to a peak (the report of 10 copies read 52-60 MiB over six runs of
	// one binary), as a preemption only adds to a time.
	reportPeak := func(first result, dir string) int64 {
		t.Helper()
		least := peak(first, "report: ")
		for range 2 {
			r := batch(t, root, "report", dir)
			mustOK(t, r)
			least = min(least, peak(r, "report: "))
		}
		return least
	}
	s1, s10 := peak(sweep1, "took "), peak(sweep10, "took ")
	r1, r10 := reportPeak(report1, dir1), reportPeak(report10, dir10)
	t.Logf("peak memory: sweep %d MB (1x) vs %d MB (10x gzip); report %d MB vs %d MB", s1, s10, r1, r10)
	// The sweep: flat, within 25% and 4 MB of the one-copy run.
	if s10 > s1*5/4+4 {
		t.Errorf("the sweep of 10 copies peaks at %d MB, of one copy at %d MB: memory grows with the corpus", s10, s1)
	}
	// The report holds about 27 bytes a row for a single strategy (the
	// row's 13 and its puzzle's 14), and sorts one column of 8 bytes a row
	// at a time; with the collector's headroom, the peak grows by 77-85
	// bytes a row (the least of three reports, beside two CPU hogs, whose
	// collector lags: 2026-11-27), about 60 on a quiet machine. A quarter
	// over that: a report that held each row's text, or a copy of the
	// rows, grows by hundreds.
	const perRow = 100
	if grow := (r10 - r1) << 20 / (rowsTen - rowsOne); grow > perRow {
		t.Errorf("the report of 10 copies peaks at %d MB, of one copy at %d MB: %d bytes more a row, want at most %d", r10, r1, grow, perRow)
	}
	for _, f := range []string{"summary.md", "index.html", "hard.csv"} {
		if _, err := os.Stat(filepath.Join(dir10, f)); err != nil {
			t.Errorf("the report of 10 copies lacks %s: %v", f, err)
		}
	}
}
