package report

import (
	"fmt"
	"strconv"
)

// DefaultCompareTop is how many largest changes a comparison lists per
// strategy when CompareOptions.Top is not set.
const DefaultCompareTop = 10

// DefaultNoise is the change of a machine's speed between two runs that
// a comparison's verdicts ignore when CompareOptions.Noise is not set:
// ×1.10 either way. A machine shared with other work runs the same code
// faster or slower from one run to the next, which moves every time of a
// run alike; the interval, drawn within the runs, cannot see that (see
// Comparison; docs/TIMING.md has the figures).
const DefaultNoise = 1.10

// CompareOptions say what a comparison checks and lists.
type CompareOptions struct {
	// Threshold, when above 0, marks a strategy Slower when its ratio of
	// median times (NEW/OLD, over the units measured in both runs) is
	// surely above it: the lower end of its 95% interval is, and units
	// stopped by a limit cannot have moved the ratio up (see Comparison).
	Threshold float64
	// Noise is the ratio of machine speeds between the runs that the
	// verdicts ignore: a strategy is "slower" only when its interval lies
	// above Noise, "faster" only when below 1/Noise. 1: none (any change
	// the interval and the test find); below 1 (unset): DefaultNoise.
	Noise float64
	Top   int // largest changes and one-run puzzles listed per strategy; <= 0: DefaultCompareTop
}

// Check refuses options as batch compare's flags give them (where 0 and
// below mean no default): a Threshold neither 0 nor a ratio >= 1, a
// Noise below 1, a Top below 1.
func (o CompareOptions) Check() error {
	ratio := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch {
	case o.Threshold != 0 && !(o.Threshold >= 1):
		return fmt.Errorf("-threshold %s: want a ratio >= 1 (1.10: 10%% slower), or 0 for no check", ratio(o.Threshold))
	case !(o.Noise >= 1):
		return fmt.Errorf("-noise %s: want a ratio >= 1 (1.10: a run 10%% slower than another on the same code is noise), or 1 for none", ratio(o.Noise))
	case o.Top < 1:
		return fmt.Errorf("-top %d: want at least 1", o.Top)
	}
	return nil
}
