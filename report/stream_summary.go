package report

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"gonum.org/v1/gonum/stat"

	"sudokubatch/solvers"
)

// The summary by passes over a Stream: it equals Summarize of the same
// rows loaded in a Results (the tests check it), without holding them.
//
//  1. Counts, sums, the maxima, the top lists by calls and by time and
//     histograms of each strategy's times and calls (finished and
//     censored apart); the highlighted puzzles' rows.
//  2. The quantiles (selectRanks, one to three passes): with the
//     medians and the p99 of calls, the hard units are known.
//  3. The hard units (hard.csv) and, puzzle by puzzle (its rows are
//     adjacent), the puzzles hard for several strategies.
//  4. One pass counts the ranks of every listed unit.

// topList keeps the first n units by decreasing value, ties in file
// order: the head of rankOrder's order.
type topList struct {
	n    int
	v    []float64
	seq  []int
	rows []Entry
}

func (t *topList) add(v float64, seq int, r *spillRow) {
	if len(t.v) == t.n && !(v > t.v[len(t.v)-1]) {
		return
	}
	k := len(t.v)
	for k > 0 && t.v[k-1] < v {
		k--
	}
	t.v = slices.Insert(t.v, k, v)
	t.seq = slices.Insert(t.seq, k, seq)
	t.rows = slices.Insert(t.rows, k, r.entry())
	if len(t.v) > t.n {
		t.v, t.seq, t.rows = t.v[:t.n], t.seq[:t.n], t.rows[:t.n]
	}
}

// sum128 is an exact sum of non-negative integers.
type sum128 struct{ hi, lo uint64 }

func (s *sum128) add(x uint64) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, x, 0)
	s.hi += c
}

// float returns the sum as a float64: exactly the float sum of the
// values, in any order, when it is below 2^53 (every partial sum is then
// exact), as it is for any run of this tool's size.
func (s *sum128) float() float64 {
	return float64(s.hi)*math.Exp2(64) + float64(s.lo)
}

// streamSeries is what the summary passes keep of one strategy.
type streamSeries struct {
	st          *StrategySummary
	guesses     float64
	noGuessOpen bool
	hist        [2][2]hdrHist // [measure][finished, censored]
	sum         [2]sum128
	max         [2]float64
	maxAt       [2]Entry
	byCalls     topList
	byTime      topList
	medCalls    float64
	medTime     float64
	p99         float64
	hard        []streamUnit
	counts      [2]countSet // ranks: values of measured units above the listed ones
}

// streamUnit is a listed unit waiting for its ranks.
type streamUnit struct {
	e   Entry
	seq int
}

