package variants

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// corpus2018 is puzzle #2018 of the 17-clue corpus; langer is the grid
// that defeats backtrack in its given orientation.
const (
	corpus2018 = "000002910320080000000000000019000500000300000000070000704600003000001000600000000"
	langer     = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"
)

func strategies(t *testing.T, names ...string) []solvers.Solver {
	t.Helper()
	var ss []solvers.Solver
	for _, n := range names {
		s, ok := solvers.Lookup(n)
		if !ok {
			t.Fatalf("no strategy %s", n)
		}
		ss = append(ss, s.Solver)
	}
	return ss
}

// TestAnalyzeReplays: every unit of the analysis is the strategy's solve
// of the variant its transform string names, under the seed it records:
// solved again directly, it gives the same status and counters (the
// strategies are deterministic given the seed); the original is solved
// under the sweep's seed for the puzzle; CostOf counts the solves.
func TestAnalyzeReplays(t *testing.T) {
	p := solvers.MustParse(corpus2018)
	cfg := Config{Solvers: strategies(t, "norvig", "dlx", "randmrv"), N: 12, Seeds: 3, RunSeed: 42, Workers: 2}
	pz := []Puzzle{{Corpus: "c", CorpusIndex: 1, ID: 2018, Puzzle: p}}
	c, err := CostOf(cfg, pz)
	if err != nil {
		t.Fatal(err)
	}
	want := int(c.Solves)
	// norvig and dlx: 13 orientations; randmrv: 13 x 3 seeds.
	if want != 13+13+13*3 || c.PerOrientation != 5 || c.Bytes != int64(want)*BytesPerSolve {
		t.Errorf("CostOf = %+v, want %d solves, 5 an orientation", c, 13+13+13*3)
	}
	v, err := Analyze(context.Background(), cfg, pz)
	if err != nil {
		t.Fatal(err)
	}
	if v.Units != want {
		t.Errorf("%d solves made, CostOf said %d", v.Units, want)
	}
	if len(v.Analyses) != 3 {
		t.Fatalf("%d analyses, want 3", len(v.Analyses))
	}
	sweepSeed := pipeline.PuzzleSeed(42, 1, 2018)
	for i, a := range v.Analyses {
		s := cfg.Solvers[i]
		if a.Solver != s.Name() || a.ID != 2018 || a.Corpus != "c" || a.Grid != corpus2018 {
			t.Errorf("analysis %d: %s #%d of %s %s", i, a.Solver, a.ID, a.Corpus, a.Grid)
		}
		if a.Original.Transform != "id" || a.Original.Seed != sweepSeed {
			t.Errorf("%s: the original is %s under seed %d, want id under the sweep's %d", a.Solver, a.Original.Transform, a.Original.Seed, sweepSeed)
		}
		wantVariants := 12
		if s.Name() == "randmrv" {
			wantVariants = 36
		}
		if len(a.Variants) != wantVariants || a.Calls.N != wantVariants {
			t.Errorf("%s: %d variants (dist over %d), want %d", a.Solver, len(a.Variants), a.Calls.N, wantVariants)
		}
		for _, u := range append([]rundir.VariantUnit{a.Original}, a.Variants...) {
			tr, err := solvers.ParseTransform(u.Transform, 3)
			if err != nil {
				t.Fatal(err)
			}
			r := s.Solve(context.Background(), tr.ApplyPuzzle(p), solvers.Limits{Seed: u.Seed})
			if r.Status.String() != u.Status || r.Calls != u.Calls || r.Guesses != u.Guesses {
				t.Errorf("%s under %s, seed %d: replayed %s %d calls %d guesses; analysis %s %d %d",
					a.Solver, u.Transform, u.Seed, r.Status, r.Calls, r.Guesses, u.Status, u.Calls, u.Guesses)
			}
			if r.Status == solvers.StatusSolved {
				if err := solvers.Check(tr.ApplyPuzzle(p), r.Solution); err != nil {
					t.Errorf("%s under %s: %v", a.Solver, u.Transform, err)
				}
			}
		}
		if s.Name() != "randmrv" {
			if a.Seeds != nil {
				t.Errorf("%s: seed luck for a deterministic strategy", a.Solver)
			}
			continue
		}
		sl := a.Seeds
		if sl == nil || len(sl.Original) != 3 || sl.Original[0].Seed != sweepSeed || sl.Orientations.N != 12 {
			t.Fatalf("randmrv: seed luck %+v, want the original under 3 seeds (the sweep's first), 12 orientations", sl)
		}
		seen := map[uint64]bool{}
		for _, u := range sl.Original {
			if u.Transform != "id" || seen[u.Seed] {
				t.Errorf("randmrv: the original's seeds %+v: want the original under distinct seeds", sl.Original)
			}
			seen[u.Seed] = true
		}
	}
	// The same draw seed draws the same variants.
	again, err := Analyze(context.Background(), cfg, pz)
	if err != nil {
		t.Fatal(err)
	}
	for i := range v.Analyses[0].Variants {
		if a, b := v.Analyses[0].Variants[i], again.Analyses[0].Variants[i]; a.Transform != b.Transform || a.Calls != b.Calls {
			t.Fatalf("variant %d: %s %d calls, then %s %d", i, a.Transform, a.Calls, b.Transform, b.Calls)
		}
	}
}

