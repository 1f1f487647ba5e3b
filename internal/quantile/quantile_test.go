package quantile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestKnownValues checks the estimator on values whose quantiles are
// known by hand: the value of rank ceil(q·n), never a value between two.
func TestKnownValues(t *testing.T) {
	ten := []int64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	for _, c := range []struct {
		name   string
		sorted []int64
		q      float64
		want   int64
	}{
		{"one value", []int64{7}, 0.5, 7},
		{"one value p99", []int64{7}, 0.99, 7},
		{"odd median", []int64{1, 2, 3}, 0.5, 2},     // type 7 gives 2 as well
		{"even median", []int64{1, 2, 3, 4}, 0.5, 2}, // the lower middle; type 7 gives 2.5
		{"two values", []int64{100, 300}, 0.5, 100},
		{"min", ten, 0, 10},
		{"max", ten, 1, 100},
		{"p10", ten, 0.1, 10},    // rank 1
		{"p11", ten, 0.11, 20},   // rank ceil(1.1) = 2
		{"q1", ten, 0.25, 30},    // rank ceil(2.5) = 3
		{"q3", ten, 0.75, 80},    // rank ceil(7.5) = 8
		{"p90", ten, 0.9, 90},    // rank 9; type 7 gives 91
		{"p99", ten, 0.99, 100},  // rank ceil(9.9) = 10
		{"below 0", ten, -1, 10}, // taken as 0
		{"NaN", ten, math.NaN(), 10},
		{"above 1", ten, 2, 100},
		{"ties", []int64{5, 5, 5, 9}, 0.75, 5},
		{"ties above", []int64{1, 5, 5, 5}, 0.5, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Of(c.sorted, c.q); got != c.want {
				t.Errorf("Of(%v, %v) = %d, want %d", c.sorted, c.q, got, c.want)
			}
		})
	}
}

// TestRankAtFloatEdges checks ranks where q·n is an integer that float64
// may miss by an ulp (0.9·10, 0.99·100, 0.1·30), and the median's rank
// for every n up to 1000: (n+1)/2, the lower middle one.
func TestRankAtFloatEdges(t *testing.T) {
	for _, c := range []struct {
		n    int
		q    float64
		want int
	}{
		{10, 0.9, 9}, {100, 0.99, 99}, {100, 0.9, 90}, {30, 0.1, 3}, {1000, 0.99, 990},
		{368, 0.99, 365}, {49151, 0.5, 24576}, {49151, 0.99, 48660}, {3, 1.0 / 3, 1}, {6, 1.0 / 3, 2},
	} {
		if got := Rank(c.n, c.q); got != c.want {
			t.Errorf("Rank(%d, %v) = %d, want %d", c.n, c.q, got, c.want)
		}
	}
	for n := 1; n <= 1000; n++ {
		if got, want := Rank(n, 0.5), (n+1)/2; got != want {
			t.Fatalf("Rank(%d, 0.5) = %d, want %d", n, got, want)
		}
	}
}

// TestAgreesWithGonumEmpirical checks that the estimator is gonum's
// stat.Empirical to the unit, as the summary read it before this package:
// every n up to 300, quantiles on a fine grid and the ones the tool reads.
func TestAgreesWithGonumEmpirical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	qs := []float64{0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1}
	for k := 0; k <= 200; k++ {
		qs = append(qs, float64(k)/200)
	}
	for n := 1; n <= 300; n++ {
		vs := make([]float64, n)
		for i := range vs {
			vs[i] = float64(r.IntN(50)) // ties on purpose
		}
		slices.Sort(vs)
		for _, q := range qs {
			if got, want := Of(vs, q), stat.Quantile(q, stat.Empirical, vs, nil); got != want {
				t.Fatalf("n=%d q=%v: Of = %v, stat.Empirical = %v", n, q, got, want)
			}
		}
	}
}

// TestMedianIsAValue checks that a median is one of the values, for
// integers and floats alike.
func TestMedianIsAValue(t *testing.T) {
	f := []float64{0.5, 1.5, 2.5, 3.5}
	if m := Median(f); m != 1.5 {
		t.Errorf("Median(%v) = %v, want 1.5", f, m)
	}
	type ns int64
	d := []ns{3, 8}
	if m := Median(d); m != 3 {
		t.Errorf("Median(%v) = %v, want 3", d, m)
	}
}

func ExampleOf() {
	calls := []int64{12, 15, 15, 40, 41, 90, 300, 5000}
	fmt.Println(Median(calls), Of(calls, 0.9), Of(calls, 1))
	fmt.Println(Rank(len(calls), 0.5), Index(len(calls), 0.9))
	// Output:
	// 40 5000 5000
	// 4 7
}

// TestNotGonumLinInterp records why the estimator is not gonum's other
// one, stat.LinInterp: it is off at small n (1.5 as the median of 1, 2,
// 3), where this one gives the middle value.
func TestNotGonumLinInterp(t *testing.T) {
	x := []float64{1, 2, 3}
	if got := stat.Quantile(0.5, stat.LinInterp, x, nil); got != 1.5 {
		t.Errorf("LinInterp median of 1, 2, 3 = %v; the package doc says 1.5", got)
	}
	if got := Median(x); got != 2 {
		t.Errorf("Median of 1, 2, 3 = %v, want 2", got)
	}
}

// TestMidpoint checks the history's center of a few measurements: the
// middle value, the mean of the two middle ones for an even count, where
// the estimator's median is the lower one.
func TestMidpoint(t *testing.T) {
	for _, c := range []struct {
		sorted []float64
		want   float64
	}{
		{[]float64{7}, 7},
		{[]float64{1, 2, 3}, 2},
		{[]float64{1, 2, 3, 4}, 2.5},
		{[]float64{1, 1, 1.2, 1.2}, 1.1},
		{[]float64{-1, 3}, 1},
	} {
		if got := Midpoint(c.sorted); got != c.want {
			t.Errorf("Midpoint(%v) = %v, want %v", c.sorted, got, c.want)
		}
		if lo, hi := Middle(len(c.sorted)); len(c.sorted)%2 == 1 && (lo != hi || c.sorted[lo] != Median(c.sorted)) {
			t.Errorf("Middle(%d) = %d, %d: an odd count's middle is the median", len(c.sorted), lo, hi)
		}
	}
	if got := Midpoint([]int64{100, 200, 301, 400}); got != 250 {
		t.Errorf("Midpoint of int64s = %d, want 250 (rounded toward zero)", got)
	}
	if lo, hi := Middle(4); lo != 1 || hi != 2 {
		t.Errorf("Middle(4) = %d, %d, want 1, 2", lo, hi)
	}
}
