package report

import (
	"fmt"
	"math"
	"slices"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Entry is one row of results.csv as the reports need it: numbers only.
// A Series does not hold Entries but columns (see Series); At returns
// one row as an Entry.
type Entry struct {
	Corpus     int32 // index in Results.Corpora
	ID         int32
	Line       int32
	Status     solvers.Status
	NS         int64
	Calls      uint64
	Guesses    uint64
	Backtracks uint64
	Timing     Timing // how the time was measured (0 for a file without the timing columns)
	// SelfNS is the time an external solver reported (self_ns), 0 when
	// none. Added to a Series, NS is the round trip (results.csv's ns);
	// read from one (At), NS is the time of the series' Basis.
	SelfNS int64
}

// Timing says how a row's time was measured: the timing columns of
// results.csv (rundir.Row), in a byte.
type Timing uint8

const (
	// Timed: the row has the timing columns (a run written before them
	// has none of the other bits either).
	Timed Timing = 1 << iota
	// Confirmed: the time was measured more than once (repeated in the
	// sweep or re-timed at the end of the run): lists that rank units by
	// time rank confirmed times only.
	Confirmed
	Retimed  // timed again, alone, at the end of the run
	Noise    // re-timed, and the sweep time was not confirmed (rundir.RetimedNoise)
	Slow     // re-timed outlier confirmed slow (rundir.RetimedSlow)
	Unstable // the runs disagreed on status or counters
	Cached   // re-timed, not taken: the strategy caches (rundir.RetimedCache)
)

// TimingOf returns the Timing of a row read from results.csv.
func TimingOf(r *rundir.Row) Timing {
	if r.Runs == 0 {
		return 0
	}
	t := Timed
	if r.Confirmed() {
		t |= Confirmed
	}
	switch r.Retimed {
	case rundir.RetimedNoise:
		t |= Retimed | Noise
	case rundir.RetimedSlow:
		t |= Retimed | Slow
	case rundir.RetimedConfirmed:
		t |= Retimed
	case rundir.RetimedCache:
		t |= Cached
	}
	if r.Unstable {
		t |= Unstable
	}
	return t
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
	timing     []Timing
	lines      map[int32]int32 // rows whose line is not their puzzle's (never in a run's own file)

	// The self-reported times (basis.go): a column once a row has one.
	self           wideColumn
	hasSelf        bool
	answered       int           // rows that answered (finished or gave up)
	answeredNoSelf int           // of those, rows with no self-reported time
	roundTrip      bool          // a view that reads the round trip whatever the basis (RoundTrip)
	ext            *externalView // an external solver's, from run.json (describeExternals); nil otherwise
}

// Len returns the number of rows.
func (s *Series) Len() int { return len(s.puz) }

// At returns row i.
func (s *Series) At(i int) Entry {
	p := s.puz[i]
	e := Entry{Corpus: s.tab.corpus[p], ID: s.tab.id[p], Line: s.tab.line[p], Status: s.status[i],
		NS: s.NS(i), Calls: s.calls.at(i), Guesses: s.guesses.at(i), Backtracks: s.backtracks.at(i),
		Timing: s.timing[i], SelfNS: s.SelfNS(i)}
	if s.lines != nil {
		if l, ok := s.lines[int32(i)]; ok {
			e.Line = l
		}
	}
	return e
}

// Status returns the status of row i.
func (s *Series) Status(i int) solvers.Status { return s.status[i] }

// NS returns the time of row i in nanoseconds, of the series' Basis:
// under BasisSelf the time the strategy reported, when it reported one;
// under BasisLessNull the round trip less the null (1 ns at least).
func (s *Series) NS(i int) int64 {
	if s.selfBasis() {
		if v := s.self.at(i); v > 0 {
			return int64(v)
		}
	}
	if x := s.ext; x != nil && x.lessNull && !s.roundTrip {
		return max(int64(s.ns.at(i))-x.null.MedianNS, 1)
	}
	return int64(s.ns.at(i))
}

// Calls returns the calls of row i.
func (s *Series) Calls(i int) uint64 { return s.calls.at(i) }

// Guesses returns the guesses of row i.
func (s *Series) Guesses(i int) uint64 { return s.guesses.at(i) }

// Timing returns how the time of row i was measured.
func (s *Series) Timing(i int) Timing { return s.timing[i] }

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
		c.v32 = make([]uint32, len(c.v16), max(2*len(c.v16), cap(c.v16), 64))
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
// the line of its first row, in order of first appearance. Corpus
// indexes are 32 bits like ids: a run may have any number of corpus
// files (2 more bytes a puzzle than 16 bits, not a row).
type puzzleTab struct {
	corpus []int32
	id     []int32
	line   []int32
	// solutions per puzzle: -unique's count (0, 1, 2 for two or more),
	// -1 when no row of the puzzle has one.
	solutions []int8
	// Lookup: per corpus, 1 + the puzzle index by id for ids that are
	// not far beyond the count of puzzles (the usual dense 0..n-1), a
	// map for the others.
	dense [][]int32
	// denseCap is, per corpus, the puzzles its dense index is made for
	// at first (reserveCorpus); none: grown.
	denseCap []int
	sparse   map[puzzleID]int32
	last     int32 // the puzzle last found or added, -1 at first
}

// puzzleID names a puzzle of a Results: (corpus index, id).
type puzzleID struct {
	corpus int32
	id     int32
}

func newPuzzleTab() *puzzleTab { return &puzzleTab{last: -1} }

// reserveCorpus makes the dense index of corpus c hold n puzzles
// without growing, when it is made.
func (t *puzzleTab) reserveCorpus(c int32, n int) {
	for int(c) >= len(t.denseCap) {
		t.denseCap = append(t.denseCap, 0)
	}
	t.denseCap[c] = n
}

// find returns the index of puzzle (c, id).
func (t *puzzleTab) find(c, id int32) (int32, bool) {
	if p := t.last; p >= 0 && t.corpus[p] == c && t.id[p] == id {
		return p, true
	}
	if id >= 0 && c >= 0 && int(c) < len(t.dense) && int(id) < len(t.dense[c]) {
		if p := t.dense[c][id]; p > 0 {
			return p - 1, true
		}
		return 0, false
	}
	p, ok := t.sparse[puzzleID{c, id}]
	return p, ok
}

// add returns the index of puzzle (c, id), adding it with line when it
// is new.
func (t *puzzleTab) add(c, id, line int32) (p int32, added bool) {
	if p, ok := t.find(c, id); ok {
		t.last = p
		return p, false
	}
	p = int32(len(t.id))
	t.corpus, t.id, t.line = append(t.corpus, c), append(t.id, id), append(t.line, line)
	t.solutions = append(t.solutions, -1)
	t.last = p
	for int(c) >= len(t.dense) {
		t.dense = append(t.dense, nil)
	}
	if t.dense[c] == nil && int(c) < len(t.denseCap) {
		t.dense[c] = make([]int32, 0, t.denseCap[c])
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
		t.sparse = map[puzzleID]int32{}
	}
	t.sparse[puzzleID{c, id}] = p
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
	// Timed: some row has the timing columns (a run written before them
	// has none: no time of it is confirmed).
	Timed bool
	tab   *puzzleTab
	// perSeries is the rows a series is expected to have (reserve): its
	// columns are made that long at once rather than grown, while
	// reserveLeft, the rows the series still to come may be made for
	// together, lasts; 0: grown.
	perSeries, reserveLeft int
}

// reserve makes each series added from now on, and the puzzle table, hold
// rows rows without growing: about half the memory the columns take
// grown from empty (each growth copies them, and leaves up to as much
// again unused at the end). The series are made for total rows at most
// together (run.json's count), the later ones grown from empty once the
// first have taken them. A series with more rows grows as before.
func (r *Results) reserve(rows, total int) {
	rows = min(rows, total)
	r.perSeries, r.reserveLeft = rows, total
	if r.tab == nil {
		r.tab = newPuzzleTab()
	}
	t := r.tab
	if len(t.id) == 0 {
		t.corpus, t.id, t.line = make([]int32, 0, rows), make([]int32, 0, rows), make([]int32, 0, rows)
		t.solutions = make([]int8, 0, rows)
	}
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
	if n := min(r.perSeries, r.reserveLeft); n > 0 {
		r.reserveLeft -= n
		s.puz, s.status, s.timing = make([]int32, 0, n), make([]solvers.Status, 0, n), make([]Timing, 0, n)
		for _, c := range []*wideColumn{&s.ns, &s.calls, &s.guesses, &s.backtracks} {
			c.v16 = make([]uint16, 0, n)
		}
	}
	r.Series = append(r.Series, s)
	return s
}

// add appends row e to s and returns its puzzle index.
func (r *Results) add(s *Series, e Entry) int32 {
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
	s.addSelf(e.Status, e.SelfNS)
	s.puz = append(s.puz, p)
	s.status = append(s.status, e.Status)
	s.ns.add(uint64(e.NS))
	s.calls.add(e.Calls)
	s.guesses.add(e.Guesses)
	s.backtracks.add(e.Backtracks)
	s.timing = append(s.timing, e.Timing)
	if e.Timing&Timed != 0 {
		r.Timed = true
	}
	r.Rows++
	return p
}

// Solutions returns -unique's count of solutions of puzzle p (0, 1, or
// 2 for two or more), or -1 when the run did not count them.
func (r *Results) Solutions(p int32) int { return int(r.tab.solutions[p]) }

// setSolutions records -unique's count of solutions of puzzle p (n < 0:
// not counted).
func (r *Results) setSolutions(p int32, n int) {
	if n >= 0 {
		r.tab.solutions[p] = int8(min(n, 2))
	}
}

// PuzzleCount returns the number of puzzle indices (Series.Puzzle): they
// run from 0 to PuzzleCount()-1.
func (r *Results) PuzzleCount() int {
	if r.tab == nil {
		return 0
	}
	return len(r.tab.id)
}

// puzzleAt returns the puzzle index of (corpus index c, id).
func (r *Results) puzzleAt(c int, id int) (int32, bool) {
	if r.tab == nil || c < 0 || c > math.MaxInt32 || id < math.MinInt32 || id > math.MaxInt32 {
		return 0, false
	}
	return r.tab.find(int32(c), int32(id))
}

// puzzleOf returns the corpus and id of puzzle index p.
func (r *Results) puzzleOf(p int32) puzzleID { return puzzleID{r.tab.corpus[p], r.tab.id[p]} }

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

// SolverNames returns the names of the series, in order.
func (r *Results) SolverNames() []string {
	names := make([]string, len(r.Series))
	for i, s := range r.Series {
		names[i] = s.Solver
	}
	return names
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

// PuzzleID returns the puzzle id of row i.
func (s *Series) PuzzleID(i int) int32 { return s.tab.id[s.puz[i]] }
