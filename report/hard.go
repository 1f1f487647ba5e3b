package report

import (
	"cmp"
	"encoding/json"
	"iter"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"

	"sudokubatch/solvers"
)

// RankedUnit is one (puzzle, strategy) unit placed among the strategy's
// measured units.
type RankedUnit struct {
	Solver  string         `json:"solver"`
	Puzzle  PuzzleRef      `json:"puzzle"`
	Status  solvers.Status `json:"-"` // encoded by name as "status"
	NS      int64          `json:"ns"`
	Calls   uint64         `json:"calls"`
	Guesses uint64         `json:"guesses"`

	// Ranks are 1 for the most calls (the longest time) among the
	// strategy's measured units; equal values share the best rank. They
	// are 0 for a unit that is not measured (invalid, unsupported, error).
	// By time, the units a timeout stopped tie at the limit (TimeBound):
	// how far the timer overshot it is no measure of the puzzle.
	RankCalls int `json:"rank_calls"`
	RankTime  int `json:"rank_time"`
	// TiedCalls and TiedTime are how many measured units share the rank
	// (itself included) when more than one does; 0 otherwise.
	TiedCalls int `json:"tied_calls,omitempty"`
	TiedTime  int `json:"tied_time,omitempty"`
	// TimeBound is, for a unit a timeout stopped, the time it ranks at:
	// the earliest time at which a timeout stopped one of the strategy's
	// units (at or just past the limit), shown ≥; 0 for other units.
	TimeBound int64 `json:"time_bound_ns,omitempty"`
	// Unconfirmed: the run has the timing columns but this time was
	// measured once, in the sweep; the re-timing did not reach it.
	Unconfirmed bool `json:"unconfirmed,omitempty"`

	// Multiples of the strategy's median (a median of 0 counts as 1);
	// 0 for a unit that is not measured.
	XMedianCalls float64 `json:"x_median_calls"`
	XMedianTime  float64 `json:"x_median_time"`

	// Variants is the verdict of the hard-or-unlucky analysis of this
	// unit (Summary.AttachVariants): "hard", "unlucky", "hard, unlucky",
	// "typical" or "no verdict"; "" when it was not analysed.
	Variants string `json:"variants,omitempty"`
}

