package report

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sudokubatch/rundir"
)

// ErrNothingToCompare is wrapped by the error of Compare when the two runs
// have no strategy or no puzzle in common.
var ErrNothingToCompare = errors.New("nothing to compare")

// Comparison is the difference between two runs, OLD and NEW, per
// strategy present in both. Compare computes it; WriteText and WriteJSON
// render it and do not change it.
//
// Puzzles are joined on (corpus, id): a corpus of NEW is the corpus of
// OLD with the same name or, failing that, with the same SHA-256 (from
// run.json).
//
// Counters (status, calls, guesses, backtracks) are compared exactly,
// unit by unit, except on the units a timeout stopped in either run:
// where a timeout stops a search depends on the machine and its load,
// so those units are counted apart (TimeoutOld, TimeoutNew). Units
// stopped by a call limit are compared like the others: the limit makes
// them deterministic.
//
// Times are compared as ratios NEW/OLD of the medians and of the totals
// over the units measured in both runs (every status but invalid,
// unsupported and error). As in the summary, a unit stopped by a timeout
// or a call limit enters at the time it had reached, a lower bound of its
// true time; a median or a total it could move is a lower bound, so a
// ratio is a lower bound (≥) when only NEW's side is one, an upper bound
// (≤) when only OLD's is, and could lie on either side (~) when both are.
//
// The two runs are paired by puzzle (see paired.go): the ratio of median
// times gets a 95% interval, a percentile bootstrap over the puzzles
// (with a fixed seed: the same runs give the same interval), and the
// per-puzzle log ratios of time, and of calls, a Wilcoxon signed-rank
// test. The interval covers the spread of the puzzles and of each
// time's noise, not a change of the machine's speed between the two runs
// (another process on its cores, a clock, a cache shared with other
// work): that moves every time of a run alike, and one run of each side
// cannot tell it from a change of the code. Two runs of the same code on
// a busy machine have intervals that exclude ×1 (×1.03 [1.02, 1.04]) more
// often than not. So a verdict allows for a change of the machine's speed
// up to Noise: a strategy's Verdict is "slower" when the interval lies
// above Noise and the test finds the times larger (p < 0.05), "faster"
// when it lies below 1/Noise and the test finds them smaller, "no change"
// otherwise (WithinNoise when the interval excludes 1 and the test agrees:
// a change smaller than the noise); it is "undecided" when the ratio is a
// bound that could reverse that verdict (a lower bound that is not
// "slower", an upper bound that is not "faster", a ratio that could lie
// either side). Threshold marks a strategy Slower when the interval's
// lower end is above it and the ratio is exact or a lower bound: a
// slowdown surely beyond the threshold (which should allow for the
// noise too: 1.10 or more on a busy machine).
//
// The largest time regressions are ranked by the ratio NEW/OLD of the
// units finished in both runs and, when both runs have the timing
// columns (TimesConfirmed), whose times are confirmed in both (measured
// more than once: see Timing); a run without them lists every finished
// unit, its times measured once. Only changes beyond the noise are
// listed: counted from the strategy's own change (the median of its
// units' ratios) when it is slower, a ratio beyond Noise and beyond 3
// robust standard deviations of the units' ratios (regressionFloor).
type Comparison struct {
	Old        RunRef          `json:"old"`
	New        RunRef          `json:"new"`
	Threshold  float64         `json:"threshold"` // 0: no check
	Noise      float64         `json:"noise"`     // CompareOptions.Noise, or DefaultNoise
	Top        int             `json:"top"`
	Strategies []*StrategyDiff `json:"strategies"` // present in both runs, in OLD's order
	OnlyOld    []string        `json:"only_old"`   // strategies only in OLD
	OnlyNew    []string        `json:"only_new"`   // strategies only in NEW
	Corpora    []CorpusPair    `json:"corpora"`    // the corpora joined
	Warnings   []string        `json:"warnings"`   // what makes the comparison less than like for like
	Slower     []string        `json:"slower"`     // strategies surely past the threshold
	// TimesConfirmed: both runs have the timing columns, and the time
	// regressions are ranked over confirmed times only.
	TimesConfirmed bool `json:"times_confirmed"`
}

// RunRef describes one of the compared runs.
type RunRef struct {
	Path    string   `json:"path"`
	RunID   string   `json:"run_id,omitempty"`
	Status  string   `json:"status,omitempty"`
	Corpora []string `json:"corpora"`
	Puzzles int      `json:"puzzles"`
	Rows    int      `json:"rows"`
}

