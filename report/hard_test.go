package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
	// Three strategies over 200 puzzles with calls 1..200 each; c's p99
	// is 198, so #198 and #199 are hard for it. a and b have #197 and #198
	// raised to 5000 and 6000 calls: their p99 is 200, and those two are
	// hard for them. #198 is hard for three, #197 for two.
	var us []unit
	for _, solver := range []string{"a", "b", "c"} {
		for id := range 200 {
			u := unit{solver, id, solvers.StatusSolved, int64(id + 1), uint64(id + 1), 0}
			if solver != "c" && id >= 197 && id <= 198 {
				u.calls = uint64(1000 * (id - 192))
			}
			us = append(us, u)
		}
	}
	s := Summarize(mkResults(us...), SummaryOptions{Top: 2})
	var got []string
	for _, sh := range s.Several {
		got = append(got, sh.Puzzle.Label+" "+strings.Join(sh.HardFor, ","))
	}
	if want := []string{"#198 a,b,c", "#197 a,b"}; !reflect.DeepEqual(got, want) || s.SeveralTotal != 2 {
		t.Errorf("hard for several %v of %d, want %v of 2", got, s.SeveralTotal, want)
	}
}

// TestHardForSeveralNotStuckNorOrdinary: a puzzle is hard for a
// strategy when its calls are above the strategy's p99; a unit a limit
// stopped counts when the calls it reached already are (a lower bound),
// not when it stopped among ordinary ones (backtrack under -timeout
// stops a third of its units near ×1 its median), and a unit that gave
// up (stuck) never does, whatever its calls.
func TestHardForSeveralNotStuckNorOrdinary(t *testing.T) {
	var us []unit
	for _, solver := range []string{"a", "b", "c"} {
		for id := range 200 {
			u := unit{solver, id, solvers.StatusSolved, int64(id + 1), uint64(id + 1), 0}
			if solver != "c" {
				switch id {
				case 10: // stopped early: calls ×0.1 the median
					u.status = solvers.StatusTimeout
				case 20: // gave up after many calls
					u.status, u.calls = solvers.StatusStuck, 1_000_000
				case 30: // stopped after more calls than any other unit
					u.status, u.calls = solvers.StatusTimeout, 100_000
				}
			}
			us = append(us, u)
		}
	}
	s := Summarize(mkResults(us...), SummaryOptions{})
	var got []string
	for _, sh := range s.Several {
		got = append(got, sh.Puzzle.Label+" "+strings.Join(sh.HardFor, ","))
	}
	if want := []string{"#30 a,b"}; !reflect.DeepEqual(got, want) || s.SeveralTotal != 1 {
		t.Errorf("hard for several %v of %d, want %v of 1", got, s.SeveralTotal, want)
	}
	if len(s.Several) > 0 && s.Several[0].GeoMeanXMedianCalls.Bound != BoundLower {
		t.Errorf("#30's geometric mean is %v, want a lower bound", s.Several[0].GeoMeanXMedianCalls.Bound)
	}
	// hard.csv still lists every unit a limit stopped, and the stuck one
	// above the p99.
	hard := map[string]bool{}
	for _, u := range s.Hard {
		hard[u.Solver+u.Puzzle.Label] = true
	}
	for _, want := range []string{"a#10", "a#20", "a#30", "b#10"} {
		if !hard[want] {
			t.Errorf("hard.csv lacks %s", want)
		}
	}
}

// TestTimeoutsTieAtTheLimit: units a timeout stopped are not ranked by
// how far the timer overshot the limit: they tie at the earliest time a
// timeout stopped one (shown ≥), share the best rank and say how many
// tie, and are listed by the calls they reached, then in file order;
// the ranks of every other unit count them as above.
func TestTimeoutsTieAtTheLimit(t *testing.T) {
	var us []unit
	for id := range 10 {
		us = append(us, unit{"bt", id, solvers.StatusSolved, int64(1000 * (id + 1)), uint64(100 * (id + 1)), 0})
	}
	// Stopped at 100 ms, overshooting by 1 to 72 ms, with the calls they
	// reached: the list by time must not follow the overshoot.
	for _, u := range []struct {
		id    int
		ns    int64
		calls uint64
	}{{10, 172_000_000, 8_000}, {11, 101_000_000, 9_000}, {12, 130_000_000, 9_000}, {13, 100_500_000, 7_000}} {
		us = append(us, unit{"bt", u.id, solvers.StatusTimeout, u.ns, u.calls, 0})
	}
	s := Summarize(mkResults(us...), SummaryOptions{Top: 6})
	st := s.Strategies[0]
	var got []string
	for _, u := range st.ByTime {
		got = append(got, fmt.Sprintf("%s %d/%d %s", u.Puzzle.Label, u.RankTime, u.TiedTime, unitTime(u)))
	}
	want := []string{"#11 1/4 ≥100ms", "#12 1/4 ≥100ms", "#10 1/4 ≥100ms", "#13 1/4 ≥100ms", "#9 5/0 10.0µs", "#8 6/0 9.00µs"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("by time %q, want %q", got, want)
	}
	if got := RankText(st.ByTime[0].RankTime, st.ByTime[0].TiedTime, st.Measured); got != "1st of 14, tied with 3 others" {
		t.Errorf("rank text %q", got)
	}
	// A highlighted timeout ranks tied too (the page's and show's ranks).
	s = Summarize(mkResults(us...), SummaryOptions{Highlight: []int{10}})
	if u := s.Highlights[0].Units[0]; u.RankTime != 1 || u.TiedTime != 4 || u.TimeBound != 100_500_000 {
		t.Errorf("#10 highlighted: rank %d, tied %d, bound %d; want 1, 4, 100500000", u.RankTime, u.TiedTime, u.TimeBound)
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

// TestPlacer: the ranks and ties counted in one pass are those read off
// the sorted values (rankIn), for values with many ties, queries among
// them, above and below them all, and repeated.
func TestPlacer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 10, 1000} {
		values := make([]float64, n)
		for i := range values {
			values[i] = float64(rng.IntN(50))
		}
		queries := []float64{-1, 0, 49, 50, 7, 7}
		for range 20 {
			if n > 0 {
				queries = append(queries, values[rng.IntN(n)])
			}
		}
		p := newPlacer(queries)
		for _, v := range values {
			p.add(v)
		}
		sorted := slices.Sorted(slices.Values(values))
		for _, q := range queries {
			rank, tied := p.place(q)
			wantRank, wantTied := rankIn(sorted, q)
			if rank != wantRank || tied != wantTied {
				t.Errorf("n %d, value %v: rank %d tied %d, want %d and %d", n, q, rank, tied, wantRank, wantTied)
			}
		}
	}
}
