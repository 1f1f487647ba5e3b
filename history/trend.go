package history

import (
	"time"

	"sudokubatch/report"
)

// The defaults of the detectors (Options).
const (
	// DefaultBaseline is how many previous nights the nightly time gate
	// compares the newest night with.
	DefaultBaseline = 7
	// MinBaseline is the fewest previous nights the gate needs: with
	// fewer, a strategy's verdict is "not enough history".
	MinBaseline = 3
	// DefaultThreshold is the smallest change of time, as a share, that
	// the gate and the change points alarm on: 5%.
	DefaultThreshold = 0.05
	// DefaultBusy is the share of the workers' CPU time that other work may
	// take while a night's units are timed before the night is a busy
	// one, judged against busy nights only: 10%.
	DefaultBusy = 0.10
	// BlindNights is how many nights in a row (trend's help says 3) a strategy's gate may judge
	// nothing before trend says, every night until it judges one, that
	// the gate is blind to it.
	BlindNights = 3
	// spreadSigmas is how many standard deviations of a strategy's
	// nightly level (over its baseline nights, the machine's factor
	// taken out) a change must exceed, beside the threshold.
	spreadSigmas = 3
	// MinStepSide is the fewest nights on each side of a change point:
	// one slow night is a spike, not a step.
	MinStepSide = 3
	// DefaultTop is how many puzzles an alarm lists as those that moved
	// most, and CounterIDs how many puzzle ids a counters change lists.
	DefaultTop = 10
	CounterIDs = 20
)

// Options are the settings of the detectors.
type Options struct {
	Baseline  int     // previous nights of the gate's baseline; 0: DefaultBaseline
	Threshold float64 // minimum effect, a share (0.05 for 5%); 0: DefaultThreshold
	Top       int     // moved puzzles listed per alarm; 0: DefaultTop
	// SameBuild alarms on slowdowns between nights of one build too. By
	// default a slowdown of a night whose build (revision, Go version,
	// build tags: Night.Build) is that of every night it is compared with
	// is "slower, same build", not an alarm: the code did not change, the
	// machine did.
	SameBuild bool
	// Busy is the share of the workers' CPU time other work may take during
	// a night before it is a busy night: the gate judges a busy night
	// against busy nights, a quiet one against quiet ones, and the change
	// points look for steps within each kind (see baselineOf); 0:
	// DefaultBusy, 1 or more: every night is quiet.
	Busy float64
	// Memo holds the gate's verdicts of earlier nights, by run id, as
	// trend keeps them in the index: Evaluate reads a night's verdicts
	// there instead of reading its rows and its baseline's again (when
	// they were computed with the same settings and acknowledgements),
	// and adds those it computes. Nil: none kept.
	Memo Memo `json:"-"`
	// Delivered is what trend runs have told of the results root
	// (ReadDelivered): with it, an alarm is new until a trend has
	// delivered it (printed it and exited 1), whichever night raised it,
	// and the nights since the last trend (at most Baseline of them) are
	// examined for their own alarms. Nil: an alarm is new on the night
	// that raises it only.
	Delivered *Delivered `json:"-"`
}

// Memo is the gate's verdicts of nights, by run id: one set per key of
// the settings they were computed with, the newest first.
type Memo map[string][]*NightVerdicts

// memoKeys is how many sets of verdicts, of as many settings, a night
// keeps: an exploratory trend with other settings adds its own, and does
// not replace the nightly trend's.
const memoKeys = 3

// get returns the verdicts of night runID under key, or nil.
func (m Memo) get(runID, key string) *NightVerdicts {
	for _, v := range m[runID] {
		if v.Key == key {
			return v
		}
	}
	return nil
}

// put keeps v as the verdicts of night runID under v.Key, first.
func (m Memo) put(runID string, v *NightVerdicts) {
	if m == nil {
		return
	}
	kept := []*NightVerdicts{v}
	for _, o := range m[runID] {
		if o.Key != v.Key && len(kept) < memoKeys {
			kept = append(kept, o)
		}
	}
	m[runID] = kept
}

