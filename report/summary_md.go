package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// CensoringNote is the sentence under the main table of summary.md that
// says how the statistics treat stopped units.
const CensoringNote = "Units stopped by a timeout or a call limit are counted and enter the time and call " +
	"statistics at the value they had reached, so a statistic they could have raised is marked ≥ " +
	"(a lower bound; puzzles/s ≤, an upper bound), while invalid, unsupported and error units are " +
	"counted but have no time statistics."

// WriteMarkdown writes summary.md: the run, the main table (robust
// figures first, each time figure with its spread), how stopped units are
// treated, the confidence intervals of the times, how the times were
// measured (the noise figure, or that they are unconfirmed), the hardest
// puzzles of each strategy (by time: confirmed times only), the puzzles
// hard for several strategies, the highlighted puzzles (and those not in
// the run) and what -unique found.
//
// Every text that comes from the rows or from run.json (corpus paths and
// labels, strategy names, the run id and status, settings, machines) is
// escaped where it is written (mdText, mdCode), so that a viewer shows it
// as text: no HTML, link, emphasis or code span of its own, no cell
// added to a table, no line break.
func (s *Summary) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Summary of %s\n\n", mdText(s.Corpus))
	fmt.Fprintf(&b, "%s.\n", s.countsLine())
	if s.Run != nil {
		s.Run.writeMarkdown(&b)
	}
	s.writeMainTable(&b)
	s.writeTiming(&b)
	s.writeHardest(&b)
	s.writeVariantsMarkdown(&b)
	s.writeSeveral(&b)
	s.writeHighlights(&b)
	s.writeSolutions(&b)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing summary.md: %w", err)
	}
	return nil
}

func (r *RunSummary) writeMarkdown(b *bytes.Buffer) {
	if r.Running() {
		fmt.Fprintf(b, "\nRun %s, **running** (started %s before this report): only the rows written so far are summarized",
			mdCode(r.RunID), fmtNS(float64(r.ElapsedNS)))
	} else {
		fmt.Fprintf(b, "\nRun %s, %s, %s of wall time", mdCode(r.RunID), mdText(r.Status), fmtNS(float64(r.DurationNS)))
	}
	if r.Status != rundir.Finished && !r.Running() {
		fmt.Fprintf(b, " (**%s**: only the rows written so far are summarized)", mdText(r.Status))
	}
	b.WriteString(".\n")
	set := r.Settings
	parts := []string{r.limits(), fmt.Sprintf("seed %d", set.Seed)}
	if len(set.IDs) > 0 {
		ids := make([]string, len(set.IDs))
		for i, id := range set.IDs {
			ids[i] = strconv.Itoa(id)
		}
		parts = append(parts, "ids "+strings.Join(ids, ","))
	}
	if set.Range != "" {
		parts = append(parts, "ids in "+set.Range)
	}
	if set.Limit > 0 {
		parts = append(parts, "first "+Count(set.Limit, "puzzle", "puzzles"))
	}
	if set.Shard != "" {
		parts = append(parts, "shard "+set.Shard)
	}
	if set.Unique {
		parts = append(parts, "solutions counted")
	}
	fmt.Fprintf(b, "Settings: %s.\n", mdText(strings.Join(parts, ", ")))
	for i, m := range r.Machines {
		if i == 0 {
			fmt.Fprintf(b, "Measured with %d %s on ", r.Workers, Plural(r.Workers, "worker", "workers"))
		} else {
			b.WriteString("Also on ")
		}
		fmt.Fprintf(b, "%s/%s, %s, %d CPUs, GOMAXPROCS %d, %s, tool %s.\n", mdText(m.GOOS), mdText(m.GOARCH),
			mdText(m.CPU), m.NumCPU, m.GOMAXPROCS, mdText(m.GoVersion), mdText(m.Version))
	}
	// How busy the machine was, which the page and the terminal warn of
	// past a threshold: the figure, so that summary.md's times are read
	// with it.
	if sh := r.OtherShare; sh != nil {
		fmt.Fprintf(b, "Other work took %s of the workers' CPU time while the units were timed.\n", fmtShare(*sh))
	}
	for _, c := range r.Corpora {
		if r.Running() {
			size, note := corpusSoFar(c)
			fmt.Fprintf(b, "Corpus %s: %s, SHA-256 %s; %s.\n", mdCode(c.Path), mdText(size), mdText(c.SHA256), mdText(note))
			continue
		}
		fmt.Fprintf(b, "Corpus %s: %s (%d invalid), SHA-256 %s", mdCode(c.Path), Count(c.Puzzles, "puzzle", "puzzles"), c.Invalid,
			mdText(c.SHA256))
		if c.Error != "" {
			fmt.Fprintf(b, "; not read to its end: %s", mdText(c.Error))
		}
		b.WriteString(".\n")
	}
}