// CorpusPair is a corpus of OLD joined to a corpus of NEW.
type CorpusPair struct {
	Old string `json:"old"`
	New string `json:"new"`
	By  string `json:"by"` // "name" or "sha256"
}

// StrategyDiff compares one strategy's units in the two runs.
type StrategyDiff struct {
	Solver string `json:"solver"`
	// TimeBasis is the time the times are compared by: the strategy's
	// basis (Series.Basis) when both runs have the same, else the round
	// trip of both (TimeBasisOld and TimeBasisNew differ; a warning says so).
	TimeBasis      TimeBasis   `json:"time_basis"`
	TimeBasisOld   TimeBasis   `json:"time_basis_old"`
	TimeBasisNew   TimeBasis   `json:"time_basis_new"`
	Common         int         `json:"common"`   // puzzles with a row in both runs
	OnlyOld        int         `json:"only_old"` // puzzles with a row in OLD only
	OnlyNew        int         `json:"only_new"`
	OnlyOldPuzzles []PuzzleRef `json:"only_old_puzzles"` // the first Top of them, in file order
	OnlyNewPuzzles []PuzzleRef `json:"only_new_puzzles"`

	TimeoutOld int          `json:"timeout_old"` // common units stopped by a timeout in OLD (not compared on counters)
	TimeoutNew int          `json:"timeout_new"`
	Compared   int          `json:"compared"` // common units with no timeout in either run
	Changed    Changes      `json:"changed"`  // of the compared units
	Largest    []UnitChange `json:"largest_changes"`

	Timed       int      `json:"timed"`       // common units measured in both runs: the time ratios are over them
	StoppedOld  int      `json:"stopped_old"` // of those, stopped by a timeout or a call limit in OLD
	StoppedNew  int      `json:"stopped_new"`
	MedianOldNS Estimate `json:"median_old_ns"`
	MedianNewNS Estimate `json:"median_new_ns"`
	MedianRatio Ratio    `json:"median_ratio"` // NEW/OLD
	TotalOldNS  int64    `json:"total_old_ns"`
	TotalNewNS  int64    `json:"total_new_ns"`
	TotalRatio  Ratio    `json:"total_ratio"` // NEW/OLD

	// Paired by puzzle, over the Timed units: the 95% bootstrap interval
	// of MedianRatio, from Resamples resamples of the Blocks timing blocks
	// (see medianRatioCI; 0: of the puzzles), and the signed-rank test of
	// log(NEW/OLD time) per unit.
	TimeCI    RatioCI    `json:"time_ci"`
	Resamples int        `json:"resamples"`
	Blocks    int        `json:"blocks"`
	TimeTest  SignedRank `json:"time_test"`
	Verdict   string     `json:"verdict"` // VerdictSame, VerdictSlower, VerdictFaster or VerdictUndecided; "" when Timed is 0
	// WithinNoise: the Verdict is VerdictSame, but the interval excludes 1
	// and the test agrees (p < 0.05): the runs differ by less than the
	// Noise a machine's speed allows.
	WithinNoise bool `json:"within_noise"`
	// The signed-rank test of log(NEW/OLD calls) per unit (a count of 0
	// taken as 1), over the Compared units: P is 1 when no calls changed.
	CallsTest    SignedRank `json:"calls_test"`
	CallsVerdict string     `json:"calls_verdict"` // VerdictSame, VerdictMore, VerdictFewer or VerdictChanged

	Slower bool `json:"slower"` // TimeCI above the threshold, MedianRatio exact or a lower bound
	// ThresholdUndecided: TimeCI lies above the threshold, but the ratio
	// is an upper bound or could lie either side: not counted Slower.
	ThresholdUndecided bool `json:"threshold_undecided"`

	// The largest time regressions: units finished in both runs (and
	// with their times confirmed in both when Comparison.TimesConfirmed)
	// whose NEW/OLD is beyond the noise (regressionFloor), ranked by
	// NEW/OLD, the largest first; Ranked is how many units they were
	// ranked among.
	Regressions []TimeChange `json:"time_regressions"`
	Ranked      int          `json:"ranked"`
}

