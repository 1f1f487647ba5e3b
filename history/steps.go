package history

import (
	"math"
	"slices"
)

// stepScore is the least score of a change point: the difference of the
// two sides' median levels over its standard error (see findSteps). With
// three nights on each side a step of 5% passes it when the nights of
// each side agree within about 1%.
const stepScore = 5

// stepNoiseFloor is the least noise (standard deviation of a night's log
// median time about its level) the score assumes: a level whose nights
// agree to the last digit is not infinitely sure.
const stepNoiseFloor = 0.005

// levels returns, per strategy, the log median time of each night of
// nights[:n] that has it (NaN where a night lacks it, its median is not a
// positive exact value, or other work used more than busy of the
// machine's CPUs that night), less the machine's factor of that night:
// the median over the strategies of their deviation from their own
// median level over those nights, when at least three have a value that
// night. This takes out a change most strategies share (the machine's
// speed), as the gate does (see applyMachine).
func levels(nights []*Night, solverNames []string, busy float64) map[string][]float64 {
	raw := map[string][]float64{}
	center := map[string]float64{}
	for _, solver := range solverNames {
		v := make([]float64, len(nights))
		var have []float64
		for k, n := range nights {
			v[k] = math.NaN()
			if n.OtherShare != nil && *n.OtherShare > busy {
				continue // a night on a busy machine: its level is not the strategy's
			}
			if st := n.StrategyNamed(solver); st != nil && st.Median.Value > 0 && st.Median.Bound == "" {
				v[k] = math.Log(float64(st.Median.Value))
				have = append(have, v[k])
			}
		}
		raw[solver] = v
		if len(have) > 0 {
			center[solver] = median(have)
		}
	}
	out := map[string][]float64{}
	for _, solver := range solverNames {
		v := slices.Clone(raw[solver])
		for k := range v {
			if math.IsNaN(v[k]) {
				continue
			}
			var dev []float64
			for _, other := range solverNames {
				if o := raw[other][k]; !math.IsNaN(o) {
					dev = append(dev, o-center[other])
				}
			}
			if len(dev) >= 3 {
				v[k] -= median(dev)
			}
		}
		out[solver] = v
	}
	return out
}

// findSteps returns the change points of the strategies' median times
// over the first n nights of s, in night order. Per strategy, the nights
// are cut at each acknowledged night (an acknowledged change starts a
// new level), then each piece is split by binary segmentation: the split
// with MinStepSide nights or more on each side whose score (the
// difference of the sides' median levels over its standard error, the
// noise estimated from the nights' deviations from their side's median)
// is largest is a step when the score is at least stepScore and the
// change is beyond the threshold; each side is then searched again. The
// cut is placed by the sides' means (a t statistic), the step judged by
// their medians: one slow night on a side does not move its level, so a
// spike is never a step.
func findSteps(s *Series, n int, acks *ackSet, opt Options) []*Step {
	nights := s.Nights[:n]
	names := solverNames(nights)
	lv := levels(nights, names, opt.Busy)
	var steps []*Step
	for _, solver := range names {
		var idx []int // nights with a level
		for k, v := range lv[solver] {
			if !math.IsNaN(v) {
				idx = append(idx, k)
			}
		}
		start := 0
		for i := range idx {
			if i > start && acks.of(nights[idx[i]], solver) != nil {
				steps = append(steps, segment(s, solver, lv[solver], idx[start:i], opt)...)
				start = i
			}
		}
		steps = append(steps, segment(s, solver, lv[solver], idx[start:], opt)...)
	}
	slices.SortStableFunc(steps, func(a, b *Step) int { return a.Night.Index - b.Night.Index })
	return steps
}

