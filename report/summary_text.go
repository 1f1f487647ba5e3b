package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writeLegend writes what the marks of the text table mean: bounds,
// spreads, the unstable units; with full, also the trimmed mean, the rows
// of the re-timing and the unconfirmed mark (of the time max, a row of
// the full table only).
func (s *Summary) writeLegend(b *bytes.Buffer, full bool) {
	if n := s.censored(); n > 0 {
		fmt.Fprintf(b, "≥ lower, ≤ upper bound: %d %s stopped by a limit %s at the value reached.\n",
			n, Plural(n, "unit", "units"), Plural(n, "enters", "enter"))
	}
	if s.anyMeasured() {
		b.WriteString("±: 95% interval, its larger half over the figure (±?: unbounded).\n")
		if full {
			b.WriteString("trimmed mean: of the middle 80%.\n")
		}
	}
	if !s.Timed {
		if s.anyMeasured() {
			b.WriteString("times unconfirmed: results.csv has no timing columns (each measured once).\n")
		}
		return
	}
	if full {
		b.WriteString("time confirmed: measured more than once (repeated, or re-timed).\n" +
			"time retimed: timed again alone at the end, the slowest first, then the outliers: " +
			"slow (confirmed), noise (not confirmed) or ok.\n")
	}
	// The mark is on the time max, a row of the full table only: the
	// short table has none to explain.
	for _, st := range s.Strategies {
		if full && st.TimeNS.MaxUnconfirmed {
			b.WriteString(UnconfirmedMark + ": timed once, in the sweep: " + s.UnconfirmedCause() + ".\n")
			break
		}
	}
	if u := s.unstable(); len(u) > 0 {
		fmt.Fprintf(b, "unstable (runs disagreed on status or counters): %s.\n", strings.Join(u, "; "))
	}
}

// writeFitted writes the table of head and rows fitted to width: each
// spread beside its figure when the table then fits, else on a row of
// its own under it; a table still too wide is split into blocks of
// strategies (termTable), in the layout that takes the fewest blocks,
// the spreads beside their figures when that ties.
func writeFitted(b *bytes.Buffer, head []string, rows []tableRow, width int) {
	inline, apart := summaryTable(head, rows, true), summaryTable(head, rows, false)
	t := inline
	if ib, ab := inline.blocks(width), apart.blocks(width); ab < ib || ab == ib && columnsOf(inline, width) > textWidthOr(width) {
		t = apart
	}
	b.WriteString(t.render(width))
}

// WriteText writes the headline for a terminal (headlineTable): one
// column per strategy, at most HeadlineRows rows (its puzzles and
// statuses, median and p99 time, the no-guess rate, its hardest puzzle
// by calls), human units (µs, ms, s; k, M) with three significant
// digits; each time figure's spread, "±3.1%" (see fmtSpread), beside it
// or on a row of its own under it (writeFitted). Then where the rest is
// (p90, means, maxima, calls, the re-timing: summary.md and the page),
// and what was asked but is missing: highlighted ids not in the run,
// puzzles with no or several solutions. Every line fits in width columns
// (0: DefaultTextWidth): the table split into blocks of strategies when
// it is too wide, the sentences folded.
func (s *Summary) WriteText(w io.Writer, width int) error { return s.writeText(w, false, width) }

// WriteFullText writes the whole main table for a terminal (batch report
// -full): every row of mainTable, fitted to width as WriteText fits its
// table. In a run with the timing columns, the noise figure follows as
// rows (re-timed units and their outcome, unstable units), its total on a
// line under the table. Then what was asked but is missing, as
// WriteText.
func (s *Summary) WriteFullText(w io.Writer, width int) error { return s.writeText(w, true, width) }

// writeText writes the headline, or with full the whole table, fitted to
// width.
func (s *Summary) writeText(w io.Writer, full bool, width int) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", s.Corpus, s.countsLine())
	for _, l := range s.runningLines() {
		fmt.Fprintf(&b, "%s\n", l)
	}
	if l := s.stoppedLine(); l != "" {
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
	writeFitted(&b, head, rows, width)
	if t := s.Timing; full && t != nil {
		fmt.Fprintf(&b, "  retimed in all: %d %s (slow %d, noise %d, ok %d)", t.Retimed,
			Plural(t.Retimed, "unit", "units"), t.RetimedSlow, t.RetimedNoise, t.RetimedConfirmed)
		if t.NotRetimed > 0 {
			fmt.Fprintf(&b, "; %d not (time allowed spent)", t.NotRetimed)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	s.writeBasisText(&b)
	s.writeLegend(&b, full)
	if !full {
		b.WriteString("the rest (p90, means, maxima, calls, guesses, re-timing): summary.md, the page.\n")
	}
	s.writeMissingText(&b)
	if _, err := io.WriteString(w, Wrap(b.String(), width)); err != nil {
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

// summaryTable returns the table of rows under head: labels left,
// numbers right. A row's spreads go beside its cells (inline) or on a
// row of their own under it, labelled with the row's label and " ±".
func summaryTable(head []string, rows []tableRow, inline bool) termTable {
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
	return termTable{rows: lines, left: 1, keys: 1}
}

// columnsOf returns the width of t rendered at width, in columns.
func columnsOf(t termTable, width int) int { return textBlockWidth(t.render(width)) }
