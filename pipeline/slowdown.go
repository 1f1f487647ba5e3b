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

// slowdown spins until the run that started at t0 (since epoch) has
// taken slowdownFactor times what it took so far.
func slowdown(epoch time.Time, t0 time.Duration) {
	if slowdownFactor == 1 {
		return
	}
	until := t0 + time.Duration(float64(time.Since(epoch)-t0)*slowdownFactor)
	for time.Since(epoch) < until {
	}
}