// limits says how the run stopped a unit.
func (r *RunSummary) limits() string {
	set := r.Settings
	parts := []string{"no timeout", "no call limit"}
	if set.TimeoutNS > 0 {
		parts[0] = "timeout " + set.Timeout + " per unit"
	}
	if set.MaxCalls > 0 {
		parts[1] = "at most " + Count(int(set.MaxCalls), "call", "calls") + " per unit"
	}
	return strings.Join(parts, ", ")
}

func (s *Summary) writeMainTable(b *bytes.Buffer) {
	b.WriteString("\n## Strategies\n\n")
	head, rows := s.mainTable()
	var cells [][]string
	for _, r := range rows {
		c := []string{r.Label}
		for i, v := range r.Cells {
			if r.Spread != nil && r.Spread[i] != "" {
				v += " " + r.Spread[i]
			}
			c = append(c, v)
		}
		cells = append(cells, c)
	}
	writeMDTable(b, mdRow("", head), mdRows(cells), "l"+strings.Repeat("r", len(head)))
	fmt.Fprintf(b, "\n%s\n", CensoringNote)
	b.WriteString("Times are the wall time of one Solve call; puzzles/s/core is the measured units over " +
		"the sum of their times; quantiles are values of actual units (the median of an even count is " +
		"the lower middle value); the trimmed mean is the mean of the middle 80% (10% of the units " +
		"dropped at each end); no guess is the share of measured units solved with no guess.\n")
	if s.anyMeasured() {
		b.WriteString("± is the spread of a time figure: the larger distance from it to an end of its " +
			"95% confidence interval (below), relative to it; ±? when an end is not bounded by the units " +
			"(too few of them for that quantile, or moved by stopped units).\n")
	}
	var zero []string
	for _, status := range solvers.Statuses() {
		if s.total(status) == 0 && status != solvers.StatusSolved {
			zero = append(zero, status.String())
		}
	}
	if len(zero) > 0 {
		fmt.Fprintf(b, "No unit is %s.\n", joinOr(zero))
	}
	var stopped []string
	for _, st := range s.Strategies {
		if st.Censored == 0 {
			continue
		}
		var what []string
		for _, status := range []solvers.Status{solvers.StatusTimeout, solvers.StatusLimit} {
			if n := st.Count(status); n > 0 {
				what = append(what, fmt.Sprintf("%s %d", status, n))
			}
		}
		stopped = append(stopped, fmt.Sprintf("%s %d of %d measured %s (%s)", mdText(st.Solver),
			st.Censored, st.Measured, Plural(st.Measured, "unit", "units"), strings.Join(what, ", ")))
	}
	if len(stopped) > 0 {
		b.WriteString("\n**Stopped by a limit**")
		if s.Run != nil {
			fmt.Fprintf(b, " (%s)", mdText(s.Run.limits()))
		}
		fmt.Fprintf(b, ": %s. Every stopped unit is listed in %s; to measure them, raise `-timeout` "+
			"(or run with `-timeout 0` and a `-max-calls` budget).\n", strings.Join(stopped, "; "), rundir.HardCSV)
	}
	for _, status := range []solvers.Status{solvers.StatusWrong, solvers.StatusError} {
		if n := s.total(status); n > 0 {
			fmt.Fprintf(b, "\n**%d %s %s**: see the `error` column of results.csv.\n", n, status,
				Plural(n, "unit", "units"))
		}
	}
	if s.anyMeasured() {
		writeIntervals(b, head, rows)
	}
	s.writeBasisMarkdown(b)
}

// writeIntervals writes the confidence intervals of the time figures of
// the main table.
func writeIntervals(b *bytes.Buffer, head []string, rows []tableRow) {
	b.WriteString("\n### 95% confidence intervals of the times\n\n")
	var cells [][]string
	for _, r := range rows {
		if r.Interval != nil {
			cells = append(cells, append([]string{r.Label}, r.Interval...))
		}
	}
	writeMDTable(b, mdRow("", head), mdRows(cells), "l"+strings.Repeat("r", len(head)))
	b.WriteString("\nQuantiles: distribution-free, between two values of actual units whose ranks the binomial " +
		"distribution gives (an end beyond the units is shown ≤ the smallest or ≥ the largest value). " +
		"Means: t times the standard error (of the trimmed mean: Yuen's, from the winsorized variance). " +
		"They treat the units as a sample of the puzzles the corpus stands for; summary.json has them " +
		"for the calls too.\n")
}

