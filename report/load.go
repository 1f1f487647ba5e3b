package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"sudokubatch/rundir"
)

// checkEvery is how many rows the readers read between two looks at
// their context.
const checkEvery = 4096

// LoadResults reads a results.csv file, or a results.csv.gz
// (rundir.OpenRows), see ReadResults. It refuses a
// file that is not a regular file (a FIFO, a device: reading one could
// block or never end) without reading from it.
func LoadResults(ctx context.Context, path string) (*Results, error) {
	return loadResults(ctx, path, nil, 0, 0)
}

// ReadResults reads results.csv rows from r; name names it in errors.
// It stops with ctx.Err() soon after ctx is canceled. Rows are checked
// as they are read, and the first row that cannot be reported is an
// error naming name and its line (it wraps rundir.ErrBadRow): a line
// that is not a row (a header line in the middle of the file says so: two
// files were concatenated), an id below 0 or beyond 32 bits, and a
// second row of a unit (corpus, id, strategy) already read (a
// *DuplicateError).
func ReadResults(ctx context.Context, r io.Reader, name string) (*Results, error) {
	return readResults(ctx, r, name, nil, 0, 0)
}

// minRowBytes is the fewest bytes a row of results.csv takes: the 14
// commas of the columns every version wrote and its line break.
const minRowBytes = 15

