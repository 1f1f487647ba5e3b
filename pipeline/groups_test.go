package pipeline

import (
	"math/rand/v2"
	"slices"
	"testing"

	"sudokubatch/internal/quantile"
)

// TestGroupMedianIsTheEstimators: a group's median, read off its
// histogram, is the lower edge of the bin that holds the median the
// tool's one estimator (internal/quantile) gives of the same times: the
// same rank, the lower middle one for an even count. Counts 1 to 200 of
// times spread over three octaves, ties included; an even count's two
// middle units in different bins on purpose.
func TestGroupMedianIsTheEstimators(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 200; n++ {
		g := new(group)
		var times []int64
		for range n {
			ns := int64(1000 + r.IntN(7000))
			g.add(ns)
			times = append(times, ns)
		}
		slices.Sort(times)
		want := binLow(timeBin(quantile.Median(times)))
		if got := g.median(); got != want {
			t.Fatalf("n=%d: group median %d, want %d, the bin of the estimator's median %d", n, got, want, quantile.Median(times))
		}
	}
	// Two units, 1 µs and 8 µs: the lower one's bin, not the upper one's
	// (7168 ns up) nor one between: the median of two is the lower one.
	g := new(group)
	g.add(1000)
	g.add(8000)
	if got := g.median(); got != binLow(timeBin(1000)) {
		t.Errorf("median of 1 µs and 8 µs: %d, want %d", got, binLow(timeBin(1000)))
	}
}