// segment finds the steps within the nights idx (indexes into s.Nights)
// of one strategy, whose levels are v.
func segment(s *Series, solver string, v []float64, idx []int, opt Options) []*Step {
	if len(idx) < 2*MinStepSide {
		return nil
	}
	// The cut: the largest difference of the sides' means over its
	// standard error (a t statistic; the cut that leaves the least
	// variance within the sides). Means place a cut where the change is.
	best, bestT := -1, 0.0
	for cut := MinStepSide; cut <= len(idx)-MinStepSide; cut++ {
		left, right := valuesAt(v, idx[:cut]), valuesAt(v, idx[cut:])
		ml, sl := meanSD(left)
		mr, sr := meanSD(right)
		nl, nr := float64(len(left)), float64(len(right))
		pooled := math.Sqrt(((nl-1)*sl*sl + (nr-1)*sr*sr) / (nl + nr - 2))
		se := max(pooled, stepNoiseFloor) * math.Sqrt(1/nl+1/nr)
		if t := math.Abs(mr-ml) / se; t > bestT {
			best, bestT = cut, t
		}
	}
	if best < 0 {
		return nil
	}
	// The step: medians and the median absolute deviation, so that one
	// slow night on either side moves neither the level nor the noise.
	left, right := valuesAt(v, idx[:best]), valuesAt(v, idx[best:])
	ml, mr := median(slices.Clone(left)), median(slices.Clone(right))
	var dev []float64
	for _, x := range left {
		dev = append(dev, math.Abs(x-ml))
	}
	for _, x := range right {
		dev = append(dev, math.Abs(x-mr))
	}
	sigma := max(1.4826*median(dev), stepNoiseFloor)
	// The standard error of a median is about 1.25 times a mean's.
	se := 1.25 * sigma * math.Sqrt(1/float64(len(left))+1/float64(len(right)))
	bestDiff := mr - ml
	if math.Abs(bestDiff)/se < stepScore || math.Abs(bestDiff) < math.Log(1+opt.Threshold) {
		return nil
	}
	// Each side must hold MinStepSide nights on its own side of the
	// midway level: a right side of one night before the change and two
	// after it has the later level as its median, but only two nights
	// of it.
	mid := (ml + mr) / 2
	if countSide(left, mid, bestDiff < 0) < MinStepSide || countSide(right, mid, bestDiff > 0) < MinStepSide {
		return nil
	}
	st := &Step{Solver: solver, Night: refOf(s, idx[best]), Ratio: math.Exp(bestDiff),
		Before: rawMedian(s, solver, idx[:best]), After: rawMedian(s, solver, idx[best:])}
	out := segment(s, solver, v, idx[:best], opt)
	out = append(out, st)
	return append(out, segment(s, solver, v, idx[best:], opt)...)
}

func valuesAt(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, k := range idx {
		out[i] = v[k]
	}
	return out
}

// rawMedian is the median of the strategy's nightly median times (ns)
// over the nights idx, as recorded (the machine's factor left in).
func rawMedian(s *Series, solver string, idx []int) float64 {
	var xs []float64
	for _, k := range idx {
		xs = append(xs, float64(s.Nights[k].StrategyNamed(solver).Median.Value))
	}
	return median(xs)
}

// refOf names night k of s.
func refOf(s *Series, k int) NightRef {
	n := s.Nights[k]
	return NightRef{Index: k + 1, Run: n.Run, Start: n.Start, Revision: n.Revision}
}

// sameStep reports whether a step found over fewer nights is b: the same
// strategy, the same direction, starting within a night of it (one more
// night can move where a step is cut by one).
func sameStep(a, b *Step) bool {
	return a.Solver == b.Solver && (a.Ratio > 1) == (b.Ratio > 1) && abs(a.Night.Index-b.Night.Index) <= 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// meanSD returns the mean and the sample standard deviation of xs.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		sd = math.Sqrt(sd / float64(len(xs)-1))
	}
	return mean, sd
}

// countSide counts the values of xs above mid (below it when !above).
func countSide(xs []float64, mid float64, above bool) int {
	n := 0
	for _, x := range xs {
		if (x > mid) == above {
			n++
		}
	}
	return n
}

// solverNames returns the strategies of nights, in order of first
// appearance.
func solverNames(nights []*Night) []string {
	var names []string
	seen := map[string]bool{}
	for _, nt := range nights {
		for _, st := range nt.Strategy {
			if !seen[st.Solver] {
				seen[st.Solver] = true
				names = append(names, st.Solver)
			}
		}
	}
	return names
}