// loadResults is LoadResults, with the count of puzzles of the corpora
// read whole (from run.json): an id of such a corpus must be below it;
// and the rows run.json counts over the strategies it names (0, 0:
// unknown), which the series' columns are made for at once, each its
// share, and together for no more than the count (more strategies in
// the file than run.json names are grown). A count beyond what a plain
// results.csv of its size can hold is wrong and not used, nor is one
// for a gzipped file, whose size does not bound its rows.
func loadResults(ctx context.Context, path string, puzzles map[string]int, rows, strategies int) (*Results, error) {
	f, err := rundir.OpenRows(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	perSeries, total := 0, 0
	if st, err := os.Stat(path); err == nil && !strings.HasSuffix(path, ".gz") && strategies > 0 && int64(rows) <= st.Size()/minRowBytes {
		total, perSeries = rows, rows/strategies
	}
	res, err := readResults(ctx, f, path, puzzles, perSeries, total)
	if dup, ok := errors.AsType[*DuplicateError](err); ok && dup.First == 0 {
		dup.First = firstLine(ctx, path, dup)
	}
	return res, err
}

// DuplicateError is a row of results.csv whose unit (corpus, id,
// strategy) an earlier row of the file already has: the rows of two runs
// (or of a shard twice) in one file. The reports refuse the file rather
// than count the unit twice or guess which row is right.
type DuplicateError struct {
	File   string
	Line   int // the line of the second row
	First  int // the line of the first row; 0 when unknown
	Corpus string
	ID     int
	Solver string
}

func (e *DuplicateError) Error() string {
	first := "an earlier line"
	if e.First > 0 {
		first = fmt.Sprintf("line %d", e.First)
	}
	unit := fmt.Sprintf("#%d, %s", e.ID, e.Solver)
	if e.Corpus != "" {
		unit = e.Corpus + " " + unit
	}
	return fmt.Sprintf("%s:%d: %v: the unit (%s) is also on %s: the rows of several runs in one file? "+
		"(shard runs are joined with batch merge)", e.File, e.Line, rundir.ErrBadRow, unit, first)
}

// Unwrap returns rundir.ErrBadRow.
func (e *DuplicateError) Unwrap() error { return rundir.ErrBadRow }

// puzzleBits is a set of puzzle indices that grows as needed.
type puzzleBits []uint64

func (b puzzleBits) has(p int32) bool { return int(p/64) < len(b) && b[p/64]&(1<<(p%64)) != 0 }

func (b *puzzleBits) add(p int32) {
	for int(p/64) >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[p/64] |= 1 << (p % 64)
}

// readResults is ReadResults; puzzles, when not nil, holds the count of
// puzzles of each corpus read whole; perSeries, when above 0, the rows a
// series is expected to have, and total those of the series together
// (Results.reserve).
func readResults(ctx context.Context, r io.Reader, name string, puzzles map[string]int, perSeries, total int) (*Results, error) {
	rd, err := rundir.NewReader(r, name)
	if err != nil {
		return nil, err
	}
	rd.OmitText()
	res := &Results{}
	if perSeries > 0 {
		res.reserve(perSeries, total)
	}
	corpusIndex := map[string]int32{}
	var (
		ser    *Series
		si     int          // the index of ser in res.Series
		seen   []puzzleBits // per series: the puzzles it has a row of (about a bit a puzzle)
		corpus string       // the corpus of the last row
		ci     = int32(-1)  // its index
		bound  = -1         // its count of puzzles, -1 when unknown
	)
	for n := 0; rd.Scan(); n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row, err := rd.Row()
		if err != nil {
			return nil, err
		}
		if ci < 0 || row.Corpus != corpus {
			corpus = row.Corpus
			c, seen := corpusIndex[corpus]
			if !seen {
				c = int32(len(res.Corpora))
				res.Corpora = append(res.Corpora, corpus)
				corpusIndex[corpus] = c
			}
			ci, bound = c, -1
			if n, ok := puzzles[corpus]; ok {
				bound = n
				if !seen && perSeries > 0 {
					res.tab.reserveCorpus(c, min(n, perSeries))
				}
			}
		}
		if reason := checkRow(row, bound); reason != "" {
			return nil, &rundir.RowError{File: name, Line: rd.Line(), Reason: reason}
		}
		if ser == nil || ser.Solver != row.Solver {
			si = slices.IndexFunc(res.Series, func(s *Series) bool { return s.Solver == row.Solver })
			if si < 0 {
				si = len(res.Series)
				res.AddSeries(row.Solver)
				seen = append(seen, nil)
			}
			ser = res.Series[si]
		}
		p := res.add(ser, Entry{Corpus: ci, ID: int32(row.ID), Line: int32(row.Line), Status: row.Status,
			NS: row.NS, Calls: row.Calls, Guesses: row.Guesses, Backtracks: row.Backtracks,
			Timing: TimingOf(row), SelfNS: row.SelfNS})
		res.setSolutions(p, row.Solutions)
		if seen[si].has(p) {
			return nil, &DuplicateError{File: name, Line: rd.Line(), Corpus: row.Corpus, ID: row.ID, Solver: row.Solver}
		}
		seen[si].add(p)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// checkRow returns why a row cannot be reported, or "": an id or a line
// that does not fit the 32 bits Results keeps, an id below 0 or, when
// the count of puzzles of its corpus is known (bound >= 0), not below it.
func checkRow(row *rundir.Row, bound int) string {
	switch {
	case row.ID < 0:
		return fmt.Sprintf("id %d: puzzle ids are 0-based line numbers, never negative", row.ID)
	case row.ID > math.MaxInt32:
		return fmt.Sprintf("id %d: beyond the %d puzzles a corpus file can have", row.ID, math.MaxInt32)
	case bound == 0:
		return fmt.Sprintf("id %d of corpus %s: run.json records no puzzle in that file", row.ID, row.Corpus)
	case bound > 0 && row.ID >= bound:
		return fmt.Sprintf("id %d of corpus %s: out of range: run.json records %d puzzles in that file (ids 0 to %d)",
			row.ID, row.Corpus, bound, bound-1)
	case row.Line < 0 || row.Line > math.MaxInt32:
		return fmt.Sprintf("line %d: not a line number", row.Line)
	}
	return ""
}

// firstLine reads the file of dup again to the first row of its unit and
// returns its line, or 0 if it cannot.
func firstLine(ctx context.Context, path string, dup *DuplicateError) int {
	f, err := rundir.OpenRows(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	rd, err := rundir.NewReader(f, path)
	if err != nil {
		return 0
	}
	rd.OmitText()
	for n := 0; rd.Scan() && rd.Line() < dup.Line; n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			return 0
		}
		if row, err := rd.Row(); err == nil && row.ID == dup.ID && row.Solver == dup.Solver && row.Corpus == dup.Corpus {
			return rd.Line()
		}
	}
	return 0
}
