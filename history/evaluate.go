package history

import (
	"context"
	"fmt"
	"slices"

	"sudokubatch/report"
)

// withDefaults returns o with its unset fields at their defaults.
func (o Options) withDefaults() Options {
	if o.Baseline <= 0 {
		o.Baseline = DefaultBaseline
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Top <= 0 {
		o.Top = DefaultTop
	}
	if o.Busy <= 0 {
		o.Busy = DefaultBusy
	}
	return o
}

// stepAlarm is how many times the threshold a new change point up must
// exceed to be an alarm of its own (see stepAlarms).
const stepAlarm = 2

// sinceLookback is how many nights before the newest the gate is run
// again to find the night a slowdown that is still there started, when
// no change point dates it, and to tell whether the gate is blind.
const sinceLookback = 3

// evaluation is one Evaluate: the series, its rows, and the gates of its
// nights as they are computed or read from the memo.
type evaluation struct {
	r     *Report
	s     *Series
	c     *rowCache
	as    *ackSet
	acks  []Ack
	opt   Options
	gates map[int]map[string]*gateOut // by night
}

// Evaluate runs the three detectors over series s of the results root
// and returns what they found of its newest night:
//
//   - the counters of each strategy against the newest earlier night
//     that has its rows (detectCounters), a changed unit an alarm of that
//     night;
//   - the nightly time gate of each strategy against its baseline
//     (gateAt, baselineOf: nights as busy as it): slower is an alarm;
//     the nights after, the strategy is "still slower" since the night
//     it started, the same alarm;
//   - the change points over the whole series (findSteps), each new one
//     an alarm when it is a slowdown beyond twice the threshold that no
//     time alarm already holds;
//   - a strategy of the last nights that did not run on the newest (an
//     alarm: a nightly strategy that stopped running).
//
// acks are the acknowledgements of the results root: an alarm of a night
// and strategy acknowledged is reported with its reason and does not
// count (Alarm.Unacknowledged), and the gate's baseline of that strategy
// starts afresh from that night.
//
// With opt.Delivered (what trend runs have told), the nights since the
// last trend are examined as well, for their counters and missing
// strategies (at most opt.Baseline of them), and an alarm is new until a
// trend has delivered it; without, an alarm is new on the night that
// raises it.
//
// Only the rows (results.csv) of the nights the per-puzzle detectors
// compare are read: the newest night, the nights its counters are
// compared with, the baselines of the newest night and of the few before
// it (sinceLookback); never the whole series'. A night whose rows are
// gone (pruned) is left out of a baseline, and the notes say so.
func Evaluate(ctx context.Context, root string, s *Series, acks []Ack, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	k := len(s.Nights) - 1
	r := &Report{Series: s, Newest: s.Nights[k], Options: opt}
	e := &evaluation{r: r, s: s, c: newRowCache(ctx, root), as: newAckSet(acks), acks: acks, opt: opt, gates: map[int]map[string]*gateOut{}}

	r.levels, _, r.machine = levels(s.Nights, solverNames(s.Nights))
	e.steps()
	cur, err := e.newestGates()
	if err != nil {
		return nil, err
	}
	e.machine(cur)
	if err := e.alarms(cur); err != nil {
		return nil, err
	}
	e.blind()
	e.nights(root)
	e.notes(cur)
	if opt.Delivered != nil {
		applyDeliveries(opt.Delivered, r)
	}
	e.show(k)
	return r, nil
}

// steps finds the change points of the series (r.Steps), each with its
// acknowledgement, and new when the series without its newest night did
// not have it.
func (e *evaluation) steps() {
	s, r := e.s, e.r
	n := len(s.Nights)
	r.Steps = findSteps(s, n, e.as, e.opt)
	var before []*Step
	if n > 1 {
		before = findSteps(s, n-1, e.as, e.opt)
	}
	for _, st := range r.Steps {
		st.Ack = e.as.of(s.Nights[st.Night.Index-1], st.Solver)
		st.New = !slices.ContainsFunc(before, func(b *Step) bool { return sameStep(b, st) })
	}
}

// newestGates runs the gate of the newest night, and first those of the
// nights before it, oldest first: a slowdown they found still open ends
// the baseline of the next, and a night they withheld is in no later
// baseline.
func (e *evaluation) newestGates() (map[string]*gateOut, error) {
	k := len(e.s.Nights) - 1
	for j := max(0, k-sinceLookback); j < k; j++ {
		if _, err := e.gate(j, false); err != nil {
			return nil, err
		}
	}
	return e.gate(k, true)
}

// machine sets r.Machine, the machine's common factor of the newest
// night's gates cur, and notes when it could not be taken out or when
// the strategies moved together beyond the threshold.
func (e *evaluation) machine(cur map[string]*gateOut) {
	r, opt := e.r, e.opt
	if r.Machine = machineChange(cur); r.Machine != nil && !r.Machine.Used {
		r.Notes = append(r.Notes, fmt.Sprintf("the machine's common factor is not taken out: the gate has %s with an exact ratio, it needs 3 (the factor is the median of their ratios)",
			report.Count(r.Machine.Strategies, "strategy", "strategies")))
	}
	if m := r.Machine; m != nil && m.Used && (m.Ratio > 1+opt.Threshold || m.Ratio < 1/(1+opt.Threshold)) {
		note := fmt.Sprintf("the strategies' median times moved together, x%.3f: the machine's speed (or code they all share), not alarmed", m.Ratio)
		if d := e.disturbance(len(e.s.Nights)-1, cur); d != nil {
			note += "; beyond twice the threshold, so no new slowdown of a strategy that night is an alarm either: " + d.tells()
		}
		r.Notes = append(r.Notes, note)
	}
}

// alarms gives each strategy of the newest night its trend and its
// alarms (the gates cur are the newest night's), then raises the alarms
// of the missing strategies, of the nights no trend ran on and of the
// change points.
func (e *evaluation) alarms(cur map[string]*gateOut) error {
	k := len(e.s.Nights) - 1
	night := e.s.Nights[k]
	for i := range night.Strategy {
		tr, err := e.strategy(&night.Strategy[i], cur)
		if err != nil {
			return err
		}
		e.r.Strategies = append(e.r.Strategies, tr)
	}
	e.missing(k)
	if e.opt.Delivered != nil {
		if err := e.untrended(); err != nil {
			return err
		}
	}
	return e.stepAlarms()
}

// notes adds the notes of what could not be judged: the gate without
// rows, counters compared with an older night or not at all, and the
// slowdowns the gate withheld (cur: the newest night's gates).
func (e *evaluation) notes(cur map[string]*gateOut) {
	r := e.r
	for _, g := range cur {
		if g.verdict == VerdictNoRows {
			r.Notes = append(r.Notes, "the gate could not run: "+g.note)
			break
		}
	}
	for _, st := range r.Strategies {
		if c := st.Counters; c != nil && c.Skipped != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%s's counters were not compared: %s", st.Solver, c.Skipped))
		} else if c != nil && len(c.Passed) > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s's counters were compared with night %d (%s), the newest earlier night with rows: those of %s are gone",
				st.Solver, c.PreviousIndex, c.Previous, listRuns(c.Passed)))
		}
	}
	var withheld []string
	for solver, g := range cur {
		if withheldVerdict(g.verdict) {
			withheld = append(withheld, fmt.Sprintf("%s's slowdown is not judged: %s", solver, g.note))
		}
	}
	slices.Sort(withheld)
	r.Notes = append(r.Notes, withheld...)
}
