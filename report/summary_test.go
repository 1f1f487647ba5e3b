package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sudokubatch/internal/golden"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// loadMini summarizes the hand-written run in testdata/mini.
func loadMini(t *testing.T, opt SummaryOptions) *Summary {
	t.Helper()
	res, err := LoadResults(context.Background(), filepath.Join("testdata", "mini", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return Summarize(res, opt)
}

func miniOptions(t *testing.T) SummaryOptions {
	t.Helper()
	ri, err := rundir.ReadManifest(filepath.Join("testdata", "mini"))
	if err != nil {
		t.Fatal(err)
	}
	return SummaryOptions{Top: 3, Highlight: []int{2, 5, 7, 99}, Manifest: ri}
}

func TestSummaryGolden(t *testing.T) {
	s := loadMini(t, miniOptions(t))
	dir := t.TempDir()
	if err := WriteSummaryFiles(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{rundir.SummaryMarkdown, rundir.SummaryJSON, rundir.SummaryBench, rundir.HardCSV} {
		t.Run(name, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "mini.golden", name), got)
		})
	}
	t.Run("summary.txt", func(t *testing.T) {
		var b bytes.Buffer
		if err := s.WriteFullText(&b, 0); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "mini.golden", "summary.txt"), b.Bytes())
	})
	t.Run("no leftovers", func(t *testing.T) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) != 4 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("run directory holds %v, want the 4 summary files", names)
		}
	})
}

// TestSummaryMini checks the fixture's numbers by hand, so that the
// golden files are not their only witness.
func TestSummaryMini(t *testing.T) {
	s := loadMini(t, miniOptions(t))
	var names []string
	for _, st := range s.Strategies {
		names = append(names, st.Solver)
	}
	if want := []string{"backtrack", "norvig", "bruteforce"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("strategies %v, want %v (Results order: first appearance)", names, want)
	}
	bt, nv, bf := s.Strategies[0], s.Strategies[1], s.Strategies[2]
	checkInt := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	checkInt("backtrack units", bt.Units, 10)
	checkInt("backtrack measured", bt.Measured, 9)
	checkInt("backtrack censored", bt.Censored, 1)
	checkInt("backtrack limit", bt.Count(solvers.StatusLimit), 1)
	checkInt("backtrack invalid", bt.Count(solvers.StatusInvalid), 1)
	checkInt("backtrack solved", bt.Count(solvers.StatusSolved), 8)
	checkInt("norvig no guess", nv.NoGuess, 4)
	checkInt("bruteforce units", bf.Units, 1)
	checkInt("bruteforce timeout", bf.Count(solvers.StatusTimeout), 1)
	checkInt("puzzles", s.Puzzles, 10)
	checkInt("rows", s.Rows, 21)

	checkEst := func(name string, got Estimate, v float64, b Bound) {
		t.Helper()
		if math.Abs(got.Value-v) > 1e-9*math.Abs(v) || got.Bound != b {
			t.Errorf("%s = %v (%v), want %v (%v)", name, got.Value, got.Bound, v, b)
		}
	}
	// backtrack calls: 600 1800 2600 4100 5000 37000 98000 4.1M 5M(limit).
	checkEst("backtrack calls median", bt.Calls.Median, 5000, BoundExact)
	checkEst("backtrack calls p90", bt.Calls.P90, 5e6, BoundLower)
	checkEst("backtrack calls max", bt.Calls.Max, 5e6, BoundLower)
	checkEst("backtrack time median", bt.TimeNS.Median, 120000, BoundExact)
	checkEst("backtrack puzzles/s", bt.PuzzlesPerSec, 9/(90404000/1e9), BoundUpper)
	checkEst("norvig calls median", nv.Calls.Median, 3, BoundExact)
	checkEst("norvig calls max", nv.Calls.Max, 40, BoundExact)
	checkEst("norvig no guess %", nv.NoGuessPct, 400.0/9, BoundExact)
	checkEst("norvig time mean", nv.TimeNS.Mean, math.Round(674000.0/9), BoundExact)
	checkEst("bruteforce time median", bf.TimeNS.Median, 100400000, BoundLower)
	if got := nv.Calls.MaxAt.Label; got != "#2" {
		t.Errorf("norvig calls max at %s, want #2", got)
	}

	// #2 is backtrack's unit stopped by its call limit and bruteforce's
	// only unit, stopped by a timeout: neither is above its strategy's
	// p99 of calls (each is the strategy's largest), so #2 is hard for
	// none: a stopped unit is not hard for having been stopped.
	if s.SeveralTotal != 0 || len(s.Several) != 0 {
		t.Fatalf("hard for several: %d (%d listed), want none", s.SeveralTotal, len(s.Several))
	}

	if len(s.Highlights) != 4 {
		t.Fatalf("%d highlights, want 4", len(s.Highlights))
	}
	if n := len(s.Highlights[0].Units); n != 3 {
		t.Errorf("#2 has %d units, want 3", n)
	}
	if u := s.Highlights[1].Units; len(u) != 2 || u[0].Status != solvers.StatusInvalid || u[0].RankCalls != 0 {
		t.Errorf("#5 units %+v, want 2 invalid units without rank", u)
	}
	if n := len(s.Highlights[3].Units); n != 0 {
		t.Errorf("#99 has %d units, want none", n)
	}
}

