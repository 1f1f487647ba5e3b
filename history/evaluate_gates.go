package history

import (
	"crypto/sha256"
	"fmt"
	"slices"
)

// key is the memo key of night j's verdicts: the settings, and the
// acknowledgements of nights up to j (a later one does not change it).
func (e *evaluation) key(j int) string {
	h := sha256.New()
	at := e.s.Nights[j].Start
	for _, a := range e.acks {
		if i := slices.IndexFunc(e.s.Nights, func(n *Night) bool { return n.RunID == a.RunID }); i >= 0 && !e.s.Nights[i].Start.After(at) {
			fmt.Fprintf(h, "%s\x00%s\x00", a.RunID, a.Solver)
		}
	}
	o := e.opt
	return fmt.Sprintf("baseline=%d threshold=%g busy=%g same-build=%t acks=%x", o.Baseline, o.Threshold, o.Busy, o.SameBuild, h.Sum(nil)[:6])
}

// gate returns the gates of night j: computed, or the verdicts of the
// memo (no Gate then) unless fresh.
func (e *evaluation) gate(j int, fresh bool) (map[string]*gateOut, error) {
	if j < 0 {
		return nil, nil
	}
	if g, ok := e.gates[j]; ok && (!fresh || computed(g)) {
		return g, nil
	}
	runID := e.s.Nights[j].RunID
	if m := e.opt.Memo.get(runID, e.key(j)); m != nil && !fresh && j < len(e.s.Nights)-1 {
		g := map[string]*gateOut{}
		for solver, v := range m.Verdicts {
			g[solver] = &gateOut{verdict: v}
		}
		e.gates[j] = g
		return g, nil
	}
	g, err := gateAt(e, j)
	if err != nil {
		return nil, err
	}
	e.gates[j] = g
	m := &NightVerdicts{Key: e.key(j), Verdicts: map[string]string{}}
	for solver, o := range g {
		m.Verdicts[solver] = o.verdict
	}
	if old := e.opt.Memo.get(runID, m.Key); old != nil {
		m.Shown = old.Shown
	}
	e.opt.Memo.put(runID, m)
	return g, nil
}

// verdict returns the gate's verdict of solver on night j when it is
// known (computed, or kept in the memo), else "".
func (e *evaluation) verdict(j int, solver string) string {
	if g := e.gates[j]; g != nil {
		if o := g[solver]; o != nil {
			return o.verdict
		}
		return ""
	}
	if m := e.opt.Memo.get(e.s.Nights[j].RunID, e.key(j)); m != nil {
		return m.Verdicts[solver]
	}
	return ""
}

// withheld reports whether the gate withheld its verdict of solver on
// night j (found it slower but could not judge it): such a night is in
// no later baseline of the strategy. A night whose verdict is not known
// (older than the nights the gate is run on, and not in the memo) is
// taken as judged.
func (e *evaluation) withheld(j int, solver string) bool {
	return withheldVerdict(e.verdict(j, solver))
}

// slowSince returns the night a slowdown of solver found on the newest
// night started, when it was already there before: the first night of a
// change point up, not acknowledged, before the newest night; else the
// earliest night of a run of nights the gate found slower, looking back
// sinceLookback nights at most. It returns -1 for a slowdown new on the
// newest night.
func (e *evaluation) slowSince(solver string) (int, error) {
	k := len(e.s.Nights) - 1
	for i := len(e.r.Steps) - 1; i >= 0; i-- {
		st := e.r.Steps[i]
		if st.Solver == solver && st.Ratio > 1 && st.Ack == nil && st.Night.Index-1 < k {
			return st.Night.Index - 1, nil
		}
	}
	since := -1
	for j := k - 1; j >= max(0, k-sinceLookback); j-- {
		g, err := e.gate(j, false)
		if err != nil {
			return -1, err
		}
		if g[solver] != nil && withheldVerdict(g[solver].verdict) {
			continue // a night not judged neither ends nor starts it
		}
		if !g[solver].slower() {
			break
		}
		since = j
	}
	return since, nil
}

// judgedLater reports whether the gate could not judge strategy solver
// on night j (VerdictBusy: withheld) and found it slower on the first
// night after j that it could judge: the gate's alarm of that night is
// then the alarm of a step from night j.
func (e *evaluation) judgedLater(j int, solver string) (bool, error) {
	for i := j; i < len(e.s.Nights); i++ {
		g, err := e.gate(i, false)
		if err != nil {
			return false, err
		}
		switch o := g[solver]; {
		case o != nil && withheldVerdict(o.verdict):
			continue
		case i == j:
			return false, nil
		default:
			return o.slower(), nil
		}
	}
	return false, nil
}

// openSlowdowns returns, per strategy of night j, the first night of the
// run of nights just before j that the gate found slower (from gates,
// already known), when there is one: a slowdown still open, alarmed on
// that night. Night j's baseline of that strategy ends where it starts,
// so that its first slow nights do not become its baseline, nor widen
// its spread, before the change points date it.
func openSlowdowns(s *Series, j int, gates map[int]map[string]*gateOut, opt Options) map[string]int {
	open := map[string]int{}
	for _, st := range s.Nights[j].Strategy {
		start := -1
		for i := j - 1; i >= 0 && i >= j-opt.Baseline; i-- {
			g := gates[i]
			if g != nil && g[st.Solver] != nil && withheldVerdict(g[st.Solver].verdict) {
				continue // a night not judged neither ends nor starts it
			}
			if g == nil || !g[st.Solver].slower() {
				break
			}
			start = i
		}
		if start >= 0 {
			open[st.Solver] = start
		}
	}
	return open
}

// computed reports whether the gates g were computed (not read from the
// memo).
func computed(g map[string]*gateOut) bool {
	for _, o := range g {
		if o.gate != nil || o.note != "" {
			return true
		}
	}
	return len(g) == 0
}
