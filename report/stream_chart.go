package report

import (
	"fmt"
	"math"
	"os"
	"slices"

	"sudokubatch/solvers"
)

// The charts by passes over a Stream: the same chartSet as newChartSet
// builds from a Results, so the same charts.
//
//  1. Per strategy and measure: counts, ranges, the hardest and the
//     highlighted rows, histograms of the finished and censored times;
//     the scatters' counts and ranges, puzzle by puzzle.
//  2. The box plots' quartiles and the ECDF's quantiles (selectRanks).
//  3. The histogram bins, the whiskers and outliers of the boxes, and
//     how many finished times lie at or below each ECDF point and
//     highlighted puzzle.
//
// The scatters read the spill again when they are drawn (twice each).

// chartTimeValue is the plotted time of ns: seconds, at least the floor.
func chartTimeValue(ns int64) float64 {
	return max(float64(ns)/1e9, chartTimeFloor) // as chartValue, then the floor
}

// chartPlotValue is the plotted value of measure m of a row.
func (r *spillRow) chartPlotValue(m chartMeasure) (v float64, zero bool) {
	if m == chartCalls {
		v = float64(r.calls)
	} else {
		v = float64(r.ns) / 1e9
	}
	if f := m.floor(); v < f {
		return f, true
	}
	return v, false
}

// streamColumn is what the chart passes keep of one column.
type streamColumn struct {
	col                        *chartColumn
	nfin, ncen                 int
	finLo, finHi, cenLo, cenHi float64
	hist                       [2]hdrHist // time only: finished, censored ns
}

// WriteCharts draws the charts of the stream's rows into dir, as
// WriteCharts does for a Results holding them.
func (st *Stream) WriteCharts(dir string, opt ChartOptions) ([]Chart, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing charts: %w", err)
	}
	set, err := st.chartSet(opt)
	if err != nil {
		return nil, err
	}
	return writeChartSet(dir, set)
}