// unit is one row for mkResults.
type unit struct {
	solver  string
	id      int
	status  solvers.Status
	ns      int64
	calls   uint64
	guesses uint64
}

// mkResults builds a Results over one corpus from units, as ReadResults
// would.
func mkResults(units ...unit) *Results {
	res := &Results{Corpora: []string{"c.txt"}}
	for _, u := range units {
		res.Add(u.solver, Entry{ID: int32(u.id), Line: int32(u.id + 1), Status: u.status,
			NS: u.ns, Calls: u.calls, Guesses: u.guesses})
	}
	return res
}

// values makes one solved unit per value (time = calls = value), ids
// in order.
func values(solver string, vs ...float64) []unit {
	var us []unit
	for i, v := range vs {
		us = append(us, unit{solver, i, solvers.StatusSolved, int64(v), uint64(v), 0})
	}
	return us
}

func TestQuantilesSmallN(t *testing.T) {
	tests := []struct {
		name                        string
		values                      []float64
		mean, median, p90, p99, max float64
		maxAt                       string
	}{
		{"one", []float64{7}, 7, 7, 7, 7, 7, "#0"},
		{"two", []float64{9, 3}, 6, 3, 9, 9, 9, "#0"},
		{"three", []float64{10, 1, 2}, 13.0 / 3, 2, 10, 10, 10, "#0"},
		{"four", []float64{2, 100, 3, 1}, 26.5, 2, 100, 100, 100, "#1"},
		{"ties", []float64{5, 5, 5}, 5, 5, 5, 5, 5, "#0"},
		{"ten", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 5, 9, 10, 10, "#0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(mkResults(values("x", tt.values...)...), SummaryOptions{})
			st := s.Strategies[0]
			for _, d := range []struct {
				name string
				d    Distribution
				mean float64
			}{{"calls", st.Calls, tt.mean}, {"time", st.TimeNS, math.Round(tt.mean)}} {
				got := []float64{d.d.Mean.Value, d.d.Median.Value, d.d.P90.Value, d.d.P99.Value, d.d.Max.Value}
				want := []float64{d.mean, tt.median, tt.p90, tt.p99, tt.max}
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-12 {
						t.Errorf("%s mean, median, p90, p99, max = %v, want %v", d.name, got, want)
						break
					}
				}
				for _, e := range []Estimate{d.d.Mean, d.d.Median, d.d.P90, d.d.P99, d.d.Max} {
					if e.Bound != BoundExact {
						t.Errorf("%s: %v is a %v bound with no stopped unit", d.name, e.Value, e.Bound)
					}
				}
				if d.d.MaxAt.Label != tt.maxAt {
					t.Errorf("%s max at %s, want %s", d.name, d.d.MaxAt.Label, tt.maxAt)
				}
			}
		})
	}
}

