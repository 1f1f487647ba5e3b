//go:build slowdown

package pipeline

import (
	"os"
	"strconv"
	"time"
)

// A build with the slowdown tag makes every timed run take
// SUDOKUBATCH_SLOWDOWN times as long (e.g. 1.2: 20% more), by spinning
// after Solve inside the timed window: a known regression, for the test
// that compare detects one (TestCompareDetectsSlowdown). Other builds
// have no such code.
const slowdownBuild = true

var slowdownFactor = func() float64 {
	f, err := strconv.ParseFloat(os.Getenv("SUDOKUBATCH_SLOWDOWN"), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
}()

// slowdown spins until the run that started at t0 (since epoch) reads,
// as timeSolve reads it (its time less the timer's overhead),
// slowdownFactor times what it would have read without the slowdown.
// The clock reads it takes are paid for: the read here, the overshoot
// of the loop's last read (half a read on average) and timeSolve's read
// after it (each about overhead). Without that, a 2 µs solve slowed by
// 1.2 read as 1.22 times slower.
func slowdown(epoch time.Time, t0 time.Duration, overhead int64) {
	if slowdownFactor == 1 {
		return
	}
	ov := time.Duration(overhead)
	would := time.Since(epoch) - t0 - ov // what timeSolve would have read
	until := t0 + ov + time.Duration(float64(would)*slowdownFactor) - 3*ov/2
	for time.Since(epoch) < until {
	}
}
