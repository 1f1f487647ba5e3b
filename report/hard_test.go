package report

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// hardRecords writes the hard.csv of s and reads it back.
func hardRecords(t *testing.T, s *Summary) [][]string {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteHardCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestHardCSV(t *testing.T) {
	t.Run("mini", func(t *testing.T) {
		recs := hardRecords(t, loadMini(t, miniOptions(t)))
		want := [][]string{HardCSVHeader,
			{"testdata/mini.txt", "2", "3", "backtrack", "limit", "5000000", "47900000", "2500011", "1", "1", "1000.00", "399.17", ""},
			{"testdata/mini.txt", "2", "3", "bruteforce", "timeout", "104000", "100400000", "52000", "1", "1", "1.00", "1.00", ""},
		}
		if !reflect.DeepEqual(recs, want) {
			t.Errorf("hard.csv:\n%q\nwant\n%q", recs, want)
		}
		// With variants.json, an analysed unit carries its verdict.
		s := loadMini(t, miniOptions(t))
		s.AttachVariants(&rundir.Variants{Analyses: []rundir.VariantAnalysis{
			{Corpus: "testdata/mini.txt", ID: 2, Solver: "backtrack", Verdict: rundir.VerdictUnlucky}}})
		recs = hardRecords(t, s)
		if got := recs[1][len(recs[1])-1]; recs[1][3] != "backtrack" || got != "unlucky" {
			t.Errorf("hard.csv with variants.json: %q, want backtrack's row to end in unlucky", recs[1])
		}
		if got := recs[2][len(recs[2])-1]; got != "" {
			t.Errorf("hard.csv with variants.json: bruteforce's row ends in %q, want nothing (not analysed)", got)
		}
	})
	t.Run("above p99", func(t *testing.T) {
		// 200 units with calls 1..200: p99 is 198 (the smallest value with
		// 99% of the values at or below it), so 199 and 200 are above.
		vs := make([]float64, 200)
		for i := range vs {
			vs[i] = float64(i + 1)
		}
		us := values("x", vs...)
		us[10].status = solvers.StatusLimit // calls 11: listed although low
		s := Summarize(mkResults(us...), SummaryOptions{})
		// The stopped unit might have needed any number of calls: p99 is a lower bound.
		if p99 := s.Strategies[0].Calls.P99; p99 != (Estimate{198, BoundLower}) {
			t.Errorf("p99 = %+v, want 198, a lower bound", p99)
		}
		var got []string
		for _, u := range s.Hard {
			got = append(got, u.Puzzle.Label+" "+u.Status.String())
		}
		if want := []string{"#199 solved", "#198 solved", "#10 limit"}; !reflect.DeepEqual(got, want) {
			t.Errorf("hard units %v, want %v", got, want)
		}
		if s.Strategies[0].Hard != 3 {
			t.Errorf("Hard = %d, want 3", s.Strategies[0].Hard)
		}
	})
}

func TestRanks(t *testing.T) {
	s := Summarize(mkResults(values("x", 5, 9, 5, 1, 9)...), SummaryOptions{Top: 10})
	var got []string
	for _, u := range s.Strategies[0].ByCalls {
		got = append(got, u.Puzzle.Label+":"+strconv.Itoa(u.RankCalls))
	}
	// Equal values share the best rank and keep file order.
	if want := []string{"#1:1", "#4:1", "#0:3", "#2:3", "#3:5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("by calls %v, want %v", got, want)
	}
	if s := Summarize(mkResults(values("x", 5, 9, 5, 1, 9)...), SummaryOptions{Top: 2}); len(s.Strategies[0].ByTime) != 2 {
		t.Errorf("Top 2 lists %d units", len(s.Strategies[0].ByTime))
	}
	if s := Summarize(mkResults(values("x", make([]float64, 30)...)...), SummaryOptions{}); len(s.Strategies[0].ByTime) != DefaultTop {
		t.Errorf("default Top lists %d units, want %d", len(s.Strategies[0].ByTime), DefaultTop)
	}
}

func TestHardForSeveralOrder(t *testing.T) {
	// Three strategies over 100 puzzles with calls 1..100 each; p99 is 99,
	// so #99 (calls 100) is hard for all. Puzzles 3, 4 are stopped for two
	// strategies; 4 has more calls, so it comes first.
	var us []unit
	for _, solver := range []string{"a", "b", "c"} {
		for id := range 100 {
			u := unit{solver, id, solvers.StatusSolved, int64(id + 1), uint64(id + 1), 0}
			if (id == 3 || id == 4) && solver != "c" {
				u.status = solvers.StatusTimeout
			}
			us = append(us, u)
		}
	}
	s := Summarize(mkResults(us...), SummaryOptions{Top: 2})
	var got []string
	for _, sh := range s.Several {
		got = append(got, sh.Puzzle.Label+" "+strings.Join(sh.HardFor, ","))
	}
	if want := []string{"#99 a,b,c", "#4 a,b"}; !reflect.DeepEqual(got, want) || s.SeveralTotal != 3 {
		t.Errorf("hard for several %v of %d, want %v of 3", got, s.SeveralTotal, want)
	}
	if b := s.Several[0].GeoMeanXMedianCalls; b != (Estimate{100.0 / 50, BoundExact}) {
		t.Errorf("#99 geometric mean %+v, want ×2 (median 50), exact", b)
	}
	if b := s.Several[1].GeoMeanXMedianCalls.Bound; b != BoundLower {
		t.Errorf("#4 geometric mean is %v, want a lower bound", b)
	}
}

// timedRun is one strategy's 30 units with the timing columns: ids 0-19
// confirmed by repeated runs (id 3 unstable), 20-26 timed once (id 25
// the longest time of all, 9ms: noise never confirmed), 27-29 re-timed at
// the end (27 noise, 28 confirmed slow, 29 a confirmed slowest unit);
// and a second strategy, every time confirmed, ids 7 and 12 unstable.
func timedRun(timed bool) *Results {
	res := &Results{Corpora: []string{"c.txt"}}
	for id := range 30 {
		e := Entry{ID: int32(id), Line: int32(id + 1), Status: solvers.StatusSolved, NS: int64(1000 * (id + 1)),
			Calls: uint64(id + 1), Timing: Timed}
		switch {
		case id < 20:
			e.Timing |= Confirmed
		case id == 27:
			e.Timing |= Confirmed | Retimed | Noise
			e.NS = 2000
		case id == 28:
			e.Timing |= Confirmed | Retimed | Slow
			e.NS = 5e6
		case id == 29:
			e.Timing |= Confirmed | Retimed
		}
		if id == 25 {
			e.NS = 9e6
		}
		if id == 3 {
			e.Timing |= Unstable
		}
		if !timed {
			e.Timing = 0
		}
		res.Add("x", e)
	}
	for id := range 30 {
		e := Entry{ID: int32(id), Line: int32(id + 1), Status: solvers.StatusSolved, NS: int64(500 * (id + 1)),
			Calls: uint64(id + 1), Timing: Timed | Confirmed}
		if id == 7 || id == 12 {
			e.Timing |= Unstable
		}
		if !timed {
			e.Timing = 0
		}
		res.Add("y", e)
	}
	return res
}

// TestNoCallsNoRanking: a strategy whose units all count 0 calls (an
// external solver that reports none) has no ranking by calls, so its
// "hardest (calls)" is a dash, not the first puzzle of a tie.
func TestNoCallsNoRanking(t *testing.T) {
	s := Summarize(mkResults(append(values("x", 0, 0, 0), values("y", 0, 3, 1)...)...), SummaryOptions{Top: 10})
	if n := len(s.Strategies[0].ByCalls); n != 0 {
		t.Errorf("x: %d units ranked by calls, want none", n)
	}
	if n := len(s.Strategies[1].ByCalls); n != 3 {
		t.Errorf("y: %d units ranked by calls, want 3", n)
	}
}