// NightVerdicts is the gate's verdict of each strategy on one night,
// under the settings and acknowledgements Key names.
type NightVerdicts struct {
	Key      string            `json:"key"`
	Verdicts map[string]string `json:"verdicts"`
	// Shown are the strategies' verdicts as trend printed them when the
	// night was the newest (a counters change, "still slower", an
	// acknowledgement: not the gate's alone), for the nights' table.
	Shown map[string]string `json:"shown,omitempty"`
}

// The verdicts of a strategy on a night (StrategyTrend.Verdict).
const (
	VerdictNoChange     = "no change"
	VerdictSlower       = "slower"    // the gate: slower beyond the threshold, beyond the machine's change
	VerdictFaster       = "faster"    // the gate: faster beyond the threshold (not an alarm)
	VerdictUndecided    = "undecided" // the ratio is a bound that could reverse the verdict
	VerdictNotEnough    = "not enough history"
	VerdictNoRows       = "no rows"                  // the rows of the night or of its baseline are gone (pruned)
	VerdictStillSlower  = "still slower"             // slower, as the night before: the alarm was raised then
	VerdictSameBuild    = "slower, same build"       // slower, but the build is its baseline's: the machine's, not an alarm
	VerdictBusy         = "slower on a busy machine" // slower, but not judged: its baseline is not as busy as the night (too few nights as busy); the night enters no later baseline of the strategy
	VerdictDisturbed    = "slower, machine moved"    // slower, but not judged: every strategy moved beyond twice the threshold against its baseline (the night's machine, or its baseline nights', was not as usual); the night enters no later baseline of the strategy
	VerdictCounters     = "counters changed"         // behaviour change: the counters detector
	VerdictNewStrategy  = "new"                      // no earlier night of the series has this strategy
	VerdictMissing      = "missing"                  // the strategy ran on earlier nights of the series, not on this one
	VerdictAcknowledged = "acknowledged"             // an alarm of this night, acknowledged
)

// The kinds of an alarm (Alarm.Kind).
const (
	AlarmCounters = "counters" // a deterministic strategy's counters changed
	AlarmTime     = "time"     // the nightly gate: slower than the baseline
	AlarmStep     = "step"     // a change point found over the series, up (slower)
	AlarmMissing  = "missing"  // a strategy of the series' earlier nights did not run
)

// Report is what trend found in one series: per strategy the newest
// night against its baseline, the alarms of the newest night, and the
// change points over the whole series.
type Report struct {
	Series  *Series
	Newest  *Night
	Options Options
	// Machine is the change common to every strategy of the newest night
	// against its baseline (the median of the strategies' ratios): the
	// machine's speed, or code every strategy shares. Nil without a gate.
	Machine    *MachineChange
	Strategies []*StrategyTrend
	// Alarms are the newest night's alarms, acknowledged or not; New ones
	// not acknowledged make trend exit 1.
	Alarms []*Alarm
	// Steps are the change points of every strategy over the series, in
	// night order.
	Steps []*Step
	// Nights are the series' nights, oldest first, with what is known
	// of each: for the history page.
	Nights []*NightRow
	// Notes say what the detectors could not do (rows gone, too few
	// strategies for the machine's factor) and why.
	Notes []string
	// Blind are the strategies whose gate has judged none of the last
	// BlindNights nights or more: a slowdown there is no alarm.
	Blind []*Blind

	levels  map[string][]float64 // per strategy, the log median of each night, the machine's factor out (levels)
	machine []float64            // per night, the log of the machine's factor taken out of its levels (NaN: not taken out)
}