// MarshalJSON encodes u with its status by name.
func (u RankedUnit) MarshalJSON() ([]byte, error) {
	type plain RankedUnit
	return json.Marshal(struct {
		plain
		Status string `json:"status"`
	}{plain(u), u.Status.String()})
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (u *RankedUnit) UnmarshalJSON(data []byte) error {
	type plain RankedUnit
	var v struct {
		plain
		Status string `json:"status"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	st, err := solvers.ParseStatus(v.Status)
	if err != nil {
		return err
	}
	*u = RankedUnit(v.plain)
	u.Status = st
	return nil
}

// SharedHard is a puzzle hard for several strategies.
type SharedHard struct {
	Puzzle  PuzzleRef `json:"puzzle"`
	HardFor []string  `json:"hard_for"` // strategies it is hard for: calls above their p99 (hardFor)
	// GeoMeanXMedianCalls is the geometric mean, over every strategy that
	// measured the puzzle, of its calls as a multiple of that strategy's
	// median; a lower bound when one of those units was stopped.
	GeoMeanXMedianCalls Estimate     `json:"geomean_x_median_calls"`
	Units               []RankedUnit `json:"units"` // one per strategy that measured it, in Results order
}

// Highlight places one puzzle asked for with SummaryOptions.Highlight in
// every strategy.
type Highlight struct {
	ID    int          `json:"id"`
	Units []RankedUnit `json:"units"` // every unit of that id, by corpus then strategy; none if not in the run
}

// rankedSeries holds what a summary needs of one strategy's ranks once
// its statistics are done: its medians, its rows of hard.csv and which
// puzzles they are. The ranks of other units (puzzles hard for several
// strategies, highlighted puzzles, `batch show`) are counted again when
// they are listed (units): keeping two ranks and an index per unit would
// cost more memory than the rows themselves.
type rankedSeries struct {
	res               *Results
	ser               *Series
	solver            string
	measured          int
	medCalls, medTime float64 // the medians the multiples are of (at least 1)
	// isHard holds the puzzles (indices) hard for this strategy, as the
	// puzzles hard for several count them (see hardFor).
	isHard puzzleSet
	// stopNS is the time the units a timeout stopped rank at (timeKey):
	// the earliest of their stopping times; 0 when none was.
	stopNS float64
}

// newRankedSeries returns the ranking of ser's units (its medians are
// set by rank).
func newRankedSeries(res *Results, ser *Series, measured int) *rankedSeries {
	rs := &rankedSeries{res: res, ser: ser, solver: ser.Solver, measured: measured}
	for i := range ser.Len() {
		if ser.Status(i) == solvers.StatusTimeout {
			if ns := float64(ser.NS(i)); rs.stopNS == 0 || ns < rs.stopNS {
				rs.stopNS = ns
			}
		}
	}
	return rs
}

// timeKey is the time row i ranks by: its time, or, when a timeout
// stopped it, the time every such unit ties at (stopNS). A unit stopped
// by a call limit keeps its time (a lower bound, measured up to the
// limit's calls).
func (rs *rankedSeries) timeKey(i int32) float64 {
	if rs.stopNS > 0 && rs.ser.Status(int(i)) == solvers.StatusTimeout {
		return rs.stopNS
	}
	return float64(rs.ser.NS(int(i)))
}

// timeKeys returns the sorted time keys of the measured units: a unit's
// rank by time is 1 + the number of keys above its own.
func (rs *rankedSeries) timeKeys() []float64 {
	byTime := make([]float64, 0, rs.measured)
	for i := range measuredRows(rs.ser) {
		byTime = append(byTime, rs.timeKey(i))
	}
	sortValues(byTime)
	return byTime
}

// puzzleSet is a set of puzzle indices (Series.Puzzle), a bit each.
type puzzleSet []uint64

func newPuzzleSet(n int) puzzleSet { return make(puzzleSet, (n+63)/64) }

func (s puzzleSet) add(p int32)      { s[p/64] |= 1 << (p % 64) }
func (s puzzleSet) has(p int32) bool { return int(p/64) < len(s) && s[p/64]&(1<<(p%64)) != 0 }

// ranked returns row i of the series as a ranked unit with the given
// ranks and ties.
func (rs *rankedSeries) ranked(i int32, rankCalls, rankTime, tiedCalls, tiedTime int32) RankedUnit {
	e := rs.ser.At(int(i))
	u := rankedUnit(rs.res, rs.solver, &e)
	u.RankCalls, u.RankTime = int(rankCalls), int(rankTime)
	if tiedCalls > 1 {
		u.TiedCalls = int(tiedCalls)
	}
	if tiedTime > 1 {
		u.TiedTime = int(tiedTime)
	}
	if e.Status == solvers.StatusTimeout && rs.stopNS > 0 {
		u.TimeBound = int64(rs.stopNS)
	}
	u.Unconfirmed = unconfirmed(rs.res, rs.ser, int(i))
	u.XMedianCalls = float64(e.Calls) / rs.medCalls
	u.XMedianTime = float64(e.NS) / rs.medTime
	return u
}

// units returns the measured rows as ranked units, with their ranks
// and ties among the strategy's measured units. They are counted in one
// pass over the series (placer), not read off its values sorted: a few
// units are asked for at a time (the highlighted puzzles, those hard for
// several strategies, the page's), and sorting the values again for
// them cost more than the statistics.
func (rs *rankedSeries) units(rows []int32) []RankedUnit {
	if len(rows) == 0 {
		return nil
	}
	ser := rs.ser
	qCalls, qTime := make([]float64, len(rows)), make([]float64, len(rows))
	for k, i := range rows {
		qCalls[k], qTime[k] = float64(ser.Calls(int(i))), rs.timeKey(i)
	}
	// A strategy that counts no calls has no ranking by calls: every
	// unit ranks first, tied with none (rankIn over no values).
	counts := ser.Counts(countCalls)
	byCalls, byTime := newPlacer(qCalls), newPlacer(qTime)
	for i := range measuredRows(ser) {
		if counts {
			byCalls.add(float64(ser.Calls(int(i))))
		}
		byTime.add(rs.timeKey(i))
	}
	out := make([]RankedUnit, len(rows))
	for k, i := range rows {
		rc, tc := byCalls.place(qCalls[k])
		rt, tt := byTime.place(qTime[k])
		out[k] = rs.ranked(i, rc, rt, tc, tt)
	}
	return out
}

// rankedIn returns row i as a ranked unit placed in the sorted values
// byCalls and byTime (the sorted values of rank).
func (rs *rankedSeries) rankedIn(i int32, byCalls, byTime []float64) RankedUnit {
	rc, tc := rankIn(byCalls, float64(rs.ser.Calls(int(i))))
	rt, tt := rankIn(byTime, rs.timeKey(i))
	return rs.ranked(i, rc, rt, tc, tt)
}

// rowsOf returns, for each puzzle index in want, the row of its
// measured unit in the series (the last one, should there be several);
// puzzles not measured are absent.
func (rs *rankedSeries) rowsOf(want map[int32]bool) map[int32]int32 {
	out := map[int32]int32{}
	if len(want) == 0 {
		return out
	}
	ser := rs.ser
	for j := range ser.Len() {
		if p := ser.Puzzle(j); want[p] && ser.Status(j).Measured() {
			out[p] = int32(j)
		}
	}
	return out
}

// rank fills the top lists of st and appends to hard the units of
// hard.csv (calls above the p99, or stopped by a limit), by decreasing
// calls, ties in file order. The lists rank the measured units by calls
// and by time (timeKey: the units a timeout stopped tie at its limit),
// ties by the other measure (the calls a unit reached, then its time),
// then in file order.
//
// times and calls are the sorted time and calls of the measured units
// (distribution's): times are the time keys when no timeout stopped a
// unit, else the keys are sorted again.
func (rs *rankedSeries) rank(st *StrategySummary, top int, hard *[]RankedUnit, times, calls []float64) {
	rs.medCalls = max(st.Calls.Median.Value, 1)
	rs.medTime = max(st.TimeNS.Median.Value, 1)
	ser := rs.ser
	byTime := times
	if rs.stopNS > 0 {
		byTime = rs.timeKeys()
	}
	var byCalls []float64
	if ser.Counts(countCalls) { // else no ranking by calls: its units would tie at 0
		byCalls = calls
	}
	unit := func(i int32) RankedUnit { return rs.rankedIn(i, byCalls, byTime) }
	// A strategy that counts no calls (an external solver that reports
	// none) has no ranking by calls: its units would tie at 0.
	if len(byCalls) > 0 && slices.Max(byCalls) > 0 {
		for _, i := range topRows(measuredRows(ser), top, seriesCalls(ser), nil) {
			st.ByCalls = append(st.ByCalls, unit(i))
		}
	}
	for _, i := range topRows(measuredRows(ser), top, rs.timeKey, seriesCalls(ser)) {
		st.ByTime = append(st.ByTime, unit(i))
	}
	p99 := st.Calls.P99.Value
	var rows []int32
	rs.isHard = newPuzzleSet(rs.res.PuzzleCount())
	for i := range measuredRows(ser) {
		status, calls := ser.Status(int(i)), float64(ser.Calls(int(i)))
		if calls > p99 || status.Censored() {
			rows = append(rows, i)
		}
		if hardFor(status, calls, p99) {
			rs.isHard.add(ser.Puzzle(int(i)))
		}
	}
	slices.SortStableFunc(rows, func(a, b int32) int { return cmp.Compare(ser.Calls(int(b)), ser.Calls(int(a))) })
	for _, i := range rows {
		*hard = append(*hard, unit(i))
	}
	st.Hard = len(rows)
}

// hardFor reports whether a unit of the given status and calls counts
// as hard for its strategy among the puzzles hard for several: its
// calls are above the strategy's p99 of calls (for a unit a limit
// stopped, the calls it reached already are: a lower bound above it).
// A unit that gave up (stuck, wrong) is not: its calls say how soon it
// gave up, not how hard the puzzle is; nor is one a limit stopped below
// the p99, which may be as ordinary as the strategy's median (backtrack
// under a time limit stops a third of its units near ×1 its median).
func hardFor(status solvers.Status, calls, p99 float64) bool {
	return !status.GaveUp() && calls > p99
}

// topRows returns the top rows of those yielded (in file order) by
// decreasing value, ties by decreasing tie (nil: none), then in file
// order.
func topRows(rows iter.Seq[int32], top int, value, tie func(int32) float64) []int32 {
	if top <= 0 {
		return nil
	}
	if tie == nil {
		tie = func(int32) float64 { return 0 }
	}
	type key struct{ v, t float64 }
	before := func(a, b key) bool { return a.v > b.v || a.v == b.v && a.t > b.t }
	out := make([]int32, 0, top+1)
	keys := make([]key, 0, top+1)
	for i := range rows {
		k := key{value(i), tie(i)}
		if len(out) == top && !before(k, keys[top-1]) {
			continue // an earlier row with this key is listed first
		}
		p := sort.Search(len(keys), func(j int) bool { return before(k, keys[j]) }) // after the equal keys
		out, keys = slices.Insert(out, p, i), slices.Insert(keys, p, k)
		if len(out) > top {
			out, keys = out[:top], keys[:top]
		}
	}
	return out
}

func rankedUnit(res *Results, solver string, e *Entry) RankedUnit {
	return RankedUnit{Solver: solver, Puzzle: puzzleRef(res, e), Status: e.Status, NS: e.NS,
		Calls: e.Calls, Guesses: e.Guesses}
}

// hardForSeveral lists the puzzles hard (hardFor) for two strategies or
// more: most strategies first, then by the geometric mean of their calls
// as multiples of each strategy's median, then in corpus and id order.
// It returns the first top of them and how many there are.
func hardForSeveral(res *Results, ranked []*rankedSeries, top int) ([]SharedHard, int) {
	shared := map[int32]bool{}
	var keys []int32
	for p := range int32(res.PuzzleCount()) {
		c := 0
		for _, rs := range ranked {
			if rs.isHard.has(p) {
				c++
			}
		}
		if c >= 2 {
			keys = append(keys, p)
			shared[p] = true
		}
	}
	slices.SortFunc(keys, func(a, b int32) int {
		ka, kb := res.puzzleOf(a), res.puzzleOf(b)
		return cmp.Or(cmp.Compare(ka.corpus, kb.corpus), cmp.Compare(ka.id, kb.id))
	})
	rows := make([]map[int32]int32, len(ranked)) // per strategy: the measured row of each shared puzzle
	for si, rs := range ranked {
		rows[si] = rs.rowsOf(shared)
	}
	type entry struct {
		p       int32
		hardFor int
		geo     Estimate
	}
	list := make([]entry, 0, len(keys))
	for _, p := range keys {
		var xs []float64
		bound := BoundExact
		hardFor := 0
		for si, rs := range ranked {
			i, ok := rows[si][p]
			if !ok {
				continue
			}
			xs = append(xs, float64(rs.ser.Calls(int(i)))/rs.medCalls)
			if rs.ser.Status(int(i)).Censored() {
				bound = BoundLower
			}
			if rs.isHard.has(p) {
				hardFor++
			}
		}
		list = append(list, entry{p, hardFor, Estimate{stat.GeometricMean(xs, nil), bound}})
	}
	// Stable on the (corpus, id) order of keys.
	slices.SortStableFunc(list, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.hardFor, a.hardFor), cmp.Compare(b.geo.Value, a.geo.Value))
	})
	list = list[:min(top, len(list))]
	// The listed units, with their ranks counted per strategy at once.
	units := make([][]RankedUnit, len(ranked)) // per strategy, parallel to want
	want := make([][]int32, len(ranked))
	for si := range ranked {
		for _, sh := range list {
			if i, ok := rows[si][sh.p]; ok {
				want[si] = append(want[si], i)
			}
		}
		units[si] = ranked[si].units(want[si])
	}
	next := make([]int, len(ranked))
	out := []SharedHard{}
	for _, sh := range list {
		h := SharedHard{HardFor: []string{}, GeoMeanXMedianCalls: sh.geo}
		for si, rs := range ranked {
			if _, ok := rows[si][sh.p]; !ok {
				continue
			}
			u := units[si][next[si]]
			next[si]++
			h.Puzzle = u.Puzzle
			h.Units = append(h.Units, u)
			if rs.isHard.has(sh.p) {
				h.HardFor = append(h.HardFor, rs.solver)
			}
		}
		out = append(out, h)
	}
	return out, len(keys)
}

// highlights places the puzzles with the given ids in every strategy.
func highlights(res *Results, ranked []*rankedSeries, ids []int) []Highlight {
	// The puzzles of each id, in every corpus, found first; then one pass
	// over each series finds all their rows (a pass per id and corpus
	// took minutes over tens of thousands of corpora).
	var hs []Highlight
	puzzles := map[int][]int32{} // id -> its puzzle indexes, in corpus order
	want := map[int32]bool{}
	for _, id := range ids {
		if _, dup := puzzles[id]; dup {
			continue
		}
		ps := []int32{}
		for c := range res.Corpora {
			if p, ok := res.puzzleAt(c, id); ok {
				ps = append(ps, p)
				want[p] = true
			}
		}
		puzzles[id] = ps
		hs = append(hs, Highlight{ID: id, Units: []RankedUnit{}})
	}
	measuredUnit := make([]map[int32]RankedUnit, len(res.Series)) // by puzzle, ranked
	anyRow := make([]map[int32]int32, len(res.Series))            // the first row, measured or not
	for si, ser := range res.Series {
		byPuzzle := ranked[si].rowsOf(want)
		ps, rows := make([]int32, 0, len(byPuzzle)), make([]int32, 0, len(byPuzzle))
		for p, i := range byPuzzle {
			ps, rows = append(ps, p), append(rows, i)
		}
		measuredUnit[si] = make(map[int32]RankedUnit, len(rows))
		for k, u := range ranked[si].units(rows) {
			measuredUnit[si][ps[k]] = u
		}
		anyRow[si] = map[int32]int32{}
		for j := range ser.Len() {
			if p := ser.Puzzle(j); want[p] {
				if _, seen := anyRow[si][p]; !seen {
					anyRow[si][p] = int32(j)
				}
			}
		}
	}
	for k := range hs {
		h := &hs[k]
		for _, p := range puzzles[h.ID] {
			for si, ser := range res.Series {
				if u, ok := measuredUnit[si][p]; ok {
					h.Units = append(h.Units, u)
				} else if j, ok := anyRow[si][p]; ok { // not measured: status only
					e := ser.At(int(j))
					h.Units = append(h.Units, rankedUnit(res, ser.Solver, &e))
				}
			}
		}
	}
	return hs
}
