package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"sudokubatch/rundir"
)

// WriteMerged writes what batch merge did: the runs merged into out with
// the rows and status of the run made (m, its run.json), then its wall
// time and, when the shards recorded it, their CPU time.
func WriteMerged(w io.Writer, m *rundir.Manifest, runs int, out string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "merged %s into %s: %s (status %s)\n", Count(runs, "run", "runs"), out, Count(m.Rows, "row", "rows"), m.Status)
	fmt.Fprintf(&b, "wall time %s, from the first shard's start to the last one's end", FormatDuration(time.Duration(m.DurationNS)))
	if m.CPUNS > 0 {
		fmt.Fprintf(&b, "; CPU time %s, the shards' processes together", FormatDuration(time.Duration(m.CPUNS)))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
