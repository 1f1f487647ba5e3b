package chart

import (
	"context"
	"math"
	"slices"
	"strings"
	"sudokubatch/report"
	"sudokubatch/solvers"
	"testing"
)

// unfinishedResults returns three strategies over the same puzzles:
// singles stuck on all 40, backtrack with 20 solved, 12 stuck and 8
// timeouts (interleaved, the stuck ones the fastest rows and the
// timeouts the slowest), bitboard solving all 40.
func unfinishedResults() *report.Results {
	var singles, backtrack, bitboard []testEntry
	for i := range 40 {
		singles = append(singles, testEntry{id: i, status: solvers.StatusStuck, ns: int64(300 + 10*i), calls: 3})
		bitboard = append(bitboard, testEntry{id: i, status: solvers.StatusSolved, ns: int64(2000 + 50*i), calls: 10})
		e := testEntry{id: i, status: solvers.StatusSolved, ns: int64(100_000 + 10_000*i), calls: uint64(1000 + i)}
		switch i % 10 {
		case 1, 3, 5:
			// 12 stuck, fast: they must not pull the box or the curve
			// to the left.
			e.status, e.ns, e.calls = solvers.StatusStuck, int64(50+i), 1
		case 2, 7:
			// 8 timeouts, at 100 ms.
			e.status, e.ns = solvers.StatusTimeout, int64(100_000_000+i)
		}
		backtrack = append(backtrack, e)
	}
	return testResults(map[string][]testEntry{"singles": singles, "backtrack": backtrack, "bitboard": bitboard},
		"singles", "backtrack", "bitboard")
}

