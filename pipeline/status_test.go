package pipeline

import (
	"errors"
	"testing"

	"sudokubatch/rundir"
)

// TestStatusOfASweep: the status run.json records for each way a sweep
// ends, the most serious first.
func TestStatusOfASweep(t *testing.T) {
	damaged := []rundir.CorpusInfo{{Path: "a.txt", Complete: true}, {Path: "b.gz", Error: "b.gz: unexpected EOF"}}
	for _, tc := range []struct {
		name        string
		stats       Stats
		runErr      error
		status, why string
	}{
		{"every unit", Stats{Corpora: damaged[:1]}, nil, rundir.Finished, ""},
		{"stopped", Stats{Interrupted: true}, nil, rundir.Interrupted, ""},
		{"write error", Stats{}, errors.New("no space left on device"), rundir.Failed, "no space left on device"},
		{"write error after a stop", Stats{Interrupted: true}, errors.New("disk full"), rundir.Failed, "disk full"},
		{"damaged corpus", Stats{Corpora: damaged}, nil, rundir.Failed, "b.gz: unexpected EOF"},
		{"stopped with a damaged corpus", Stats{Corpora: damaged, Interrupted: true}, nil, rundir.Interrupted, ""},
		{"re-timing not recorded", Stats{Retime: RetimeStats{Error: "no space left on device"}}, nil,
			rundir.Finished, "the re-timing could not be recorded: no space left on device"},
		{"re-timing not recorded, corpus damaged", Stats{Corpora: damaged, Retime: RetimeStats{Error: "disk full"}}, nil,
			rundir.Failed, "b.gz: unexpected EOF"},
	} {
		status, why := tc.stats.Status(tc.runErr)
		if status != tc.status || why != tc.why {
			t.Errorf("%s: %q %q, want %q %q", tc.name, status, why, tc.status, tc.why)
		}
	}
}
