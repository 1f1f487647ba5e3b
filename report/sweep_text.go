package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"sudokubatch/rundir"
)

// SweepEnd is what a sweep tells on stdout when it ends, beside the
// report it writes: where its rows are, how long it took and what its
// re-timing did, how its units ended when no report follows, and what
// became of each corpus's lines (WriteSummary); then how many units a
// limit stopped and how to measure them, the lines that were not
// puzzles, and what the external solvers did (WriteNotes). The command
// fills it from the pipeline's stats; every line is fitted to the width.
type SweepEnd struct {
	Dir       string // the run directory
	Rows      int    // the rows of its results.csv
	Failed    bool   // an error stopped the sweep: the rows counted may not all be in the file
	Elapsed   time.Duration
	Workers   int
	Units     int   // units swept now
	Skipped   int   // units a resumed run had done
	Peak      int64 // the process's peak memory in bytes; 0 when not known
	Timing    rundir.Timing
	Cached    int  // units re-timed but not taken (an external solver that caches)
	Table     bool // print per strategy how its units ended: no report follows
	Solvers   []SweepCounts
	Corpora   []rundir.CorpusInfo
	Settings  rundir.Settings
	Invalid   int // corpus lines that are not puzzles
	Externals []ExternalEnd
}

// ExternalEnd is what an external solver did during a sweep that its
// notes tell: processes started again, units refused past the restart
// cap, lines that came too late to name their unit. Its null round trip
// is the one of SweepEnd.Timing.Null with its name.
type ExternalEnd struct {
	Name        string
	Restarts    int
	MaxRestarts int // -ext-restarts
	Refused     bool
	Strays      int
}

// WriteSummary writes where the rows are, how long the sweep took, its
// re-timing, the table of how the units ended (with Table) and the
// corpora's lines, within width columns (0: DefaultTextWidth).
func (s *SweepEnd) WriteSummary(w io.Writer, width int) error {
	var b strings.Builder
	if s.Failed {
		fmt.Fprintf(&b, "results: %s (incomplete: %s stopped by an error)\n", s.Dir, rundir.ResultsFile)
	} else {
		fmt.Fprintf(&b, "results: %s (%s in %s)\n", s.Dir, Count(s.Rows, "row", "rows"), rundir.ResultsFile)
	}
	fmt.Fprintf(&b, "took %s with %s: %s this run", FormatDuration(s.Elapsed), Count(s.Workers, "worker", "workers"),
		Count(s.Units, "unit", "units"))
	if s.Skipped > 0 {
		fmt.Fprintf(&b, ", %d already done", s.Skipped)
	}
	if s.Peak > 0 {
		fmt.Fprintf(&b, ", peak memory %s", FormatBytes(s.Peak))
	}
	b.WriteString("\n")
	s.writeTiming(&b)
	if _, err := io.WriteString(w, Wrap(b.String(), width)); err != nil {
		return err
	}
	if s.Table {
		if err := WriteStatusTable(w, s.Solvers, width); err != nil {
			return err
		}
	}
	b.Reset()
	for _, c := range s.Corpora {
		valid := c.Puzzles - c.Invalid
		counts := fmt.Sprintf("%d %s = %d %s + %d invalid + %d skipped (blank, comment or count header)",
			c.Lines, Plural(c.Lines, "line", "lines"), valid, Plural(valid, "puzzle", "puzzles"), c.Invalid, c.Skipped)
		switch {
		case c.Error != "":
			fmt.Fprintf(&b, "corpus %s: %s read before the error\n", c.Path, counts)
		case c.Complete:
			fmt.Fprintf(&b, "corpus %s: %s\n", c.Path, counts)
		case c.Lines == 0:
			fmt.Fprintf(&b, "corpus %s: not read\n", c.Path)
		default:
			fmt.Fprintf(&b, "corpus %s: read up to line %d: %s\n", c.Path, c.Lines, counts)
		}
	}
	_, err := io.WriteString(w, Wrap(b.String(), width))
	return err
}

// writeTiming writes the line of the re-timing, when it did anything.
func (s *SweepEnd) writeTiming(b *strings.Builder) {
	t := s.Timing
	if t.RetimeErr != "" {
		fmt.Fprintf(b, "timing: the re-timing could not be recorded, the rows keep their sweep times: %s\n", t.RetimeErr)
		return
	}
	if t.Retimed == 0 && t.Left == 0 && t.Unstable == 0 {
		return
	}
	fmt.Fprintf(b, "timing: %s re-timed alone in %s: %d confirmed slow, %d noise, %d slowest confirmed",
		Count(t.Retimed, "unit", "units"), FormatDuration(time.Duration(t.RetimeNS)), t.Slow, t.Noise, t.Confirmed)
	if s.Cached > 0 {
		fmt.Fprintf(b, "; %d not taken (an external solver that answers repeated requests as a cache does)", s.Cached)
	}
	if t.Left > 0 {
		fmt.Fprintf(b, "; %d left (time allowed spent)", t.Left)
	}
	if t.Unstable > 0 {
		fmt.Fprintf(b, "; %s whose runs disagreed (unstable)", Count(t.Unstable, "unit", "units"))
	}
	fmt.Fprintf(b, "; timer overhead %d ns subtracted; collector %.2f%% of CPU\n", t.TimerNS, 100*t.GCCPUShare)
}

