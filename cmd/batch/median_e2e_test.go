package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
