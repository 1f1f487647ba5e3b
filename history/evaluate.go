package history

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	n := len(s.Nights)
	k := n - 1
	night := s.Nights[k]
	r := &Report{Series: s, Newest: night, Options: opt}
	e := &evaluation{r: r, s: s, c: newRowCache(ctx, root), as: newAckSet(acks), acks: acks, opt: opt, gates: map[int]map[string]*gateOut{}}

	r.levels, _ = levels(s.Nights, solverNames(s.Nights))
	r.Steps = findSteps(s, n, e.as, opt)
	var before []*Step
	if n > 1 {
		before = findSteps(s, n-1, e.as, opt)
	}
	for _, st := range r.Steps {
		st.Ack = e.as.of(s.Nights[st.Night.Index-1], st.Solver)
		st.New = !slices.ContainsFunc(before, func(b *Step) bool { return sameStep(b, st) })
	}

	// The gates of the nights before the newest first, oldest first: a
	// slowdown they found still open ends the baseline of the next, and a
	// night they withheld is in no later baseline.
	for j := max(0, k-sinceLookback); j < k; j++ {
		if _, err := e.gate(j, false); err != nil {
			return nil, err
		}
	}
	cur, err := e.gate(k, true)
	if err != nil {
		return nil, err
	}
	if r.Machine = machineChange(cur); r.Machine != nil && !r.Machine.Used {
		r.Notes = append(r.Notes, fmt.Sprintf("the machine's common factor is not taken out: the gate has %s with an exact ratio, it needs 3 (the factor is the median of their ratios)",
			report.Count(r.Machine.Strategies, "strategy", "strategies")))
	}
	if m := r.Machine; m != nil && m.Used && (m.Ratio > 1+opt.Threshold || m.Ratio < 1/(1+opt.Threshold)) {
		note := fmt.Sprintf("the strategies' median times moved together, x%.3f: the machine's speed (or code they all share), not alarmed", m.Ratio)
		if math.Abs(math.Log(m.Ratio)) > math.Log(1+disturbed*opt.Threshold) {
			note += "; beyond twice the threshold, so no new slowdown of a strategy that night is an alarm either: the next night on a steady machine tells"
		}
		r.Notes = append(r.Notes, note)
	}

	for i := range night.Strategy {
		tr, err := e.strategy(&night.Strategy[i], cur)
		if err != nil {
			return nil, err
		}
		r.Strategies = append(r.Strategies, tr)
	}
	e.missing(k)
	if opt.Delivered != nil {
		if err := e.untrended(); err != nil {
			return nil, err
		}
	}
	if err := e.stepAlarms(); err != nil {
		return nil, err
	}
	e.blind()
	e.nights(root)
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
		if g.verdict == VerdictBusy {
			withheld = append(withheld, fmt.Sprintf("%s's slowdown is not judged: %s", solver, g.note))
		}
	}
	slices.Sort(withheld)
	r.Notes = append(r.Notes, withheld...)
	if opt.Delivered != nil {
		applyDeliveries(opt.Delivered, r)
	}
	e.show(k)
	return r, nil
}

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
	return e.verdict(j, solver) == VerdictBusy
}

// strategy returns the newest night of strategy st: its counters against
// the night before, its gate, its verdict and its alarms (added to r).
func (e *evaluation) strategy(st *Strategy, cur map[string]*gateOut) (*StrategyTrend, error) {
	r, s := e.r, e.s
	k := len(s.Nights) - 1
	night := s.Nights[k]
	tr := &StrategyTrend{Solver: st.Solver, Last: st, Ack: e.as.of(night, st.Solver)}
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
	if lv := r.levels[st.Solver]; first < k && !math.IsNaN(lv[k]) && !math.IsNaN(lv[first]) {
		tr.Drift = &report.Ratio{Value: math.Exp(lv[k] - lv[first])}
	}

	g := cur[st.Solver]
	tr.Gate, tr.Verdict = g.gate, g.verdict
	if g.gate != nil {
		tr.Verdict = g.gate.Verdict
	}
	if g.slower() {
		since, err := e.slowSince(st.Solver)
		if err != nil {
			return nil, err
		}
		a := &Alarm{Kind: AlarmTime, Solver: st.Solver, Night: refOf(s, k), Start: refOf(s, k), Ack: tr.Ack, New: since < 0,
			Text: fmt.Sprintf("%s slower: median x%.3f [%.3f, %.3f] against the baseline of %s, beyond the machine's x%.3f and the threshold of %s",
				st.Solver, g.gate.Adjusted, g.gate.AdjustedCI.Lo, g.gate.AdjustedCI.Hi,
				report.Count(len(g.gate.Baseline), "night", "nights"), g.gate.Machine, FormatShare(r.Options.Threshold))}
		if since >= 0 {
			ref := refOf(s, since)
			tr.Since, a.Start = &ref, ref
			a.Text += fmt.Sprintf("; slower since night %d (%s)", since+1, s.Nights[since].Run)
			// The night the gate found it: the first of the slowdown, or a
			// later one when the machine was busy or disturbed on the first.
			// When it judged none of the nights since (every one withheld),
			// this night is the first it judges, and the alarm is raised
			// here: "still slower" would leave the slowdown unalarmed (the
			// step defers to the gate's first judged night, this one:
			// judgedLater). A night it judged and found not slower leaves
			// the alarm to the step.
			found, judged := false, false
			i := since
			for ; i < k && i <= since+sinceLookback; i++ {
				g, err := e.gate(i, false)
				if err != nil {
					return nil, err
				}
				if o := g[st.Solver]; o != nil && o.verdict != VerdictBusy {
					judged = true
				}
				if g[st.Solver].slower() {
					if i == since {
						a.Text += ", found by the gate then"
					} else {
						a.Text += fmt.Sprintf(", found by the gate on night %d (%s)", i+1, s.Nights[i].Run)
					}
					found = true
					break
				}
			}
			if !found && !judged && i == k {
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
		r.Alarms = append(r.Alarms, a)
	}
	if tr.Ack != nil && tr.Verdict != VerdictNoChange && tr.Verdict != VerdictNotEnough {
		tr.Verdict = VerdictAcknowledged
	}
	return tr, nil
}

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
		if g[solver] != nil && g[solver].verdict == VerdictBusy {
			continue // a night not judged neither ends nor starts it
		}
		if !g[solver].slower() {
			break
		}
		since = j
	}
	return since, nil
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
		if !st.New && j < untrended || st.Ratio <= 1+stepAlarm*r.Options.Threshold || st.SameBuild && !r.Options.SameBuild {
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
		case o != nil && o.verdict == VerdictBusy:
			continue
		case i == j:
			return false, nil
		default:
			return o.slower(), nil
		}
	}
	return false, nil
}

// blindVerdicts are the gate's verdicts that judge nothing of a night.
var blindVerdicts = []string{VerdictBusy, VerdictNoRows, VerdictUndecided}

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
			if a.Night.Index == k+1 {
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
			if g != nil && g[st.Solver] != nil && g[st.Solver].verdict == VerdictBusy {
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