func (st *Stream) chartSet(opt ChartOptions) (*chartSet, error) {
	res := st.shell
	set := &chartSet{res: res, opt: opt, label: opt.Title, hl: map[int32]bool{}, scatters: map[int]*chartScatter{}}
	if set.label == "" {
		set.label = res.CorpusLabel()
	}
	for _, id := range opt.Highlight {
		if id >= math.MinInt32 && id <= math.MaxInt32 {
			set.hl[int32(id)] = true
		}
	}
	set.baseline = chartBaseline(res, opt.Baseline)
	nser := len(res.Series)
	cols := make([][2]*streamColumn, nser) // [series][measure]
	for i, s := range res.Series {
		for m := range 2 {
			c := &streamColumn{col: &chartColumn{solver: s.Solver, measure: chartMeasure(m), rows: st.rows[i]},
				finLo: math.Inf(1), finHi: math.Inf(-1), cenLo: math.Inf(1), cenHi: math.Inf(-1)}
			if m == int(chartTime) {
				c.hist = [2]hdrHist{newHdrHist(), newHdrHist()}
			}
			cols[i][m] = c
		}
	}
	base := -1
	if len(res.Series) > 1 {
		base = slices.IndexFunc(res.Series, func(s *Series) bool { return s.Solver == set.baseline })
	}
	scatters := make([]*chartScatter, nser)
	for i := range scatters {
		if i != base && base >= 0 {
			scatters[i] = &chartScatter{set: set, idx: i,
				xlo: math.Inf(1), xhi: math.Inf(-1), ylo: math.Inf(1), yhi: math.Inf(-1)}
		}
	}

	// Pass 1.
	tlo, thi := math.Inf(1), math.Inf(-1)
	err := st.scanGroups(func(rows []spillRow) {
		for k := range rows {
			r := &rows[k]
			for m := range 2 {
				sc := cols[r.si][m]
				col := sc.col
				if !chartPlotted(r.status) {
					col.skipped++
					continue
				}
				v, zero := r.chartPlotValue(chartMeasure(m))
				if zero {
					col.zeros++
				}
				switch r.status {
				case solvers.StatusTimeout:
					col.timeouts++
				case solvers.StatusLimit:
					col.limits++
				}
				cen := r.status.Censored()
				if cen {
					sc.ncen++
					sc.cenLo, sc.cenHi = math.Min(sc.cenLo, v), math.Max(sc.cenHi, v)
				} else {
					sc.nfin++
					sc.finLo, sc.finHi = math.Min(sc.finLo, v), math.Max(sc.finHi, v)
				}
				if m == int(chartTime) {
					tlo, thi = math.Min(tlo, v), math.Max(thi, v)
					ci := 0
					if cen {
						ci = 1
					}
					sc.hist[ci].add(uint64(r.ns))
				}
				if len(set.hl) > 0 && set.hl[r.id] {
					e := r.entry()
					col.marked = append(col.marked, chartPoint{e: &e, v: v, censored: cen})
				} else if !cen {
					col.addTopEntry(r.entry, v)
				}
			}
		}
		if base < 0 {
			return
		}
		xv, xc := math.NaN(), false
		for k := range rows {
			if r := &rows[k]; r.si == base && chartPlotted(r.status) {
				xv, xc = chartTimeValue(r.ns), r.status.Censored()
			}
		}
		for k := range rows {
			r := &rows[k]
			sc := scatters[r.si]
			if sc == nil || !chartPlotted(r.status) {
				continue
			}
			if math.IsNaN(xv) {
				sc.missing++
				continue
			}
			yc := r.status.Censored()
			yv := chartTimeValue(r.ns)
			sc.count(xv, yv, xc, yc)
			if set.hl[r.id] {
				e := r.entry()
				sc.marked = append(sc.marked, chartPair{x: chartPoint{e: &e, v: xv, censored: xc}, y: chartPoint{e: &e, v: yv, censored: yc}})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if tlo <= thi {
		set.timeEdges = chartLogBins(tlo, thi, false)
	}

	// The columns' ranges and bins; the quantiles to select.
	type distQ struct {
		ecdf []*selQuery // rank i+1 of the finished times, for each ECDF index i
		box  [3]*selQuery
	}
	dq := make([]distQ, nser)
	var qs []*selQuery
	for i := range cols {
		for m := range 2 {
			sc := cols[i][m]
			col := sc.col
			col.n, col.fin = sc.nfin+sc.ncen, sc.nfin
			slices.SortFunc(col.marked, chartPointCmp)
			edges := set.timeEdges
			if col.n == 0 {
				col.edges = edges
				if m == int(chartTime) {
					sc.hist = [2]hdrHist{}
				}
				continue
			}
			col.lo, col.hi = math.Inf(1), math.Inf(-1)
			if sc.nfin > 0 {
				col.lo, col.hi, col.finMax = sc.finLo, sc.finHi, sc.finHi
			}
			if sc.ncen > 0 {
				col.censorAt = sc.cenLo
				col.lo, col.hi = math.Min(col.lo, sc.cenLo), math.Max(col.hi, sc.cenHi)
			}
			if m == int(chartCalls) {
				edges = chartLogBins(col.lo, col.hi, true)
			}
			col.edges = edges
			if len(col.edges) >= 2 {
				col.binFin, col.binCen = make([]float64, len(edges)-1), make([]float64, len(edges)-1)
			}
			if m != int(chartTime) {
				continue
			}
			if mf := sc.nfin; mf > 0 {
				for k := 0; k <= chartECDFPoints; k++ {
					j := max(int(math.Ceil(float64(k)/float64(chartECDFPoints)*float64(mf)))-1, 0)
					q := &selQuery{pop: popKey{i, chartTime, true}, k: j + 1}
					dq[i].ecdf = append(dq[i].ecdf, q)
					qs = append(qs, q)
				}
				q := &selQuery{pop: popKey{i, chartTime, true}, k: mf}
				dq[i].ecdf = append(dq[i].ecdf, q)
				qs = append(qs, q)
			}
			for j, p := range []float64{0.25, 0.5, 0.75} {
				q := &selQuery{pop: popKey{i, chartTime, false}, k: empiricalRank(p, col.n)}
				dq[i].box[j] = q
				qs = append(qs, q)
			}
		}
	}
	err = st.selectRanks(qs, func(si int, m chartMeasure) (hdrHist, hdrHist) {
		return cols[si][m].hist[0], cols[si][m].hist[1]
	})
	if err != nil {
		return nil, err
	}

	// Pass 3: bins, whiskers, outliers and counts of finished times.
	type boxAcc struct {
		fLo, fHi   float64
		inLo, inHi float64
		outliers   []float64
		counts     countSet
		dist       bool
	}
	boxes := make([]boxAcc, nser)
	for i := range cols {
		col := cols[i][chartTime].col
		b := &boxes[i]
		for _, p := range col.marked {
			b.counts.want(max(uint64(p.e.NS), 1))
		}
		if col.n == 0 {
			continue
		}
		b.dist = true
		for _, q := range dq[i].ecdf {
			b.counts.want(max(q.value, 1))
		}
		lg := func(q *selQuery) float64 { return math.Log10(chartTimeValue(int64(q.value))) }
		q1, med, q3 := lg(dq[i].box[0]), lg(dq[i].box[1]), lg(dq[i].box[2])
		iqr := q3 - q1
		b.fLo, b.fHi = q1-1.5*iqr, q3+1.5*iqr
		b.inLo, b.inHi = q1, q3
		col.box = chartBox{q1: q1, median: med, q3: q3}
	}
	for i := range boxes {
		boxes[i].counts.prepare()
	}
	err = st.scan(func(r *spillRow) {
		if !chartPlotted(r.status) {
			return
		}
		cen := r.status.Censored()
		for m := range 2 {
			col := cols[r.si][m].col
			v, _ := r.chartPlotValue(chartMeasure(m))
			if col.binFin != nil {
				if cen {
					col.binCen[chartBinOf(col.edges, v)]++
				} else {
					col.binFin[chartBinOf(col.edges, v)]++
				}
			}
			if m != int(chartTime) {
				continue
			}
			b := &boxes[r.si]
			if !cen {
				b.counts.add(uint64(r.ns))
			}
			if !b.dist {
				continue
			}
			l := math.Log10(v)
			if l >= b.fLo && l <= b.fHi {
				b.inLo, b.inHi = math.Min(b.inLo, l), math.Max(b.inHi, l)
			} else if !cen {
				b.outliers = append(b.outliers, l)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for i := range cols {
		col := cols[i][chartTime].col
		b := &boxes[i]
		b.counts.finish()
		for _, p := range col.marked {
			col.markedLE = append(col.markedLE, b.counts.le(max(uint64(p.e.NS), 1)))
		}
		if !b.dist {
			continue
		}
		// The ECDF, as chartECDFThin draws it from the sorted values.
		last := -1
		for k, q := range dq[i].ecdf {
			idx := q.k - 1
			if k < len(dq[i].ecdf)-1 {
				idx = max(int(math.Ceil(float64(k)/float64(chartECDFPoints)*float64(col.fin)))-1, 0)
			}
			if idx <= last {
				continue
			}
			j := b.counts.le(max(q.value, 1)) - 1
			col.ecdfX = append(col.ecdfX, chartTimeValue(int64(q.value)))
			col.ecdfY = append(col.ecdfY, float64(j+1)/float64(col.n))
			last = j
		}
		box := &col.box
		box.whiskLo, box.whiskHi = b.inLo, b.inHi
		slices.Sort(b.outliers)
		box.outliers = b.outliers
		if sc := cols[i][chartTime]; sc.ncen > 0 {
			box.hasCensor = true
			box.censorAt = math.Log10(sc.cenLo)
		}
		box.valueLo, box.valueHi = col.lo, col.hi
	}
	for i := range cols {
		set.time = append(set.time, cols[i][chartTime].col)
		set.calls = append(set.calls, cols[i][chartCalls].col)
	}

	// The scatters: counts from pass 1, pairs read again when drawn.
	for i, sc := range scatters {
		if sc == nil {
			continue
		}
		sc.x, sc.y = set.time[base], set.time[i]
		slices.SortFunc(sc.marked, func(a, b chartPair) int { return chartPointCmp(a.y, b.y) })
		if sc.n == 0 {
			sc.xlo, sc.xhi, sc.ylo, sc.yhi = 1e-6, 1e-3, 1e-6, 1e-3
		}
		y := i
		sc.pairs = func(fn func(x, y float64, xc, yc bool)) {
			err := st.scanGroups(func(rows []spillRow) {
				xv, xc := math.NaN(), false
				for k := range rows {
					if r := &rows[k]; r.si == base && chartPlotted(r.status) {
						xv, xc = chartTimeValue(r.ns), r.status.Censored()
					}
				}
				if math.IsNaN(xv) {
					return
				}
				for k := range rows {
					if r := &rows[k]; r.si == y && chartPlotted(r.status) {
						fn(xv, chartTimeValue(r.ns), xc, r.status.Censored())
					}
				}
			})
			if err != nil {
				panic(err) // writeChartJob turns it into an error
			}
		}
		set.scatters[i] = sc
	}
	return set, nil
}
