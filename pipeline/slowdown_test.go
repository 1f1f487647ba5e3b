//go:build slowdown

package pipeline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// TestSlowdownVariables: SUDOKUBATCH_SLOWDOWN and
// SUDOKUBATCH_SLOWDOWN_SOLVERS as the slowdown build reads them, and the
// messages for bad values.
func TestSlowdownVariables(t *testing.T) {
	for _, tc := range []struct {
		name, factor, names string
		f                   float64
		list                []string
		err                 string
	}{
		{name: "unset", f: 1},
		{name: "every strategy", factor: "1.2", f: 1.2},
		{name: "one", factor: "1.2", names: "dlx", f: 1.2, list: []string{"dlx"}},
		{name: "two, spaced", factor: "1.5", names: "dlx, norvig", f: 1.5, list: []string{"dlx", "norvig"}},
		{name: "not a number", factor: "fast", err: `SUDOKUBATCH_SLOWDOWN="fast": want a factor >= 1`},
		{name: "below 1", factor: "0.8", err: `SUDOKUBATCH_SLOWDOWN="0.8": want a factor >= 1`},
		{name: "typo", factor: "1.2", names: "dxl", err: `SUDOKUBATCH_SLOWDOWN_SOLVERS="dxl": "dxl" is not a strategy (strategies: backtrack,`},
		{name: "empty name", factor: "1.2", names: "dlx,", err: `"" is not a strategy`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, list, err := parseSlowdown(tc.factor, tc.names)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || f != tc.f || !slices.Equal(list, tc.list) {
				t.Errorf("got %v %q %v, want %v %q", f, list, err, tc.f, tc.list)
			}
		})
	}
}

// TestSlowdownOneStrategy: with the slowdown restricted to dlx, a dlx
// run spins to twice its time and a norvig run is not slowed.
func TestSlowdownOneStrategy(t *testing.T) {
	defer func(f float64, l []string) { slowdownFactor, slowdownSolvers = f, l }(slowdownFactor, slowdownSolvers)
	slowdownFactor, slowdownSolvers = 2, []string{"dlx"}
	byName := map[string]solvers.Solver{}
	for _, s := range solvers.All() {
		byName[s.Name()] = s.Solver
	}
	epoch := time.Now()
	// took times a run of s that spent 2 ms before slowdown is called.
	took := func(s solvers.Solver) time.Duration {
		t0 := time.Since(epoch)
		for time.Since(epoch)-t0 < 2*time.Millisecond {
		}
		slowdown(s, epoch, t0, 0)
		return time.Since(epoch) - t0
	}
	if d := took(byName["dlx"]); d < 4*time.Millisecond {
		t.Errorf("dlx took %v, want 4 ms or more (2 ms slowed by 2)", d)
	}
	if d := took(byName["norvig"]); d >= 3*time.Millisecond {
		t.Errorf("norvig took %v, want about 2 ms (not slowed)", d)
	}
}
