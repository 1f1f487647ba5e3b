package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// TestVariantsSampleMedianIsTheSummarys: the corpus medians batch
// variants samples (no run gives them) are the medians a sweep of the
// same puzzles reports in its summary: one estimator (internal/quantile),
// whether the median is read on the page or in the variants' verdict.
// A sample of 4 puzzles has an even count, where an estimator that
// interpolates (the variants' did) gives the mean of the middle two.
func TestVariantsSampleMedianIsTheSummarys(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	const solversArg = "norvig,dlx,randmrv"
	// The sample's puzzles: 4 spread evenly over the default corpus,
	// i*49151/4; randmrv under the same run seed in both.
	mustOK(t, batch(t, tmp, "-solvers", solversArg, "-timeout", "0", "-seed", "1", "-ids", "0,12287,24575,36863",
		"-out", "run", "-quiet"))
	mustOK(t, batch(t, tmp, "variants", "1", "-run", "", "-sample", "4", "-n", "2", "-seeds", "1", "-seed", "1",
		"-solvers", solversArg, "-timeout", "0", "-out", "vout"))

	var sum struct {
		Strategies []struct {
			Solver string
			Calls  struct{ Median struct{ Value float64 } }
		}
	}
	b, err := os.ReadFile(filepath.Join(tmp, "run", rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	v, err := rundir.ReadVariants(filepath.Join(tmp, "vout", rundir.VariantsFile))
	if err != nil || v == nil {
		t.Fatalf("variants.json: %v", err)
	}
	checked := 0
	for _, a := range v.Analyses {
		for _, st := range sum.Strategies {
			if st.Solver != a.Solver {
				continue
			}
			checked++
			if !strings.Contains(a.CorpusFrom, "a sample of 4 puzzles") {
				t.Errorf("%s: corpus median from %q, want a sample of 4 puzzles", a.Solver, a.CorpusFrom)
			}
			if a.CorpusMedian != st.Calls.Median.Value {
				t.Errorf("%s: the variants' corpus median of the sample is %v calls, the summary's median of the same puzzles %v",
					a.Solver, a.CorpusMedian, st.Calls.Median.Value)
			}
		}
	}
	if checked != 3 {
		t.Errorf("%d strategies checked, want 3", checked)
	}
}

// TestTrendGateBaselineIsCentered: trend's gate takes each puzzle's
// baseline time as the center of its times over the baseline nights: for
// an even count, the mean of the two middle ones (quantile.Midpoint), not
// the lower middle one the tool's quantiles take, which is the faster of
// the two. Four baseline nights, the first two as swept and the last two
// 1.2 times as slow (every strategy), then a fifth 1.1 times as slow: it
// is as slow as its baseline, ratio 1.00 (the lower middle one read
// x1.10), and the baseline's median lies between the nights' medians.
func TestTrendGateBaselineIsCentered(t *testing.T) {
	testenv.Heavy(t, "a sweep and a history of five copied nights")
	n1 := plainNight(t)
	root := t.TempDir()
	for k, factor := range []float64{1, 1, 1.2, 1.2, 1.1} {
		fakeNight(t, root, n1, night(k+1), "*", factor, 24*(k+1))
	}
	if r := trendOver(t, root); r.code != 0 {
		t.Fatalf("trend: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	medians := func(k int) map[string]float64 {
		var sum struct {
			Strategies []struct {
				Solver string
				TimeNS struct{ Median struct{ Value float64 } } `json:"time_ns"`
			}
		}
		b, err := os.ReadFile(filepath.Join(root, night(k), rundir.SummaryJSON))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, st := range sum.Strategies {
			m[st.Solver] = st.TimeNS.Median.Value
		}
		return m
	}
	fast, slow := medians(1), medians(3)
	f := trendJSON(t, root)
	checked := 0
	for _, st := range f.Series[0].Strategies {
		g := st.Gate
		if g == nil || len(g.Baseline) != 4 {
			t.Errorf("%s: gate %+v, want one over the 4 nights before", st.Solver, g)
			continue
		}
		checked++
		if r := g.Ratio.Value; r < 0.99 || r > 1.01 {
			t.Errorf("%s: night 5 (x1.1) against nights x1, x1, x1.2, x1.2: ratio x%.3f, want x1.00", st.Solver, r)
		}
		if b := g.BaseNS.Value; b <= fast[st.Solver] || b >= slow[st.Solver] {
			t.Errorf("%s: the baseline's median %v ns, want between the nights' %v and %v", st.Solver, b, fast[st.Solver], slow[st.Solver])
		}
	}
	if checked != 3 {
		t.Errorf("%d strategies checked, want 3", checked)
	}
}
