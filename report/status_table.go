package report

import (
	"io"
	"strconv"
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
// time, fitted to width (0: DefaultTextWidth), in one write.
func WriteStatusTable(w io.Writer, counts []SweepCounts, width int) error {
	statuses := solvers.Statuses()
	head := []string{"strategy", "units"}
	for _, status := range statuses {
		head = append(head, status.String())
	}
	rows := [][]string{append(head, "mean time")}
	for _, c := range counts {
		r := []string{c.Name, strconv.Itoa(c.Units)}
		for _, status := range statuses {
			r = append(r, strconv.Itoa(c.Statuses[status.String()]))
		}
		mean := "-"
		if c.Units > 0 {
			mean = FormatDuration(time.Duration(c.NS / int64(c.Units)))
		}
		rows = append(rows, append(r, mean))
	}
	_, err := io.WriteString(w, termTable{rows: rows, left: 1, keys: 1}.render(width))
	return err
}