// TimeChange is one unit whose time grew.
type TimeChange struct {
	Puzzle    PuzzleRef `json:"puzzle"` // as OLD names it
	OldNS     int64     `json:"old_ns"`
	NewNS     int64     `json:"new_ns"`
	Ratio     float64   `json:"ratio"` // NEW/OLD, a time below 1ns taken as 1
	OldCalls  uint64    `json:"old_calls"`
	NewCalls  uint64    `json:"new_calls"`
	Confirmed bool      `json:"confirmed"` // both times were measured more than once
}

// Changes counts the compared units whose counters differ.
type Changes struct {
	Any        int `json:"any"` // units with at least one change
	Status     int `json:"status"`
	Calls      int `json:"calls"`
	Guesses    int `json:"guesses"`
	Backtracks int `json:"backtracks"`
}

// UnitChange is one unit whose calls changed.
type UnitChange struct {
	Puzzle        PuzzleRef `json:"puzzle"` // as OLD names it
	OldStatus     string    `json:"old_status"`
	NewStatus     string    `json:"new_status"`
	OldCalls      uint64    `json:"old_calls"`
	NewCalls      uint64    `json:"new_calls"`
	OldGuesses    uint64    `json:"old_guesses"`
	NewGuesses    uint64    `json:"new_guesses"`
	OldBacktracks uint64    `json:"old_backtracks"`
	NewBacktracks uint64    `json:"new_backtracks"`
	CallsRatio    float64   `json:"calls_ratio"` // NEW/OLD, a count of 0 taken as 1
}

// Ratio is NEW/OLD of a statistic. Bound is lower when the true ratio
// can only be higher (only NEW's side was moved by stopped units), upper
// when it can only be lower; Either is set when both sides were (the true
// ratio may lie on either side).
type Ratio struct {
	Value  float64 `json:"value"`
	Bound  Bound   `json:"bound,omitempty"`
	Either bool    `json:"either,omitempty"`
}

// Compare compares NEW with OLD. The error wraps ErrNothingToCompare when
// they share no strategy or no puzzle; it is ctx.Err() when ctx is
// canceled (checked between strategies and every few thousand units).
func Compare(ctx context.Context, oldRun, newRun *Run, opt CompareOptions) (*Comparison, error) {
	top := opt.Top
	if top <= 0 {
		top = DefaultCompareTop
	}
	noise := opt.Noise
	if noise < 1 {
		noise = DefaultNoise
	}
	c := &Comparison{Old: runRef(oldRun), New: runRef(newRun), Threshold: opt.Threshold, Noise: noise, Top: top,
		Strategies: []*StrategyDiff{}, OnlyOld: []string{}, OnlyNew: []string{}, Corpora: []CorpusPair{},
		Warnings: []string{}, Slower: []string{}, TimesConfirmed: oldRun.Results.Timed && newRun.Results.Timed}
	newToOld := c.joinCorpora(oldRun, newRun)
	c.compareSettings(oldRun.Manifest, newRun.Manifest)

	for _, ser := range oldRun.Results.Series {
		if newRun.Results.Solver(ser.Solver) == nil {
			c.OnlyOld = append(c.OnlyOld, ser.Solver)
		}
	}
	for _, ser := range newRun.Results.Series {
		if oldRun.Results.Solver(ser.Solver) == nil {
			c.OnlyNew = append(c.OnlyNew, ser.Solver)
		}
	}
	common := 0
	for _, oser := range oldRun.Results.Series {
		nser := newRun.Results.Solver(oser.Solver)
		if nser == nil {
			continue
		}
		oser, nser, basis, note := sameBasis(oser, nser)
		if note != "" {
			c.Warnings = append(c.Warnings, note)
		}
		d, err := compareSeries(ctx, oldRun.Results, newRun.Results, oser, nser, newToOld, top, c.TimesConfirmed, noise,
			[2]int{shardsOf(oldRun.Manifest), shardsOf(newRun.Manifest)})
		if err != nil {
			return nil, err
		}
		if opt.Threshold > 0 && d.Timed > 0 && d.TimeCI.Lo > opt.Threshold {
			if d.MedianRatio.Either || d.MedianRatio.Bound == BoundUpper {
				d.ThresholdUndecided = true
			} else {
				d.Slower = true
				c.Slower = append(c.Slower, d.Solver)
			}
		}
		d.TimeBasis, d.TimeBasisOld, d.TimeBasisNew = basis, oldRun.Results.Solver(d.Solver).Basis(), newRun.Results.Solver(d.Solver).Basis()
		common += d.Common
		c.Strategies = append(c.Strategies, d)
	}
	switch {
	case len(c.Strategies) == 0:
		return c, fmt.Errorf("comparing %s with %s: %w: no strategy in both (OLD has %s; NEW has %s)", oldRun.Path, newRun.Path,
			ErrNothingToCompare, strings.Join(oldRun.Results.SolverNames(), ", "), strings.Join(newRun.Results.SolverNames(), ", "))
	case common == 0:
		return c, fmt.Errorf("comparing %s with %s: %w: no puzzle in both (OLD is over %s; NEW over %s)", oldRun.Path, newRun.Path,
			ErrNothingToCompare, corpusList(oldRun.Results.Corpora), corpusList(newRun.Results.Corpora))
	}
	return c, nil
}

