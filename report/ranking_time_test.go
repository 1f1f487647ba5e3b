package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TestByTimeRanksEveryUnitMarksUnconfirmed: the list by time and the time
// max rank every measured unit, the one ranking the ranks (RankTime) are
// of; with the timing columns a time measured once, in the sweep, is
// marked (†) rather than dropped.
func TestByTimeRanksEveryUnitMarksUnconfirmed(t *testing.T) {
	labels := func(us []RankedUnit) (out []string) {
		for _, u := range us {
			mark := ""
			if u.Unconfirmed {
				mark = UnconfirmedMark
			}
			out = append(out, u.Puzzle.Label+mark)
		}
		return out
	}
	s := Summarize(timedRun(true), SummaryOptions{Top: 4})
	x := s.Strategies[0]
	// #25 (9 ms) and #26 were timed once; #28 and #29 were re-timed.
	if got, want := labels(x.ByTime), []string{"#25†", "#28", "#29", "#26†"}; !reflect.DeepEqual(got, want) {
		t.Errorf("by time %v, want %v", got, want)
	}
	for i, u := range x.ByTime {
		if u.RankTime != i+1 {
			t.Errorf("%s listed %d by time has rank %d", u.Puzzle.Label, i+1, u.RankTime)
		}
	}
	if d := x.TimeNS; d.Max != (Estimate{9e6, BoundExact}) || d.MaxAt.Label != "#25" || !d.MaxUnconfirmed {
		t.Errorf("time max %+v at %s (unconfirmed %v), want 9ms at #25, unconfirmed", d.Max, d.MaxAt.Label, d.MaxUnconfirmed)
	}
	var md, text bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"By time (2 of 4 listed times unconfirmed (†): measured once, the re-timing's allowance was spent):",
		"| 1 | #25 | 9.00ms† | ×643 | 26 | solved |",
		"| 2 | #28 | 5.00ms | ×357 | 29 | solved |",
		"| time max | 9.00ms† |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary.md has no %q:\n%s", want, md.String())
		}
	}
	if err := s.WriteFullText(&text, 1000); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "9.00ms†") || !strings.Contains(text.String(), "†: timed once, in the sweep") {
		t.Errorf("terminal table without the marked max and its note:\n%s", text.String())
	}

	// Without the timing columns nothing is marked: every time was
	// measured once, and the summary says so once.
	s = Summarize(timedRun(false), SummaryOptions{Top: 4})
	if got, want := labels(s.Strategies[0].ByTime), []string{"#25", "#28", "#29", "#26"}; !reflect.DeepEqual(got, want) {
		t.Errorf("without timing columns: by time %v, want %v", got, want)
	}

	// No time confirmed: the list and the max are still there, marked.
	res := &Results{Corpora: []string{"c.txt"}}
	for id := range 3 {
		res.Add("z", Entry{ID: int32(id), Status: solvers.StatusSolved, NS: int64(10 + id), Calls: 1, Timing: Timed})
	}
	z := Summarize(res, SummaryOptions{}).Strategies[0]
	if got := labels(z.ByTime); !reflect.DeepEqual(got, []string{"#2†", "#1†", "#0†"}) || z.TimeNS.MaxAt.Label != "#2" {
		t.Errorf("no confirmed time: by time %v, max at %q; want every unit, marked", got, z.TimeNS.MaxAt.Label)
	}
}

// censoredRun is a strategy like backtrack under -timeout 100ms whose
// re-timing ran out early: 60 solved units of 1 to 60 ms, of which only
// the ten fastest were re-timed (outliers), and 40 timeouts at 100 ms
// and a little more.
func censoredRun() *Results {
	res := &Results{Corpora: []string{"c.txt"}}
	for id := range 100 {
		e := Entry{ID: int32(id), Line: int32(id + 1), Status: solvers.StatusSolved, NS: int64(id+1) * 1e6,
			Calls: uint64(id+1) * 1000, Timing: Timed}
		if id < 10 {
			e.Timing |= Confirmed | Retimed | Slow
		}
		if id >= 60 {
			e.Status, e.NS, e.Calls = solvers.StatusTimeout, 100e6+int64(id)*1000, 100_000
		}
		res.Add("backtrack", e)
	}
	return res
}

