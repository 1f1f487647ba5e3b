package history

import (
	"fmt"
	"math"

	"sudokubatch/report"
)

// strategy returns the newest night of strategy st: its counters against
// the night before, its gate, its verdict and its alarms (added to r).
func (e *evaluation) strategy(st *Strategy, cur map[string]*gateOut) (*StrategyTrend, error) {
	k := len(e.s.Nights) - 1
	tr := e.trendOf(st)
	g := cur[st.Solver]
	tr.Gate, tr.Verdict = g.gate, g.verdict
	if g.gate != nil {
		tr.Verdict = g.gate.Verdict
	}
	if g.slower() {
		if err := e.timeAlarm(tr, g); err != nil {
			return nil, err
		}
	}

	cc, a, err := e.counters(k, st.Solver)
	if err != nil {
		return nil, err
	}
	if cc == nil {
		tr.Verdict = VerdictNewStrategy
		return tr, nil
	}
	tr.Counters = cc
	if a != nil {
		tr.Verdict = VerdictCounters
		e.r.Alarms = append(e.r.Alarms, a)
	}
	if tr.Ack != nil && tr.Verdict != VerdictNoChange && tr.Verdict != VerdictNotEnough {
		tr.Verdict = VerdictAcknowledged
	}
	return tr, nil
}

// trendOf returns the trend of strategy st of the newest night before its
// verdict: its acknowledgement, its nights, and its drift since the first
// of them (or the one acknowledged last).
func (e *evaluation) trendOf(st *Strategy) *StrategyTrend {
	s := e.s
	k := len(s.Nights) - 1
	tr := &StrategyTrend{Solver: st.Solver, Last: st, Ack: e.as.of(s.Nights[k], st.Solver)}
	first := -1
	for j, n := range s.Nights {
		if f := n.StrategyNamed(st.Solver); f != nil {
			tr.History = append(tr.History, NightFigures{refOf(s, j), f})
			if first < 0 || e.as.of(n, st.Solver) != nil && j < k {
				first = j
			}
		}
	}
	// The drift: the level of the newest night against the first night
	// (or the acknowledged one), the machine's factor of each taken out.
	if lv := e.r.levels[st.Solver]; first < k && !math.IsNaN(lv[k]) && !math.IsNaN(lv[first]) {
		tr.Drift = &report.Ratio{Value: math.Exp(lv[k] - lv[first])}
	}
	return tr
}

// timeAlarm adds the alarm of the gate g, which found strategy tr slower
// on the newest night: new, or of a slowdown that started on an earlier
// night (tr.Since; the verdict "still slower" unless this night is the
// first the gate could judge since).
func (e *evaluation) timeAlarm(tr *StrategyTrend, g *gateOut) error {
	r, s := e.r, e.s
	k := len(s.Nights) - 1
	since, err := e.slowSince(tr.Solver)
	if err != nil {
		return err
	}
	a := &Alarm{Kind: AlarmTime, Solver: tr.Solver, Night: refOf(s, k), Start: refOf(s, k), Ack: tr.Ack, New: since < 0,
		Text: fmt.Sprintf("%s slower: median x%.3f [%.3f, %.3f] against the baseline of %s, beyond the machine's x%.3f and the threshold of %s",
			tr.Solver, g.gate.Adjusted, g.gate.AdjustedCI.Lo, g.gate.AdjustedCI.Hi,
			report.Count(len(g.gate.Baseline), "night", "nights"), g.gate.Machine, FormatShare(r.Options.Threshold))}
	if since >= 0 {
		ref := refOf(s, since)
		tr.Since, a.Start = &ref, ref
		a.Text += fmt.Sprintf("; slower since night %d (%s)", since+1, s.Nights[since].Run)
		first, err := e.foundSince(a, since)
		if err != nil {
			return err
		}
		if first {
			a.New = true
			a.Text += "; the first night since that the gate could judge"
		} else {
			tr.Verdict = VerdictStillSlower
		}
	}
	base := g.gate.Baseline
	a.Good = r.ref(s, base[len(base)-1])
	if since > 0 {
		a.Good = r.ref(s, s.Nights[since-1].Run)
	}
	for _, m := range g.gate.Moved {
		a.Puzzles = append(a.Puzzles, m.Puzzle)
	}
	r.Alarms = append(r.Alarms, a)
	return nil
}

// foundSince says in a's text on which night the gate found the slowdown
// of a that started on night since: the first of the slowdown, or a
// later one when the machine was busy or disturbed on the first. It
// reports whether the gate judged none of the nights since (every one
// withheld): the newest night is then the first it judges, and the alarm
// is raised here, where "still slower" would leave the slowdown
// unalarmed (the step defers to the gate's first judged night, this one:
// judgedLater). A night it judged and found not slower leaves the alarm
// to the step.
func (e *evaluation) foundSince(a *Alarm, since int) (first bool, err error) {
	s := e.s
	k := len(s.Nights) - 1
	judged := false
	i := since
	for ; i < k && i <= since+sinceLookback; i++ {
		g, err := e.gate(i, false)
		if err != nil {
			return false, err
		}
		if o := g[a.Solver]; o != nil && !withheldVerdict(o.verdict) {
			judged = true
		}
		if g[a.Solver].slower() {
			if i == since {
				a.Text += ", found by the gate then"
			} else {
				a.Text += fmt.Sprintf(", found by the gate on night %d (%s)", i+1, s.Nights[i].Run)
			}
			return false, nil
		}
	}
	return !judged && i == k, nil
}
