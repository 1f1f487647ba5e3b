package history

import (
	"fmt"
	"slices"
	"strings"
	"sudokubatch/report"
)

// counters runs the counters detector of solver on night j and returns
// its result (nil when no earlier night has the strategy) and its alarm,
// nil when the counters did not change.
func (e *evaluation) counters(j int, solver string) (*CounterChange, *Alarm, error) {
	s := e.s
	cc, err := detectCounters(e.c, s, j, solver)
	if err != nil || cc == nil || cc.Changed == 0 {
		return cc, nil, err
	}
	text := fmt.Sprintf("%s's counters changed on %s of the %s compared with night %d (%s): %s",
		solver, report.Count(cc.Changed, "puzzle", "puzzles"), report.Count(cc.Compared, "unit", "units"), cc.PreviousIndex, cc.Previous, idList(cc.IDs, cc.Changed))
	if len(cc.Passed) > 0 {
		text += fmt.Sprintf(" (the newest earlier night with rows: those of %s are gone)", listRuns(cc.Passed))
	}
	a := &Alarm{Kind: AlarmCounters, Solver: solver, Night: refOf(s, j), Start: refOf(s, j), Ack: e.as.of(s.Nights[j], solver), New: true,
		Good: e.r.ref(s, cc.Previous), Puzzles: cc.IDs, Text: text}
	return cc, a, nil
}

// missing adds an alarm for each strategy that ran on one of the
// opt.Baseline nights before night j and not on night j: a strategy of
// the nightly sweep that stopped running (left out of -solvers, or an
// external solver that failed to start). It starts on the first night
// the strategy was missing; on the newest night, the strategy gets a
// line of its own in the verdicts.
func (e *evaluation) missing(j int) {
	s, r := e.s, e.r
	night := s.Nights[j]
	seen := map[string]bool{}
	for i := j - 1; i >= max(0, j-e.opt.Baseline); i-- {
		for _, st := range s.Nights[i].Strategy {
			if seen[st.Solver] || night.StrategyNamed(st.Solver) != nil {
				continue
			}
			seen[st.Solver] = true
			start := i + 1
			if j < len(s.Nights)-1 && start != j {
				continue // an untrended night: only what it raised itself
			}
			a := &Alarm{Kind: AlarmMissing, Solver: st.Solver, Night: refOf(s, j), Start: refOf(s, start), New: start == len(s.Nights)-1,
				Ack: e.as.of(s.Nights[start], st.Solver), Good: r.ref(s, s.Nights[i].Run)}
			if start == j {
				a.Text = fmt.Sprintf("%s did not run on night %d (%s): it ran on night %d (%s); a strategy of the nightly sweep that stopped running (-solvers changed, or an external solver that failed to start)",
					st.Solver, j+1, night.Run, i+1, s.Nights[i].Run)
			} else {
				a.Text = fmt.Sprintf("%s has not run since night %d (%s): missing on the last %s, from night %d (%s)",
					st.Solver, i+1, s.Nights[i].Run, report.Count(j-i, "night", "nights"), start+1, s.Nights[start].Run)
			}
			if slices.ContainsFunc(r.Alarms, func(b *Alarm) bool {
				return b.Kind == AlarmMissing && b.Solver == a.Solver && b.Start.Index == a.Start.Index
			}) {
				continue
			}
			r.Alarms = append(r.Alarms, a)
			if j == len(s.Nights)-1 {
				r.Strategies = append(r.Strategies, &StrategyTrend{Solver: st.Solver, Verdict: VerdictMissing, Ack: a.Ack})
			}
		}
	}
}