// NightRow is one night of a series on the history page: its verdict per
// strategy when the gate was computed for it (trend computes it for the
// newest nights and keeps it in the index), and the alarms and steps
// raised on it.
type NightRow struct {
	Night NightRef `json:"night"`
	// Page is the night's page (its index.html), relative to the results
	// root; empty when the run has none (pruned, or never reported).
	Page string `json:"page,omitempty"`
	// Verdicts maps a strategy to its verdict that night; a strategy the
	// gate was not computed for on that night is absent.
	Verdicts map[string]string `json:"verdicts,omitempty"`
	Alarms   []*Alarm          `json:"alarms,omitempty"` // raised that night (steps starting that night included)
}

// Blind is a strategy the gate has not judged for Nights nights in a
// row, up to the newest, and why.
type Blind struct {
	Solver string `json:"solver"`
	Nights int    `json:"nights"`
	Why    string `json:"why"` // the newest night's reason
}

// MachineChange is the change of time common to the strategies.
type MachineChange struct {
	Ratio      float64 `json:"ratio"`      // median of the strategies' ratios of medians, newest / baseline
	Strategies int     `json:"strategies"` // how many strategies it is the median of
	Used       bool    `json:"used"`       // the gate divided the ratios by it (3 strategies or more)
}

// StrategyTrend is one strategy of the newest night of a series.
type StrategyTrend struct {
	Solver   string         `json:"solver"`
	Last     *Strategy      `json:"last"` // the newest night's figures
	Verdict  string         `json:"verdict"`
	Gate     *Gate          `json:"gate,omitempty"`
	Counters *CounterChange `json:"counters,omitempty"`
	Since    *NightRef      `json:"since,omitempty"` // VerdictStillSlower: the night the alarm was raised
	Drift    *report.Ratio  `json:"drift,omitempty"` // median time, newest / first night of the series (or the last acknowledged one), the machine's factor of each night taken out
	Ack      *Ack           `json:"ack,omitempty"`
	History  []NightFigures `json:"-"` // the series' nights of this strategy, for the charts
}

// NightRef names a night of a series.
type NightRef struct {
	Index    int       `json:"index"` // 1-based, in the series
	Run      string    `json:"run"`
	Start    time.Time `json:"start"`
	Revision string    `json:"revision"`
}

// NightFigures is one night of one strategy, for the charts.
type NightFigures struct {
	Night    NightRef
	Strategy *Strategy
}

// Gate is the nightly time gate of one strategy: the newest night
// against the per-puzzle median of its baseline nights, paired by puzzle
// as batch compare pairs two runs.
type Gate struct {
	Baseline []string        `json:"baseline"` // runs of the baseline nights, oldest first
	Pairs    int             `json:"pairs"`    // units measured in the newest night and the baseline
	BaseNS   report.Estimate `json:"baseline_median_ns"`
	NewNS    report.Estimate `json:"median_ns"`
	Ratio    report.Ratio    `json:"ratio"`   // of medians, newest / baseline
	CI       report.RatioCI  `json:"ci"`      // its 95% interval
	Machine  float64         `json:"machine"` // the machine's common factor it is divided by (1: none)
	// Spread is the change the strategy's nightly level reaches by noise
	// alone: exp(3 standard deviations) of its log nightly median over
	// the baseline nights, the machine's factor taken out (1 with fewer
	// than 3). A slowdown must exceed it as well as the threshold.
	Spread     float64        `json:"spread"`
	Adjusted   float64        `json:"adjusted"`    // Ratio / Machine
	AdjustedCI report.RatioCI `json:"adjusted_ci"` // CI / Machine
	Verdict    string         `json:"verdict"`     // VerdictSlower, VerdictFaster, VerdictNoChange or VerdictUndecided
	Moved      []Moved        `json:"moved"`       // the puzzles that moved most, slower first
}

// Moved is a puzzle whose time moved: its baseline (the per-puzzle
// median of the baseline nights) and its newest time.
type Moved struct {
	Puzzle    report.PuzzleRef `json:"puzzle"`
	OldNS     int64            `json:"old_ns"`
	NewNS     int64            `json:"new_ns"`
	Ratio     float64          `json:"ratio"`
	Confirmed bool             `json:"confirmed"` // both times measured more than once
}

