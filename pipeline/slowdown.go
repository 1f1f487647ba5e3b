//go:build slowdown

package pipeline

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubatch/solvers"
)

// A build with the slowdown tag makes every timed run of the strategies
// named in SUDOKUBATCH_SLOWDOWN_SOLVERS (a comma-separated list; unset or
// empty: every strategy) take SUDOKUBATCH_SLOWDOWN times as long (e.g.
// 1.2: 20% more), by spinning after Solve inside the timed window: a
// known regression, for the test that compare detects one
// (TestCompareDetectsSlowdown) and for the demonstrations of batch trend
// (scripts/trend-demo.sh, 1.2 on one strategy). A value that is not a
// factor >= 1, or a name that is no strategy, stops the program at start
// with a message (exit 2): a typo would otherwise slow nothing. Other
// builds have no such code.
const slowdownBuild = true

// The factor and the strategies it applies to (nil: all), read once.
var slowdownFactor, slowdownSolvers = func() (float64, []string) {
	f, names, err := parseSlowdown(os.Getenv("SUDOKUBATCH_SLOWDOWN"), os.Getenv("SUDOKUBATCH_SLOWDOWN_SOLVERS"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "slowdown build: %v\n", err)
		os.Exit(2)
	}
	return f, names
}()

// parseSlowdown reads the two variables: the factor ("" is 1: no
// slowdown) and the strategies' names ("": nil, every strategy).
func parseSlowdown(factor, names string) (float64, []string, error) {
	f := 1.0
	if factor != "" {
		var err error
		if f, err = strconv.ParseFloat(factor, 64); err != nil || f < 1 {
			return 0, nil, fmt.Errorf("SUDOKUBATCH_SLOWDOWN=%q: want a factor >= 1 (1.2: 20%% slower)", factor)
		}
	}
	if strings.TrimSpace(names) == "" {
		return f, nil, nil
	}
	var list []string
	for name := range strings.SplitSeq(names, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(solvers.Names(), name) {
			return 0, nil, fmt.Errorf("SUDOKUBATCH_SLOWDOWN_SOLVERS=%q: %q is not a strategy (strategies: %s)",
				names, name, strings.Join(solvers.Names(), ", "))
		}
		list = append(list, name)
	}
	return f, list, nil
}

// slowdownOf returns the factor that applies to strategy s.
func slowdownOf(s solvers.Solver) float64 {
	if slowdownFactor == 1 || slowdownSolvers == nil {
		return slowdownFactor
	}
	if slices.Contains(slowdownSolvers, s.Name()) {
		return slowdownFactor
	}
	return 1
}

// slowdown spins until the run of s that started at t0 (since epoch)
// reads, as timeSolve reads it (its time less the timer's overhead),
// s's factor times what it would have read without the slowdown.
// The clock reads it takes are paid for: the read here, the overshoot
// of the loop's last read (half a read on average) and timeSolve's read
// after it (each about overhead). Without that, a 2 µs solve slowed by
// 1.2 read as 1.22 times slower. A strategy whose factor is 1 pays for
// a method call and a few string comparisons: nanoseconds.
func slowdown(s solvers.Solver, epoch time.Time, t0 time.Duration, overhead int64) {
	f := slowdownOf(s)
	if f == 1 {
		return
	}
	ov := time.Duration(overhead)
	would := time.Since(epoch) - t0 - ov // what timeSolve would have read
	until := t0 + ov + time.Duration(float64(would)*f) - 3*ov/2
	for time.Since(epoch) < until {
	}
}
