package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// The read side of the reliability issue, at the package's level (the
// command's tests, cmd/batch/readside_cases_e2e_test.go, check the same
// cases through the binary against the code before the issue).

// csvRows returns a results.csv of n rows: one solver, corpus(i) and
// id(i) for row i.
func csvRows(n int, corpus func(int) string, id func(int) int) string {
	var b strings.Builder
	b.WriteString(strings.Join(rundir.Header[:15], ",") + "\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%d,bitboard,solved,%d,5,1,0,64,17,,1,,,%s\n", id(i), id(i)+1, 1000+i%7, corpus(i))
	}
	return b.String()
}

// TestResultsManyCorporaKeptApart: more corpora than 16 bits number keep
// their puzzles apart, and reading them is linear.
func TestResultsManyCorporaKeptApart(t *testing.T) {
	testenv.Heavy(t, "reads the rows of 70,001 corpora and times it: 2.5 s, 64 s under -race")
	const n = 70001
	in := csvRows(n, func(i int) string { return fmt.Sprintf("c%d", i) }, func(int) int { return 0 })
	start := time.Now()
	res, err := ReadResults(context.Background(), strings.NewReader(in), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d corpora read in %v", n, time.Since(start))
	if len(res.Corpora) != n || res.Puzzles != n || res.PuzzleCount() != n || res.Rows != n {
		t.Fatalf("%d corpora, %d puzzles (%d indices), %d rows; want %d each", len(res.Corpora), res.Puzzles, res.PuzzleCount(), res.Rows, n)
	}
	ser := res.Series[0]
	for i := range ser.Len() {
		e := ser.At(i)
		if got := res.Corpora[e.Corpus]; got != fmt.Sprintf("c%d", i) || ser.Puzzle(i) != int32(i) {
			t.Fatalf("row %d: corpus %s, puzzle %d", i, got, ser.Puzzle(i))
		}
	}
	for _, c := range []int{0, 65535, 65536, 70000} {
		if p, ok := res.puzzleAt(c, 0); !ok || int(p) != c {
			t.Errorf("puzzleAt(%d, 0) = %d, %v", c, p, ok)
		}
	}
	s := Summarize(res, SummaryOptions{})
	if s.Puzzles != n || s.Strategies[0].Units != n {
		t.Errorf("summary: %d puzzles, %d units", s.Puzzles, s.Strategies[0].Units)
	}
	run := &Run{Path: "a", Results: res}
	c, err := Compare(context.Background(), run, run, CompareOptions{})
	if err != nil || c.Strategies[0].Common != n || len(c.Corpora) != n {
		t.Errorf("compare: %v; %d in common, %d corpora joined", err, c.Strategies[0].Common, len(c.Corpora))
	}
}

// TestResultsRefuseBadUnits: a unit on two rows, an id out of range and
// a second header line are refused with the file and the line.
func TestResultsRefuseBadUnits(t *testing.T) {
	ctx := context.Background()
	rows := csvRows(10, func(int) string { return "c.txt" }, func(i int) int { return i })
	lines := strings.SplitAfter(rows, "\n")
	check := func(name string, err error, want ...string) {
		t.Helper()
		if err == nil || !errors.Is(err, rundir.ErrBadRow) {
			t.Errorf("%s: %v, want a bad row", name, err)
			return
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", name, err, w)
			}
		}
	}

	// A duplicate: ReadResults knows only the second line; LoadResults
	// reads the file again for the first.
	dup := rows + lines[4]
	_, err := ReadResults(ctx, strings.NewReader(dup), "in.csv")
	check("duplicate", err, "in.csv:12: bad row: the unit (c.txt #3, bitboard) is also on an earlier line")
	var de *DuplicateError
	if !errors.As(err, &de) || de.Line != 12 || de.First != 0 || de.ID != 3 || de.Solver != "bitboard" || de.Corpus != "c.txt" {
		t.Errorf("duplicate: %#v", de)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, rundir.ResultsFile)
	os.WriteFile(path, []byte(dup), 0o644)
	_, err = LoadResults(ctx, path)
	check("duplicate in a file", err, path+":12: bad row: the unit (c.txt #3, bitboard) is also on line 5")

	// The same id for another solver or corpus is no duplicate.
	other := rows + strings.Replace(lines[4], "bitboard", "dlx", 1) + strings.Replace(lines[4], "c.txt", "d.txt", 1)
	if res, err := ReadResults(ctx, strings.NewReader(other), "in.csv"); err != nil || res.Rows != 12 || res.Puzzles != 11 {
		t.Errorf("same id, other solver or corpus: %v", err)
	}

	// A second header line.
	_, err = ReadResults(ctx, strings.NewReader(rows+rows), "in.csv")
	check("concatenated", err, "in.csv:12: bad row: a header line in the middle of the file")

	// Ids out of range: never below 0 or beyond 32 bits; with run.json,
	// not beyond the corpus read whole.
	_, err = ReadResults(ctx, strings.NewReader(rows+"-1,0,bitboard,solved,1,1,0,0,64,17,,1,,,c.txt\n"), "in.csv")
	check("negative", err, "in.csv:12: bad row: id -1")
	_, err = ReadResults(ctx, strings.NewReader(rows+"2147483648,0,bitboard,solved,1,1,0,0,64,17,,1,,,c.txt\n"), "in.csv")
	check("32 bits", err, "in.csv:12: bad row: id 2147483648")
	_, err = ReadResults(ctx, strings.NewReader(rows+"7,2147483648,norvig,solved,1,1,0,0,64,17,,1,,,c.txt\n"), "in.csv")
	check("line beyond 32 bits", err, "in.csv:12: bad row: line 2147483648")

	mini, err := os.ReadFile(filepath.Join("testdata", "mini", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(filepath.Join("testdata", "mini", "results.csv"))
	os.WriteFile(filepath.Join(dir, rundir.ManifestFile), mini, 0o644)
	os.WriteFile(path, append(csv, "10,11,norvig,solved,1,1,0,0,64,17,,1,,,testdata/mini.txt\n"...), 0o644)
	if _, err := LoadRun(ctx, dir); err != nil {
		t.Errorf("id 10 when run.json does not say the corpus was read whole: %v", err)
	}
	m, _ := rundir.ReadManifest(dir)
	m.Corpora[0].Complete = true
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	_, err = LoadRun(ctx, dir)
	check("id past the corpus", err, "results.csv:23: bad row: id 10 of corpus testdata/mini.txt: out of range: run.json records 10 puzzles in that file (ids 0 to 9)")
	os.WriteFile(path, csv, 0o644)
	if _, err := LoadRun(ctx, dir); err != nil {
		t.Errorf("the mini run, complete: %v", err)
	}
}

// TestReadersRefuseNonRegularAndStopOnCancel: the readers refuse what is not a regular file
// without opening it for reading, and stop on a canceled context, as
// Summarize and Compare do.
func TestReadersRefuseNonRegularAndStopOnCancel(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "results.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadRun(context.Background(), dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is not a regular file (a FIFO)") {
			t.Errorf("FIFO results.csv: %v", err)
		}
	case <-time.After(testenv.AwaitLimit): // a guard: the defect blocks for good
		t.Fatal("LoadRun blocks on a FIFO results.csv")
	}
	if _, err := LoadResults(context.Background(), "/dev/zero"); err == nil || !strings.Contains(err.Error(), "a character device") {
		t.Errorf("/dev/zero: %v", err)
	}

	in := csvRows(100_000, func(int) string { return "c.txt" }, func(i int) int { return i })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadResults(ctx, strings.NewReader(in), "in.csv"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadResults canceled: %v", err)
	}
	res, err := ReadResults(context.Background(), strings.NewReader(in), "in.csv")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := SummarizeContext(ctx, res, SummaryOptions{}); s != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("SummarizeContext canceled: %v", err)
	}
	run := &Run{Path: "a", Results: res}
	if _, err := Compare(ctx, run, run, CompareOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Compare canceled: %v", err)
	}
}