func TestCensoring(t *testing.T) {
	const (
		S = solvers.StatusSolved
		T = solvers.StatusTimeout
		L = solvers.StatusLimit
		I = solvers.StatusInvalid
	)
	type row struct {
		st    solvers.Status
		calls uint64
	}
	tests := []struct {
		name                   string
		rows                   []row
		median, p90, max       Estimate // of calls
		mean, perSec, noGuess  Bound
		measured, censored, nG int
	}{
		{"none stopped", []row{{S, 1}, {S, 2}, {S, 3}},
			Estimate{2, BoundExact}, Estimate{3, BoundExact}, Estimate{3, BoundExact},
			BoundExact, BoundExact, BoundExact, 3, 0, 3},
		{"top stopped: median exact", []row{{S, 1}, {S, 2}, {T, 50}},
			Estimate{2, BoundExact}, Estimate{50, BoundLower}, Estimate{50, BoundLower},
			BoundLower, BoundUpper, BoundLower, 3, 1, 2},
		{"more than half stopped", []row{{S, 1}, {T, 50}, {L, 60}},
			Estimate{50, BoundLower}, Estimate{60, BoundLower}, Estimate{60, BoundLower},
			BoundLower, BoundUpper, BoundLower, 3, 2, 1},
		{"stopped below the median", []row{{T, 1}, {S, 5}, {S, 6}},
			Estimate{5, BoundLower}, Estimate{6, BoundLower}, Estimate{6, BoundLower},
			BoundLower, BoundUpper, BoundLower, 3, 1, 2},
		{"stopped below, enough finished", []row{{T, 1}, {S, 5}, {S, 5}, {S, 5}, {S, 9}},
			Estimate{5, BoundExact}, Estimate{9, BoundLower}, Estimate{9, BoundLower},
			BoundLower, BoundUpper, BoundLower, 5, 1, 4},
		{"only timeouts", []row{{T, 40}, {T, 50}},
			Estimate{40, BoundLower}, Estimate{50, BoundLower}, Estimate{50, BoundLower},
			BoundLower, BoundUpper, BoundLower, 2, 2, 0},
		{"invalid not measured", []row{{I, 0}, {S, 4}, {S, 8}},
			Estimate{4, BoundExact}, Estimate{8, BoundExact}, Estimate{8, BoundExact},
			BoundExact, BoundExact, BoundExact, 2, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var us []unit
			for i, r := range tt.rows {
				us = append(us, unit{"x", i, r.st, int64(r.calls), r.calls, 0})
			}
			st := Summarize(mkResults(us...), SummaryOptions{}).Strategies[0]
			check := func(name string, got, want Estimate) {
				t.Helper()
				if got != want {
					t.Errorf("%s = %+v, want %+v", name, got, want)
				}
			}
			check("median", st.Calls.Median, tt.median)
			check("p90", st.Calls.P90, tt.p90)
			check("max", st.Calls.Max, tt.max)
			check("time max", st.TimeNS.Max, tt.max)
			if st.Calls.Mean.Bound != tt.mean || st.PuzzlesPerSec.Bound != tt.perSec || st.NoGuessPct.Bound != tt.noGuess {
				t.Errorf("bounds of mean, puzzles/s, no guess = %v, %v, %v; want %v, %v, %v", st.Calls.Mean.Bound,
					st.PuzzlesPerSec.Bound, st.NoGuessPct.Bound, tt.mean, tt.perSec, tt.noGuess)
			}
			if st.Measured != tt.measured || st.Censored != tt.censored || st.NoGuess != tt.nG {
				t.Errorf("measured, censored, no guess = %d, %d, %d; want %d, %d, %d", st.Measured, st.Censored,
					st.NoGuess, tt.measured, tt.censored, tt.nG)
			}
			if st.Units != len(tt.rows) {
				t.Errorf("units = %d, want %d", st.Units, len(tt.rows))
			}
		})
	}
}

