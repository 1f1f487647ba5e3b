package report

import (
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestWritePruned: what prune did and what it would do, run by run, then
// the totals.
func TestWritePruned(t *testing.T) {
	res := &rundir.PruneResult{
		Pruned:  []rundir.Pruned{{Dir: "results/a", Files: []string{"results.csv.gz", "stream-0"}, Bytes: 2_500_000}},
		Gzipped: []rundir.Pruned{{Dir: "results/b", Bytes: 1_000_000}},
		Kept:    []string{"results/b", "results/c"},
		Skipped: []rundir.PruneSkip{{Dir: "results/d", Why: "interrupted: -resume appends to its rows"}},
		Bytes:   3_500_000,
	}
	for _, tc := range []struct {
		dry  bool
		want string
	}{
		{false, `results/a: removed results.csv.gz, stream-0 (2.5 MB)
results/b: gzipped results.csv (1.0 MB saved)
results/d: left whole: interrupted: -resume appends to its rows
freed 3.5 MB of 2 runs; 2 finished runs kept whole (-keep 2); 1 run directory skipped
`},
		{true, `results/a: would remove results.csv.gz, stream-0 (2.5 MB)
results/b: would gzip results.csv (1.0 MB)
results/d: left whole: interrupted: -resume appends to its rows
would free 3.5 MB of 2 runs; 2 finished runs kept whole (-keep 2); 1 run directory skipped
`},
	} {
		var b strings.Builder
		if err := WritePruned(&b, res, rundir.PruneOptions{Keep: 2, DryRun: tc.dry}); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("dry run %v:\n%s\nwant:\n%s", tc.dry, b.String(), tc.want)
		}
	}
}
