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
// no change point dates it.
const sinceLookback = 3

// Evaluate runs the three detectors over series s of the results root
// and returns what they found of its newest night:
//
//   - the counters of each strategy against the previous night that has
//     it (detectCounters), a changed unit an alarm of that night;
//   - the nightly time gate of each strategy against its baseline
//     (gateAt): slower is an alarm when it is new, that is when the gate
//     of the night before did not find it slower and no change point
//     before this night already dates it; otherwise the strategy is
//     "still slower" since the night it started, and is not alarmed
//     again;
//   - the change points over the whole series (findSteps), each new one
//     (not found over the series up to the night before) an alarm when
//     it is a slowdown the gate did not already alarm on its first night.
//
// acks are the acknowledgements of the results root: an alarm of a night
// and strategy acknowledged is reported with its reason and does not
// count (Alarm.Unacknowledged), and the gate's baseline of that strategy
// starts afresh from that night.
//
// Only the rows (results.csv) of the nights the per-puzzle detectors
// compare are read: the newest night, the night before it, their
// baselines (opt.Baseline nights), and a few more nights when a slowdown
// is dated; never the whole series'. A night whose rows are gone
// (pruned) is left out of a baseline, and the notes say so.
func Evaluate(ctx context.Context, root string, s *Series, acks []Ack, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	as := newAckSet(acks)
	c := newRowCache(ctx, root)
	n := len(s.Nights)
	k := n - 1
	night := s.Nights[k]
	r := &Report{Series: s, Newest: night, Options: opt}

	key := memoKey(opt, acks)
	gates := map[int]map[string]*gateOut{}
	// gate returns the gates of night j: computed, or the verdicts of
	// the memo (no Gate then) unless fresh.
	gate := func(j int, fresh bool) (map[string]*gateOut, error) {
		if j < 0 {
			return nil, nil
		}
		if g, ok := gates[j]; ok && (!fresh || computed(g)) {
			return g, nil
		}
		if m := opt.Memo[s.Nights[j].RunID]; m != nil && m.Key == key && !fresh && j < k {
			g := map[string]*gateOut{}
			for solver, v := range m.Verdicts {
				g[solver] = &gateOut{verdict: v}
			}
			gates[j] = g
			return g, nil
		}
		g, err := gateAt(c, s, j, as, opt, r.levels, r.Steps, openSlowdowns(s, j, gates, opt))
		if err != nil {
			return nil, err
		}
		gates[j] = g
		if opt.Memo != nil {
			m := &NightVerdicts{Key: key, Verdicts: map[string]string{}}
			for solver, o := range g {
				m.Verdicts[solver] = o.verdict
			}
			opt.Memo[s.Nights[j].RunID] = m
		}
		return g, nil
	}
	r.levels, _ = levels(s.Nights, solverNames(s.Nights), opt.Busy)
	r.Steps = findSteps(s, n, as, opt)
	var before []*Step
	if n > 1 {
		before = findSteps(s, n-1, as, opt)
	}
	for _, st := range r.Steps {
		st.Ack = as.of(s.Nights[st.Night.Index-1], st.Solver)
		st.New = !slices.ContainsFunc(before, func(b *Step) bool { return sameStep(b, st) })
	}

	// The gates of the nights before the newest first, oldest first: a
	// slowdown they found still open ends the baseline of the next.
	for j := max(0, k-sinceLookback); j < k; j++ {
		if _, err := gate(j, false); err != nil {
			return nil, err
		}
	}
	cur, err := gate(k, true)
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
		tr, err := r.strategy(c, s, &night.Strategy[i], cur, gate, as)
		if err != nil {
			return nil, err
		}
		r.Strategies = append(r.Strategies, tr)
	}
	if err := r.stepAlarms(gate, as); err != nil {
		return nil, err
	}
	r.nights(root, gates)
	for _, g := range cur {
		if g.verdict == VerdictNoRows {
			r.Notes = append(r.Notes, "the gate could not run: "+g.note)
			break
		}
	}
	for _, g := range cur {
		if g.verdict == VerdictBusy && strings.HasPrefix(g.note, "other work") {
			r.Notes = append(r.Notes, "a slowdown on a busy machine is no alarm: "+g.note+"; the next night on a quiet machine tells")
			break
		}
	}
	return r, nil
}

