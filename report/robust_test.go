package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestQuantileRanks(t *testing.T) {
	tests := []struct {
		name   string
		q      float64
		n      int
		lo, hi int // 0-based; -1 and n: beyond the values
	}{
		// The textbook intervals: (x(40), x(61)) for the median of 100,
		// (x(2), x(8)) of 9; none of 5 (0.5^5 > 0.025).
		{"median of 100", 0.5, 100, 39, 60},
		{"median of 9", 0.5, 9, 1, 7},
		{"median of 6", 0.5, 6, 0, 5},
		{"median of 5", 0.5, 5, -1, 5},
		{"median of 1", 0.5, 1, -1, 1},
		{"p99 of 100", 0.99, 100, 96, 100},
		{"p99 of 367", 0.99, 367, 358, 367}, // 1-0.99^367 < 0.975
		{"p99 of 368", 0.99, 368, 359, 367},
		{"p90 of 1000", 0.9, 1000, 880, 918},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := quantileRanks(tt.q, tt.n)
			if lo != tt.lo || hi != tt.hi {
				t.Errorf("quantileRanks(%v, %d) = %d, %d; want %d, %d", tt.q, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

// TestQuantileRanksCover checks the defining property: the interval
// covers the quantile with probability at least Confidence, and neither
// end could move inwards without losing it on its side.
func TestQuantileRanksCover(t *testing.T) {
	tail := (1 - Confidence) / 2
	for _, n := range []int{6, 7, 20, 50, 99, 100, 101, 367, 1000, 49151} {
		for _, q := range []float64{0.5, 0.9, 0.99} {
			b := distuv.Binomial{N: float64(n), P: q}
			F := func(i int) float64 {
				if i < 0 {
					return 0
				}
				return b.CDF(float64(i))
			}
			lo, hi := quantileRanks(q, n)
			if F(lo) > tail || F(lo+1) <= tail && lo+1 < n {
				t.Errorf("n=%d q=%v: lower end %d is not the largest with P(B <= i) <= %v", n, q, lo, tail)
			}
			if hi < n && (F(hi) < 1-tail || hi > 0 && F(hi-1) >= 1-tail) {
				t.Errorf("n=%d q=%v: upper end %d is not the smallest with P(B <= i) >= %v", n, q, hi, 1-tail)
			}
			if lo >= 0 && hi < n {
				if cover := F(hi) - F(lo); cover < Confidence {
					t.Errorf("n=%d q=%v: [%d, %d] covers %v < %v", n, q, lo, hi, cover, Confidence)
				}
			}
		}
	}
}

// TestIntervalCoverage draws samples from skewed distributions and
// counts how often the intervals hold the true value: about Confidence
// of the time (at least, for the order statistics).
func TestIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const reps, n = 2000, 60
	var median, p90, mean, trimmedMean int
	// Exponential(1): median ln 2, p90 ln 10, mean 1; the 10%-trimmed
	// mean of the distribution: the mean over its quantiles 0.1..0.9.
	trueTrimmed := 0.0
	const steps = 100000
	for i := range steps {
		u := 0.1 + 0.8*(float64(i)+0.5)/steps
		trueTrimmed += -math.Log(1-u) / steps
	}
	vals := make([]float64, n)
	for range reps {
		for i := range vals {
			vals[i] = rng.ExpFloat64()
		}
		slices.Sort(vals)
		in := func(iv Interval, v float64) bool { return iv.Lo.Value <= v && v <= iv.Hi.Value }
		if in(quantileInterval(vals, nil, 0.5), math.Ln2) {
			median++
		}
		if in(quantileInterval(vals, nil, 0.9), math.Log(10)) {
			p90++
		}
		if _, iv := meanEstimates(vals, nil, nil, 0); in(iv, 1) {
			mean++
		}
		if _, iv := meanEstimates(vals, nil, nil, trimCount(n)); in(iv, trueTrimmed) {
			trimmedMean++
		}
	}
	for _, c := range []struct {
		name   string
		hits   int
		lo, hi float64
	}{
		// Order statistics are conservative; the t intervals of a skewed
		// distribution fall a little short of the level at n = 60.
		{"median", median, 0.94, 0.99},
		{"p90", p90, 0.94, 0.995},
		{"mean", mean, 0.90, 0.97},
		{"trimmed mean", trimmedMean, 0.91, 0.975},
	} {
		if r := float64(c.hits) / reps; r < c.lo || r > c.hi {
			t.Errorf("%s: interval holds the true value %.3f of the time, want %.2f to %.3f", c.name, r, c.lo, c.hi)
		}
	}
}

func TestTrimmed(t *testing.T) {
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-4*math.Abs(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// 1..10 trimmed by one at each end: the mean of 2..9; winsorized
	// 2,2,3,...,9,9 has Σ(w-w̄)² = 66.5, so the standard error is
	// sqrt(66.5/(8*7)) and t has 7 degrees of freedom (2.364624).
	one2ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if g := trimCount(len(one2ten)); g != 1 {
		t.Fatalf("trimCount(10) = %d, want 1", g)
	}
	m, half := trimmed(one2ten, 1)
	near("trimmed mean of 1..10", m, 5.5)
	near("its half-width", half, 2.364624*math.Sqrt(66.5/56))
	// The mean: 2,4,4,4,5,5,7,9 has mean 5 and s² = 32/7.
	m, half = trimmed([]float64{2, 4, 4, 4, 5, 5, 7, 9}, 0)
	near("mean", m, 5)
	near("its half-width", half, 2.364624*math.Sqrt(32.0/7/8))
	if _, half := trimmed([]float64{7}, 0); !math.IsNaN(half) {
		t.Errorf("half-width of one value = %v, want NaN", half)
	}
	for n, g := range map[int]int{0: 0, 9: 0, 10: 1, 19: 1, 20: 2, 49151: 4915} {
		if got := trimCount(n); got != g {
			t.Errorf("trimCount(%d) = %d, want %d", n, got, g)
		}
	}
}

// TestMeanBounds: a stopped unit makes a mean a lower bound, but a
// trimmed mean only when it is not among the units dropped at the top.
func TestMeanBounds(t *testing.T) {
	vals := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	check := func(name string, cens []float64, g int, want Bound) {
		t.Helper()
		v, iv := meanEstimates(vals, cens, finishedValues(vals, cens), g)
		if v.Bound != want || iv.Lo.Bound != want || iv.Hi.Bound != want {
			t.Errorf("%s: bounds %v [%v, %v], want %v", name, v.Bound, iv.Lo.Bound, iv.Hi.Bound, want)
		}
	}
	check("no stopped unit", nil, 1, BoundExact)
	check("mean, top stopped", []float64{10}, 0, BoundLower)
	check("trimmed, top stopped", []float64{10}, 1, BoundExact)
	check("trimmed, two stopped, one dropped", []float64{9, 10}, 1, BoundLower)
	check("trimmed, middle stopped", []float64{5}, 1, BoundLower)

	v, iv := meanEstimates([]float64{7}, nil, nil, 0)
	if v != (Estimate{7, BoundExact}) || iv != (Interval{Estimate{7, BoundUpper}, Estimate{7, BoundLower}}) {
		t.Errorf("one value: %+v %+v, want 7 and an unknown interval", v, iv)
	}
	v, _ = meanEstimates([]float64{7}, []float64{7}, nil, 0)
	if v.Bound != BoundLower {
		t.Errorf("one stopped value: mean %+v, want a lower bound", v)
	}
	// A heavy tail at small n: the lower end stays at 0.
	if _, iv := meanEstimates([]float64{1, 1000}, nil, nil, 0); iv.Lo.Value != 0 {
		t.Errorf("lower end %v, want 0", iv.Lo.Value)
	}
}

// TestQuantileIntervalBounds: ends beyond the values, and ends moved by
// stopped units.
func TestQuantileIntervalBounds(t *testing.T) {
	vals := []float64{1, 2, 3, 4, 5}
	iv := quantileInterval(vals, nil, 0.5)
	if iv != (Interval{Estimate{1, BoundUpper}, Estimate{5, BoundLower}}) {
		t.Errorf("median of 5: %+v, want ≤1 and ≥5", iv)
	}
	vals = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if iv := quantileInterval(vals, nil, 0.5); iv != (Interval{Estimate{2, BoundExact}, Estimate{8, BoundExact}}) {
		t.Errorf("median of 9: %+v, want [2, 8]", iv)
	}
	// Stopped at 9: the upper end (8) holds; stopped at 3: both ends may
	// move up.
	if iv := quantileInterval(vals, []float64{9}, 0.5); iv != (Interval{Estimate{2, BoundExact}, Estimate{8, BoundExact}}) {
		t.Errorf("median of 9, top stopped: %+v, want [2, 8] exact", iv)
	}
	if iv := quantileInterval(vals, []float64{3}, 0.5); iv != (Interval{Estimate{2, BoundExact}, Estimate{8, BoundLower}}) {
		t.Errorf("median of 9, 3 stopped: %+v, want [2, ≥8]", iv)
	}
	if iv := quantileInterval(vals, []float64{1}, 0.5); iv != (Interval{Estimate{2, BoundLower}, Estimate{8, BoundLower}}) {
		t.Errorf("median of 9, 1 stopped: %+v, want [≥2, ≥8]", iv)
	}
}

func TestFmtSpread(t *testing.T) {
	exact := func(lo, hi float64) Interval { return Interval{Estimate{lo, BoundExact}, Estimate{hi, BoundExact}} }
	tests := []struct {
		v    float64
		iv   Interval
		want string
	}{
		{100, exact(97, 101), "±3.0%"},
		{100, exact(99, 112), "±12%"},
		{100, exact(99.99, 100), "±0.0%"},
		{100, exact(10, 32500), "±32400%"},
		{0, exact(0, 0), "±0.0%"},
		{0, exact(0, 1), "±?"},
		{100, Interval{Estimate{99, BoundExact}, Estimate{101, BoundLower}}, "±?"},
	}
	for _, tt := range tests {
		if got := fmtSpread(tt.v, tt.iv); got != tt.want {
			t.Errorf("fmtSpread(%v, %+v) = %q, want %q", tt.v, tt.iv, got, tt.want)
		}
	}
	if got := fmtInterval(Interval{Estimate{950e3, BoundExact}, Estimate{1.05e6, BoundLower}}, fmtNS); got != "950µs – ≥1.05ms" {
		t.Errorf("fmtInterval = %q", got)
	}
}

// TestDistributionRobust: a summary's distribution has the trimmed mean
// (10% dropped at each end) and every interval, which one outlier moves
// far less than it moves the mean; time means are whole nanoseconds.
func TestDistributionRobust(t *testing.T) {
	vs := []float64{1e6}
	for v := 1; v <= 20; v++ {
		vs = append(vs, float64(v))
	}
	st := Summarize(mkResults(values("x", vs...)...), SummaryOptions{}).Strategies[0]
	d := st.Calls
	if d.TrimmedMean != (Estimate{11, BoundExact}) { // the mean of 3..19
		t.Errorf("trimmed mean %+v, want 11", d.TrimmedMean)
	}
	if want := (1e6 + 210) / 21; math.Abs(d.Mean.Value-want) > 1e-9 {
		t.Errorf("mean %v, want %v", d.Mean.Value, want)
	}
	// Median of 21: ranks 6 and 16 (0-based 5 and 15), values 6 and 16.
	if d.MedianCI != (Interval{Estimate{6, BoundExact}, Estimate{16, BoundExact}}) {
		t.Errorf("median interval %+v, want [6, 16]", d.MedianCI)
	}
	tmHalf := d.TrimmedMeanCI.Hi.Value - d.TrimmedMean.Value
	meanHalf := d.MeanCI.Hi.Value - d.Mean.Value
	if !(tmHalf > 1 && tmHalf < 5) || meanHalf < 5e4 || d.MeanCI.Lo.Value != 0 {
		t.Errorf("half-widths: trimmed mean %v, mean %v (lower end %v)", tmHalf, meanHalf, d.MeanCI.Lo.Value)
	}
	for _, e := range []Estimate{st.TimeNS.Mean, st.TimeNS.MeanCI.Lo, st.TimeNS.MeanCI.Hi, st.TimeNS.TrimmedMean,
		st.TimeNS.TrimmedMeanCI.Lo, st.TimeNS.TrimmedMeanCI.Hi} {
		if e.Value != math.Round(e.Value) {
			t.Errorf("time figure %v is not whole nanoseconds", e.Value)
		}
	}
	if st.Calls.P99CI.Hi.Bound != BoundLower { // 21 units: the p99's upper end is beyond them
		t.Errorf("p99 interval %+v: want an upper end ≥ the largest value", st.Calls.P99CI)
	}
}
