package history

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"sudokubatch/internal/quantile"
	"sudokubatch/report"
)

// gateOut is the nightly time gate of one strategy on one night: the
// gate, or the verdict that says why there is none.
type gateOut struct {
	gate    *Gate
	verdict string
	note    string // why there is no gate, for people
}

// slower reports whether the gate found the strategy slower.
func (g *gateOut) slower() bool { return g != nil && g.verdict == VerdictSlower }

// busyNight reports whether other work took more than opt.Busy of the
// workers' CPU time during night n (run.json records it; a night that
// does not record it is a quiet one).
func busyNight(n *Night, opt Options) bool { return n.OtherShare != nil && *n.OtherShare > opt.Busy }

// loadWord is "busy" or "quiet", as busyNight says of n.
func loadWord(n *Night, opt Options) string {
	if busyNight(n, opt) {
		return "busy"
	}
	return "quiet"
}

// baselineOf returns the nights of the gate's baseline of strategy
// solver on night k of s: the last opt.Baseline nights before k that
// have the strategy and are as busy as night k (both busy or both quiet,
// busyNight), none before the latest acknowledged change of that strategy
// before k (an acknowledgement starts the baseline afresh, from the night
// it names), none from the first night of a step up of the strategy that
// no acknowledgement follows, or of the run of nights before k that the
// gate found slower (open, see openSlowdowns): an open slowdown stays
// compared with the level before it, night after night, instead of
// becoming the baseline as its nights fill it. A night the gate did not
// judge for the strategy (withheld: found slower but not judged, see
// gateAt) is never in its baseline: a slowdown excused one night is not
// the level the next night is held to.
//
// The machine's factor takes out what every strategy shares of a busy
// night, but not what one strategy feels more than the others (a
// memory-bound search slows more on a loaded machine): so a night is
// compared with nights as busy as itself. When fewer than MinBaseline
// such nights are there (the machine turned busy, or quiet), the
// baseline is the last nights of either kind, and cross is true: the
// gate can then find the strategy as it was, or faster, but not judge it
// slower (gateAt withholds that verdict).
func baselineOf(s *Series, k int, solver string, acks *ackSet, opt Options, steps []*Step, open map[string]int,
	withheld func(j int, solver string) bool) (base []int, cross bool) {
	from := 0
	for j := k - 1; j >= 0; j-- {
		if acks.of(s.Nights[j], solver) != nil {
			from = j
			break
		}
	}
	until := k // the baseline's nights are before it
	if j, ok := open[solver]; ok && j > from {
		until = j
	}
	for _, st := range steps {
		if j := st.Night.Index - 1; st.Solver == solver && st.Ratio > 1 && st.Ack == nil && j > from && j < until {
			until = j
		}
	}
	busy := busyNight(s.Nights[k], opt)
	var same, any []int
	for j := until - 1; j >= from && len(same) < opt.Baseline; j-- {
		if s.Nights[j].StrategyNamed(solver) == nil || withheld(j, solver) {
			continue
		}
		if len(any) < opt.Baseline {
			any = append(any, j)
		}
		if busyNight(s.Nights[j], opt) == busy {
			same = append(same, j)
		}
	}
	base, cross = same, false
	if len(same) < MinBaseline && len(any) > len(same) {
		base, cross = any, true
	}
	slices.Reverse(base)
	return base, cross
}

