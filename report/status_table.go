package report

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"sudokubatch/solvers"
)

// SweepCounts is how the units of one strategy of a sweep ended: the
// counts the sweep keeps as it goes (pipeline.SolverStats), which the
// sweep prints when it writes no report.
type SweepCounts struct {
	Name     string
	Units    int
	Statuses map[string]int // by solvers.Status.String()
	NS       int64          // total time of the units
}

// WriteStatusTable writes per strategy the units of a sweep, how many
// ended in each status (every status, zeros included) and their mean
// time, in one write (a tabwriter writes each cell and padding on its
// own).
func WriteStatusTable(w io.Writer, counts []SweepCounts) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	statuses := solvers.Statuses()
	fmt.Fprint(tw, "strategy\tunits\t")
	for _, status := range statuses {
		fmt.Fprintf(tw, "%s\t", status)
	}
	fmt.Fprint(tw, "mean time\t\n")
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%d\t", c.Name, c.Units)
		for _, status := range statuses {
			fmt.Fprintf(tw, "%d\t", c.Statuses[status.String()])
		}
		mean := "-"
		if c.Units > 0 {
			mean = FormatDuration(time.Duration(c.NS / int64(c.Units)))
		}
		fmt.Fprintf(tw, "%s\t\n", mean)
	}
	tw.Flush()
	_, err := w.Write(b.Bytes())
	return err
}