// writeTiming writes how the times were measured: the noise figure of a
// run with the timing columns, or that its times are unconfirmed.
func (s *Summary) writeTiming(b *bytes.Buffer) {
	if !s.anyMeasured() {
		return
	}
	b.WriteString("\n## Timing\n\n")
	if s.Timing == nil {
		b.WriteString(unconfirmedNote + "\n")
		return
	}
	b.WriteString("A unit's time is confirmed when it was measured more than once: cheap units are solved " +
		"several times in the sweep, and the units far slower than their calls predict (outliers), with " +
		"each strategy's slowest, are timed again alone at the end of the run (re-timed: the slowest from " +
		"the slowest down, until the 32 slowest re-timed times all exceed the sweep time of the next unit, " +
		"then the outliers). The slowest come first because the lists of the hardest puzzles by time show " +
		"them: a listed time the re-timing did not reach (its allowance was spent) is marked " + UnconfirmedMark +
		".\n\n")
	head := []string{}
	for _, st := range s.Strategies {
		head = append(head, st.Solver)
	}
	var cells [][]string
	for _, r := range s.timingRows(true) {
		cells = append(cells, append([]string{r.Label}, r.Cells...))
	}
	writeMDTable(b, mdRow("", append(head, "all")), mdRows(cells), "l"+strings.Repeat("r", len(head)+1))
	b.WriteString("\ntime confirmed: the share of measured units whose time is confirmed; time retimed: the " +
		"units re-timed, of which slow (an outlier confirmed slow), noise (the sweep time was not " +
		"confirmed: the time is the re-timed one) and ok (one of the slowest, its time confirmed); " +
		"unstable: units whose runs disagreed on status or counters, none for a deterministic strategy.\n")
	if n := s.Timing.NotRetimed; n > 0 {
		fmt.Fprintf(b, "%d %s would have been re-timed but %s not: the time allowed for re-timing was spent.\n",
			n, Plural(n, "unit", "units"), Plural(n, "was", "were"))
	}
	for _, e := range s.Timing.RetimeErrors {
		fmt.Fprintf(b, "\n**Times are unconfirmed**: the re-timing could not be written into results.csv (%s), "+
			"so the rows keep their sweep times and no unit counts as re-timed.\n", mdText(e))
	}
	if u := s.unstable(); len(u) > 0 {
		fmt.Fprintf(b, "\n**Unstable units**: %s. Their runs disagreed: the strategy is not deterministic "+
			"on these puzzles.\n", mdText(strings.Join(u, "; ")))
	}
}

// unconfirmedNote says that a run without the timing columns has
// unconfirmed times.
const unconfirmedNote = "Times are unconfirmed: results.csv has no timing columns (it was written before " +
	"them), so each time was measured once, and the lists by time rank those single measurements."

// mdRow returns label and cells escaped for a Markdown table.
func mdRow(label string, cells []string) []string {
	out := []string{mdText(label)}
	for _, c := range cells {
		out = append(out, mdText(c))
	}
	return out
}

// mdRows returns rows escaped for a Markdown table (each a label then
// cells).
func mdRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = mdRow(r[0], r[1:])
	}
	return out
}

// writeSolutions writes what -unique found: the puzzles with two or
// more solutions, and those with none.
func (s *Summary) writeSolutions(b *bytes.Buffer) {
	c := s.Solutions
	if c == nil {
		return
	}
	fmt.Fprintf(b, "\n## Solutions\n\nSolutions counted (`-unique`) for %d %s: %s.\n", c.Counted,
		Plural(c.Counted, "puzzle", "puzzles"), c.sentence(func(refs []PuzzleRef, total int) string {
			return mdText(refList(refs, total))
		}))
}

// joinOr joins words as "a, b or c".
func joinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// writeMDTable writes a Markdown table; align has one letter per column,
// l or r.
func writeMDTable(b *bytes.Buffer, head []string, rows [][]string, align string) {
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(head)
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
		if i < len(align) && align[i] == 'r' {
			seps[i] = "--:"
		}
	}
	line(seps)
	for _, r := range rows {
		line(r)
	}
}

// mdEscaper escapes text for Markdown (CommonMark and GitHub's
// extensions): HTML's three specials as entities, so that no tag, comment
// or entity of the input is one of the output; a backslash before the
// ASCII punctuation that starts an inline construct in the middle of a
// line (backslash, code span, emphasis, link or image, strikethrough,
// math) or that ends a table cell (|); line breaks as spaces. A
// replacement is never escaped again (one pass).
var mdEscaper = strings.NewReplacer(
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "$", `\$`, "|", `\|`,
	"\r\n", " ", "\n", " ", "\r", " ")

// mdText escapes text for a Markdown table cell, heading or line: it is
// shown as it is (line breaks as spaces), whatever it holds. Text is
// never written at the start of a line, where other characters (#, -, >,
// 1.) would start a block.
func mdText(s string) string { return mdEscaper.Replace(s) }

// mdCode writes s as a code span when it holds nothing that a code span
// would not show as it is (a backtick, HTML's specials, a line break, an
// edge space), else as escaped text (mdText).
func mdCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`<>&\r\n") || s[0] == ' ' || s[len(s)-1] == ' ' {
		return mdText(s)
	}
	return "`" + s + "`"
}