// gateAt computes the time gate of every strategy of night k of e's
// series: per strategy, night k against the per-puzzle median of its
// baseline nights (baselineOf), paired by puzzle as batch compare pairs
// two runs (report.Compare: the ratio of median times with its 95%
// bootstrap interval over the timing blocks), then divided by the
// machine's factor: the median of the other strategies' ratios, when
// there are at least two others (see machineFactor). The verdict is
// slower when the interval of that adjusted ratio lies above
// 1+threshold, faster when it lies below 1/(1+threshold).
//
// A slower verdict is withheld (VerdictBusy, VerdictDisturbed: the night
// is not judged, and enters no later baseline of the strategy) when the
// baseline is not as busy as the night (too few nights as busy: cross,
// see baselineOf), or when the strategies moved together beyond twice
// the threshold that night (the machine disturbed, see disturbance):
// either way what is left after the machine's factor is not the
// strategy's own (withholdSlower).
func gateAt(e *evaluation, k int) (map[string]*gateOut, error) {
	s, c, opt := e.s, e.c, e.opt
	open := openSlowdowns(s, k, e.gates, opt)
	night := s.Nights[k]
	p, err := planGates(e, k, open)
	if err != nil {
		return nil, err
	}
	out := p.out
	if len(p.order) > 0 {
		if _, err := c.rows(night); err != nil {
			if !errors.Is(err, errNoRows) {
				return nil, err
			}
			for _, key := range p.order {
				for _, solver := range p.groups[key] {
					out[solver] = &gateOut{verdict: VerdictNoRows, note: err.Error()}
				}
			}
			return out, nil
		}
	}
	for _, key := range p.order {
		if err := gateGroup(c, s, k, p.bases[key], p.groups[key], opt, out); err != nil {
			return nil, err
		}
	}
	for solver, sh := range p.short {
		if g := out[solver]; g != nil && g.gate != nil {
			g.verdict, g.note = sh.verdict, sh.note
		}
	}
	for solver, g := range out {
		if g.gate != nil {
			g.gate.Spread = spread(e.r.levels[solver], g.gate.Baseline, s)
		}
	}
	applyMachine(out, opt)
	if !opt.SameBuild && night.Build() != "" {
		for _, g := range out {
			if g.verdict == VerdictSlower && sameBuild(s, night, g.gate.Baseline) {
				g.verdict, g.gate.Verdict = VerdictSameBuild, VerdictSameBuild
				g.note = "the night ran the build of every night of its baseline (" + ShortBuild(night.Build()) + ")"
			}
		}
	}
	withholdSlower(out, open, p.crossed, e.disturbance(k, out), s, night, opt)
	return out, nil
}

// gatePlan is what gateAt compares night k with: each strategy's
// baseline nights, the strategies grouped by the nights whose rows they
// have (one comparison per group), and those whose baseline is too short
// or not as busy as the night.
type gatePlan struct {
	out     map[string]*gateOut // the strategies with no baseline rows at all: their verdict
	short   map[string]*gateOut // the strategies with too short a baseline: the verdict that replaces theirs
	crossed map[string][]int    // the strategies whose baseline is not as busy as the night: its nights
	order   []string            // the groups' keys, in the order of the night's strategies
	groups  map[string][]string // key (the baseline's nights) -> strategies
	bases   map[string][]int    // key -> the baseline's nights that have rows
}

// planGates finds the baseline of each strategy of night k of e's series
// (baselineOf), keeps the nights whose rows are there, and groups the
// strategies by those nights. A strategy with too short a baseline gets
// no verdict, but its ratio, when it has one, still counts for the
// machine's factor; one with no baseline rows at all gets no gate.
func planGates(e *evaluation, k int, open map[string]int) (*gatePlan, error) {
	s, c, opt := e.s, e.c, e.opt
	p := &gatePlan{out: map[string]*gateOut{}, short: map[string]*gateOut{}, crossed: map[string][]int{},
		groups: map[string][]string{}, bases: map[string][]int{}}
	for _, st := range s.Nights[k].Strategy {
		base, cross := baselineOf(s, k, st.Solver, e.as, opt, e.r.Steps, open, e.withheld)
		if cross {
			p.crossed[st.Solver] = base
		}
		var have []int
		var gone error
		for _, j := range base {
			if _, err := c.rows(s.Nights[j]); err != nil {
				if !errors.Is(err, errNoRows) {
					return nil, err
				}
				gone = err
				continue
			}
			have = append(have, j)
		}
		switch {
		case len(base) < MinBaseline:
			p.short[st.Solver] = &gateOut{verdict: VerdictNotEnough, note: fmt.Sprintf("%d earlier nights in its baseline, the gate needs %d", len(base), MinBaseline)}
		case len(have) < MinBaseline:
			p.short[st.Solver] = &gateOut{verdict: VerdictNoRows, note: fmt.Sprintf("the rows of %d of its %d baseline nights are gone (%v)", len(base)-len(have), len(base), gone)}
		}
		if len(have) == 0 {
			p.out[st.Solver] = p.short[st.Solver]
			continue
		}
		key := fmt.Sprint(have)
		if _, ok := p.groups[key]; !ok {
			p.order = append(p.order, key)
			p.bases[key] = have
		}
		p.groups[key] = append(p.groups[key], st.Solver)
	}
	return p, nil
}