// CounterChange is the counters detector of one strategy: the newest
// night against the newest earlier night of the series that has its
// rows, unit by unit.
type CounterChange struct {
	Previous      string `json:"previous"`       // run of the night compared with: the newest earlier one with rows
	PreviousIndex int    `json:"previous_index"` // its place in the series, 1-based
	// Passed are the earlier nights passed over because their rows are
	// gone (pruned), newest first: the night compared with is not the one
	// just before.
	Passed   []string `json:"passed,omitempty"`
	Compared int      `json:"compared"` // units in both, stopped by no timeout in either
	Timeouts int      `json:"timeouts"` // units a timeout stopped in either night: not compared
	Changed  int      `json:"changed"`  // compared units whose status, calls or guesses differ
	// IDs are the first CounterIDs changed puzzles, in corpus order.
	IDs []report.PuzzleRef `json:"ids"`
	// Skipped says why the counters were not compared (another seed for a
	// randomised strategy, the rows gone); empty when they were.
	Skipped string `json:"skipped,omitempty"`
}

// Step is a change point of one strategy's median time over a series:
// the level of the nights from Night on differs from the level before it
// by more than the threshold, with MinStepSide nights on each side.
type Step struct {
	Solver string   `json:"solver"`
	Night  NightRef `json:"night"`  // the first night of the new level
	Before float64  `json:"before"` // median of the nightly medians before, ns
	After  float64  `json:"after"`  // and from Night on
	Ratio  float64  `json:"ratio"`  // After / Before, the machine's common factor taken out
	// New: found over the series up to the newest night, not over the
	// series up to the night before: reported now, once.
	New bool `json:"new"`
	// SameBuild: the nights on both sides of the step ran one build (see
	// Options.SameBuild): the machine's step, not the code's; no alarm.
	SameBuild bool `json:"same_build,omitempty"`
	Ack       *Ack `json:"ack,omitempty"`
}

// Alarm is an alarm of the newest night, or of a night since the last
// trend that no trend examined.
type Alarm struct {
	Kind   string   `json:"kind"` // AlarmCounters, AlarmTime, AlarmStep or AlarmMissing
	Solver string   `json:"solver"`
	Night  NightRef `json:"night"` // the night it is an alarm of
	// Start is the night the change started: the night itself for a
	// counters change, the first slow night of a slowdown (its time alarm
	// or its step), the first night a strategy went missing. An alarm is
	// delivered, or acknowledged, by its strategy, kind and start.
	Start NightRef `json:"start"`
	Text  string   `json:"text"` // one line for people
	// New: not delivered yet (Options.Delivered: no trend has printed it
	// and exited 1), or, without a record of deliveries, raised by this
	// night. Only new, unacknowledged alarms make trend exit 1.
	New bool `json:"new"`
	// Delivered is when a trend delivered it; nil while it is new.
	Delivered *time.Time `json:"delivered,omitempty"`
	Ack       *Ack       `json:"ack,omitempty"`
	// Good is the night to bisect from (the last night before the change)
	// and Puzzles the puzzles that moved (the gate's Moved, or the
	// counters' IDs).
	Good    *NightRef          `json:"good,omitempty"`
	Puzzles []report.PuzzleRef `json:"puzzles,omitempty"`
	Bisect  string             `json:"bisect,omitempty"` // the bisect script written for it, relative to the results root
}

// Ack is an acknowledgement, from the annotations file: the change of
// Solver on night Run is known, and why. It acknowledges that night's
// alarms of Solver and starts the gate's baseline afresh from that night.
type Ack struct {
	Run    string    `json:"run"` // the night, relative to the results root
	RunID  string    `json:"run_id"`
	Solver string    `json:"solver"`
	Why    string    `json:"why"`
	At     time.Time `json:"at"`
}

// Unacknowledged reports whether a is a new alarm no annotation
// acknowledges: those make trend exit 1.
func (a *Alarm) Unacknowledged() bool { return a.New && a.Ack == nil }
