package variants

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubatch/internal/quantile"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// measureOf returns what a strategy's analysis reads: its calls, unless
// none of its units counted any (an external solver that reports no
// counters), then its time.
func measureOf(units []unit) string {
	for _, u := range units {
		if u.row.Calls > 0 {
			return "calls"
		}
	}
	return "ns"
}

func value(r *rundir.Row, measure string) float64 {
	if measure == "ns" {
		return float64(r.NS)
	}
	return float64(r.Calls)
}

// analyse builds the analysis of one (puzzle, strategy) from its units:
// the original under seed 0 first among them.
func (pl *plan) analyse(pz Puzzle, solver string, randomized bool, units []unit) rundir.VariantAnalysis {
	a := rundir.VariantAnalysis{Corpus: pz.Corpus, ID: pz.ID, Solver: solver, Grid: pz.Puzzle.String(),
		Measure: measureOf(units)}
	var orig *unit
	var variants []unit
	for i := range units {
		u := &units[i]
		switch {
		case u.line.k == 0 && u.line.j == 0:
			orig = u
		case u.line.k > 0:
			variants = append(variants, *u)
		}
	}
	if orig == nil {
		a.Note = "the original was not solved"
		return a
	}
	a.Original = orig.variantUnit()
	for _, u := range variants {
		a.Variants = append(a.Variants, u.variantUnit())
	}
	a.Calls = dist(variants, "calls")
	a.NS = dist(variants, "ns")
	m, ok := pl.cfg.Medians[solver]
	if ok {
		a.CorpusMedian, a.CorpusFrom = m.Calls, m.From
		if a.Measure == "ns" {
			a.CorpusMedian = m.NS
		}
	}
	measured := measuredValues(variants, a.Measure)
	// A wrong answer's counters and time are not a solve's: no verdict
	// is read from them (batch variants exits 1 for it).
	wrong := 0
	if orig.row.Status == solvers.StatusWrong {
		wrong++
	}
	for _, u := range variants {
		if u.row.Status == solvers.StatusWrong {
			wrong++
		}
	}
	if wrong > 0 {
		a.Note = fmt.Sprintf("no verdict: %d of its %d solves gave a wrong answer, whose counters and time are not a solve's", wrong, len(variants)+1)
		return a
	}
	if !orig.row.Status.Measured() {
		a.Note = fmt.Sprintf("the original gave %s", orig.row.Status)
		return a
	}
	if len(measured) == 0 {
		a.Note = "no variant was measured (each was invalid, unsupported or an error)"
		return a
	}
	ov := value(orig.row, a.Measure)
	d := a.Calls
	if a.Measure == "ns" {
		d = a.NS
	}
	a.Pct = percentile(measured, ov)
	a.Ratio = ov / math.Max(d.Median, 1)
	v := judge(ov, orig.row.Status.Censored(), d, minCensored(variants, a.Measure), a.CorpusMedian, ok, a.Measure)
	a.Verdict = v.verdict
	var notes []string
	if !ok {
		notes = append(notes, "no corpus median for "+solver+": hard or typical cannot be told")
	}
	if d.Censored > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d variants stopped at a limit: the quantiles it reaches are lower bounds", d.Censored, d.N))
	}
	if v.why != "" {
		notes = append(notes, v.why)
	}
	if a.Verdict != rundir.VerdictNone && len(measured) < WeakVariants {
		notes = append(notes, fmt.Sprintf("a weak verdict: %d variants measured, too few for a steady p90; %d or more make it firm", len(measured), WeakVariants))
	}
	a.Note = strings.Join(notes, "; ")
	if randomized {
		a.Seeds = seedLuck(units, a.Measure)
	}
	return a
}

// tri is a condition that a limit may leave unknown.
type tri int8

const (
	no tri = iota
	yes
	unknown
)

type judged struct {
	verdict string
	why     string // what a limit left unknown; "" when nothing
}