// corpusList names corpora in a message: all of them up to a few, else
// the first few and how many more.
func corpusList(names []string) string {
	const most = 5
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more corpora", strings.Join(names[:most], ", "), len(names)-most)
}

func runRef(r *Run) RunRef {
	ref := RunRef{Path: r.Path, Corpora: append([]string{}, r.Results.Corpora...), Puzzles: r.Results.Puzzles, Rows: r.Results.Rows}
	if r.Manifest != nil {
		ref.RunID, ref.Status = r.Manifest.RunID, r.Manifest.Status
	}
	return ref
}

// joinCorpora maps each corpus index of NEW to the index of the same
// corpus in OLD, or -1: by name for every corpus first, then by SHA-256
// for those left (RunCorpora.Match).
func (c *Comparison) joinCorpora(oldRun, newRun *Run) []int {
	oc, nc := oldRun.Results.Corpora, newRun.Results.Corpora
	oldIndex := make(map[string]int, len(oc))
	for j, name := range oc {
		if _, dup := oldIndex[name]; !dup {
			oldIndex[name] = j
		}
	}
	olds := oldRun.Corpora()
	oldSHA, newSHA := oldRun.corpusSHAs(), newRun.corpusSHAs()
	newToOld := make([]int, len(nc))
	taken := make([]bool, len(oc))
	isTaken := func(name string) bool {
		j, ok := oldIndex[name]
		return !ok || taken[j] // a corpus without rows in OLD joins nothing
	}
	for i, name := range nc {
		newToOld[i] = -1
		old, _ := olds.Match(name, "", isTaken)
		if old == "" {
			continue
		}
		j := oldIndex[old]
		newToOld[i], taken[j] = j, true
		c.Corpora = append(c.Corpora, CorpusPair{Old: old, New: name, By: ByName})
		if a, b := oldSHA[old], newSHA[name]; a != "" && b != "" && a != b {
			c.Warnings = append(c.Warnings, fmt.Sprintf("corpus %s is not the same file in both runs (SHA-256 %.12s… vs %.12s…): "+
				"an id may name different puzzles", name, a, b))
		}
	}
	for i, name := range nc {
		sha := newSHA[name]
		if newToOld[i] >= 0 || sha == "" {
			continue
		}
		old, _ := olds.Match("", sha, isTaken)
		if old == "" {
			continue
		}
		j := oldIndex[old]
		newToOld[i], taken[j] = j, true
		c.Corpora = append(c.Corpora, CorpusPair{Old: old, New: name, By: BySHA256})
		c.Warnings = append(c.Warnings, fmt.Sprintf("corpus %s of OLD is %s in NEW (same SHA-256): joined", old, name))
	}
	var onlyOld, onlyNew []string
	for j, name := range oc {
		if !taken[j] {
			onlyOld = append(onlyOld, name)
		}
	}
	for i, name := range nc {
		if newToOld[i] < 0 {
			onlyNew = append(onlyNew, name)
		}
	}
	c.warnOnlyIn("OLD", onlyOld)
	c.warnOnlyIn("NEW", onlyNew)
	return newToOld
}

// warnOnlyIn warns about the corpora of one run only: one warning each
// for the first few, one for the rest.
func (c *Comparison) warnOnlyIn(run string, names []string) {
	const most = 10
	for k, name := range names {
		if k == most {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%d more corpora are only in %s: their puzzles are not compared", len(names)-most, run))
			return
		}
		c.Warnings = append(c.Warnings, fmt.Sprintf("corpus %s is only in %s: its puzzles are not compared", name, run))
	}
}