// spread returns exp(spreadSigmas standard deviations) of a strategy's
// nightly levels lv over the baseline nights runs: the change its level
// reaches by noise alone. The plain standard deviation, not a robust
// one: a baseline night whose level jumped on its own is exactly the
// noise a night's slowdown must be told from. 1 with fewer than
// MinBaseline levels.
func spread(lv []float64, runs []string, s *Series) float64 {
	var xs []float64
	for k, n := range s.Nights {
		if k < len(lv) && !math.IsNaN(lv[k]) && slices.Contains(runs, n.Run) {
			xs = append(xs, lv[k])
		}
	}
	if len(xs) < MinBaseline {
		return 1
	}
	_, sd := meanSD(xs)
	return math.Exp(spreadSigmas * sd)
}

// gateGroup computes the raw gates of the strategies solvers, which share
// the baseline nights base, into out.
func gateGroup(c *rowCache, s *Series, k int, base []int, solverNames []string, opt Options, out map[string]*gateOut) error {
	cur, err := c.rows(s.Nights[k])
	if err != nil {
		return err
	}
	baseRows := make([]*nightRows, len(base))
	runs := make([]string, len(base))
	for i, j := range base {
		if baseRows[i], err = c.rows(s.Nights[j]); err != nil {
			return err
		}
		runs[i] = s.Nights[j].Run
	}
	baseRun := baselineRun(baseRows, solverNames)
	comp, err := report.Compare(c.ctx, baseRun, cur.run, report.CompareOptions{Noise: 1, Top: opt.Top})
	if err != nil && !errors.Is(err, report.ErrNothingToCompare) {
		return err
	}
	for _, solver := range solverNames {
		var d *report.StrategyDiff
		if comp != nil {
			for _, x := range comp.Strategies {
				if x.Solver == solver {
					d = x
				}
			}
		}
		if d == nil || d.Timed == 0 {
			out[solver] = &gateOut{verdict: VerdictNoRows, note: "no unit measured both in the night and in its baseline"}
			continue
		}
		g := &Gate{Baseline: runs, Pairs: d.Timed, BaseNS: d.MedianOldNS, NewNS: d.MedianNewNS,
			Ratio: d.MedianRatio, CI: d.TimeCI, Machine: 1, Moved: []Moved{}}
		for _, r := range d.Regressions {
			g.Moved = append(g.Moved, Moved{Puzzle: r.Puzzle, OldNS: r.OldNS, NewNS: r.NewNS, Ratio: r.Ratio, Confirmed: r.Confirmed})
		}
		out[solver] = &gateOut{gate: g}
	}
	return nil
}

// baselineRun returns the baseline of the nights rows as one run: per
// strategy of solverNames, per unit of the newest baseline night, the
// row of the night whose time is the median of the unit's times over
// the nights that have it, and for an even count the upper of the two
// middle rows, its time the mean of both (quantile.Midpoint: a center of
// a few measurements of one time, not the lower middle one, which would
// be the faster of the two). The run's run.json is the newest baseline
// night's: its corpora and settings are the series'.
func baselineRun(rows []*nightRows, solverNames []string) *report.Run {
	last := rows[len(rows)-1]
	res := &report.Results{Corpora: slices.Clone(last.run.Results.Corpora)}
	type cand struct {
		ser *report.Series
		row int
		ns  int64
	}
	cands := make([]cand, 0, len(rows))
	for _, solver := range solverNames {
		ser := last.run.Results.Solver(solver)
		if ser == nil {
			continue
		}
		res.AddSeries(solver)
		for _, u := range last.units[solver] {
			cands = cands[:0]
			for _, r := range rows {
				us := r.units[solver]
				i, ok := slices.BinarySearchFunc(us, u.key, func(x unitKey, key uint64) int { return cmp.Compare(x.key, key) })
				if ok {
					rs := r.run.Results.Solver(solver)
					row := int(us[i].row)
					cands = append(cands, cand{rs, row, rs.NS(row)})
				}
			}
			slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(a.ns, b.ns) })
			lo, hi := quantile.Middle(len(cands))
			m := cands[hi]
			e := m.ser.At(m.row)
			e.Corpus = ser.At(int(u.row)).Corpus
			if lo != hi {
				e.NS = (cands[lo].ns + m.ns) / 2
			}
			res.Add(solver, e)
		}
	}
	return &report.Run{Path: "the baseline of " + baselineName(rows), Results: res, Manifest: last.run.Manifest}
}