// untrended examines the nights since the last trend (opt.Delivered),
// before the newest, at most opt.Baseline of them: each one's counters
// against the night before it and the strategies it lacked. A change
// that a night raised and a later one hid (a counters change is compared
// with the night before only) is not lost because no trend ran that
// night.
func (e *evaluation) untrended() error {
	s, r := e.s, e.r
	k := len(s.Nights) - 1
	from := e.opt.Delivered.firstUntrended(s)
	if from >= k {
		return nil
	}
	if k-from > e.opt.Baseline {
		r.Notes = append(r.Notes, fmt.Sprintf("%s before the newest had no trend run: the last %d were examined for alarms of their own (batch trend RUN... over the others)",
			report.Count(k-from, "night", "nights"), e.opt.Baseline))
		from = k - e.opt.Baseline
	}
	for j := from; j < k; j++ {
		for _, st := range s.Nights[j].Strategy {
			_, a, err := e.counters(j, st.Solver)
			if err != nil {
				return err
			}
			if a != nil {
				r.Alarms = append(r.Alarms, a)
			}
		}
		e.missing(j)
	}
	return nil
}

// stepAlarms adds an alarm for each change point up (a slowdown) beyond
// stepAlarm times the threshold, new or (with Options.Delivered) starting
// on a night no trend ran on, that no time alarm of the newest night
// already holds, and that the gate did not alarm on its first night. A
// smaller step is reported (Step.New) but is no alarm: the relative
// speeds of the strategies move by about 5% between the states of a
// shared machine (bitboard against norvig and dlx, over nights of one
// build: 0.240-0.252 one week-day, 0.255-0.257 the next), and a step
// that the gate did not see on any of its nights is a drift, found after
// the fact, for the charts and for bisecting.
func (e *evaluation) stepAlarms() error {
	s, r := e.s, e.r
	untrended := len(s.Nights)
	if e.opt.Delivered != nil {
		untrended = max(e.opt.Delivered.firstUntrended(s), len(s.Nights)-1-e.opt.Baseline)
	}
	for _, st := range r.Steps {
		j := st.Night.Index - 1
		if !st.New && j < untrended || !alarmSized(st, r.Options) {
			continue
		}
		if slices.ContainsFunc(r.Alarms, func(a *Alarm) bool {
			return a.Kind == AlarmTime && a.Solver == st.Solver && abs(a.Start.Index-st.Night.Index) <= 1
		}) {
			continue // the newest night's time alarm is this slowdown's
		}
		g, err := e.gate(j, false)
		if err != nil {
			return err
		}
		if e.opt.Delivered == nil {
			if g[st.Solver].slower() {
				continue // the gate's alarm of that night is this step's
			}
			if covered, err := e.judgedLater(j, st.Solver); err != nil {
				return err
			} else if covered {
				continue // the gate alarmed on the first night it could judge
			}
		}
		if !computed(g) { // the memo's verdicts: the gate again, for the puzzles that moved
			if g, err = e.gate(j, true); err != nil {
				return err
			}
		}
		a := &Alarm{Kind: AlarmStep, Solver: st.Solver, Night: st.Night, Start: st.Night, New: true, Ack: st.Ack,
			Text: fmt.Sprintf("%s: a step up from night %d (%s): x%.3f against the other strategies (its nightly median as recorded: %s before, %s from then on)",
				st.Solver, j+1, s.Nights[j].Run, st.Ratio, fmtNS(st.Before), fmtNS(st.After))}
		if j > 0 {
			a.Good = r.ref(s, s.Nights[j-1].Run)
		}
		if og := g[st.Solver]; og != nil && og.gate != nil {
			for _, m := range og.gate.Moved {
				a.Puzzles = append(a.Puzzles, m.Puzzle)
			}
		}
		r.Alarms = append(r.Alarms, a)
	}
	return nil
}

// alarmSized reports whether step st is large enough to be an alarm: up
// beyond stepAlarm times the threshold, and not a step the nights on both
// sides of which ran one build (unless opt.SameBuild).
func alarmSized(st *Step, opt Options) bool {
	return st.Ratio > 1+stepAlarm*opt.Threshold && (!st.SameBuild || opt.SameBuild)
}

// idList names the first ids of a counters change, "…" when there are
// more.
func idList(ids []report.PuzzleRef, total int) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(id.Label)
	}
	if total > len(ids) {
		fmt.Fprintf(&b, " and %d more", total-len(ids))
	}
	return b.String()
}
