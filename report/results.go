package report

import (
	"fmt"
	"io"
	"os"
	"slices"

	"sudokubatch/solvers"
)

// Entry is one row of results.csv as the reports need it: numbers only,
// about 48 bytes, so a run of a million rows fits in memory.
type Entry struct {
	Corpus     uint16 // index in Results.Corpora
	ID         int32
	Line       int32
	Status     solvers.Status
	Clues      int16
	Filled     int16
	Solutions  int8 // -1: not counted
	NS         int64
	Calls      uint64
	Guesses    uint64
	Backtracks uint64
}

// Series is the rows of one solver, in file order.
type Series struct {
	Solver  string
	Entries []Entry
}

// Results is a run's rows held for reporting. Messages and solutions
// are not kept (results.csv has them).
type Results struct {
	Corpora []string  // corpus names, in order of first appearance
	Series  []*Series // one per solver, in order of first appearance
	Puzzles int       // distinct (corpus, id) pairs
	Rows    int
}

// OrderSolvers puts the series in the order of names (the run's
// -solvers order, from run.json); series not named keep their order after
// those named.
func (r *Results) OrderSolvers(names []string) {
	rank := func(s *Series) int {
		if i := slices.Index(names, s.Solver); i >= 0 {
			return i
		}
		return len(names)
	}
	slices.SortStableFunc(r.Series, func(a, b *Series) int { return rank(a) - rank(b) })
}

// Solver returns the series of the named solver, or nil.
func (r *Results) Solver(name string) *Series {
	for _, s := range r.Series {
		if s.Solver == name {
			return s
		}
	}
	return nil
}

// CorpusLabel names the corpora for titles: the single corpus name, or
// "N corpora".
func (r *Results) CorpusLabel() string {
	if len(r.Corpora) == 1 {
		return r.Corpora[0]
	}
	return fmt.Sprintf("%d corpora", len(r.Corpora))
}

// PuzzleLabel names a puzzle: "#39949", or "file#12" when the results
// hold several corpora.
func (r *Results) PuzzleLabel(e *Entry) string {
	if len(r.Corpora) > 1 {
		return fmt.Sprintf("%s#%d", r.Corpora[e.Corpus], e.ID)
	}
	return fmt.Sprintf("#%d", e.ID)
}

// LoadResults reads a results.csv file.
func LoadResults(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	return ReadResults(f, path)
}

// ReadResults reads results.csv rows from r; name names it in errors.
func ReadResults(r io.Reader, name string) (*Results, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, err
	}
	rd.lean = true
	res := &Results{}
	type key struct {
		c  uint16
		id int32
	}
	seen := map[key]bool{}
	var last *Series
	for {
		row, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ci := slices.Index(res.Corpora, row.Corpus)
		if ci < 0 {
			ci = len(res.Corpora)
			res.Corpora = append(res.Corpora, row.Corpus)
		}
		if last == nil || last.Solver != row.Solver {
			last = res.Solver(row.Solver)
			if last == nil {
				last = &Series{Solver: row.Solver}
				res.Series = append(res.Series, last)
			}
		}
		e := Entry{Corpus: uint16(ci), ID: int32(row.ID), Line: int32(row.Line), Status: row.Status,
			Clues: int16(row.Clues), Filled: int16(row.Filled), Solutions: int8(row.Solutions), NS: row.NS,
			Calls: row.Calls, Guesses: row.Guesses, Backtracks: row.Backtracks}
		last.Entries = append(last.Entries, e)
		k := key{e.Corpus, e.ID}
		if !seen[k] {
			seen[k] = true
			res.Puzzles++
		}
		res.Rows++
	}
	return res, nil
}