// judge gives the verdict on the original's value ov (a lower bound when
// origCens) among its variants' distribution d, whose values from
// minCens up are lower bounds (units a limit stopped; +Inf when none),
// beside the corpus median (known when hasMedian), in the unit of measure
// ("ns" or calls), which the note writes the threshold in.
//
// A limit makes each condition yes, no or unknown. Hard: a median at or
// over the threshold is hard even as a lower bound; an exact one below it
// is not; a lower bound below it cannot tell. Unlucky: an exact original
// under a censored p90 is not unlucky (the true p90 is at least the limit,
// which the original did not reach); over exact quantiles, a censored
// original that passes both tests is unlucky, and one that fails the
// ratio cannot tell; over a censored p90, a censored original cannot
// tell. A verdict is given when the conditions that decide it are known.
func judge(ov float64, origCens bool, d rundir.Dist, minCens, corpusMedian float64, hasMedian bool, measure string) judged {
	exact := func(q float64) bool { return q < minCens }
	hard := unknown
	thr := HardFactor * math.Max(corpusMedian, 1)
	switch {
	case !hasMedian:
	case d.Median >= thr:
		hard = yes
	case exact(d.Median):
		hard = no
	}
	cond := ov > d.P90 && ov >= UnluckyFactor*math.Max(d.Median, 1)
	unlucky := unknown
	switch {
	case !origCens && !exact(d.P90):
		unlucky = no
	case !origCens && cond:
		unlucky = yes
	case !origCens:
		unlucky = no
	case exact(d.P90) && cond:
		unlucky = yes
	}
	var j judged
	switch {
	case hard == yes && unlucky == yes:
		j.verdict = rundir.VerdictHardUnlucky
	case hard == yes:
		j.verdict = rundir.VerdictHard
	case unlucky == yes:
		j.verdict = rundir.VerdictUnlucky
	case hard == no && unlucky == no:
		j.verdict = rundir.VerdictTypical
	}
	limited := "a limit stopped too many of the solves to tell (raise -max-calls or -timeout)"
	switch {
	case hard == unknown && hasMedian:
		j.why = fmt.Sprintf("hard cannot be told: the variants' median is a lower bound under %s, the threshold (%gx the corpus median); %s",
			fmtValue(thr, measure), HardFactor, limited)
	case unlucky == unknown && j.verdict != rundir.VerdictHard:
		j.why = "unlucky cannot be told: " + limited
	case unlucky == unknown:
		j.why = "whether it is also unlucky cannot be told: " + limited
	}
	return j
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// fmtValue writes v in the unit of measure: a duration for "ns" (to four
// significant digits, as fmtNum), else a number of calls.
func fmtValue(v float64, measure string) string {
	if measure != "ns" {
		return fmtNum(v)
	}
	r, _ := strconv.ParseFloat(fmtNum(v), 64)
	return time.Duration(r).String()
}

// minCensored returns the smallest value among the units a limit stopped
// (+Inf when none).
func minCensored(units []unit, measure string) float64 {
	m := math.Inf(1)
	for _, u := range units {
		if u.row.Status.Censored() {
			m = math.Min(m, value(u.row, measure))
		}
	}
	return m
}

// seedLuck separates a randomized strategy's luck of the seed (the
// original orientation under each seed) from the luck of the orientation
// (each orientation's median over the seeds).
func seedLuck(units []unit, measure string) *rundir.SeedLuck {
	sl := &rundir.SeedLuck{}
	byK := map[int][]unit{}
	var orig []unit
	for _, u := range units {
		if u.line.k == 0 {
			orig = append(orig, u)
		}
		byK[u.line.k] = append(byK[u.line.k], u)
	}
	slices.SortFunc(orig, func(a, b unit) int { return a.line.j - b.line.j })
	for _, u := range orig {
		sl.Original = append(sl.Original, u.variantUnit())
	}
	sl.Dist = dist(orig, measure)
	if len(orig) > 0 && orig[0].line.j == 0 && orig[0].row.Status.Measured() {
		sl.Pct = percentile(measuredValues(orig, measure), value(orig[0].row, measure))
	}
	var medians []float64
	var origMedian float64
	for k, us := range byK {
		vs := measuredValues(us, measure)
		if len(vs) == 0 {
			continue
		}
		m := quantile.Median(vs)
		if k == 0 {
			origMedian = m
			continue
		}
		medians = append(medians, m)
	}
	slices.Sort(medians)
	sl.Orientations = distOf(medians, 0)
	if len(medians) > 0 {
		sl.OrientationPct = percentile(medians, origMedian)
	}
	return sl
}

// measuredValues returns the sorted values of the units that were
// measured (solved, or stopped at a limit: a lower bound).
func measuredValues(units []unit, measure string) []float64 {
	var vs []float64
	for _, u := range units {
		if u.row.Status.Measured() {
			vs = append(vs, value(u.row, measure))
		}
	}
	slices.Sort(vs)
	return vs
}

func dist(units []unit, measure string) rundir.Dist {
	censored := 0
	for _, u := range units {
		if u.row.Status.Censored() {
			censored++
		}
	}
	return distOf(measuredValues(units, measure), censored)
}

// distOf summarises sorted values. Its quantiles are the tool's one
// estimator (internal/quantile), the summary's: each is the value of one
// unit, so that judge can tell an exact one from one a limit reached by
// comparing it with the smallest stopped value; with 100 variants the
// p90 is the 90th smallest.
func distOf(vs []float64, censored int) rundir.Dist {
	if len(vs) == 0 {
		return rundir.Dist{}
	}
	return rundir.Dist{N: len(vs), Censored: censored, Median: quantile.Median(vs), Q1: quantile.Of(vs, 0.25),
		Q3: quantile.Of(vs, 0.75), P90: quantile.Of(vs, 0.9), Max: vs[len(vs)-1]}
}

// percentile is the share (%) of sorted vs at most v.
func percentile(vs []float64, v float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	n := 0
	for _, x := range vs {
		if x <= v {
			n++
		}
	}
	return 100 * float64(n) / float64(len(vs))
}

// Verdicts returns the thresholds in one line, as printed with every
// verdict.
func Verdicts() string {
	return fmt.Sprintf("hard: the variants' median is %gx the corpus median or more; "+
		"unlucky: the original is above the variants' p%g and %gx their median or more; else typical",
		HardFactor, UnluckyPct, UnluckyFactor)
}