// TestOnlyTimeouts renders a strategy whose every unit was stopped.
func TestOnlyTimeouts(t *testing.T) {
	res := mkResults(unit{"slow", 0, solvers.StatusTimeout, 100e6, 7000, 3}, unit{"slow", 1, solvers.StatusTimeout, 101e6, 7100, 4})
	s := Summarize(res, SummaryOptions{})
	var txt, md bytes.Buffer
	if err := s.WriteFullText(&txt, 1000); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"≥100ms", "≥101ms", "≥7.10k", "≤9.95", "timeout"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text table has no %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{"| time max | ≥101ms |", "**Stopped by a limit**: slow 2 of 2 measured units (timeout 2)",
		"| 1 | #1 | ≥7.10k | ≥×1.01 | ≥101ms | timeout |", "Only one strategy"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary.md has no %q:\n%s", want, md.String())
		}
	}
	var hard bytes.Buffer
	if err := s.WriteHardCSV(&hard); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(hard.String(), "\n"); n != 3 {
		t.Errorf("hard.csv has %d lines, want a header and both timeouts:\n%s", n, hard.String())
	}
}

// TestSingleStrategy reads a results.csv with one strategy.
func TestSingleStrategy(t *testing.T) {
	const in = `id,line,solver,status,ns,calls,guesses,backtracks,filled,clues,solutions,seed,solution,error,corpus
0,1,norvig,solved,36000,1,0,0,64,17,,1,,,a.txt
1,2,norvig,solved,41000,3,2,1,64,17,,1,,,a.txt
2,3,norvig,unsolvable,50000,9,8,8,20,17,,1,,,a.txt
`
	res, err := ReadResults(context.Background(), strings.NewReader(in), "in.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{})
	if len(s.Strategies) != 1 || s.SeveralTotal != 0 || s.Several == nil {
		t.Fatalf("strategies %d, hard for several %d (%v): want 1, 0, []", len(s.Strategies), s.SeveralTotal, s.Several)
	}
	txt, md, js := writeAll(t, s)
	wantText := `a.txt: 3 puzzles, 1 strategy, 3 rows

                           norvig
  puzzles                       3
  solved                        2
  unsolvable                    1
  puzzles/s/core            23.6k
  time median           41.0µs ±?
  time p90              50.0µs ±?
  time p99              50.0µs ±?
  time trimmed mean   42.3µs ±42%
  time mean           42.3µs ±42%
  time max                 50.0µs
  time max at                  #2
  calls median                  3
  calls p90                     9
  calls p99                     9
  calls trimmed mean         4.33
  calls mean                 4.33
  calls max                     9
  calls max at                 #2
  no guess                  33.3%
  guesses/puzzle             3.33

±: 95% interval, its larger half over the figure (±?: unbounded).
trimmed mean: of the middle 80%.
times unconfirmed: results.csv has no timing columns (each measured once).
`
	if txt.String() != wantText {
		t.Errorf("text table:\n%s", golden.Diff(wantText, txt.String()))
	}
	if !strings.Contains(md.String(), "Only one strategy in this run.") {
		t.Errorf("summary.md does not say there is one strategy:\n%s", md.String())
	}
	if !strings.Contains(js.String(), `"hard_for_several": []`) {
		t.Errorf("summary.json has no empty hard_for_several list:\n%s", js.String())
	}
}

func TestSeveralCorpora(t *testing.T) {
	const in = `id,line,solver,status,ns,calls,guesses,backtracks,filled,clues,solutions,seed,solution,error,corpus
0,1,norvig,solved,36000,1,0,0,64,17,,1,,,a.txt
1,2,norvig,solved,41000,3,2,1,64,17,,1,,,a.txt
0,1,norvig,solved,50000,9,8,8,20,17,,1,,,b.txt
`
	res, err := ReadResults(context.Background(), strings.NewReader(in), "in.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{Highlight: []int{0}})
	st := s.Strategies[0]
	if got := st.Calls.MaxAt.Label; got != "b.txt#0" {
		t.Errorf("max at %s, want b.txt#0", got)
	}
	if s.Corpus != "2 corpora" || len(s.Highlights[0].Units) != 2 {
		t.Errorf("corpus %q, %d units for #0: want 2 corpora, 2 units", s.Corpus, len(s.Highlights[0].Units))
	}
}

func TestEmpty(t *testing.T) {
	s := Summarize(&Results{}, SummaryOptions{})
	for name, w := range map[string]func(io.Writer) error{
		"text":     func(w io.Writer) error { return s.WriteFullText(w, 0) },
		"headline": func(w io.Writer) error { return s.WriteText(w, 0) }, "markdown": s.WriteMarkdown, "json": s.WriteJSON, "bench": s.WriteBench, "hard": s.WriteHardCSV,
	} {
		if err := w(io.Discard); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNotMeasured covers a strategy whose units are all invalid or
// unsupported.
func TestNotMeasured(t *testing.T) {
	res := mkResults(unit{"bitboard", 0, solvers.StatusUnsupported, 0, 0, 0}, unit{"bitboard", 1, solvers.StatusInvalid, 0, 0, 0},
		unit{"dlx", 0, solvers.StatusSolved, 900, 5, 4}, unit{"dlx", 1, solvers.StatusInvalid, 0, 0, 0})
	s := Summarize(res, SummaryOptions{})
	st := s.Strategies[0]
	if st.Measured != 0 || st.Units != 2 || st.Count(solvers.StatusUnsupported) != 1 || len(st.ByCalls) != 0 {
		t.Errorf("bitboard: %+v", st)
	}
	var txt, md, bench bytes.Buffer
	s.WriteFullText(&txt, 1000)
	s.WriteMarkdown(&md)
	s.WriteBench(&bench)
	if !strings.Contains(txt.String(), "\n  time median                –  900ns ±?\n") {
		t.Errorf("text table has no dash for bitboard:\n%s", txt.String())
	}
	if !strings.Contains(md.String(), "No measured unit: its 2 units are invalid, unsupported or errors.") {
		t.Errorf("summary.md:\n%s", md.String())
	}
	if !strings.Contains(bench.String(), "# bitboard: no measured unit\nBenchmarkSolve/dlx 1 900 ns/puzzle") {
		t.Errorf("summary.bench:\n%s", bench.String())
	}
}

func TestSummaryJSONRoundTrip(t *testing.T) {
	s := loadMini(t, miniOptions(t))
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	want := *s
	want.Hard = nil // not in summary.json
	for _, st := range want.Strategies {
		st.Bench = nil // nor are the samples of summary.bench
	}
	if !reflect.DeepEqual(&back, &want) {
		t.Errorf("summary.json does not decode to the summary:\n%+v\nwant\n%+v", back, want)
	}
}

// TestTimingSummary checks the noise figure of timedRun (hard_test.go),
// per strategy and in all, and where each output shows it.
func TestTimingSummary(t *testing.T) {
	s := Summarize(timedRun(true), SummaryOptions{})
	x, y := s.Strategies[0].Timing, s.Strategies[1].Timing
	want := TimingSummary{Units: 30, Confirmed: 23, Retimed: 3, RetimedSlow: 1, RetimedNoise: 1, RetimedConfirmed: 1,
		Unstable: 1, UnstableAt: []PuzzleRef{{Corpus: "c.txt", ID: 3, Line: 4, Label: "#3"}}}
	if x == nil || !reflect.DeepEqual(*x, want) {
		t.Errorf("x: %+v, want %+v", x, want)
	}
	if y == nil || y.Confirmed != 30 || y.Retimed != 0 || y.Unstable != 2 || len(y.UnstableAt) != 2 || y.UnstableAt[1].Label != "#12" {
		t.Errorf("y: %+v", y)
	}
	all := TimingSummary{Units: 60, Confirmed: 53, Retimed: 3, RetimedSlow: 1, RetimedNoise: 1, RetimedConfirmed: 1, Unstable: 3}
	if s.Timing == nil || !reflect.DeepEqual(*s.Timing, all) {
		t.Errorf("in all: %+v, want %+v", s.Timing, all)
	}

	txt, md, js := writeAll(t, s)
	for _, want := range []string{
		"\n  time confirmed            76.7%       100.0%\n",
		"\n  time retimed noise            1            0\n",
		"\n  unstable                      1            2\n",
		"\n  retimed in all: 3 units (slow 1, noise 1, ok 1)\n",
		"\nunstable (runs disagreed on status or counters): x 1 (#3); y 2 (#7, #12).\n",
	} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text has no %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{
		"\n## Timing\n",
		"\n| time confirmed | 76.7% | 100.0% | 88.3% |\n",
		"\n| time retimed | 3 | 0 | 3 |\n",
		"\n| time retimed slow | 1 | 0 | 1 |\n",
		"\n| time retimed noise | 1 | 0 | 1 |\n",
		"\n| time retimed ok | 1 | 0 | 1 |\n",
		"\n| unstable | 1 | 2 | 3 |\n",
		"**Unstable units**: x 1 (#3); y 2 (#7, #12).",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary.md has no %q:\n%s", want, md.String())
		}
	}
	var back Summary
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !back.Timed || back.Timing == nil || back.Timing.RetimedNoise != 1 || !back.Strategies[0].ByTime[0].Unconfirmed ||
		back.Strategies[0].Timing.UnstableAt[0].Label != "#3" {
		t.Errorf("summary.json: timed %v, timing %+v", back.Timed, back.Timing)
	}

	// run.json's count of units the re-timing did not reach.
	m := &rundir.Manifest{Segments: []rundir.Segment{{Timing: &rundir.Timing{Left: 4}}, {Timing: &rundir.Timing{Left: 1}}, {}}}
	s = Summarize(timedRun(true), SummaryOptions{Manifest: m})
	md.Reset()
	s.WriteMarkdown(&md)
	if s.Timing.NotRetimed != 5 || !strings.Contains(md.String(), "5 units would have been re-timed but were not") {
		t.Errorf("not re-timed: %d\n%s", s.Timing.NotRetimed, md.String())
	}

	// A run without the timing columns has no noise figure, and says why.
	s = Summarize(timedRun(false), SummaryOptions{})
	md.Reset()
	txt.Reset()
	s.WriteMarkdown(&md)
	s.WriteFullText(&txt, 1000)
	if s.Timing != nil || s.Strategies[0].Timing != nil || strings.Contains(md.String(), "time retimed") ||
		!strings.Contains(md.String(), "## Timing\n\nTimes are unconfirmed") ||
		!strings.Contains(txt.String(), "times unconfirmed") || strings.Contains(txt.String(), "retimed") {
		t.Errorf("without timing columns: %+v\n%s\n%s", s.Timing, md.String(), txt.String())
	}
}

// TestMissing: what was asked but is not there: highlighted ids with no
// row, puzzles with no or several solutions under -unique.
func TestMissing(t *testing.T) {
	res := mkResults(values("x", make([]float64, 30)...)...)
	// -unique counted 25 puzzles: ids 1, 6, ... two or more, 2, 7, ... none.
	for id := range 25 {
		p, _ := res.puzzleAt(0, id)
		res.setSolutions(p, []int{1, 2, 0, 1, 5}[id%5])
	}
	s := Summarize(res, SummaryOptions{Highlight: []int{3, 99, 120, 99}})
	if !reflect.DeepEqual(s.HighlightsMissing, []int{99, 120}) {
		t.Errorf("missing highlights %v, want [99 120]", s.HighlightsMissing)
	}
	c := s.Solutions
	if c == nil || c.Counted != 25 || c.Several != 10 || c.None != 5 || len(c.SeveralAt) != 10 || c.NoneAt[0].Label != "#2" {
		t.Fatalf("solutions %+v", c)
	}
	var txt, md bytes.Buffer
	s.WriteFullText(&txt, 1000)
	s.WriteMarkdown(&md)
	for _, want := range []string{
		"highlighted but not in this run: #99, #120.\n",
		"solutions counted (-unique) for 25 puzzles: 10 have two or more solutions (#1, #4, #6, #9, #11, #14, #16, #19, #21, #24); " +
			"5 have no solution (#2, #7, #12, #17, #22).\n",
	} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text has no %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{"Not in this run: #99, #120.\n", "\n## Solutions\n\nSolutions counted (`-unique`) for 25 puzzles: 10 have two"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary.md has no %q:\n%s", want, md.String())
		}
	}

	// More than SolutionsListed: the first, in corpus and id order, and
	// how many more.
	res = mkResults(values("x", make([]float64, 30)...)...)
	for id := 29; id >= 0; id-- {
		p, _ := res.puzzleAt(0, id)
		res.setSolutions(p, 2)
	}
	s = Summarize(res, SummaryOptions{})
	if c := s.Solutions; c.Several != 30 || len(c.SeveralAt) != SolutionsListed || c.SeveralAt[0].Label != "#0" || c.SeveralAt[19].Label != "#19" {
		t.Errorf("solutions %+v", c)
	}
	md.Reset()
	s.WriteMarkdown(&md)
	if !strings.Contains(md.String(), "#18, #19, and 10 more)") {
		t.Errorf("summary.md does not say how many more:\n%s", md.String())
	}
	// Not counted: nothing said.
	s = Summarize(mkResults(values("x", 1, 2)...), SummaryOptions{})
	txt.Reset()
	s.WriteFullText(&txt, 1000)
	if s.Solutions != nil || strings.Contains(txt.String(), "solutions") {
		t.Errorf("solutions not counted: %+v\n%s", s.Solutions, txt.String())
	}
}

// TestSummaryTimedGolden renders the summary of a run with the timing
// columns (timedRun), -unique's counts and a highlighted id not in the
// run, so that the golden files show every part a run of today has.
func TestSummaryTimedGolden(t *testing.T) {
	res := timedRun(true)
	for id := range 25 {
		p, _ := res.puzzleAt(0, id)
		res.setSolutions(p, []int{1, 1, 2, 1, 0}[id%5])
	}
	m := miniOptions(t).Manifest // testdata/mini's run.json, over this run's corpus, with -unique and re-timing
	m.Corpora[0].Path, m.Corpora[0].Puzzles, m.Corpora[0].Invalid, m.Settings.Unique = "c.txt", 30, 0, true
	m.Segments[0].Timing = &rundir.Timing{Left: 2}
	s := Summarize(res, SummaryOptions{Top: 3, Highlight: []int{3, 99}, Manifest: m})
	for name, w := range map[string]func(io.Writer) error{"summary.md": s.WriteMarkdown, "summary.txt": func(w io.Writer) error { return s.WriteFullText(w, 0) }} {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "timed.golden", name), b.Bytes())
	}
}

