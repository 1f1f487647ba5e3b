package report

import "sudokubatch/rundir"

// TimingSummary is how the times of a strategy (or of a run) were
// measured, from the timing columns of results.csv: the run's noise
// figure. Every row counts, measured or not.
type TimingSummary struct {
	Units     int `json:"units"`
	Confirmed int `json:"confirmed"` // time measured more than once (repeated in the sweep, or re-timed)
	// Retimed units were timed again, alone, at the end of the run: the
	// outliers (far slower than their calls predict) and each strategy's
	// slowest units. Of them, RetimedSlow are outliers confirmed slow,
	// RetimedNoise had a sweep time that was not confirmed (their time is
	// the re-timed one), and RetimedConfirmed are slowest units whose
	// time was confirmed: Retimed = RetimedSlow + RetimedNoise +
	// RetimedConfirmed.
	Retimed          int `json:"retimed"`
	RetimedSlow      int `json:"retimed_slow"`
	RetimedNoise     int `json:"retimed_noise"`
	RetimedConfirmed int `json:"retimed_confirmed"`
	// Unstable units had runs that disagreed on status or counters: none
	// for a deterministic strategy. UnstableAt lists the first
	// UnstableListed of them, in file order (per strategy; empty in the
	// run's total).
	Unstable   int         `json:"unstable"`
	UnstableAt []PuzzleRef `json:"unstable_at,omitempty"`
	// NotRetimed (in the run's total only) counts the units the
	// re-timing would have timed again but did not: the time allowed for
	// it was spent (run.json's segments, rundir.Timing.Left).
	NotRetimed int `json:"not_retimed,omitempty"`
	// RetimeErrors (in the run's total only) say why a segment's
	// re-timing could not be written into results.csv (a full disk):
	// its rows keep their sweep times, unconfirmed (rundir.Timing.RetimeErr).
	RetimeErrors []string `json:"retime_errors,omitempty"`
}

// UnstableListed is how many unstable units a TimingSummary names.
const UnstableListed = 10

// add adds o's counts to t (not its list).
func (t *TimingSummary) add(o *TimingSummary) {
	t.Units += o.Units
	t.Confirmed += o.Confirmed
	t.Retimed += o.Retimed
	t.RetimedSlow += o.RetimedSlow
	t.RetimedNoise += o.RetimedNoise
	t.RetimedConfirmed += o.RetimedConfirmed
	t.Unstable += o.Unstable
}

// seriesTiming counts how the times of ser were measured.
func seriesTiming(res *Results, ser *Series) *TimingSummary {
	t := &TimingSummary{Units: ser.Len()}
	for i := range ser.Len() {
		tm := ser.Timing(i)
		if tm&Confirmed != 0 {
			t.Confirmed++
		}
		if tm&Retimed != 0 {
			t.Retimed++
			switch {
			case tm&Slow != 0:
				t.RetimedSlow++
			case tm&Noise != 0:
				t.RetimedNoise++
			default:
				t.RetimedConfirmed++
			}
		}
		if tm&Unstable != 0 {
			t.Unstable++
			if len(t.UnstableAt) < UnstableListed {
				e := ser.At(i)
				t.UnstableAt = append(t.UnstableAt, puzzleRef(res, &e))
			}
		}
	}
	return t
}

// runTiming is the run's noise figure: the strategies' counts added up,
// and from run.json (m, may be nil) the units its segments' re-timing
// left and why one could not write its times.
func runTiming(strategies []*StrategySummary, m *rundir.Manifest) *TimingSummary {
	t := &TimingSummary{}
	for _, st := range strategies {
		t.add(st.Timing)
	}
	if m == nil {
		return t
	}
	for _, seg := range m.Segments {
		if seg.Timing != nil {
			t.NotRetimed += seg.Timing.Left
			if e := seg.Timing.RetimeErr; e != "" {
				t.RetimeErrors = append(t.RetimeErrors, e)
			}
		}
	}
	return t
}
