package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
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
	s.writeSeveral(&b)
	s.writeHighlights(&b)
	s.writeSolutions(&b)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing summary.md: %w", err)
	}
	return nil
}

func (r *RunSummary) writeMarkdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "\nRun %s, %s, %s of wall time", mdCode(r.RunID), mdText(r.Status), fmtNS(float64(r.DurationNS)))
	if r.Status != rundir.Finished {
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
		parts = append(parts, fmt.Sprintf("first %d puzzles", set.Limit))
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
			fmt.Fprintf(b, "Measured with %d %s on ", r.Workers, plural(r.Workers, "worker", "workers"))
		} else {
			b.WriteString("Also on ")
		}
		fmt.Fprintf(b, "%s/%s, %s, %d CPUs, GOMAXPROCS %d, %s, tool %s.\n", mdText(m.GOOS), mdText(m.GOARCH),
			mdText(m.CPU), m.NumCPU, m.GOMAXPROCS, mdText(m.GoVersion), mdText(m.Version))
	}
	for _, c := range r.Corpora {
		fmt.Fprintf(b, "Corpus %s: %d puzzles (%d invalid), SHA-256 %s", mdCode(c.Path), c.Puzzles, c.Invalid,
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
		parts[1] = fmt.Sprintf("at most %d calls per unit", set.MaxCalls)
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
			st.Censored, st.Measured, plural(st.Measured, "unit", "units"), strings.Join(what, ", ")))
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
				plural(n, "unit", "units"))
		}
	}
	if s.anyMeasured() {
		writeIntervals(b, head, rows)
	}
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
		"the slowest down, until the 32 slowest re-timed times all exceed the sweep time of the next unit). " +
		"The lists of the hardest puzzles by time rank re-timed units only, each timed the same way.\n\n")
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
			n, plural(n, "unit", "units"), plural(n, "was", "were"))
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

func (s *Summary) writeHardest(b *bytes.Buffer) {
	fmt.Fprintf(b, "\n## Hardest puzzles\n\nThe %d highest per strategy by calls and by time; "+
		"× median is the multiple of the strategy's median. %s lists, per strategy, every unit "+
		"above its p99 of calls or stopped by a limit. Calls do not depend on the machine; times do "+
		"(garbage collection, scheduling, a cold start), so a long time with ordinary calls is "+
		"usually noise", s.Top, rundir.HardCSV)
	if s.Timed {
		b.WriteString(": the lists by time rank re-timed units only (see Timing), and the time max of the " +
			"table above is the longest re-timed time.\n")
	} else {
		b.WriteString(". Times are unconfirmed (see Timing).\n")
	}
	for _, st := range s.Strategies {
		fmt.Fprintf(b, "\n### %s\n\n", mdText(st.Solver))
		if st.Measured == 0 {
			fmt.Fprintf(b, "No measured unit: its %d %s are invalid, unsupported or errors.\n",
				st.Units, plural(st.Units, "unit", "units"))
			continue
		}
		fmt.Fprintf(b, "In %s: %d %s (stopped by a limit, or calls above the p99, %s).\n\n", rundir.HardCSV,
			st.Hard, plural(st.Hard, "unit", "units"), fmtEstimate(st.Calls.P99, fmtCount))
		stopped := 0
		for _, u := range slices.Concat(st.ByCalls, st.ByTime) {
			if u.Status.Censored() {
				stopped++
			}
		}
		if stopped > 0 {
			b.WriteString("Some of these units were stopped by a limit: their values are where the limit " +
				"stopped them, so their order among themselves says little about the puzzles.\n\n")
		}
		b.WriteString("By calls:\n\n")
		var rows [][]string
		for _, u := range st.ByCalls {
			rows = append(rows, []string{strconv.Itoa(u.RankCalls), mdText(u.Puzzle.Label),
				unitValue(u, float64(u.Calls), fmtCount), unitValue(u, u.XMedianCalls, fmtMultiple),
				unitValue(u, float64(u.NS), fmtNS), u.Status.String()})
		}
		writeMDTable(b, []string{"rank", "puzzle", "calls", "× median", "time", "status"}, rows, "rlrrrl")
		if s.Timed {
			fmt.Fprintf(b, "\nBy time, re-timed units only (%d of %d measured %s ranked):\n\n", st.TimeRanked,
				st.Measured, plural(st.Measured, "unit", "units"))
		} else {
			fmt.Fprintf(b, "\nBy time, unconfirmed (%d measured %s):\n\n", st.Measured,
				plural(st.Measured, "unit, timed once", "units, each timed once"))
		}
		if len(st.ByTime) == 0 && s.Timing != nil && len(s.Timing.RetimeErrors) > 0 {
			b.WriteString("None: the re-timing could not be recorded (see Timing), the times are unconfirmed.\n")
			continue
		}
		if len(st.ByTime) == 0 {
			b.WriteString("No unit was re-timed.\n")
			continue
		}
		rows = rows[:0]
		for i, rank := range listRanks(st.ByTime) {
			u := st.ByTime[i]
			rows = append(rows, []string{strconv.Itoa(rank), mdText(u.Puzzle.Label),
				unitValue(u, float64(u.NS), fmtNS), unitValue(u, u.XMedianTime, fmtMultiple),
				unitValue(u, float64(u.Calls), fmtCount), u.Status.String()})
		}
		writeMDTable(b, []string{"rank", "puzzle", "time", "× median", "calls", "status"}, rows, "rlrrrl")
	}
}

