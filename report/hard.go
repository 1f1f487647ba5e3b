package report

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

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
	RankCalls int `json:"rank_calls"`
	RankTime  int `json:"rank_time"`

	// Multiples of the strategy's median (a median of 0 counts as 1);
	// 0 for a unit that is not measured.
	XMedianCalls float64 `json:"x_median_calls"`
	XMedianTime  float64 `json:"x_median_time"`
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
	HardFor []string  `json:"hard_for"` // strategies for which it is in hard.csv
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

// rankedSeries holds one strategy's measured units with their ranks. It
// keeps two int32 ranks per unit and makes a RankedUnit only for the
// units a summary lists, so that a run of a million rows stays small.
type rankedSeries struct {
	res                 *Results
	solver              string
	units               []*Entry           // measured, in file order
	rankCalls, rankTime []int32            // parallel to units
	medCalls, medTime   float64            // the medians the multiples are of (at least 1)
	index               map[puzzleKey]int  // index in units
	hard                []RankedUnit       // this strategy's rows of hard.csv
	isHard              map[puzzleKey]bool // the puzzles of hard
}

// unit returns the ranked unit i.
func (rs *rankedSeries) unit(i int) RankedUnit {
	e := rs.units[i]
	u := rankedUnit(rs.res, rs.solver, e)
	u.RankCalls, u.RankTime = int(rs.rankCalls[i]), int(rs.rankTime[i])
	u.XMedianCalls = float64(e.Calls) / rs.medCalls
	u.XMedianTime = float64(e.NS) / rs.medTime
	return u
}

// puzzleKey names a puzzle of a Results: (corpus index, id).
type puzzleKey struct {
	corpus uint16
	id     int32
}

// rank ranks the measured units by calls and by time, fills the top
// lists of st and selects the units of hard.csv.
func (rs *rankedSeries) rank(res *Results, st *StrategySummary, top int) {
	n := len(rs.units)
	rs.res = res
	rs.rankCalls, rs.rankTime = make([]int32, n), make([]int32, n)
	rs.index = make(map[puzzleKey]int, n)
	rs.medCalls = max(st.Calls.Median.Value, 1)
	rs.medTime = max(st.TimeNS.Median.Value, 1)
	for i, e := range rs.units {
		rs.index[puzzleKey{e.Corpus, e.ID}] = i
	}
	byCalls := rs.order(func(e *Entry) float64 { return float64(e.Calls) }, rs.rankCalls)
	byTime := rs.order(func(e *Entry) float64 { return float64(e.NS) }, rs.rankTime)
	for _, i := range byCalls[:min(top, n)] {
		st.ByCalls = append(st.ByCalls, rs.unit(i))
	}
	for _, i := range byTime[:min(top, n)] {
		st.ByTime = append(st.ByTime, rs.unit(i))
	}
	p99 := st.Calls.P99.Value
	rs.isHard = map[puzzleKey]bool{}
	for _, i := range byCalls {
		e := rs.units[i]
		if float64(e.Calls) > p99 || e.Status.Censored() {
			rs.hard = append(rs.hard, rs.unit(i))
			rs.isHard[puzzleKey{e.Corpus, e.ID}] = true
		}
	}
	st.Hard = len(rs.hard)
}

// order returns the indices of the units by decreasing value (ties in
// file order) and sets each unit's rank in ranks: 1 + the number of units
// with a greater value.
func (rs *rankedSeries) order(value func(*Entry) float64, ranks []int32) []int {
	idx := make([]int, len(rs.units))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(value(rs.units[b]), value(rs.units[a])) })
	rank := 0
	for pos, i := range idx {
		if pos == 0 || value(rs.units[i]) != value(rs.units[idx[pos-1]]) {
			rank = pos + 1
		}
		ranks[i] = int32(rank)
	}
	return idx
}

func rankedUnit(res *Results, solver string, e *Entry) RankedUnit {
	return RankedUnit{Solver: solver, Puzzle: puzzleRef(res, e), Status: e.Status, NS: e.NS,
		Calls: e.Calls, Guesses: e.Guesses}
}