// TestTimeMaxAtLeastQuantilesWithCensored: over a run with censored units
// whose re-timing ran out, max >= p99 >= p90 >= median, and the hardest by
// time are the timeouts, tied at their limit, shown ≥, listed by the
// calls they reached (here all equal), then by id, not by how far the
// timer overshot the limit, nor the few units that happened to be
// re-timed.
func TestTimeMaxAtLeastQuantilesWithCensored(t *testing.T) {
	s := Summarize(censoredRun(), SummaryOptions{Top: 20})
	x := s.Strategies[0]
	for _, d := range []Distribution{x.TimeNS, x.Calls} {
		if !(d.Max.Value >= d.P99.Value && d.P99.Value >= d.P90.Value && d.P90.Value >= d.Median.Value) {
			t.Errorf("max %v, p99 %v, p90 %v, median %v: want max >= p99 >= p90 >= median",
				d.Max.Value, d.P99.Value, d.P90.Value, d.Median.Value)
		}
	}
	if x.TimeNS.Max.Bound != BoundLower {
		t.Errorf("time max %+v: want a lower bound (a timeout)", x.TimeNS.Max)
	}
	if len(x.ByTime) != 20 {
		t.Fatalf("%d units by time, want 20", len(x.ByTime))
	}
	for _, u := range x.ByTime {
		if u.Status != solvers.StatusTimeout || u.NS < 100e6 || u.Unconfirmed {
			t.Errorf("by time: %s %s %d ns (unconfirmed %v); want the timeouts, at their limit, not marked",
				u.Puzzle.Label, u.Status, u.NS, u.Unconfirmed)
		}
	}
	var md bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	byTime := md.String()[strings.Index(md.String(), "By time"):]
	for _, want := range []string{"| 1 | #60 | ≥100ms |", "| 1 | #61 | ≥100ms |", "timeout |"} {
		if !strings.Contains(byTime, want) {
			t.Errorf("summary.md's list by time has no %q:\n%s", want, byTime)
		}
	}
	// hard.csv ranks with the same ranking: every timeout is 1.
	for _, u := range s.Hard {
		if u.Puzzle.ID == 99 && u.RankTime != 1 {
			t.Errorf("hard.csv: #99 rank_time %d, want 1", u.RankTime)
		}
	}
}

// TestUnconfirmedMarkExplainedWhereShownAndWhy: the terminal's short
// table has no time max, so no † and no legend of one (before, its
// legend explained a mark it did not show); and in a run interrupted
// before its re-timing, summary.md, the full table and the chart
// captions say so, not that the re-timing's allowance was spent (none
// was: nothing was re-timed).
func TestUnconfirmedMarkExplainedWhereShownAndWhy(t *testing.T) {
	s := Summarize(timedRun(true), SummaryOptions{Top: 4})
	var short bytes.Buffer
	if err := s.WriteText(&short, 80); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(short.String(), UnconfirmedMark) {
		t.Errorf("the short table shows no time max, yet has %s:\n%s", UnconfirmedMark, short.String())
	}
	for status, why := range map[string]string{
		rundir.Interrupted: "the run was interrupted before its re-timing",
		rundir.Running:     "the run has not reached its re-timing yet",
		rundir.Failed:      "the run ended before its re-timing",
		rundir.Finished:    "the re-timing's allowance was spent",
	} {
		s.Run = &RunSummary{RunID: "r", Status: status}
		var md, full bytes.Buffer
		if err := s.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if want := "By time (2 of 4 listed times unconfirmed (†): measured once, " + why + "):"; !strings.Contains(md.String(), want) {
			t.Errorf("%s: summary.md has no %q", status, want)
		}
		if err := s.WriteFullText(&full, 1000); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(full.String(), "†: timed once, in the sweep: "+why) {
			t.Errorf("%s: the full table's legend does not say %q:\n%s", status, why, full.String())
		}
	}
}