// TestAnalyzeOnlyAsked: each puzzle is solved by the strategies it names
// only, and a name outside the configuration is an error.
func TestAnalyzeOnlyAsked(t *testing.T) {
	cfg := Config{Solvers: strategies(t, "norvig", "dlx"), N: 3, Workers: 1}
	pz := []Puzzle{
		{Corpus: "c", ID: 1, Puzzle: solvers.MustParse(corpus2018), Solvers: []string{"dlx"}},
		{Corpus: "c", ID: 2, Puzzle: solvers.MustParse(langer), Solvers: []string{"norvig", "dlx"}},
	}
	v, err := Analyze(context.Background(), cfg, pz)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range v.Analyses {
		got = append(got, a.Solver)
	}
	if len(got) != 3 || got[0] != "dlx" || got[1] != "norvig" || got[2] != "dlx" || v.Units != 3*4 {
		t.Errorf("analyses %v with %d solves, want [dlx norvig dlx] with 12", got, v.Units)
	}
	pz[0].Solvers = []string{"backtrack"}
	if _, err := Analyze(context.Background(), cfg, pz); err == nil {
		t.Error("a strategy outside the configuration: no error")
	}
}

// TestAnalyzeStops: a closed Stop ends the analysis with ErrInterrupted
// and no analysis of a strategy whose units were not all solved.
func TestAnalyzeStops(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	cfg := Config{Solvers: strategies(t, "norvig"), N: 50, Workers: 1, Stop: stop}
	v, err := Analyze(context.Background(), cfg, []Puzzle{{ID: 1, Puzzle: solvers.MustParse(corpus2018)}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	for _, a := range v.Analyses {
		if len(a.Variants) != 50 {
			t.Errorf("an analysis of %d variants of 50 after a stop", len(a.Variants))
		}
	}
}

// TestVerdicts: the thresholds, on made-up units.
func TestVerdicts(t *testing.T) {
	mk := func(orig uint64, variants ...uint64) []unit {
		us := []unit{{line: line{k: 0}, row: &rundir.Row{Status: solvers.StatusSolved, Calls: orig}, t: solvers.Identity(3)}}
		for i, c := range variants {
			us = append(us, unit{line: line{k: i + 1}, row: &rundir.Row{Status: solvers.StatusSolved, Calls: c}, t: solvers.Identity(3)})
		}
		return us
	}
	ten := func(v uint64) []uint64 { // ten variants around v
		return []uint64{v / 2, v * 3 / 4, v, v, v, v, v, v * 5 / 4, v * 3 / 2, v * 2}
	}
	pl := &plan{cfg: Config{Medians: map[string]CorpusMedian{"s": {Calls: 100, From: "test"}}}}
	for _, c := range []struct {
		name  string
		units []unit
		want  string
	}{
		{"typical", mk(100, ten(100)...), rundir.VerdictTypical},
		{"hard: variants' median 10x the corpus's", mk(1000, ten(1000)...), rundir.VerdictHard},
		{"not hard: 9x", mk(900, ten(900)...), rundir.VerdictTypical},
		{"unlucky: above p90 and 4x the median", mk(400, ten(100)...), rundir.VerdictUnlucky},
		{"not unlucky: above p90 but 3x", mk(300, ten(100)...), rundir.VerdictTypical},
		{"hard and unlucky", mk(40000, ten(1000)...), rundir.VerdictHardUnlucky},
	} {
		a := pl.analyse(Puzzle{ID: 1, Puzzle: solvers.MustParse(langer)}, "s", false, c.units)
		if a.Verdict != c.want {
			t.Errorf("%s: verdict %q (median %v, p90 %v, original %d), want %q", c.name, a.Verdict, a.Calls.Median, a.Calls.P90, a.Original.Calls, c.want)
		}
	}
	// A call limit L: the units that reach L stop there, lower bounds.
	capped := func(L uint64, us []unit) []unit {
		for _, u := range us {
			if u.row.Calls >= L {
				u.row.Calls, u.row.Status = L, solvers.StatusLimit
			}
		}
		return us
	}
	for _, c := range []struct {
		name  string
		units []unit
		want  string
		note  string
	}{
		// Median and original at the limit 5000, over 10x the corpus's
		// 100: hard; the original and p90 both at the limit: whether it is
		// also unlucky is not known.
		{"a censored median over the threshold", capped(5000, mk(9000, ten(8000)...)), rundir.VerdictHard, "also unlucky cannot be told"},
		// The median at the limit 800, under the threshold 1000: unknown.
		{"a censored median under the threshold", capped(800, mk(100, ten(1000)...)), rundir.VerdictNone, "hard cannot be told"},
		// An exact original (550) under a p90 at the limit 600, an exact
		// median (500) under the threshold: typical.
		{"an exact original under a censored p90", capped(600, mk(550, ten(500)...)), rundir.VerdictTypical, ""},
		// An original at the limit 800, over exact quantiles (median 100,
		// p90 155) and 4x their median: unlucky.
		{"a censored original over exact quantiles", capped(800, mk(9000, ten(100)...)), rundir.VerdictUnlucky, ""},
	} {
		a := pl.analyse(Puzzle{ID: 1, Puzzle: solvers.MustParse(langer)}, "s", false, c.units)
		if a.Verdict != c.want || !strings.Contains(a.Note, c.note) {
			t.Errorf("%s: verdict %q (median %v, p90 %v, original %d %s), note %q; want %q and a note with %q", c.name, a.Verdict,
				a.Calls.Median, a.Calls.P90, a.Original.Calls, a.Original.Status, a.Note, c.want, c.note)
		}
	}

	// Without a corpus median, hard cannot be told: unlucky still can.
	a := pl.analyse(Puzzle{ID: 1, Puzzle: solvers.MustParse(langer)}, "other", false, mk(100, ten(100)...))
	if a.Verdict != rundir.VerdictNone || a.Note == "" {
		t.Errorf("no corpus median: verdict %q note %q, want none with a note", a.Verdict, a.Note)
	}
	a = pl.analyse(Puzzle{ID: 1, Puzzle: solvers.MustParse(langer)}, "other", false, mk(1000, ten(100)...))
	if a.Verdict != rundir.VerdictUnlucky {
		t.Errorf("no corpus median, unlucky original: verdict %q", a.Verdict)
	}
}

// TestDistOf: the variants' figures are the summary's estimator
// (internal/quantile): each the value of one variant, never one between
// two, so that a figure is exact or reached by a limit as the variant
// behind it is.
func TestDistOf(t *testing.T) {
	vs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	d := distOf(vs, 0)
	if want := (rundir.Dist{N: 11, Median: 6, Q1: 3, Q3: 9, P90: 10, Max: 11}); d != want {
		t.Errorf("distOf 1..11 = %+v, want %+v", d, want)
	}
	// 100 variants: the p90 is the 90th smallest, the median the 50th.
	var hundred []float64
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, float64(10*i))
	}
	if d := distOf(hundred, 0); d.P90 != 900 || d.Median != 500 || d.Q1 != 250 || d.Q3 != 750 {
		t.Errorf("distOf 10..1000 = %+v, want median 500, IQR [250, 750], p90 900", d)
	}
	if p := percentile(vs, 6); p != 100*6.0/11 {
		t.Errorf("percentile of 6: %v", p)
	}
}