// Summarize computes the summary of the stream's rows: the same as
// Summarize of a Results holding them.
func (st *Stream) Summarize(opt SummaryOptions) (*Summary, error) {
	top := opt.Top
	if top <= 0 {
		top = DefaultTop
	}
	res := st.shell
	s := newSummary(res, top, opt)
	ss := make([]*streamSeries, len(res.Series))
	for i, ser := range res.Series {
		sst := &StrategySummary{Solver: ser.Solver, Units: st.rows[i], Statuses: StatusCounts{},
			ByCalls: []RankedUnit{}, ByTime: []RankedUnit{}}
		for _, x := range solvers.Statuses() {
			sst.Statuses[x] = 0
		}
		ss[i] = &streamSeries{st: sst, byCalls: topList{n: top}, byTime: topList{n: top}}
		for m := range 2 {
			ss[i].hist[m] = [2]hdrHist{newHdrHist(), newHdrHist()}
		}
		s.Strategies = append(s.Strategies, sst)
	}

	// Highlighted ids: per puzzle (corpus, id) and series, the last
	// measured row and the first row.
	hlIDs := []int{}
	var hl32 []int32 // as Results.puzzleIndex looks them up
	for _, id := range opt.Highlight {
		if !slices.Contains(hlIDs, id) {
			hlIDs = append(hlIDs, id)
			hl32 = append(hl32, int32(id))
		}
	}
	type hlUnit struct {
		measured, first *Entry
	}
	hlRows := map[puzzleKey][]hlUnit{}

	// Pass 1.
	err := st.scan(func(r *spillRow) {
		a := ss[r.si]
		sst := a.st
		sst.Statuses[r.status]++
		if len(hl32) > 0 && slices.Contains(hl32, r.id) {
			k := puzzleKey{r.corpus, r.id}
			us := hlRows[k]
			if us == nil {
				us = make([]hlUnit, len(ss))
				hlRows[k] = us
			}
			e := r.entry()
			if us[r.si].first == nil {
				us[r.si].first = &e
			}
			if measured(r.status) {
				us[r.si].measured = &e
			}
		}
		if !measured(r.status) {
			return
		}
		first := sst.Measured == 0
		sst.Measured++
		sst.TotalNS += r.ns
		a.guesses += float64(r.guess)
		cen := r.status.Censored()
		if cen {
			sst.Censored++
			a.noGuessOpen = a.noGuessOpen || r.guess == 0
		}
		if r.status == solvers.StatusSolved && r.guess == 0 {
			sst.NoGuess++
		}
		ci := 0
		if cen {
			ci = 1
		}
		for m := range 2 {
			x := r.valueOf(chartMeasure(m))
			a.hist[m][ci].add(x)
			a.sum[m].add(x)
			if v := float64(x); first || v > a.max[m] {
				a.max[m], a.maxAt[m] = v, r.entry()
			}
		}
		a.byCalls.add(float64(r.calls), r.seq, r)
		a.byTime.add(float64(r.ns), r.seq, r)
	})
	if err != nil {
		return nil, err
	}

	// Quantiles.
	type want struct {
		all, fin *selQuery
	}
	qs := []*selQuery{}
	wants := make([][2][3]want, len(ss))
	probs := [3]float64{0.5, 0.9, 0.99}
	for i, a := range ss {
		n, nf := a.st.Measured, a.st.Measured-a.st.Censored
		if n == 0 {
			continue
		}
		for m := range 2 {
			for j, p := range probs {
				k := empiricalRank(p, n)
				w := want{all: &selQuery{pop: popKey{i, chartMeasure(m), false}, k: k}}
				qs = append(qs, w.all)
				if a.st.Censored > 0 && k <= nf {
					w.fin = &selQuery{pop: popKey{i, chartMeasure(m), true}, k: k}
					qs = append(qs, w.fin)
				}
				wants[i][m][j] = w
			}
		}
	}
	err = st.selectRanks(qs, func(si int, m chartMeasure) (hdrHist, hdrHist) {
		return ss[si].hist[m][0], ss[si].hist[m][1]
	})
	if err != nil {
		return nil, err
	}
	for i, a := range ss {
		sst := a.st
		a.hist = [2][2]hdrHist{} // let them go
		if sst.Measured == 0 {
			continue
		}
		sst.setRates(a.guesses, a.noGuessOpen)
		n := float64(sst.Measured)
		for m := range 2 {
			var d Distribution
			worst := func(v float64) float64 {
				if sst.Censored > 0 {
					return math.Inf(1)
				}
				return v
			}
			mean := a.sum[m].float() / n
			d.Mean = boundBy(mean, worst(mean))
			q := func(w want) Estimate {
				v := float64(w.all.value)
				wv := v
				if sst.Censored > 0 {
					wv = math.Inf(1)
					if w.fin != nil {
						wv = float64(w.fin.value)
					}
				}
				return boundBy(v, wv)
			}
			d.Median, d.P90, d.P99 = q(wants[i][m][0]), q(wants[i][m][1]), q(wants[i][m][2])
			d.Max = boundBy(a.max[m], worst(a.max[m]))
			d.MaxAt = puzzleRef(res, &a.maxAt[m])
			if chartMeasure(m) == chartTime {
				d.Mean.Value = math.Round(d.Mean.Value)
				sst.TimeNS = d
			} else {
				sst.Calls = d
			}
		}
		a.medCalls = max(sst.Calls.Median.Value, 1)
		a.medTime = max(sst.TimeNS.Median.Value, 1)
		a.p99 = sst.Calls.P99.Value
	}

	// Pass 3: the hard units, and the puzzles hard for several
	// strategies, puzzle by puzzle.
	type sharedPuzzle struct {
		key     puzzleKey
		rows    []*Entry // per series: the last measured row, or nil
		hard    []bool
		hardFor int
		geo     Estimate
	}
	var shared []*sharedPuzzle
	hardIn := make([]bool, len(ss))
	lastRow := make([]*Entry, len(ss))
	err = st.scanGroups(func(rows []spillRow) {
		nHard := 0
		for i := range hardIn {
			hardIn[i], lastRow[i] = false, nil
		}
		for k := range rows {
			r := &rows[k]
			if !measured(r.status) {
				continue
			}
			a := ss[r.si]
			if float64(r.calls) > a.p99 || r.status.Censored() {
				a.hard = append(a.hard, streamUnit{r.entry(), r.seq})
				if !hardIn[r.si] {
					hardIn[r.si] = true
					nHard++
				}
			}
			e := r.entry()
			lastRow[r.si] = &e
		}
		if nHard < 2 {
			return
		}
		sp := &sharedPuzzle{key: puzzleKey{rows[0].corpus, rows[0].id}, rows: slices.Clone(lastRow), hard: slices.Clone(hardIn)}
		var xs []float64
		bound := BoundExact
		for si, e := range sp.rows {
			if e == nil {
				continue
			}
			xs = append(xs, float64(e.Calls)/ss[si].medCalls)
			if e.Status.Censored() {
				bound = BoundLower
			}
			if sp.hard[si] {
				sp.hardFor++
			}
		}
		sp.geo = Estimate{stat.GeometricMean(xs, nil), bound}
		shared = append(shared, sp)
	})
	if err != nil {
		return nil, err
	}
	for _, a := range ss {
		slices.SortFunc(a.hard, func(x, y streamUnit) int {
			return cmp.Or(cmp.Compare(float64(y.e.Calls), float64(x.e.Calls)), cmp.Compare(x.seq, y.seq))
		})
	}
	total := len(shared)
	slices.SortStableFunc(shared, func(a, b *sharedPuzzle) int {
		return cmp.Or(cmp.Compare(b.hardFor, a.hardFor), cmp.Compare(b.geo.Value, a.geo.Value))
	})
	shared = shared[:min(top, len(shared))]

	// Pass 4: the ranks of every listed unit.
	wantRank := func(si int, e *Entry) {
		ss[si].counts[chartCalls].want(e.Calls)
		ss[si].counts[chartTime].want(uint64(e.NS))
	}
	for si, a := range ss {
		for k := range a.byCalls.rows {
			wantRank(si, &a.byCalls.rows[k])
		}
		for k := range a.byTime.rows {
			wantRank(si, &a.byTime.rows[k])
		}
		for k := range a.hard {
			wantRank(si, &a.hard[k].e)
		}
	}
	for _, sp := range shared {
		for si, e := range sp.rows {
			if e != nil {
				wantRank(si, e)
			}
		}
	}
	for _, us := range hlRows {
		for si, u := range us {
			if u.measured != nil {
				wantRank(si, u.measured)
			}
		}
	}
	for _, a := range ss {
		for m := range a.counts {
			a.counts[m].prepare()
		}
	}
	err = st.scan(func(r *spillRow) {
		if !measured(r.status) {
			return
		}
		c := &ss[r.si].counts
		c[chartCalls].add(r.calls)
		c[chartTime].add(uint64(r.ns))
	})
	if err != nil {
		return nil, err
	}
	for _, a := range ss {
		for m := range a.counts {
			a.counts[m].finish()
		}
	}
	ranked := func(si int, e *Entry) RankedUnit {
		a := ss[si]
		u := rankedUnit(res, a.st.Solver, e)
		u.RankCalls = 1 + a.counts[chartCalls].gt(e.Calls)
		u.RankTime = 1 + a.counts[chartTime].gt(uint64(e.NS))
		u.XMedianCalls = float64(e.Calls) / a.medCalls
		u.XMedianTime = float64(e.NS) / a.medTime
		return u
	}
	for si, a := range ss {
		for k := range a.byCalls.rows {
			a.st.ByCalls = append(a.st.ByCalls, ranked(si, &a.byCalls.rows[k]))
		}
		for k := range a.byTime.rows {
			a.st.ByTime = append(a.st.ByTime, ranked(si, &a.byTime.rows[k]))
		}
		for k := range a.hard {
			s.Hard = append(s.Hard, ranked(si, &a.hard[k].e))
		}
		a.st.Hard = len(a.hard)
	}
	s.Several, s.SeveralTotal = []SharedHard{}, total
	for _, sp := range shared {
		h := SharedHard{HardFor: []string{}, GeoMeanXMedianCalls: sp.geo}
		for si, e := range sp.rows {
			if e == nil {
				continue
			}
			u := ranked(si, e)
			h.Puzzle = u.Puzzle
			h.Units = append(h.Units, u)
			if sp.hard[si] {
				h.HardFor = append(h.HardFor, ss[si].st.Solver)
			}
		}
		s.Several = append(s.Several, h)
	}
	for _, id := range hlIDs {
		h := Highlight{ID: id, Units: []RankedUnit{}}
		for c := range res.Corpora {
			us, ok := hlRows[puzzleKey{uint16(c), int32(id)}]
			if !ok {
				continue
			}
			for si, u := range us {
				switch {
				case u.measured != nil:
					h.Units = append(h.Units, ranked(si, u.measured))
				case u.first != nil:
					h.Units = append(h.Units, rankedUnit(res, ss[si].st.Solver, u.first))
				}
			}
		}
		s.Highlights = append(s.Highlights, h)
	}
	return s, nil
}

// empiricalRank returns the rank (1-based) of the q-quantile of n sorted
// values with stat.Empirical: the first k with k >= q*n.
func empiricalRank(q float64, n int) int {
	return max(1, int(math.Ceil(q*float64(n))))
}
