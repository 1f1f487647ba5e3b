package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// textWidth is the width WriteText keeps the table within when it can.
const textWidth = 100

// writeLegend writes what the marks of the text table mean: bounds,
// spreads, the unconfirmed mark, the unstable units; with full, also the
// trimmed mean and the rows of the re-timing.
func (s *Summary) writeLegend(b *bytes.Buffer, full bool) {
	if n := s.censored(); n > 0 {
		fmt.Fprintf(b, "≥: lower bound, ≤: upper bound: %d %s stopped by a limit %s at %s stopping value.\n",
			n, Plural(n, "unit", "units"), Plural(n, "enters", "enter"), Plural(n, "its", "their"))
	}
	if s.anyMeasured() {
		if full {
			b.WriteString("±: 95% interval, its larger half over the figure (±?: unbounded); trimmed mean: of the middle 80%.\n")
		} else {
			b.WriteString("±: 95% interval, its larger half over the figure (±?: unbounded).\n")
		}
	}
	if !s.Timed {
		if s.anyMeasured() {
			b.WriteString("times unconfirmed: results.csv has no timing columns (each time was measured once).\n")
		}
		return
	}
	if full {
		b.WriteString("time confirmed: measured more than once (repeated, or re-timed).\n" +
			"time retimed: timed again alone at the end: slow (confirmed), noise (not confirmed) or ok;\n" +
			"the slowest are re-timed first, then the outliers.\n")
	}
	for _, st := range s.Strategies {
		if st.TimeNS.MaxUnconfirmed {
			b.WriteString(UnconfirmedMark + ": a time measured once, in the sweep: the re-timing's allowance was spent before it.\n")
			break
		}
	}
	if u := s.unstable(); len(u) > 0 {
		fmt.Fprintf(b, "unstable (runs disagreed on status or counters): %s.\n", strings.Join(u, "; "))
	}
}

// writeFitted writes the table of head and rows with each spread beside
// its figure when that fits in textWidth columns, else on a row of its
// own.
func writeFitted(b *bytes.Buffer, head []string, rows []tableRow) error {
	table, err := textTable(head, rows, true)
	if err == nil && textTableWidth(table) > textWidth {
		table, err = textTable(head, rows, false)
	}
	if err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	b.WriteString(table)
	return nil
}

// WriteText writes the headline for a terminal (headlineTable): one
// column per strategy, at most HeadlineRows rows (its puzzles and
// statuses, median and p99 time, the no-guess rate, its hardest puzzle
// by calls), human units (µs, ms, s; k, M) with three significant
// digits; each time figure's spread, "±3.1%" (see fmtSpread), beside it
// when the table still fits in textWidth columns, else on a row of its
// own under it. Then where the rest is (p90, means, maxima, calls, the
// re-timing: summary.md and the page), and what was asked but is
// missing: highlighted ids not in the run, puzzles with no or several
// solutions.
func (s *Summary) WriteText(w io.Writer) error { return s.writeText(w, false) }

// WriteFullText writes the whole main table for a terminal (batch report
// -full): every row of mainTable, so that seven strategies fit in 100
// columns, the spreads as WriteText places them. In a run with the timing
// columns, the noise figure follows as rows (re-timed units and their
// outcome, unstable units), its total on a line under the table. Then
// what was asked but is missing, as WriteText.
func (s *Summary) WriteFullText(w io.Writer) error { return s.writeText(w, true) }

