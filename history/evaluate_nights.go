package history

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sudokubatch/report"
)

// blindVerdicts are the gate's verdicts that judge nothing of a night.
var blindVerdicts = []string{VerdictBusy, VerdictDisturbed, VerdictNoRows, VerdictUndecided}

// blind fills r.Blind: each strategy of the newest night whose gate has
// judged none of the last BlindNights nights or more (every one withheld,
// without rows or undecided), with the newest night's reason. Trend says
// so every night until the gate judges one: a slowdown there would be no
// alarm, and only the change points would see it.
func (e *evaluation) blind() {
	s, r := e.s, e.r
	k := len(s.Nights) - 1
	cur := e.gates[k]
	for _, st := range s.Nights[k].Strategy {
		count := 0
		for j := k; j >= 0; j-- {
			v := e.verdict(j, st.Solver)
			if !slices.Contains(blindVerdicts, v) {
				break
			}
			count++
		}
		if count < BlindNights {
			continue
		}
		why := cur[st.Solver].verdict
		if note := cur[st.Solver].note; note != "" {
			why += ": " + note
		}
		r.Blind = append(r.Blind, &Blind{Solver: st.Solver, Nights: count, Why: why})
		r.Notes = append(r.Notes, fmt.Sprintf("the gate is blind to %s: it judged none of its last %s (%s); a slowdown of it there is no alarm of the gate, only the change points would see it",
			st.Solver, report.Count(count, "night", "nights"), why))
	}
}

// nights fills r.Nights: every night of the series, with its page when
// it has one, the verdicts of the gates computed for it and its alarms.
func (e *evaluation) nights(root string) {
	s, r := e.s, e.r
	for k, n := range s.Nights {
		row := &NightRow{Night: refOf(s, k)}
		dir := n.Dir
		if dir == "" {
			dir = filepath.Join(root, filepath.FromSlash(n.Run))
		}
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err == nil {
			row.Page = filepath.ToSlash(filepath.Join(n.Run, "index.html"))
			if n.Dir != "" {
				row.Page = filepath.ToSlash(filepath.Join(n.Dir, "index.html"))
			}
		}
		m := e.opt.Memo.get(n.RunID, e.key(k))
		switch g := e.gates[k]; {
		case g != nil && computed(g):
			row.Verdicts = map[string]string{}
			for solver, o := range g {
				row.Verdicts[solver] = o.verdict
				if o.gate != nil {
					row.Verdicts[solver] = o.gate.Verdict
				}
			}
		case m != nil:
			row.Verdicts = m.Verdicts
		}
		if m != nil && m.Shown != nil && k < len(s.Nights)-1 {
			row.Verdicts = m.Shown // as trend showed them when it was the newest
		}
		for _, a := range r.Alarms {
			// On the night the alarm is of (where its change started), not
			// the newest night that still reports it.
			if alarmNight(s, a) == k+1 {
				row.Alarms = append(row.Alarms, a)
			}
		}
		for _, st := range r.Steps {
			if st.Night.Index == k+1 && st.Ratio > 1 && !slices.ContainsFunc(row.Alarms, func(a *Alarm) bool { return a.Solver == st.Solver }) {
				row.Alarms = append(row.Alarms, &Alarm{Kind: AlarmStep, Solver: st.Solver, Night: st.Night, Start: st.Night, Ack: st.Ack,
					Text: fmt.Sprintf("%s: a step up x%.3f from this night", st.Solver, st.Ratio)})
			}
		}
		r.Nights = append(r.Nights, row)
	}
}

// alarmNight returns the 1-based place in s of the night alarm a is of:
// the night its change started (Alarm.Start: a slowdown's first night,
// the night a step starts, the first night of a missing strategy), the
// night that raised it when it has no start; 0 when neither is in s. A
// known alarm, reported again on a later night, stays on that night in
// the nights' table and on the charts.
func alarmNight(s *Series, a *Alarm) int {
	if x := nightX(s, a.Start); x > 0 {
		return int(x)
	}
	return int(nightX(s, a.Night))
}

// show sets the newest night's row of the nights' table to the
// strategies' verdicts as trend prints them (a counters change, an
// acknowledgement, "still slower", a missing strategy: not the gate's
// alone), and keeps them in the memo for the page of later nights.
func (e *evaluation) show(k int) {
	shown := map[string]string{}
	for _, st := range e.r.Strategies {
		shown[st.Solver] = st.Verdict
	}
	if len(e.r.Nights) > k {
		e.r.Nights[k].Verdicts = shown
	}
	if m := e.opt.Memo.get(e.s.Nights[k].RunID, e.key(k)); m != nil {
		c := *m
		c.Shown = shown
		e.opt.Memo.put(e.s.Nights[k].RunID, &c)
	}
}

// ref returns the reference of the night of run rel in s, or nil.
func (r *Report) ref(s *Series, rel string) *NightRef {
	for k, n := range s.Nights {
		if n.Run == rel {
			ref := refOf(s, k)
			return &ref
		}
	}
	return nil
}