func baselineName(rows []*nightRows) string {
	var names []string
	for _, r := range rows {
		names = append(names, r.run.Path)
	}
	return strings.Join(names, ", ")
}

// applyMachine divides each gate's ratio by the machine's factor and
// gives each gate its verdict.
//
// The machine's factor is the median of the strategies' ratios (those
// exact, not bounds), when there are at least three: a change that most
// strategies share is the machine's (its speed drifts between nights:
// two sweeps of one build 15 minutes apart read x1.018 to x1.023 on
// every strategy) or code they all share, not one strategy's. A median,
// so that one strategy that did slow down does not move the yardstick:
// with three strategies, one regression leaves the median at one of the
// two others (the median of the others alone would be their mean with
// two, and would carry half of a third's regression). With fewer than
// three the ratios are not adjusted (Gate.Machine 1) and the notes say
// so; when most strategies moved together the change is the machine's
// and no strategy is alarmed for it.
//
// This was chosen over a calibration kernel timed each night: the
// strategies are themselves timed in the same blocks of the same run, on
// the same puzzles, so their common factor measures the machine as the
// strategies feel it; a kernel would add a measurement of its own, with
// its own noise, and would be missing from every night already recorded.
func applyMachine(out map[string]*gateOut, opt Options) {
	m := 1.0
	if mc := machineChange(out); mc != nil && mc.Used {
		m = mc.Ratio
	}
	for _, g := range out {
		if g.gate == nil {
			continue
		}
		g.gate.Machine = m
		g.gate.Adjusted = g.gate.Ratio.Value / m
		g.gate.AdjustedCI = report.RatioCI{Lo: g.gate.CI.Lo / m, Hi: g.gate.CI.Hi / m}
		if g.verdict != "" { // too short a baseline: a ratio for the factor, no verdict
			g.gate.Verdict = g.verdict
			continue
		}
		g.gate.Verdict = gateVerdict(g.gate, opt.Threshold)
		g.verdict = g.gate.Verdict
	}
}

// sameBuild reports whether every night of runs ran the build of night.
func sameBuild(s *Series, night *Night, runs []string) bool {
	for _, n := range s.Nights {
		if slices.Contains(runs, n.Run) && n.Build() != night.Build() {
			return false
		}
	}
	return true
}

// disturbed is how many times the threshold the machine's factor of a
// night must move for the night to be on a disturbed machine.
const disturbed = 2

// gateVerdict is the verdict of a gate whose adjusted ratio is computed:
// slower when its interval lies above both 1+threshold and the spread
// the strategy's nightly level reaches by noise alone, and the time as
// recorded (the ratio before the machine's factor) grew too; faster
// likewise. A change against the machine's factor alone, the times as
// recorded moving the other way, is the other strategies' moves (with
// three strategies, one that jumps moves the factor), not this one's.
func gateVerdict(g *Gate, threshold float64) string {
	up := max(1+threshold, g.Spread)
	r := g.Ratio
	switch {
	case g.AdjustedCI.Lo > up && r.Value > 1:
		if r.Either || r.Bound == report.BoundUpper {
			return VerdictUndecided
		}
		return VerdictSlower
	case g.AdjustedCI.Hi < 1/up && r.Value < 1:
		if r.Either || r.Bound == report.BoundLower {
			return VerdictUndecided
		}
		return VerdictFaster
	}
	return VerdictNoChange
}

// machineChange is the change common to the strategies of a night's
// gates: the median of their exact ratios.
func machineChange(out map[string]*gateOut) *MachineChange {
	var rs []float64
	for _, g := range out {
		if g.gate != nil && g.gate.Ratio.Bound == report.BoundExact && !g.gate.Ratio.Either {
			rs = append(rs, g.gate.Ratio.Value)
		}
	}
	if len(rs) == 0 {
		return nil
	}
	return &MachineChange{Ratio: median(rs), Strategies: len(rs), Used: len(rs) >= 3}
}

// median returns the median of xs (not empty), sorting it: the center of
// a few measurements of one quantity (a level over nights, the machine's
// factor over the strategies), quantile.Midpoint, the mean of the two
// middle values of an even count. Not the tool's estimator of quantiles,
// whose lower middle one would lean each comparison towards "slower"
// (see internal/quantile).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return quantile.Midpoint(xs)
}
