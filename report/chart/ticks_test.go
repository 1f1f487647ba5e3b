package chart

import (
	"math"
	"slices"
	"strings"
	"sudokubatch/report"
	"testing"
)

func TestChartLogTicks(t *testing.T) {
	dur := logTicks{Format: report.FormatSecondsShort}
	calls := logTicks{Format: report.FormatCountTick}
	tests := []struct {
		name     string
		ticker   logTicks
		min, max float64
		want     []string // the labels, in order
	}{
		{"1µs to 10s", dur, 1e-6, 10, []string{"1µs", "10µs", "100µs", "1ms", "10ms", "100ms", "1s", "10s"}},
		{"1ns to 1µs", dur, 1e-9, 1e-6, []string{"1ns", "10ns", "100ns", "1µs"}},
		{"3µs to 120ms", dur, 3e-6, 0.12, []string{"10µs", "100µs", "1ms", "10ms", "100ms"}},
		{"two decades: 1-2-5", dur, 2e-5, 3e-3, []string{"20µs", "50µs", "100µs", "200µs", "500µs", "1ms", "2ms"}},
		{"within a decade: 1..9", dur, 1.5e-3, 9.5e-3, []string{"2ms", "3ms", "4ms", "5ms", "6ms", "7ms", "8ms", "9ms"}},
		{"seconds", dur, 0.5, 200, []string{"1s", "10s", "100s"}},
		{"calls 1 to 1e5", calls, 1, 1e5, []string{"1", "10", "100", "1k", "10k", "100k"}},
		{"calls 3 to 40", calls, 3, 40, []string{"5", "10", "20"}},
		{"calls 1e3 to 1e7", calls, 900, 2e7, []string{"1k", "10k", "100k", "1M", "10M"}},
		{"calls 2e4 to 6e5", calls, 2e4, 6e5, []string{"20k", "50k", "100k", "200k", "500k"}},
		{"calls 1e9 to 1e13", calls, 1e9, 1e13, []string{"1G", "10G", "100G", "1T", "10T"}},
		{"zero min", calls, 0, 10, nil},
		{"negative", dur, -1, 1, nil},
		{"NaN", dur, math.NaN(), 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			ticks := tt.ticker.Ticks(tt.min, tt.max)
			for _, tk := range ticks {
				if tk.Value < tt.min*(1-1e-9) || tk.Value > tt.max*(1+1e-9) {
					t.Errorf("tick %v outside [%v, %v]", tk.Value, tt.min, tt.max)
				}
				if tk.Label != "" {
					got = append(got, tk.Label)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("labels = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("narrow range", func(t *testing.T) {
		ticks := dur.Ticks(2.01e-3, 2.09e-3)
		n := 0
		for _, tk := range ticks {
			if tk.Label != "" {
				n++
				if !strings.HasSuffix(tk.Label, "ms") {
					t.Errorf("label %q, want ms", tk.Label)
				}
			}
		}
		if n < 2 {
			t.Errorf("%d labels in a narrow range: %v", n, ticks)
		}
	})
	t.Run("wide range", func(t *testing.T) {
		n := 0
		for _, tk := range calls.Ticks(1, 1e20) {
			if tk.Label != "" {
				n++
			}
		}
		if n < 5 || n > 12 {
			t.Errorf("%d labels from 1 to 1e20", n)
		}
	})
	t.Run("log10 axis", func(t *testing.T) {
		ticks := log10Ticks{dur}.Ticks(-6, -3)
		if len(ticks) == 0 || ticks[0].Value != -6 || ticks[0].Label != "1µs" {
			t.Errorf("ticks = %v", ticks)
		}
	})
}

func TestChartLabels(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{report.FormatSecondsShort(1e-9), "1ns"},
		{report.FormatSecondsShort(2.5e-7), "250ns"},
		{report.FormatSecondsShort(1e-5), "10µs"},
		{report.FormatSecondsShort(2.5e-3), "2.5ms"},
		{report.FormatSecondsShort(0.1), "100ms"},
		{report.FormatSecondsShort(1), "1s"},
		{report.FormatSecondsShort(12.3456), "12.3s"},
		{report.FormatCountTick(1), "1"},
		{report.FormatCountTick(500), "500"},
		{report.FormatCountTick(1000), "1k"},
		{report.FormatCountTick(2e4), "20k"},
		{report.FormatCountTick(2.5e6), "2.5M"},
		{report.FormatCountTick(4.906e7), "49.1M"},
		{report.FormatCountShort(12345), "12.3k"},
		{report.FormatCountShort(4.5e6), "4.5M"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestChartLogBins(t *testing.T) {
	for _, tt := range []struct {
		name    string
		lo, hi  float64
		integer bool
	}{
		{"time", 3e-6, 0.12, false},
		{"one value", 5e-3, 5e-3, false},
		{"calls", 1, 2e7, true},
		{"calls all one", 1, 1, true},
		{"calls small", 64, 900, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := logBins(tt.lo, tt.hi, tt.integer)
			if len(e) < 2 || len(e) > 62 {
				t.Fatalf("%d edges: %v", len(e), e)
			}
			if e[0] > tt.lo || e[len(e)-1] < tt.hi {
				t.Errorf("edges %v do not cover [%v, %v]", e, tt.lo, tt.hi)
			}
			for i := 1; i < len(e); i++ {
				if e[i] <= e[i-1] {
					t.Errorf("edges not increasing: %v", e)
				}
				if tt.integer && e[i] != math.Trunc(e[i]) {
					t.Errorf("edge %v is not an integer", e[i])
				}
			}
			for _, v := range []float64{tt.lo, tt.hi, math.Sqrt(tt.lo * tt.hi)} {
				b := binIndex(e, v)
				if v < e[b] || v > e[b+1] {
					t.Errorf("%v in bin %d [%v, %v]", v, b, e[b], e[b+1])
				}
			}
		})
	}
}

func TestChartECDFThin(t *testing.T) {
	vs := make([]float64, 10000)
	for i := range vs {
		vs[i] = float64(i / 10) // ties
	}
	xs, ys := thinECDF(vs, 12000, 300)
	if len(xs) > 302 || len(xs) < 100 {
		t.Errorf("%d points", len(xs))
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] || ys[i] <= ys[i-1] {
			t.Fatalf("not increasing at %d: (%v, %v) after (%v, %v)", i, xs[i], ys[i], xs[i-1], ys[i-1])
		}
	}
	if last := ys[len(ys)-1]; last != 10000.0/12000 {
		t.Errorf("ends at %v, want %v", last, 10000.0/12000)
	}
	if x, y := thinECDF(nil, 0, 300); x != nil || y != nil {
		t.Error("points from no values")
	}
}