// TestChartUnfinishedECDF: a curve rises with finished rows alone and
// ends at the share finished; a strategy stuck on every puzzle draws no
// rising curve, ends at 0% and says it is stuck.
func TestChartUnfinishedECDF(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{Highlight: []int{1, 2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	singles, backtrack, bitboard := cs.time[0], cs.time[1], cs.time[2]
	if singles.n != 40 || singles.fin != 0 || singles.stuck != 40 {
		t.Fatalf("singles: %d plotted, %d finished, %d stuck; want 40, 0, 40", singles.n, singles.fin, singles.stuck)
	}
	if backtrack.n != 40 || backtrack.fin != 20 || backtrack.stuck != 12 || backtrack.timeouts != 8 {
		t.Fatalf("backtrack: %d plotted, %d finished, %d stuck, %d timeouts; want 40, 20, 12, 8",
			backtrack.n, backtrack.fin, backtrack.stuck, backtrack.timeouts)
	}
	shares := cs.anyUnfinished()
	if !shares {
		t.Error("anyUnfinished = false with stuck and timeout rows")
	}
	maxY := func(cv ecdfCurve) float64 {
		m := 0.0
		for _, q := range cv.xys {
			m = math.Max(m, q.Y)
		}
		return m
	}

	cv := ecdfCurveOf(singles, shares)
	if len(cv.xys) != 0 || maxY(cv) != 0 || cv.endY != 0 {
		t.Errorf("singles (all stuck): curve %v ending at %v; want no curve, ending at 0%%", cv.xys, cv.endY)
	}
	if !cv.gave || cv.censored || math.Abs(cv.gaveX-math.Log10(490e-9)) > 1e-9 {
		t.Errorf("singles: cross %v at %v, triangle %v; want a cross at the median 490ns, no triangle", cv.gave, cv.gaveX, cv.censored)
	}
	if want := "singles (0% solved; 100% stuck)"; cv.name != want {
		t.Errorf("singles legend %q, want %q", cv.name, want)
	}

	cv = ecdfCurveOf(backtrack, shares)
	if cv.endY != 0.5 || maxY(cv) != 0.5 {
		t.Errorf("backtrack: curve ends at %v, rises to %v; want the 50%% solved", cv.endY, maxY(cv))
	}
	// The curve starts at the fastest solved row, not at a stuck one.
	if x0 := math.Pow(10, cv.xys[0].X); math.Abs(x0-100e-6) > 1e-12 {
		t.Errorf("backtrack: curve starts at %gs, want the fastest solved 100µs", x0)
	}
	for k := 1; k < len(cv.xys); k++ {
		if cv.xys[k].Y < cv.xys[k-1].Y || cv.xys[k].X < cv.xys[k-1].X {
			t.Fatalf("backtrack: curve not increasing at %d: %v", k, cv.xys)
		}
	}
	if !cv.gave || cv.gaveX != cv.endX || !cv.censored || math.Abs(math.Pow(10, cv.censorX)-0.100000002) > 1e-12 {
		t.Errorf("backtrack: cross %v at %v (end %v), triangle %v at %v; want both, the cross at the end, the triangle at 100ms",
			cv.gave, cv.gaveX, cv.endX, cv.censored, math.Pow(10, cv.censorX))
	}
	if last := cv.xys[len(cv.xys)-1]; last.X != cv.censorX || last.Y != 0.5 {
		t.Errorf("backtrack: line ends at %v, want flat to the triangle at (%v, 0.5)", last, cv.censorX)
	}
	if want := "backtrack (50% solved; 30% stuck, 20% timeout)"; cv.name != want {
		t.Errorf("backtrack legend %q, want %q", cv.name, want)
	}

	cv = ecdfCurveOf(bitboard, shares)
	if cv.endY != 1 || maxY(cv) != 1 || cv.gave || cv.censored || cv.name != "bitboard (100% solved)" {
		t.Errorf("bitboard: ends at %v, cross %v, triangle %v, legend %q", cv.endY, cv.gave, cv.censored, cv.name)
	}
	if cv := ecdfCurveOf(bitboard, false); cv.name != "bitboard" {
		t.Errorf("legend %q without shares", cv.name)
	}

	// The highlighted rows keep their outcome: #1 stuck, #2 a timeout,
	// #4 solved.
	for _, tt := range []struct {
		id  int
		out ending
	}{{1, endGaveUp}, {2, endCensored}, {4, endFinished}} {
		if ps := backtrack.find([]int{tt.id}); len(ps) != 1 || ps[0].out != tt.out {
			t.Errorf("highlighted #%d: %v, want ending %d", tt.id, ps, tt.out)
		}
	}

	// The captions state the rule.
	caption := cs.ecdfCaption()
	for _, want := range []string{"singles 40 stuck", "backtrack 12 stuck", "backtrack 8 timeouts",
		"a curve rises only with the puzzles its strategy finished", "stuck means it stopped by itself"} {
		if !strings.Contains(caption, want) {
			t.Errorf("ECDF caption lacks %q: %s", want, caption)
		}
	}
}

// TestChartUnfinishedBox: a box summarises every measured row at its
// value, those that did not finish included (a stopped one at the value
// where it was stopped), so its median is the summary table's; the rows
// that did not finish are also marked beside it; a strategy that
// finished nothing has no box.
func TestChartUnfinishedBox(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	singles, backtrack := cs.time[0], cs.time[1]
	if b := singles.box; !b.noBox || !b.hasGave || b.hasCensor {
		t.Errorf("singles: no box %v, cross %v, triangle %v; want no box and a cross", b.noBox, b.hasGave, b.hasCensor)
	}
	// backtrack's rows, solved, stuck and timeout, in log10 seconds,
	// make the box.
	var all, fin []float64
	for i := range 40 {
		v := math.Log10(float64(res.Series[1].NS(i)) / 1e9)
		all = append(all, v)
		if s := res.Series[1].Status(i); s == solvers.StatusSolved {
			fin = append(fin, v)
		}
	}
	slices.Sort(all)
	b := backtrack.box
	if b.noBox || b.minority || !b.hasGave || !b.hasCensor {
		t.Fatalf("backtrack: no box %v, minority %v, cross %v, triangle %v", b.noBox, b.minority, b.hasGave, b.hasCensor)
	}
	for _, q := range []struct {
		name      string
		got, want float64
	}{
		{"q1", b.q1, quantile(all, 0.25)}, {"median", b.median, quantile(all, 0.5)}, {"q3", b.q3, quantile(all, 0.75)},
	} {
		if math.Abs(q.got-q.want) > 1e-12 {
			t.Errorf("backtrack %s = %v, want %v (every measured row)", q.name, q.got, q.want)
		}
	}
	sum := report.Summarize(res, report.SummaryOptions{})
	for i, col := range cs.time {
		if col.box.noBox {
			continue
		}
		want := sum.Strategies[i].TimeNS.Median.Value / 1e9
		if got := math.Pow(10, col.box.median); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: box median %gs, the table's %gs", col.solver, got, want)
		}
	}
	for _, o := range b.outliers {
		if !slices.Contains(fin, o) {
			t.Errorf("outlier %v is no finished row: a stuck or timeout row drawn as a ring", o)
		}
	}
	if got := math.Pow(10, b.censorAt); math.Abs(got-0.100000002) > 1e-12 {
		t.Errorf("triangle at %gs, want the first timeout 100ms", got)
	}
	if got := math.Pow(10, b.gaveAt); got < 50e-9 || got > 90e-9 {
		t.Errorf("cross at %gs, want the median of the stuck rows (50-90ns)", got)
	}
	for _, tt := range []struct {
		col  *column
		want string
	}{
		{backtrack, "backtrack\n50% solved\n30% stuck\n20% timeout"},
		{singles, "singles\n0% solved\n100% stuck"},
		{cs.time[2], "bitboard\n100% solved"},
	} {
		if got := boxTickLabel(tt.col, true); got != tt.want {
			t.Errorf("axis label %q, want %q", got, tt.want)
		}
	}

	// Fewer than half finished: a hollow box.
	if b := computeBoxStats([]float64{1e-3, 2e-3}, []float64{1e-6, 2e-6}, []float64{1}); !b.minority || b.noBox ||
		b.median != math.Log10(1e-3) {
		t.Errorf("2 finished of 5: minority %v, no box %v, median %v", b.minority, b.noBox, b.median)
	}

	caption := cs.boxCaption()
	for _, want := range []string{"over every puzzle it measured (its median is the table's)", "are in its box at their value",
		"singles 40 stuck; backtrack 12 stuck", "backtrack 8 timeouts", "has no box"} {
		if !strings.Contains(caption, want) {
			t.Errorf("box caption lacks %q: %s", want, caption)
		}
	}
}

// TestChartUnfinishedHistScatter: histograms stack the rows that gave
// up as a segment of their own, and scatters never draw them as
// finished dots.
func TestChartUnfinishedHistScatter(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{Baseline: "bitboard"})
	if err != nil {
		t.Fatal(err)
	}
	sum := func(vs []float64) (n float64) {
		for _, v := range vs {
			n += v
		}
		return n
	}
	for _, cols := range [][]*column{cs.time, cs.calls} {
		bt := cols[1]
		if sum(bt.binFin) != 20 || sum(bt.binGave) != 12 || sum(bt.binCen) != 8 {
			t.Errorf("backtrack %s bins: %v finished, %v gave up, %v censored; want 20, 12, 8",
				bt.measure, sum(bt.binFin), sum(bt.binGave), sum(bt.binCen))
		}
		if sg := cols[0]; sum(sg.binFin) != 0 || sum(sg.binGave) != 40 {
			t.Errorf("singles %s bins: %v finished, %v gave up; want 0, 40", sg.measure, sum(sg.binFin), sum(sg.binGave))
		}
	}
	if c := cs.histCaption(cs.time[0], 0); !strings.Contains(c, "40 stuck") || !strings.Contains(c, "no puzzle") {
		t.Errorf("singles histogram caption: %s", c)
	}
	if c := cs.histCaption(cs.time[1], 1); !strings.Contains(c, "12 stuck") || !strings.Contains(c, "8 timeouts") ||
		!strings.Contains(c, "not counted as finished") {
		t.Errorf("backtrack histogram caption: %s", c)
	}

	sc := cs.newScatter(res.Series[0], cs.time[0], cs.time[2], 0)
	if sc.n != 40 || sc.finished() != 0 || sc.gaveY != 40 {
		t.Errorf("singles vs bitboard: %d pairs, %d finished, %d stuck on y; want 40, 0, 40", sc.n, sc.finished(), sc.gaveY)
	}
	if c := sc.caption(); !strings.Contains(c, "crosses are the 40 puzzles") {
		t.Errorf("scatter caption: %s", c)
	}
	sc = cs.newScatter(res.Series[1], cs.time[1], cs.time[2], 1)
	if sc.finished() != 20 || sc.gaveY != 12 || sc.censY != 8 {
		t.Errorf("backtrack vs bitboard: %d finished, %d stuck, %d censored; want 20, 12, 8", sc.finished(), sc.gaveY, sc.censY)
	}
	// As the baseline, a stuck side is marked on x; the pair is a
	// stop mark even when the other side is censored.
	set2, _ := newChartSet(context.Background(), res, Options{Baseline: "singles"})
	sc = set2.newScatter(res.Series[1], set2.time[1], set2.time[0], 1)
	if sc.finished() != 0 || sc.gaveXY != 12 || sc.gaveX != 28 || sc.censY != 0 || sc.censXY != 0 {
		t.Errorf("backtrack vs singles: %d finished, %d both stuck, %d x stuck, %d y censored; want 0, 12, 28, 0",
			sc.finished(), sc.gaveXY, sc.gaveX, sc.censY)
	}

	if !raceEnabled {
		// singles finished nothing: no histogram or scatter of its own.
		charts, err := Write(context.Background(), t.TempDir(), res, Options{Baseline: "bitboard", Highlight: []int{1, 2}})
		if err != nil || len(charts) != 7 {
			t.Errorf("%d charts, err %v; want 7", len(charts), err)
		}
		for _, c := range charts {
			if c.Solver == "singles" {
				t.Errorf("%s: a chart of its own for singles, which finished nothing", c.File)
			}
		}
	}
}