// writeText writes the headline, or with full the whole table.
func (s *Summary) writeText(w io.Writer, full bool) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", s.Corpus, s.countsLine())
	for _, l := range s.runningLines() {
		fmt.Fprintf(&b, "%s\n", l)
	}
	b.WriteString("\n")
	var head []string
	var rows []tableRow
	if full {
		head, rows = s.mainTable()
		rows = append(rows, s.timingRows(false)...)
	} else {
		head, rows = s.headlineTable()
	}
	if err := writeFitted(&b, head, rows); err != nil {
		return err
	}
	if t := s.Timing; full && t != nil {
		fmt.Fprintf(&b, "  time retimed in all: %d %s (slow %d, noise %d, ok %d)", t.Retimed,
			Plural(t.Retimed, "unit", "units"), t.RetimedSlow, t.RetimedNoise, t.RetimedConfirmed)
		if t.NotRetimed > 0 {
			fmt.Fprintf(&b, "; %d not re-timed (the time allowed was spent)", t.NotRetimed)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	s.writeBasisText(&b)
	s.writeLegend(&b, full)
	if !full {
		b.WriteString("the full table (p90, means, maxima, calls, guesses, the re-timing) is in summary.md and on the page.\n")
	}
	s.writeMissingText(&b)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	return nil
}

// writeMissingText writes, one line each, the highlighted ids not in the
// run and the puzzles with no or several solutions.
func (s *Summary) writeMissingText(b *bytes.Buffer) {
	if len(s.HighlightsMissing) > 0 {
		fmt.Fprintf(b, "highlighted but not in this run: %s.\n", idList(s.HighlightsMissing))
	}
	if c := s.Solutions; c != nil {
		fmt.Fprintf(b, "solutions counted (-unique) for %d %s: %s.\n", c.Counted, Plural(c.Counted, "puzzle", "puzzles"),
			c.sentence(refList))
	}
}

// sentence says how many puzzles have two or more solutions and how many
// none, naming them with list.
func (c *SolutionCounts) sentence(list func([]PuzzleRef, int) string) string {
	if c.Several == 0 && c.None == 0 {
		return "each has exactly one solution"
	}
	var parts []string
	if c.Several > 0 {
		parts = append(parts, fmt.Sprintf("%d %s two or more solutions (%s)", c.Several,
			Plural(c.Several, "has", "have"), list(c.SeveralAt, c.Several)))
	}
	if c.None > 0 {
		parts = append(parts, fmt.Sprintf("%d %s no solution (%s)", c.None, Plural(c.None, "has", "have"),
			list(c.NoneAt, c.None)))
	}
	return strings.Join(parts, "; ")
}

// refList names puzzles by label, "#3, #17", with "and N more" when they
// are the first of total.
func refList(refs []PuzzleRef, total int) string {
	labels := make([]string, len(refs))
	for i, r := range refs {
		labels[i] = r.Label
	}
	if total > len(refs) {
		labels = append(labels, fmt.Sprintf("and %d more", total-len(refs)))
	}
	return strings.Join(labels, ", ")
}

// idList names puzzle ids, "#3, #99".
func idList(ids []int) string {
	labels := make([]string, len(ids))
	for i, id := range ids {
		labels[i] = "#" + strconv.Itoa(id)
	}
	return strings.Join(labels, ", ")
}

// textTable renders the table rows under head with a tabwriter: labels
// left, numbers right, two spaces before each column. A row's spreads
// go beside its cells (inline) or on a row of their own under it,
// labelled with the row's label and " ±".
func textTable(head []string, rows []tableRow, inline bool) (string, error) {
	lines := [][]string{append([]string{""}, head...)}
	for _, r := range rows {
		cells := append([]string{r.Label}, r.Cells...)
		if r.Spread != nil && inline {
			for i, sp := range r.Spread {
				if sp != "" {
					cells[i+1] += " " + sp
				}
			}
		}
		lines = append(lines, cells)
		if r.Spread != nil && !inline {
			lines = append(lines, append([]string{r.Label + " ±"}, r.Spread...))
		}
	}
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l[0]))
	}
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, l := range lines {
		l[0] += strings.Repeat(" ", width-utf8.RuneCountInString(l[0]))
		fmt.Fprintf(tw, "%s\t\n", strings.Join(l, "\t"))
	}
	err := tw.Flush()
	return b.String(), err
}

// textTableWidth returns the width of the widest line of a table, in
// runes.
func textTableWidth(table string) int {
	width := 0
	for _, l := range strings.Split(table, "\n") {
		width = max(width, utf8.RuneCountInString(strings.TrimRight(l, " ")))
	}
	return width
}
