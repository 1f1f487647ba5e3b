package history

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"sudokubatch/report"
)

// The slowdowns the gate finds but does not judge: against a baseline
// not as busy as the night, or on a machine disturbed against the
// baselines.

// withholdSlower turns each new slower verdict of out that is not the
// strategy's own into a verdict that judges nothing: VerdictBusy when its
// baseline is not as busy as the night (crossed), VerdictDisturbed when
// the machine was disturbed against the baselines (d, see disturbance).
// A slowdown already open (open) stays "slower": it is not new.
func withholdSlower(out map[string]*gateOut, open map[string]int, crossed map[string][]int, d *disturbance, s *Series, night *Night, opt Options) {
	for solver, g := range out {
		if _, still := open[solver]; g.verdict != VerdictSlower || still {
			continue
		}
		if base, ok := crossed[solver]; ok {
			g.verdict, g.gate.Verdict = VerdictBusy, VerdictBusy
			g.note = crossWhy(s, night, base, opt)
		} else if d != nil {
			g.verdict, g.gate.Verdict = VerdictDisturbed, VerdictDisturbed
			g.note = d.why()
		}
	}
}

// withheldVerdict reports whether v is a slowdown the gate found but did
// not judge (VerdictBusy, VerdictDisturbed): such a night enters no
// later baseline of the strategy.
func withheldVerdict(v string) bool { return v == VerdictBusy || v == VerdictDisturbed }

// disturbance is a machine disturbed on a night against its gates'
// baselines: the strategies moved together beyond twice the threshold.
// They do not feel the machine alike (on a night when the machine's
// factor read x1.265, dlx read x1.40: a memory-bound search feels a slow
// machine more), so what is left of one strategy's change after the
// factor is not its own.
type disturbance struct {
	factor float64 // the machine's factor of the night's gates
	// off are the baseline nights whose machine (levels) lies
	// beyond twice the threshold from the night's, when the night's own
	// lies within it of the series' usual level: the baselines, not the
	// night, ran on another machine, and the gate stays blind until most
	// of each baseline's nights ran as the night did.
	off   []string
	offBy float64 // the off nights' machine against the night's
}

// disturbance returns the disturbance of night k against the baselines of
// its gates out, or nil when the strategies moved together by less than
// twice the threshold.
func (e *evaluation) disturbance(k int, out map[string]*gateOut) *disturbance {
	m := machineChange(out)
	lim := math.Log(1 + disturbed*e.opt.Threshold)
	if m == nil || !m.Used || math.Abs(math.Log(m.Ratio)) <= lim {
		return nil
	}
	d := &disturbance{factor: m.Ratio}
	ml := e.r.machine
	if k >= len(ml) || math.IsNaN(ml[k]) || math.Abs(ml[k]) > lim {
		return d // the night's own machine is not the series' usual one
	}
	var base []string
	for _, g := range out {
		if g.gate != nil {
			base = append(base, g.gate.Baseline...)
		}
	}
	var by []float64
	for j, n := range e.s.Nights[:k] {
		if slices.Contains(base, n.Run) && !math.IsNaN(ml[j]) && math.Abs(ml[j]-ml[k]) > lim {
			d.off = append(d.off, n.Run)
			by = append(by, ml[j]-ml[k])
		}
	}
	if len(by) > 0 {
		d.offBy = math.Exp(median(by))
	}
	return d
}

// why says why a slowdown on a disturbed machine is not judged.
func (d *disturbance) why() string {
	return fmt.Sprintf("the strategies moved together by x%.3f that night, beyond twice the threshold: %s", d.factor, d.tells())
}

// tells says which machine was not as usual and when the gate judges
// again.
func (d *disturbance) tells() string {
	if len(d.off) == 0 {
		return "the machine was not as on its baseline nights; the next night on a steady machine tells"
	}
	return fmt.Sprintf("the night's machine ran as on most nights of the series, but %s of its baselines ran x%.3f against it (%s); the gate judges again once most nights of each baseline ran as this one",
		report.Count(len(d.off), "night", "nights"), d.offBy, strings.Join(d.off, ", "))
}

// crossWhy says why a slowdown against a baseline of nights not as busy
// as the night is not judged.
func crossWhy(s *Series, night *Night, base []int, opt Options) string {
	same := 0
	for _, j := range base {
		if busyNight(s.Nights[j], opt) == busyNight(night, opt) {
			same++
		}
	}
	share := "not recorded"
	if night.OtherShare != nil {
		share = FormatShare(*night.OtherShare)
	}
	return fmt.Sprintf("a %s night (other work %s, -busy %s) against a baseline of %d nights of which %d as %s: too few nights as busy as it to judge it (the gate needs %d)",
		loadWord(night, opt), share, FormatShare(opt.Busy), len(base), same, loadWord(night, opt), MinBaseline)
}
