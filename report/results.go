package report

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Entry is one row of results.csv as the reports need it: numbers only.
// A Series does not hold Entries but columns (see Series); At returns
// one row as an Entry.
type Entry struct {
	Corpus     uint16 // index in Results.Corpora
	ID         int32
	Line       int32
	Status     solvers.Status
	NS         int64
	Calls      uint64
	Guesses    uint64
	Backtracks uint64
}

// Series is the rows of one solver, in file order, held in columns so
// that a run of millions of rows stays small: per row a puzzle index
// (into the puzzle table of its Results, which holds corpus, id and
// line once per puzzle rather than once per strategy), a status byte,
// and time and counters in 16 or 32 bits (see wideColumn), the rare
// values that do not fit (times of 4.3 s or more, counters of 2^32-1 or
// more) kept exactly in a side table. 15 to 21 bytes a row. Rows are
// added with Results.Add.
type Series struct {
	Solver     string
	tab        *puzzleTab
	puz        []int32 // puzzle index per row
	status     []solvers.Status
	ns         wideColumn
	calls      wideColumn
	guesses    wideColumn
	backtracks wideColumn
	lines      map[int32]int32 // rows whose line is not their puzzle's (never in a run's own file)
}

// Len returns the number of rows.
func (s *Series) Len() int { return len(s.puz) }

// At returns row i.
func (s *Series) At(i int) Entry {
	p := s.puz[i]
	e := Entry{Corpus: s.tab.corpus[p], ID: s.tab.id[p], Line: s.tab.line[p], Status: s.status[i],
		NS: int64(s.ns.at(i)), Calls: s.calls.at(i), Guesses: s.guesses.at(i), Backtracks: s.backtracks.at(i)}
	if s.lines != nil {
		if l, ok := s.lines[int32(i)]; ok {
			e.Line = l
		}
	}
	return e
}

// Status returns the status of row i.
func (s *Series) Status(i int) solvers.Status { return s.status[i] }

// NS returns the time of row i in nanoseconds.
func (s *Series) NS(i int) int64 { return int64(s.ns.at(i)) }

// Calls returns the calls of row i.
func (s *Series) Calls(i int) uint64 { return s.calls.at(i) }

// Guesses returns the guesses of row i.
func (s *Series) Guesses(i int) uint64 { return s.guesses.at(i) }

// Puzzle returns the puzzle index of row i: the rows of every series
// with the same (corpus, id) share it (see Results.PuzzleCount).
func (s *Series) Puzzle(i int) int32 { return s.puz[i] }

// wideColumn holds 64-bit values in the narrowest width that fits them
// all: 16 bits, widened once to 32 when a value needs it; the values
// that do not fit in 32 bits (>= 2^32-1, which marks them) are kept in a
// map by row. Guesses and backtracks of the fast strategies, and often
// their calls, fit in 16 bits.
type wideColumn struct {
	v16 []uint16 // until a value is 65535 or more
	v32 []uint32 // then
	big map[int32]uint64
}

func (c *wideColumn) add(x uint64) {
	if c.v32 == nil && x < math.MaxUint16 {
		c.v16 = append(c.v16, uint16(x))
		return
	}
	if c.v32 == nil {
		c.v32 = make([]uint32, len(c.v16), max(2*len(c.v16), 64))
		for i, v := range c.v16 {
			c.v32[i] = uint32(v)
		}
		c.v16 = nil
	}
	if x >= math.MaxUint32 {
		if c.big == nil {
			c.big = map[int32]uint64{}
		}
		c.big[int32(len(c.v32))] = x
		x = math.MaxUint32
	}
	c.v32 = append(c.v32, uint32(x))
}

func (c *wideColumn) at(i int) uint64 {
	if c.v32 == nil {
		return uint64(c.v16[i])
	}
	if v := c.v32[i]; v != math.MaxUint32 {
		return uint64(v)
	}
	return c.big[int32(i)]
}

// puzzleTab holds each distinct (corpus, id) of a Results once, with
// the line of its first row, in order of first appearance.
type puzzleTab struct {
	corpus []uint16
	id     []int32
	line   []int32
	// Lookup: per corpus, 1 + the puzzle index by id for ids that are
	// not far beyond the count of puzzles (the usual dense 0..n-1), a
	// map for the others.
	dense  [][]int32
	sparse map[puzzleKey]int32
	last   int32 // the puzzle last found or added, -1 at first
}

func newPuzzleTab() *puzzleTab { return &puzzleTab{last: -1} }

// find returns the index of puzzle (c, id).
func (t *puzzleTab) find(c uint16, id int32) (int32, bool) {
	if p := t.last; p >= 0 && t.corpus[p] == c && t.id[p] == id {
		return p, true
	}
	if id >= 0 && int(c) < len(t.dense) && int(id) < len(t.dense[c]) {
		if p := t.dense[c][id]; p > 0 {
			return p - 1, true
		}
		return 0, false
	}
	p, ok := t.sparse[puzzleKey{c, id}]
	return p, ok
}

