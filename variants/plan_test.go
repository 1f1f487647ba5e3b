package variants

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestPlanSample: the strategies without a corpus median are sampled
// from the puzzle's corpus, or from the default corpus (counted) when
// the puzzle's has fewer than MinSampleCorpus puzzles; none is planned
// when none is missing or no sample is asked.
func TestPlanSample(t *testing.T) {
	ctx := context.Background()
	def := filepath.Join(t.TempDir(), "default.txt")
	if err := os.WriteFile(def, []byte(strings.Repeat(corpus2018+"\n", 60)), 0o644); err != nil {
		t.Fatal(err)
	}
	have := map[string]CorpusMedian{"dlx": {Calls: 10}}
	names := []string{"dlx", "norvig", "bitboard"}
	for _, tc := range []struct {
		k, count int
		want     Sample
	}{
		{200, 49151, Sample{Missing: []string{"norvig", "bitboard"}, From: "mine.txt", Count: 49151}},
		{200, 3, Sample{Missing: []string{"norvig", "bitboard"}, From: def, Count: 60}},
		{0, 49151, Sample{}},
	} {
		got, err := PlanSample(ctx, names, have, tc.k, "mine.txt", tc.count, def)
		if err != nil || !slices.Equal(got.Missing, tc.want.Missing) || got.From != tc.want.From || got.Count != tc.want.Count {
			t.Errorf("k %d over %d puzzles: %+v, %v; want %+v", tc.k, tc.count, got, err, tc.want)
		}
	}
	if got, err := PlanSample(ctx, []string{"dlx"}, have, 200, "mine.txt", 3, def); err != nil || len(got.Missing) != 0 {
		t.Errorf("nothing missing: %+v, %v", got, err)
	}
}

// TestWrong names the first strategy with a wrong answer, on the
// original or on a variant.
func TestWrong(t *testing.T) {
	ok, wrong := rundir.VariantUnit{Status: "solved"}, rundir.VariantUnit{Status: "wrong"}
	v := &rundir.Variants{Analyses: []rundir.VariantAnalysis{
		{Solver: "dlx", Original: ok, Variants: []rundir.VariantUnit{ok}},
		{Solver: "norvig", Original: ok, Variants: []rundir.VariantUnit{ok, wrong}},
		{Solver: "bitboard", Original: wrong},
	}}
	if got := Wrong(v); got != "norvig" {
		t.Errorf("Wrong = %q, want norvig", got)
	}
	v.Analyses = v.Analyses[:1]
	if got := Wrong(v); got != "" {
		t.Errorf("Wrong = %q, want none", got)
	}
}
