package show

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/variants"
)

// RunMedians returns each strategy's corpus medians that the puzzle's
// run gives (its summary.json, when it is the run's), for the verdicts
// of batch variants; the string says why none were read ("" when they
// were, or with no run).
func (p *Puzzle) RunMedians() (map[string]variants.CorpusMedian, string) {
	medians := map[string]variants.CorpusMedian{}
	if p.Run == nil {
		return medians, ""
	}
	path := filepath.Join(p.RunDir, rundir.SummaryJSON)
	b, err := os.ReadFile(path)
	if err != nil {
		return medians, fmt.Sprintf("no %s in %s (batch report %s writes it): corpus medians from a sample", rundir.SummaryJSON, p.RunDir, p.RunDir)
	}
	var sum report.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return medians, fmt.Sprintf("%s: %v: corpus medians from a sample", path, err)
	}
	if m := p.Run.Manifest; m != nil && (sum.Run == nil || sum.Run.RunID != m.RunID) {
		return medians, fmt.Sprintf("%s is not the run's (batch report %s rewrites it): corpus medians from a sample", path, p.RunDir)
	}
	for _, st := range sum.Strategies {
		if st.Measured > 0 {
			medians[st.Solver] = variants.CorpusMedian{Calls: st.Calls.Median.Value, NS: st.TimeNS.Median.Value,
				From: fmt.Sprintf("run %s (%d puzzles)", p.RunDir, st.Measured)}
		}
	}
	return medians, ""
}

// CorpusMedians returns the corpus medians of the strategies names for
// the verdicts of batch variants: the run's (RunMedians), and for the
// others those of a sample of k puzzles (variants.PlanSample: of the
// puzzle's corpus, or of defaultCorpus when it has too few) solved under
// cfg's limits, workers and seed (variants.SampleMedians). A corpus on
// standard input, read once, gives none. say is told, a line each, why
// the run gave none and where the others come from.
func (p *Puzzle) CorpusMedians(ctx context.Context, cfg variants.Config, names []string, k int, defaultCorpus string, say func(string)) (map[string]variants.CorpusMedian, error) {
	medians, why := p.RunMedians()
	if why != "" {
		say(why)
	}
	plan, err := variants.PlanSample(ctx, names, medians, k, p.File, p.Info.Puzzles, defaultCorpus)
	switch {
	case err != nil:
		return nil, err
	case len(plan.Missing) == 0:
		return medians, nil
	case plan.From == "-":
		say(fmt.Sprintf("no corpus medians for %s: a corpus on standard input is read once (give a run with -run)", strings.Join(plan.Missing, ", ")))
		return medians, nil
	}
	say(fmt.Sprintf("corpus medians of %s from a sample of %d puzzles of %s (%s)…",
		strings.Join(plan.Missing, ", "), min(k, plan.Count), plan.From, report.LimitText(cfg.Timeout, cfg.MaxCalls)))
	sampled, err := variants.SampleMedians(ctx, cfg, plan.From, plan.Count, k, plan.Missing)
	if err != nil {
		return nil, err
	}
	maps.Copy(medians, sampled)
	return medians, nil
}