// WriteNotes writes how many units a timeout or the call limit stopped
// (and how to measure them), how many lines were not puzzles, and what
// each external solver did, within width columns.
func (s *SweepEnd) WriteNotes(w io.Writer, width int) error {
	var b strings.Builder
	stoppedBy := func(status string) (int, string) {
		n := 0
		var per []string
		for _, c := range s.Solvers {
			if k := c.Statuses[status]; k > 0 {
				n += k
				per = append(per, fmt.Sprintf("%s %d", c.Name, k))
			}
		}
		return n, strings.Join(per, ", ")
	}
	if n, per := stoppedBy("timeout"); n > 0 {
		raise := "Raise the limit"
		if next := higherTimeout(time.Duration(s.Settings.TimeoutNS)); next > 0 {
			raise += fmt.Sprintf(" (-timeout %s)", next)
		}
		fmt.Fprintf(&b, "note: %s stopped at -timeout %s (%s); %s timeout. %s, or sweep without one: -timeout 0 -max-calls N.\n",
			Count(n, "unit", "units"), s.Settings.Timeout, per, Plural(n, "its row says", "their rows say"), raise)
	}
	if n, per := stoppedBy("limit"); n > 0 {
		fmt.Fprintf(&b, "note: %s stopped at -max-calls %d (%s); %s limit.\n", Count(n, "unit", "units"),
			s.Settings.MaxCalls, per, Plural(n, "its row says", "their rows say"))
	}
	if s.Invalid > 0 {
		fmt.Fprintf(&b, "note: %s (status invalid, with file, line and reason)\n",
			Plural(s.Invalid, "1 corpus line is not a puzzle", fmt.Sprintf("%d corpus lines are not puzzles", s.Invalid)))
	}
	for _, x := range s.Externals {
		s.writeExternal(&b, x)
	}
	_, err := io.WriteString(w, Wrap(b.String(), width))
	return err
}

// writeExternal writes the notes of one external solver.
func (s *SweepEnd) writeExternal(b *strings.Builder, x ExternalEnd) {
	if x.Restarts > 0 {
		fmt.Fprintf(b, "note: external %s: %s started again (after a timeout, a crash or a protocol error; -ext-restarts %d at most)\n",
			x.Name, Count(x.Restarts, "process", "processes"), x.MaxRestarts)
	}
	if x.Refused {
		fmt.Fprintf(b, "note: external %s: the restart cap was reached: its units after it were not sent, their rows say error (restart cap reached); raise -ext-restarts\n",
			x.Name)
	}
	if x.Strays > 0 {
		fmt.Fprintf(b, "note: external %s: %s came after an answer too many requests back to name its unit\n", x.Name, Count(x.Strays, "line", "lines"))
	}
	// The null is part of the round trip, not of the time a solver
	// reports of itself, by which the report ranks it when every answer
	// has one: "part of each unit's time" read as part of that one too.
	for _, null := range s.Timing.Null {
		if null.Name == x.Name && null.Samples > 0 {
			fmt.Fprintf(b, "note: external %s: null round trip %s median (p10 %s, p90 %s) over %d samples during the sweep: part of each round trip (results.csv's ns), not of a time the solver reports (self_ns)\n",
				x.Name, FormatDuration(time.Duration(null.MedianNS)), FormatDuration(time.Duration(null.P10NS)),
				FormatDuration(time.Duration(null.P90NS)), null.Samples)
		}
	}
}

// higherTimeout returns a -timeout to suggest above t: the first of 1s,
// 10s, 1m and 10m past it, or 0 past them all. (A unit of an external
// solver under -timeout 0 stops at -ext-timeout: the same applies.)
func higherTimeout(t time.Duration) time.Duration {
	for _, d := range []time.Duration{time.Second, 10 * time.Second, time.Minute, 10 * time.Minute} {
		if d > t {
			return d
		}
	}
	return 0
}

// EmptySelection says why a new sweep solved nothing: its corpora (as
// read: corpora; as named: named) have no puzzle, or its selection
// matches none of them.
func EmptySelection(corpora []rundir.CorpusInfo, named []string) string {
	puzzles := 0
	var counts []string
	for _, c := range corpora {
		puzzles += c.Puzzles
		counts = append(counts, fmt.Sprintf("%s has %d %s", c.Path, c.Puzzles, Plural(c.Puzzles, "puzzle", "puzzles")))
	}
	if puzzles == 0 {
		return fmt.Sprintf("no puzzle line in %s (empty, or only comments and blank lines): nothing was solved", strings.Join(named, ", "))
	}
	return fmt.Sprintf("the selection matches no puzzle (%s; ids count from 0): nothing was solved", strings.Join(counts, ", "))
}