// hardForSeveral lists the puzzles in hard.csv for two strategies or
// more: most strategies first, then by the geometric mean of their calls
// as multiples of each strategy's median, then in corpus and id order.
// It returns the first top of them and how many there are.
func hardForSeveral(ranked []*rankedSeries, top int) ([]SharedHard, int) {
	count := map[puzzleKey]int{}
	for _, rs := range ranked {
		for k := range rs.isHard {
			count[k]++
		}
	}
	var keys []puzzleKey
	for k, c := range count {
		if c >= 2 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b puzzleKey) int {
		return cmp.Or(cmp.Compare(a.corpus, b.corpus), cmp.Compare(a.id, b.id))
	})
	list := []SharedHard{}
	for _, k := range keys {
		sh := SharedHard{HardFor: []string{}}
		var xs []float64
		bound := BoundExact
		for _, rs := range ranked {
			i, ok := rs.index[k]
			if !ok {
				continue
			}
			u := rs.unit(i)
			sh.Puzzle = u.Puzzle
			sh.Units = append(sh.Units, u)
			xs = append(xs, u.XMedianCalls)
			if u.Status.Censored() {
				bound = BoundLower
			}
			if rs.isHard[k] {
				sh.HardFor = append(sh.HardFor, rs.solver)
			}
		}
		sh.GeoMeanXMedianCalls = Estimate{stat.GeometricMean(xs, nil), bound}
		list = append(list, sh)
	}
	// Stable on the (corpus, id) order of keys.
	slices.SortStableFunc(list, func(a, b SharedHard) int {
		return cmp.Or(
			cmp.Compare(len(b.HardFor), len(a.HardFor)),
			cmp.Compare(b.GeoMeanXMedianCalls.Value, a.GeoMeanXMedianCalls.Value))
	})
	return list[:min(top, len(list))], len(list)
}

// highlights places the puzzles with the given ids in every strategy.
func highlights(res *Results, ranked []*rankedSeries, ids []int) []Highlight {
	var hs []Highlight
	for _, id := range ids {
		if slices.ContainsFunc(hs, func(h Highlight) bool { return h.ID == id }) {
			continue
		}
		h := Highlight{ID: id, Units: []RankedUnit{}}
		for c := range res.Corpora {
			for si, ser := range res.Series {
				k := puzzleKey{uint16(c), int32(id)}
				if i, ok := ranked[si].index[k]; ok {
					h.Units = append(h.Units, ranked[si].unit(i))
					continue
				}
				for j := range ser.Entries { // not measured: status only
					if e := &ser.Entries[j]; e.Corpus == k.corpus && e.ID == k.id {
						h.Units = append(h.Units, rankedUnit(res, ser.Solver, e))
						break
					}
				}
			}
		}
		hs = append(hs, h)
	}
	return hs
}

// HardCSVHeader is the first line of hard.csv.
var HardCSVHeader = []string{"corpus", "id", "line", "solver", "status", "calls", "ns", "guesses",
	"rank_calls", "rank_time", "x_median_calls", "x_median_time"}

// WriteHardCSV writes hard.csv: per strategy (in Results order), every
// unit whose calls are above the strategy's p99 of calls or that a
// timeout or call limit stopped, by decreasing calls. Multiples of the
// median have two decimals; every other number is exact.
func (s *Summary) WriteHardCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(HardCSVHeader)
	for _, u := range s.Hard {
		cw.Write([]string{u.Puzzle.Corpus, strconv.Itoa(u.Puzzle.ID), strconv.Itoa(u.Puzzle.Line), u.Solver,
			u.Status.String(), strconv.FormatUint(u.Calls, 10), strconv.FormatInt(u.NS, 10),
			strconv.FormatUint(u.Guesses, 10), strconv.Itoa(u.RankCalls), strconv.Itoa(u.RankTime),
			strconv.FormatFloat(u.XMedianCalls, 'f', 2, 64), strconv.FormatFloat(u.XMedianTime, 'f', 2, 64)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing hard.csv: %w", err)
	}
	return nil
}