// strategy returns the newest night of strategy st: its counters against
// the night before, its gate, its verdict and its alarms (added to r).
func (r *Report) strategy(c *rowCache, s *Series, st *Strategy, cur map[string]*gateOut,
	gate func(int, bool) (map[string]*gateOut, error), as *ackSet) (*StrategyTrend, error) {
	k := len(s.Nights) - 1
	night := s.Nights[k]
	tr := &StrategyTrend{Solver: st.Solver, Last: st, Ack: as.of(night, st.Solver)}
	first := -1
	for j, n := range s.Nights {
		if f := n.StrategyNamed(st.Solver); f != nil {
			tr.History = append(tr.History, NightFigures{refOf(s, j), f})
			if first < 0 || as.of(n, st.Solver) != nil && j < k {
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
		since, err := r.slowSince(s, st.Solver, gate)
		if err != nil {
			return nil, err
		}
		a := &Alarm{Kind: AlarmTime, Solver: st.Solver, Night: refOf(s, k), Ack: tr.Ack, New: since < 0,
			Text: fmt.Sprintf("%s slower: median x%.3f [%.3f, %.3f] against the baseline of %s, beyond the machine's x%.3f and the threshold of %s",
				st.Solver, g.gate.Adjusted, g.gate.AdjustedCI.Lo, g.gate.AdjustedCI.Hi,
				report.Count(len(g.gate.Baseline), "night", "nights"), g.gate.Machine, FormatShare(r.Options.Threshold))}
		if since >= 0 {
			ref := refOf(s, since)
			tr.Since = &ref
			a.Text += fmt.Sprintf("; slower since night %d (%s)", since+1, s.Nights[since].Run)
			// The night the gate alarmed: the first of the slowdown, or a
			// later one when the machine was busy or disturbed on the first.
			// When it judged none of the nights since (every one busy or
			// disturbed), this night is the first it judges, and its alarm
			// is new: "still slower" would leave the slowdown unalarmed
			// (the step defers to the gate's first judged night, this one:
			// judgedLater). A night it judged and found not slower leaves
			// the alarm to the step.
			alarmed, judged := false, false
			i := since
			for ; i < k && i <= since+sinceLookback; i++ {
				g, err := gate(i, false)
				if err != nil {
					return nil, err
				}
				if o := g[st.Solver]; o != nil && o.verdict != VerdictBusy {
					judged = true
				}
				if g[st.Solver].slower() {
					if i == since {
						a.Text += ", alarmed then"
					} else {
						a.Text += fmt.Sprintf(", alarmed on night %d (%s)", i+1, s.Nights[i].Run)
					}
					alarmed = true
					break
				}
			}
			if !alarmed && !judged && i == k {
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

	prev := -1
	for j := k - 1; j >= 0; j-- {
		if s.Nights[j].StrategyNamed(st.Solver) != nil {
			prev = j
			break
		}
	}
	if prev < 0 {
		tr.Verdict = VerdictNewStrategy
		return tr, nil
	}
	cc, err := detectCounters(c, st.Solver, s.Nights[prev], night)
	if err != nil {
		return nil, err
	}
	tr.Counters = cc
	if cc.Changed > 0 {
		tr.Verdict = VerdictCounters
		a := &Alarm{Kind: AlarmCounters, Solver: st.Solver, Night: refOf(s, k), Ack: tr.Ack, New: true, Good: r.ref(s, s.Nights[prev].Run),
			Puzzles: cc.IDs,
			Text: fmt.Sprintf("%s's counters changed on %s of the %s compared with night %d (%s): %s",
				st.Solver, report.Count(cc.Changed, "puzzle", "puzzles"), report.Count(cc.Compared, "unit", "units"), prev+1, s.Nights[prev].Run, idList(cc.IDs, cc.Changed))}
		r.Alarms = append(r.Alarms, a)
	}
	if tr.Ack != nil && tr.Verdict != VerdictNoChange && tr.Verdict != VerdictNotEnough {
		tr.Verdict = VerdictAcknowledged
	}
	return tr, nil
}

// slowSince returns the night a slowdown of solver found on the newest
// night started, when it was already there before: the first night of a
// change point up, not acknowledged, before the newest night; else the
// earliest night of a run of nights the gate found slower, looking back
// sinceLookback nights at most. It returns -1 for a slowdown new on the
// newest night.
func (r *Report) slowSince(s *Series, solver string, gate func(int, bool) (map[string]*gateOut, error)) (int, error) {
	k := len(s.Nights) - 1
	for i := len(r.Steps) - 1; i >= 0; i-- {
		st := r.Steps[i]
		if st.Solver == solver && st.Ratio > 1 && st.Ack == nil && st.Night.Index-1 < k {
			return st.Night.Index - 1, nil
		}
	}
	since := -1
	for j := k - 1; j >= max(0, k-sinceLookback); j-- {
		g, err := gate(j, false)
		if err != nil {
			return -1, err
		}
		if g[solver] != nil && g[solver].verdict == VerdictBusy {
			continue // a night on a busy machine neither ends nor starts it
		}
		if !g[solver].slower() {
			break
		}
		since = j
	}
	return since, nil
}

// stepAlarms adds an alarm for each new change point up (a slowdown)
// beyond stepAlarm times the threshold that the gate did not alarm on
// its first night. A smaller step is reported (Step.New) but is no
// alarm: the relative speeds of the strategies move by about 5% between
// the states of a shared machine (bitboard against norvig and dlx, over
// nights of one build: 0.240-0.252 one week-day, 0.255-0.257 the next),
// and a step that the gate did not see on any of its nights is a drift,
// found after the fact, for the charts and for bisecting.
func (r *Report) stepAlarms(gate func(int, bool) (map[string]*gateOut, error), as *ackSet) error {
	s := r.Series
	for _, st := range r.Steps {
		if !st.New || st.Ratio <= 1+stepAlarm*r.Options.Threshold || st.SameBuild && !r.Options.SameBuild {
			continue
		}
		j := st.Night.Index - 1
		g, err := gate(j, false)
		if err != nil {
			return err
		}
		if g[st.Solver].slower() {
			continue // the gate's alarm of that night is this step's
		}
		if covered, err := judgedLater(s, j, st.Solver, gate); err != nil {
			return err
		} else if covered {
			continue // the gate alarmed on the first night it could judge
		}
		if !computed(g) { // the memo's verdicts: the gate again, for the puzzles that moved
			if g, err = gate(j, true); err != nil {
				return err
			}
		}
		a := &Alarm{Kind: AlarmStep, Solver: st.Solver, Night: st.Night, New: true, Ack: st.Ack,
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
// on night j (VerdictBusy: a busy or disturbed machine) and found it
// slower on the first night after j that it could judge: the gate's
// alarm of that night is then the alarm of a step from night j.
func judgedLater(s *Series, j int, solver string, gate func(int, bool) (map[string]*gateOut, error)) (bool, error) {
	for i := j; i < len(s.Nights); i++ {
		g, err := gate(i, false)
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

// nights fills r.Nights: every night of the series, with its page when
// it has one, the verdicts of the gates computed for it and its alarms.
func (r *Report) nights(root string, gates map[int]map[string]*gateOut) {
	s := r.Series
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
		if g := gates[k]; g == nil && r.Options.Memo[n.RunID] != nil {
			row.Verdicts = r.Options.Memo[n.RunID].Verdicts
		} else if g != nil {
			row.Verdicts = map[string]string{}
			for solver, o := range g {
				row.Verdicts[solver] = o.verdict
				if o.gate != nil {
					row.Verdicts[solver] = o.gate.Verdict
				}
			}
		}
		for _, a := range r.Alarms {
			if a.Night.Index == k+1 {
				row.Alarms = append(row.Alarms, a)
			}
		}
		for _, st := range r.Steps {
			if st.Night.Index == k+1 && st.Ratio > 1 && !slices.ContainsFunc(row.Alarms, func(a *Alarm) bool { return a.Solver == st.Solver }) {
				row.Alarms = append(row.Alarms, &Alarm{Kind: AlarmStep, Solver: st.Solver, Night: st.Night, Ack: st.Ack,
					Text: fmt.Sprintf("%s: a step up x%.3f from this night", st.Solver, st.Ratio)})
			}
		}
		r.Nights = append(r.Nights, row)
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
				continue // a night on a busy machine neither ends nor starts it
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

// memoKey names the settings and acknowledgements a night's verdicts
// depend on: verdicts kept under another key are computed again.
func memoKey(opt Options, acks []Ack) string {
	h := sha256.New()
	for _, a := range acks {
		fmt.Fprintf(h, "%s\x00%s\x00", a.RunID, a.Solver)
	}
	return fmt.Sprintf("baseline=%d threshold=%g busy=%g same-build=%t acks=%x", opt.Baseline, opt.Threshold, opt.Busy, opt.SameBuild, h.Sum(nil)[:6])
}