// TestCostRefusesWhatCannotFit: the cost of a billion variants is
// counted at once (no step per solve) and refused, saying how many fit.
func TestCostRefusesWhatCannotFit(t *testing.T) {
	cfg := Config{Solvers: strategies(t, "norvig", "randmrv"), N: 1_000_000_000, Seeds: 5}
	pz := []Puzzle{{ID: 2018, Puzzle: solvers.MustParse(corpus2018)}, {ID: 1, Puzzle: solvers.MustParse(corpus2018)}}
	c, err := CostOf(cfg, pz)
	if err != nil {
		t.Fatal(err)
	}
	if c.Solves != 2*6*1_000_000_001 {
		t.Errorf("solves %d, want %d", c.Solves, 2*6*1_000_000_001)
	}
	err = c.Fits()
	if err == nil || !strings.Contains(err.Error(), "variants a puzzle fit") {
		t.Errorf("Fits: %v, want a refusal saying how many variants fit", err)
	}
	if _, err := Analyze(context.Background(), cfg, pz); err == nil || !strings.Contains(err.Error(), "in memory") {
		t.Errorf("Analyze: %v, want the same refusal", err)
	}
}

// TestConfigCheck: settings no analysis runs with are refused, naming
// the flag of batch variants.
func TestConfigCheck(t *testing.T) {
	ok := Config{N: 1, Seeds: 1, Workers: 1}
	if err := ok.Check(); err != nil {
		t.Errorf("a sound config: %v", err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{N: 0, Seeds: 1, Workers: 1}, "-n 0: want 1 or more variants"},
		{Config{N: 1, Seeds: 0, Workers: 1}, "-seeds 0: want 1 or more"},
		{Config{N: 1, Seeds: 1, Workers: 1, Timeout: -1}, "-timeout -1ns: want a duration >= 0"},
		{Config{N: 1, Seeds: 1}, "-workers 0: want 1 or more"},
	} {
		if err := c.cfg.Check(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
