package history

import (
	"math"
	"slices"
)

// stepNoiseFloor is the least noise (standard deviation of a night's log
// median time about its level) that the t statistic placing a cut
// assumes: a level whose nights agree to the last digit is not
// infinitely sure.
const stepNoiseFloor = 0.005

// levels returns, per strategy, the log median time of each night of
// nights that has it (NaN where a night lacks it, or its median is not a
// positive exact value), less the machine's factor of that night:
// the median over the strategies of their deviation from their own
// median level over those nights, when at least three have a value that
// night. This takes out a change most strategies share (the machine's
// speed), as the gate does (see applyMachine). A busy night has its
// level too: findSteps compares it with busy nights only. raw is the
// levels before the machine's factor, machine the log of that factor
// per night (NaN where fewer than three strategies have a level: none is
// taken out; 0 is the series' usual machine).
func levels(nights []*Night, solverNames []string) (adjusted, raw map[string][]float64, machine []float64) {
	raw = map[string][]float64{}
	center := map[string]float64{}
	for _, solver := range solverNames {
		v := make([]float64, len(nights))
		var have []float64
		for k, n := range nights {
			v[k] = math.NaN()
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
	// The machine's factor of each night: the same for every strategy of
	// the night, computed once.
	machine = make([]float64, len(nights))
	for k := range nights {
		machine[k] = math.NaN()
		var dev []float64
		for _, other := range solverNames {
			if o := raw[other][k]; !math.IsNaN(o) {
				dev = append(dev, o-center[other])
			}
		}
		if len(dev) >= 3 {
			machine[k] = median(dev)
		}
	}
	out := map[string][]float64{}
	for _, solver := range solverNames {
		v := slices.Clone(raw[solver])
		for k := range v {
			if !math.IsNaN(v[k]) && !math.IsNaN(machine[k]) {
				v[k] -= machine[k]
			}
		}
		out[solver] = v
	}
	return out, raw, machine
}

// findSteps returns the change points of the strategies' median times
// over the first n nights of s, in night order. Per strategy, the nights
// are cut at each acknowledged night (an acknowledged change starts a
// new level), each piece is parted into its quiet and its busy nights
// (Options.Busy: as the gate, a level is compared with levels as busy as
// itself, so that a strategy that feels a busy machine more than the
// others makes no step where the machine turned busy; and a series whose
// every night is busy still has its steps), then each part is split by
// binary segmentation: the split
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
	lv, raw, _ := levels(nights, names)
	sp := &stepper{s: s, opt: opt, raw: raw}
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
				steps = append(steps, sp.byLoad(solver, lv[solver], idx[start:i])...)
				start = i
			}
		}
		steps = append(steps, sp.byLoad(solver, lv[solver], idx[start:])...)
	}
	slices.SortStableFunc(steps, func(a, b *Step) int { return a.Night.Index - b.Night.Index })
	return steps
}

// stepper finds the steps of the strategies of a series.
type stepper struct {
	s   *Series
	opt Options
	raw map[string][]float64 // per strategy, the log median of each night as recorded (levels)
}

// byLoad finds the steps within the quiet nights of idx and within its
// busy nights, apart. A change found in both, in the same direction
// within opt.Baseline nights of each other, is one step: the earlier.
func (sp *stepper) byLoad(solver string, v []float64, idx []int) []*Step {
	var quiet, busy []int
	for _, k := range idx {
		if busyNight(sp.s.Nights[k], sp.opt) {
			busy = append(busy, k)
		} else {
			quiet = append(quiet, k)
		}
	}
	qs, bs := sp.segment(solver, v, quiet), sp.segment(solver, v, busy)
	out := slices.Clone(qs)
	for _, b := range bs {
		i := slices.IndexFunc(qs, func(q *Step) bool {
			return (q.Ratio > 1) == (b.Ratio > 1) && abs(q.Night.Index-b.Night.Index) <= sp.opt.Baseline
		})
		switch {
		case i < 0:
			out = append(out, b)
		case b.Night.Index < qs[i].Night.Index:
			if j := slices.Index(out, qs[i]); j >= 0 {
				out[j] = b
			}
		}
	}
	return out
}

// segment finds the steps within the nights idx (indexes into s.Nights)
// of one strategy, whose levels are v.
func (sp *stepper) segment(solver string, v []float64, idx []int) []*Step {
	s, opt := sp.s, sp.opt
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
	// The step: the sides' medians, so that one slow night on either
	// side moves neither level, must differ by more than the threshold
	// and by more than spreadSigmas standard deviations of the nights
	// about their side's mean: the plain deviation, as the gate's spread,
	// since nights that jump on their own are the noise a step must be
	// told from.
	left, right := valuesAt(v, idx[:best]), valuesAt(v, idx[best:])
	ml, mr := median(slices.Clone(left)), median(slices.Clone(right))
	_, sl := meanSD(left)
	_, sr := meanSD(right)
	nl, nr := float64(len(left)), float64(len(right))
	pooled := math.Sqrt(((nl-1)*sl*sl + (nr-1)*sr*sr) / (nl + nr - 2))
	bestDiff := mr - ml
	if math.Abs(bestDiff) < max(spreadSigmas*pooled, math.Log(1+opt.Threshold)) {
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
	if b := s.Nights[idx[best]].Build(); b != "" && b == s.Nights[idx[best-1]].Build() {
		st.SameBuild = true
	}
	if !sp.againstMost(solver, idx[:best], idx[best:], bestDiff) {
		return append(sp.segment(solver, v, idx[:best]), sp.segment(solver, v, idx[best:])...)
	}
	out := sp.segment(solver, v, idx[:best])
	out = append(out, st)
	return append(out, sp.segment(solver, v, idx[best:])...)
}

// againstMost reports whether a step of solver between the nights left
// and right, of diff in log level, shows against most other strategies
// one by one: the ratio of solver's nightly median to the other's moves
// across the cut by more than the threshold, in the same direction, for
// more than half of the others that have nights on both sides. A
// strategy's own step moves its ratio to every other; the machine
// moves none of them; another strategy's jump moves one (with three
// strategies, a jump of one moves the median that the levels are
// adjusted by, and would make a step of the others).
func (sp *stepper) againstMost(solver string, left, right []int, diff float64) bool {
	others, agree := 0, 0
	for other, ro := range sp.raw {
		if other == solver {
			continue
		}
		pair := func(idx []int) []float64 {
			var xs []float64
			for _, k := range idx {
				if a, b := sp.raw[solver][k], ro[k]; !math.IsNaN(a) && !math.IsNaN(b) {
					xs = append(xs, a-b)
				}
			}
			return xs
		}
		l, r := pair(left), pair(right)
		if len(l) == 0 || len(r) == 0 {
			continue
		}
		others++
		if shift := median(r) - median(l); (shift > 0) == (diff > 0) && math.Abs(shift) >= math.Log(1+sp.opt.Threshold) {
			agree++
		}
	}
	return others == 0 || 2*agree > others
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
