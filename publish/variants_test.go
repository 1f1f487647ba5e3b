package publish

import (
	"strings"
	"testing"
	"time"
)

// TestVariantsBound: the bound printed before the analysis is the solves
// times the run's timeout, or names the call limit, or says unbounded.
func TestVariantsBound(t *testing.T) {
	for _, tt := range []struct {
		name     string
		pairs    int
		n        int
		units    int64
		timeout  time.Duration
		maxCalls uint64
		want     string
	}{
		{"timeout", 60, 100, 6060, 100 * time.Millisecond, 0,
			"variants: 60 units x 101 solves = 6060 solves, each at most 100ms: at most 10m6s"},
		{"seeds", 2, 4, 30, time.Second, 0,
			"variants: 2 units x 5 solves (and seeds) = 30 solves, each at most 1.00s: at most 30.0s"},
		{"calls only", 40, 100, 8080, 0, 10_000_000,
			"variants: 40 units x 101 solves (and seeds) = 8080 solves, each at most 10M calls (the run had no timeout)"},
		{"no limit", 1, 1, 2, 0, 0,
			"variants: 1 unit x 2 solves = 2 solves, each unbounded (the run had no timeout and no call limit)"},
		{"a billion variants", 60, 1_000_000_000, 60_000_000_060, 100 * time.Millisecond, 0,
			"variants: 60 units x 1000000001 solves = 60000000060 solves, each at most 100ms: at most 1666667h"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := variantsBound(tt.pairs, tt.n, tt.units, tt.timeout, tt.maxCalls); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestVariantsRequestCheck: -variants below 0 or -variants-seeds below 1
// is refused with both flags named.
func TestVariantsRequestCheck(t *testing.T) {
	for _, r := range []VariantsRequest{{0, 1}, {100, 20}} {
		if err := r.Check(); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
	for _, r := range []VariantsRequest{{-1, 1}, {5, 0}} {
		if err := r.Check(); err == nil || !strings.Contains(err.Error(), "want -variants >= 0 and -variants-seeds >= 1") {
			t.Errorf("%+v: %v", r, err)
		}
	}
}