// writeAll writes s as text, Markdown and JSON.
func writeAll(t *testing.T, s *Summary) (txt, md, js bytes.Buffer) {
	t.Helper()
	for _, w := range []func() error{
		func() error { return s.WriteFullText(&txt, 0) },
		func() error { return s.WriteMarkdown(&md) },
		func() error { return s.WriteJSON(&js) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	return txt, md, js
}

// TestSortValues: sortValues sorts as slices.Sort does: times with many
// ties, values that differ in every byte, few values, and values radix
// cannot sort (a negative, -0, a NaN, +Inf).
func TestSortValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := map[string][]float64{}
	for _, n := range []int{0, 1, 5, radixFrom - 1, radixFrom, 49151} {
		times, wide := make([]float64, n), make([]float64, n)
		for i := range n {
			times[i] = float64(int64(math.Exp(rng.NormFloat64()*0.6 + 7.8)))
			wide[i] = float64(rng.Uint64() >> 12)
		}
		cases[fmt.Sprintf("times %d", n)], cases[fmt.Sprintf("wide %d", n)] = times, wide
	}
	for _, odd := range []float64{-3, math.Copysign(0, -1), math.NaN(), math.Inf(1)} {
		v := slices.Clone(cases["times 49151"])
		v[rng.IntN(len(v))] = odd
		cases[fmt.Sprintf("with %v", odd)] = v
	}
	for name, v := range cases {
		want := slices.Clone(v)
		slices.Sort(want)
		got := slices.Clone(v)
		sortValues(got)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Errorf("%s: value %d is %v, want %v", name, i, got[i], want[i])
				break
			}
		}
	}
}

// BenchmarkSortValues sorts 49151 times (a lognormal spread of whole
// nanoseconds, as a run's) by sortValues and by slices.Sort.
func BenchmarkSortValues(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	times := make([]float64, 49151)
	for i := range times {
		times[i] = float64(int64(math.Exp(rng.NormFloat64()*0.6 + 7.8)))
	}
	v := make([]float64, len(times))
	for name, sort := range map[string]func([]float64){"radix": sortValues, "slices": slices.Sort[[]float64]} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				copy(v, times)
				sort(v)
			}
		})
	}
}