// add returns the index of puzzle (c, id), adding it with line when it
// is new.
func (t *puzzleTab) add(c uint16, id, line int32) (p int32, added bool) {
	if p, ok := t.find(c, id); ok {
		t.last = p
		return p, false
	}
	p = int32(len(t.id))
	t.corpus, t.id, t.line = append(t.corpus, c), append(t.id, id), append(t.line, line)
	t.last = p
	for int(c) >= len(t.dense) {
		t.dense = append(t.dense, nil)
	}
	if d := t.dense[c]; id >= 0 && int(id) < 2*len(t.id)+1024 {
		for len(d) <= int(id) {
			d = append(d, 0)
		}
		d[id] = p + 1
		t.dense[c] = d
		return p, true
	}
	if t.sparse == nil {
		t.sparse = map[puzzleKey]int32{}
	}
	t.sparse[puzzleKey{c, id}] = p
	return p, true
}

// Results is a run's rows held for reporting. Messages and solutions
// are not kept (results.csv has them), nor the clues, filled and
// solutions columns, which no report uses.
type Results struct {
	Corpora []string  // corpus names, in order of first appearance
	Series  []*Series // one per solver, in order of first appearance
	Puzzles int       // distinct (corpus, id) pairs
	Rows    int
	tab     *puzzleTab
}

// Add appends a row of the named solver (a new series at the end if it
// has none yet); e.Corpus indexes r.Corpora.
func (r *Results) Add(solver string, e Entry) {
	s := r.Solver(solver)
	if s == nil {
		s = r.AddSeries(solver)
	}
	r.add(s, e)
}

// AddSeries appends an empty series for solver (a strategy that has no
// row yet) and returns it; Add appends the rows.
func (r *Results) AddSeries(solver string) *Series {
	if r.tab == nil {
		r.tab = newPuzzleTab()
	}
	s := &Series{Solver: solver, tab: r.tab}
	r.Series = append(r.Series, s)
	return s
}

func (r *Results) add(s *Series, e Entry) {
	p, added := r.tab.add(e.Corpus, e.ID, e.Line)
	if added {
		r.Puzzles++
	}
	if r.tab.line[p] != e.Line {
		if s.lines == nil {
			s.lines = map[int32]int32{}
		}
		s.lines[int32(len(s.puz))] = e.Line
	}
	s.puz = append(s.puz, p)
	s.status = append(s.status, e.Status)
	s.ns.add(uint64(e.NS))
	s.calls.add(e.Calls)
	s.guesses.add(e.Guesses)
	s.backtracks.add(e.Backtracks)
	r.Rows++
}

// PuzzleCount returns the number of puzzle indices (Series.Puzzle): they
// run from 0 to PuzzleCount()-1.
func (r *Results) PuzzleCount() int {
	if r.tab == nil {
		return 0
	}
	return len(r.tab.id)
}

// puzzleIndex returns the puzzle index of (corpus, id).
func (r *Results) puzzleIndex(c uint16, id int32) (int32, bool) {
	if r.tab == nil {
		return 0, false
	}
	return r.tab.find(c, id)
}

// puzzleOf returns the corpus and id of puzzle index p.
func (r *Results) puzzleOf(p int32) puzzleKey { return puzzleKey{r.tab.corpus[p], r.tab.id[p]} }

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

// indexOrAppend returns the index of s in *list, appending it first if
// it is not there (the corpora and strategies of a results file, in
// order of first appearance).
func indexOrAppend(list *[]string, s string) int {
	i := slices.Index(*list, s)
	if i < 0 {
		i = len(*list)
		*list = append(*list, s)
	}
	return i
}

// ReadResults reads results.csv rows from r; name names it in errors.
func ReadResults(r io.Reader, name string) (*Results, error) {
	rd, err := rundir.NewReader(r, name)
	if err != nil {
		return nil, err
	}
	rd.OmitText()
	res := &Results{}
	var last *Series
	for rd.Scan() {
		row, err := rd.Row()
		if err != nil {
			return nil, err
		}
		ci := indexOrAppend(&res.Corpora, row.Corpus)
		if last == nil || last.Solver != row.Solver {
			last = res.Solver(row.Solver)
			if last == nil {
				last = res.AddSeries(row.Solver)
			}
		}
		res.add(last, Entry{Corpus: uint16(ci), ID: int32(row.ID), Line: int32(row.Line), Status: row.Status,
			NS: row.NS, Calls: row.Calls, Guesses: row.Guesses, Backtracks: row.Backtracks})
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// PuzzleID returns the puzzle id of row i.
func (s *Series) PuzzleID(i int) int32 { return s.tab.id[s.puz[i]] }
