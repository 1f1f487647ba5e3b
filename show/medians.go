package show

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

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