// listRanks returns the ranks by time of a list of the longest times,
// longest first: 1 + the number of units listed before with a longer
// time, which is their rank among the units ranked (equal times share
// the best rank).
func listRanks(units []RankedUnit) []int {
	ranks := make([]int, len(units))
	for i, u := range units {
		ranks[i] = i + 1
		if i > 0 && u.NS == units[i-1].NS {
			ranks[i] = ranks[i-1]
		}
	}
	return ranks
}

// writeSolutions writes what -unique found: the puzzles with two or
// more solutions, and those with none.
func (s *Summary) writeSolutions(b *bytes.Buffer) {
	c := s.Solutions
	if c == nil {
		return
	}
	fmt.Fprintf(b, "\n## Solutions\n\nSolutions counted (`-unique`) for %d %s: %s.\n", c.Counted,
		plural(c.Counted, "puzzle", "puzzles"), c.sentence(func(refs []PuzzleRef, total int) string {
			return mdText(refList(refs, total))
		}))
}

// unitValue formats a value of one unit, a lower bound when it was stopped.
func unitValue(u RankedUnit, v float64, f func(float64) string) string {
	bound := BoundExact
	if u.Status.Censored() {
		bound = BoundLower
	}
	return fmtEstimate(Estimate{v, bound}, f)
}

func (s *Summary) writeSeveral(b *bytes.Buffer) {
	b.WriteString("\n## Hard for several strategies\n\n")
	b.WriteString("A puzzle is hard for a strategy when it is in " + rundir.HardCSV + " for it: its calls are " +
		"above the strategy's p99 of calls (its top 1%), or a timeout or call limit stopped it. " +
		"Listed: the puzzles hard for two strategies or more, by how many, then by the geometric mean, " +
		"over the strategies that measured the puzzle, of its calls as a multiple of each strategy's median. " +
		"A cell gives that multiple, in bold where the puzzle is hard.\n\n")
	if len(s.Strategies) < 2 {
		b.WriteString("Only one strategy in this run.\n")
		return
	}
	if s.SeveralTotal == 0 {
		b.WriteString("None.\n")
		return
	}
	if s.SeveralTotal > len(s.Several) {
		fmt.Fprintf(b, "%d puzzles; the first %d:\n\n", s.SeveralTotal, len(s.Several))
	} else {
		fmt.Fprintf(b, "%d %s:\n\n", s.SeveralTotal, plural(s.SeveralTotal, "puzzle", "puzzles"))
	}
	head := []string{"puzzle", "hard for", "geo. mean"}
	for _, st := range s.Strategies {
		head = append(head, mdText(st.Solver))
	}
	var rows [][]string
	for _, sh := range s.Several {
		r := []string{mdText(sh.Puzzle.Label), strconv.Itoa(len(sh.HardFor)),
			fmtEstimate(sh.GeoMeanXMedianCalls, fmtMultiple)}
		for _, st := range s.Strategies {
			i := slices.IndexFunc(sh.Units, func(u RankedUnit) bool { return u.Solver == st.Solver })
			if i < 0 {
				r = append(r, "–")
				continue
			}
			u := sh.Units[i]
			cell := unitValue(u, u.XMedianCalls, fmtMultiple)
			if slices.Contains(sh.HardFor, st.Solver) {
				cell = "**" + cell + "**"
			}
			if u.Status.Censored() {
				cell += " " + u.Status.String()
			}
			r = append(r, cell)
		}
		rows = append(rows, r)
	}
	writeMDTable(b, head, rows, "lrr"+strings.Repeat("r", len(s.Strategies)))
}

func (s *Summary) writeHighlights(b *bytes.Buffer) {
	if len(s.Highlights) == 0 {
		return
	}
	b.WriteString("\n## Highlighted puzzles\n\nRanks are among each strategy's measured units (1: the most calls, the longest time).\n\n")
	measured := map[string]int{}
	for _, st := range s.Strategies {
		measured[st.Solver] = st.Measured
	}
	var rows [][]string
	var missing []string
	for _, h := range s.Highlights {
		if len(h.Units) == 0 {
			missing = append(missing, fmt.Sprintf("#%d", h.ID))
			continue
		}
		for _, u := range h.Units {
			r := []string{mdText(u.Puzzle.Label), mdText(u.Solver), u.Status.String()}
			if u.RankCalls == 0 {
				r = append(r, "–", "–", "–", "–", "–", "–")
			} else {
				n := measured[u.Solver]
				r = append(r, unitValue(u, float64(u.Calls), fmtCount), fmt.Sprintf("%d/%d", u.RankCalls, n),
					unitValue(u, u.XMedianCalls, fmtMultiple), unitValue(u, float64(u.NS), fmtNS),
					fmt.Sprintf("%d/%d", u.RankTime, n), unitValue(u, u.XMedianTime, fmtMultiple))
			}
			rows = append(rows, r)
		}
	}
	if len(rows) > 0 {
		writeMDTable(b, []string{"puzzle", "strategy", "status", "calls", "rank", "× median", "time", "rank", "× median"},
			rows, "lllrrrrrr")
	}
	if len(missing) > 0 {
		if len(rows) > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "Not in this run: %s.\n", strings.Join(missing, ", "))
	}
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