// compareSettings warns about settings and machines that make counters
// or times differ for reasons other than the code.
func (c *Comparison) compareSettings(a, b *rundir.Manifest) {
	if a == nil || b == nil {
		return
	}
	sa, sb := a.Settings, b.Settings
	if sa.TimeoutNS != sb.TimeoutNS {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the runs have different timeouts (%s vs %s): "+
			"units may be stopped in one and not in the other", orNone(sa.Timeout, sa.TimeoutNS), orNone(sb.Timeout, sb.TimeoutNS)))
	}
	if sa.MaxCalls != sb.MaxCalls {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the runs have different call limits (-max-calls %d vs %d): "+
			"the counters of units near the limit differ for that reason alone", sa.MaxCalls, sb.MaxCalls))
	}
	if sa.Seed != sb.Seed {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the runs have different seeds (%d vs %d): "+
			"randomized strategies take other paths", sa.Seed, sb.Seed))
	}
	if len(a.Segments) > 0 && len(b.Segments) > 0 {
		ga, gb := a.Segments[0], b.Segments[0]
		ma, mb := ga.Machine, gb.Machine
		switch {
		case ma.CPU != mb.CPU || ma.NumCPU != mb.NumCPU || ma.GOARCH != mb.GOARCH:
			c.Warnings = append(c.Warnings, fmt.Sprintf("the runs were measured on different machines (%s, %d CPUs vs %s, %d CPUs): "+
				"the time ratios compare the machines too", ma.CPU, ma.NumCPU, mb.CPU, mb.NumCPU))
		case ma.GOMAXPROCS != mb.GOMAXPROCS && ga.Workers == gb.Workers:
			// A sweep of fewer workers than processors runs on as many
			// (sweep.FitProcs): GOMAXPROCS follows -workers, which is no
			// other machine. With the same workers it differs where
			// GOMAXPROCS was set, or a run is from before FitProcs.
			c.Warnings = append(c.Warnings, fmt.Sprintf("both runs had %s, on %s in OLD and %d in NEW (GOMAXPROCS): "+
				"the time ratios compare that too", Count(ga.Workers, "worker", "workers"),
				Count(ma.GOMAXPROCS, "processor", "processors"), mb.GOMAXPROCS))
		}
	}
}

func orNone(s string, ns int64) string {
	if ns == 0 {
		return "none"
	}
	return s
}

// shardsOf returns the number of shards of a run: n for a shard k/n,
// the count a merged run records (rundir.Manifest.Shards), else 1. Units
// of different shards were timed by different processes.
func shardsOf(m *rundir.Manifest) int {
	switch {
	case m == nil:
		return 1
	case m.Settings.Shard != "":
		if _, n, err := rundir.ParseShard(m.Settings.Shard); err == nil {
			return n
		}
	case m.Shards > 1:
		return m.Shards
	}
	return 1
}

// unitRatio is a unit's time ratio NEW/OLD, with its rows in OLD and NEW.
type unitRatio struct {
	ratio    float64
	old, new int32
}

// largestRegressions returns the top units of slower by ratio, the
// largest first (ties in OLD's file order).
func largestRegressions(oldRes *Results, oser, nser *Series, slower []unitRatio, top int) []TimeChange {
	slices.SortFunc(slower, func(a, b unitRatio) int {
		return cmp.Or(cmp.Compare(b.ratio, a.ratio), cmp.Compare(a.old, b.old))
	})
	changes := make([]TimeChange, 0, min(top, len(slower)))
	for _, u := range slower[:min(top, len(slower))] {
		o, n := oser.At(int(u.old)), nser.At(int(u.new))
		changes = append(changes, TimeChange{Puzzle: puzzleRef(oldRes, &o), OldNS: o.NS, NewNS: n.NS, Ratio: u.ratio,
			OldCalls: o.Calls, NewCalls: n.Calls, Confirmed: o.Timing&n.Timing&Confirmed != 0})
	}
	return changes
}

// ratio returns n/o (a value below 1 taken as 1: a time is at least 1ns)
// with its bound: either side may be a lower bound.
func ratio(n, o Estimate) Ratio {
	r := Ratio{Value: max(n.Value, 1) / max(o.Value, 1)}
	nl, ol := n.Bound == BoundLower, o.Bound == BoundLower
	switch {
	case nl && ol:
		r.Either = true
	case nl:
		r.Bound = BoundLower
	case ol:
		r.Bound = BoundUpper
	}
	return r
}
