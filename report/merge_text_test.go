package report

import (
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// TestWriteMerged: the runs merged, the rows and status, the wall time,
// and the CPU time only when the shards recorded it.
func TestWriteMerged(t *testing.T) {
	m := &rundir.Manifest{Rows: 1200, Status: rundir.Finished, DurationNS: int64(90 * time.Second)}
	var b strings.Builder
	if err := WriteMerged(&b, m, 3, "results/full"); err != nil {
		t.Fatal(err)
	}
	want := "merged 3 runs into results/full: 1200 rows (status finished)\nwall time 90.0s, from the first shard's start to the last one's end\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	m.CPUNS = int64(2 * time.Minute)
	b.Reset()
	WriteMerged(&b, m, 3, "results/full")
	if !strings.Contains(b.String(), "end; CPU time 2m0s, the shards' processes together\n") {
		t.Errorf("with the CPU time:\n%s", b.String())
	}
}
