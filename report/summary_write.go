package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// WriteSummaryFiles writes summary.md, summary.json, summary.bench and
// hard.csv into dir. Each file is rendered in memory, then written
// through a temporary file and a rename, so a file is either the new one
// in full or the old one.
func WriteSummaryFiles(dir string, s *Summary) error {
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{rundir.SummaryMarkdown, s.WriteMarkdown},
		{rundir.SummaryJSON, s.WriteJSON},
		{rundir.SummaryBench, s.WriteBench},
		{rundir.HardCSV, s.WriteHardCSV},
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return err
		}
		if err := rundir.WriteFile(filepath.Join(dir, f.name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes summary.json: every number exact (time in integer ns,
// counts as integers, no scaling), indented.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("writing summary.json: %w", err)
	}
	return nil
}

// BenchGroups is the number of samples per strategy in summary.bench:
// the puzzles are split by id % BenchGroups, the same groups in every run
// of a corpus.
const BenchGroups = 20

// BenchSample is one sample of summary.bench: the means over the measured
// units of one group of puzzles (those with id % BenchGroups == Group).
type BenchSample struct {
	Group   int
	Units   int     // measured units in the group
	NS      float64 // mean time (ns)
	Calls   float64 // mean calls
	Guesses float64 // mean guesses
}

// benchSamples returns the samples of ser's measured units, one per group
// that has some, in group order.
func benchSamples(ser *Series) []BenchSample {
	var sum [BenchGroups]struct {
		n                int
		ns, calls, guess float64
	}
	for i := range measuredRows(ser) {
		g := &sum[int(ser.PuzzleID(int(i)))%BenchGroups] // ids are not negative (ReadResults)
		g.n++
		g.ns += float64(ser.NS(int(i)))
		g.calls += float64(ser.Calls(int(i)))
		g.guess += float64(ser.Guesses(int(i)))
	}
	var out []BenchSample
	for k, g := range sum {
		if g.n > 0 {
			n := float64(g.n)
			out = append(out, BenchSample{Group: k, Units: g.n, NS: g.ns / n, Calls: g.calls / n, Guesses: g.guess / n})
		}
	}
	return out
}

// WriteBench writes summary.bench in the Go benchmark format
// (golang.org/x/perf/benchfmt): configuration lines, then BenchGroups
// lines per strategy with measured units, one per fixed group of puzzles
// (id % BenchGroups, the same groups in every run of a corpus):
//
//	BenchmarkSolve/<strategy> 50 54242 ns/puzzle 4.73 calls/puzzle 3.73 guesses/puzzle
//
// (the group's measured units, then the means over them, unrounded but
// for ns), so that benchstat has BenchGroups samples per strategy and
// gives each figure an interval, and two runs a p-value:
//
//	benchstat -ignore revision old/summary.bench new/summary.bench
//
// (benchstat splits its tables by every configuration key that differs;
// -ignore revision compares two revisions of the tool; `-col revision`
// names the columns by them). The configuration: goos, goarch and cpu
// when every machine of the run agrees, pkg, the corpus (its path, or "N
// corpora") and the first 12 hex digits of its SHA-256 (of several: of
// their SHA-256s, one a line, in order), the tool's revision and the
// workers, when the run info knows them. Benchstat takes the median of
// the samples itself, so a sample is a mean: of ns, calls and guesses.
// Calls and guesses do not depend on the machine, so two runs of the same
// strategy over the same corpus give equal samples of them, and any
// change of the code that moves them shows with a p-value; they are not
// declared exact (`assume=exact`), which benchstat would flag in samples
// that differ from group to group. Units stopped by a limit enter at
// their stopping value, and a strategy with some gets a comment line: its
// means are lower bounds, and its counters depend on the machine when a
// timeout stopped them.
func (s *Summary) WriteBench(w io.Writer) error {
	var b strings.Builder
	for _, kv := range s.benchConfig() {
		fmt.Fprintf(&b, "%s: %s\n", kv[0], oneLine(kv[1]))
	}
	fmt.Fprintf(&b, "# %d samples per strategy, the puzzles with id %% %d == k; compare two runs with\n"+
		"# benchstat -ignore revision old/summary.bench new/summary.bench\n", BenchGroups, BenchGroups)
	for _, st := range s.Strategies {
		if st.Measured == 0 {
			fmt.Fprintf(&b, "# %s: no measured unit\n", oneLine(st.Solver))
			continue
		}
		if st.Censored > 0 {
			fmt.Fprintf(&b, "# %s: %d of %s stopped by a limit: its means are lower bounds\n",
				oneLine(st.Solver), st.Censored, Count(st.Measured, "unit", "units"))
		}
		for _, x := range st.Bench {
			fmt.Fprintf(&b, "BenchmarkSolve/%s %d %d ns/puzzle %s calls/puzzle %s guesses/puzzle\n",
				benchName(st.Solver), x.Units, int64(math.Round(x.NS)),
				strconv.FormatFloat(x.Calls, 'f', -1, 64), strconv.FormatFloat(x.Guesses, 'f', -1, 64))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing summary.bench: %w", err)
	}
	return nil
}

// benchConfig returns the configuration keys of summary.bench, in order.
func (s *Summary) benchConfig() [][2]string {
	var kvs [][2]string
	add := func(k, v string) {
		if v != "" {
			kvs = append(kvs, [2]string{k, v})
		}
	}
	r := s.Run
	machine := func(f func(rundir.Machine) string) string { // "" unless every machine agrees
		if r == nil || len(r.Machines) == 0 {
			return ""
		}
		for _, o := range r.Machines[1:] {
			if f(o) != f(r.Machines[0]) {
				return ""
			}
		}
		return f(r.Machines[0])
	}
	add("goos", machine(func(m rundir.Machine) string { return m.GOOS }))
	add("goarch", machine(func(m rundir.Machine) string { return m.GOARCH }))
	add("cpu", machine(func(m rundir.Machine) string { return m.CPU }))
	add("pkg", "sudokubatch")
	switch {
	case r == nil || len(r.Corpora) == 0:
		add("corpus", s.Corpus)
	case len(r.Corpora) == 1:
		add("corpus", r.Corpora[0].Path)
		add("corpus-sha256", shaPrefix(r.Corpora[0].SHA256))
	default:
		add("corpus", fmt.Sprintf("%d corpora", len(r.Corpora)))
		h := sha256.New()
		known := true
		for _, c := range r.Corpora {
			known = known && c.SHA256 != ""
			fmt.Fprintf(h, "%s\n", c.SHA256)
		}
		if known {
			add("corpus-sha256", shaPrefix(hex.EncodeToString(h.Sum(nil))))
		}
	}
	add("revision", machine(func(m rundir.Machine) string { return m.Version }))
	if r != nil && r.Workers > 0 {
		add("workers", strconv.Itoa(r.Workers))
	}
	return kvs
}

// shaPrefix returns the first 12 hex digits of a SHA-256.
func shaPrefix(sum string) string { return sum[:min(len(sum), 12)] }

// benchName keeps a solver name one benchmark-name field.
func benchName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return '_'
		}
		return r
	}, s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// textWidth is the width WriteText keeps the table within when it can.
const textWidth = 100

// WriteText writes the main table for a terminal: one column per
// strategy, one row per statistic, human units (µs, ms, s; k, M) with
// three significant digits, and only the statuses that occur (solved
// always), so that seven strategies fit in 100 columns. Each time figure
// but the max has its spread, "±3.1%" (see fmtSpread): beside it when the
// table still fits in textWidth columns, else on a row of its own under
// it. In a run with the timing columns, the noise figure follows as rows
// (re-timed units and their outcome, unstable units), its total on a line
// under the table. Then what was asked but is missing: highlighted ids
// not in the run, puzzles with no or several solutions.
func (s *Summary) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", s.Corpus, s.countsLine())
	for _, l := range s.runningLines() {
		fmt.Fprintf(&b, "%s\n", l)
	}
	b.WriteString("\n")
	head, rows := s.mainTable()
	rows = append(rows, s.timingRows(false)...)
	table, err := textTable(head, rows, true)
	if err == nil && textTableWidth(table) > textWidth {
		table, err = textTable(head, rows, false)
	}
	if err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	b.WriteString(table)
	if t := s.Timing; t != nil {
		fmt.Fprintf(&b, "  time retimed in all: %d %s (slow %d, noise %d, ok %d)", t.Retimed,
			Plural(t.Retimed, "unit", "units"), t.RetimedSlow, t.RetimedNoise, t.RetimedConfirmed)
		if t.NotRetimed > 0 {
			fmt.Fprintf(&b, "; %d not re-timed (the time allowed was spent)", t.NotRetimed)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if n := s.censored(); n > 0 {
		fmt.Fprintf(&b, "≥: lower bound, ≤: upper bound: %d %s stopped by a limit %s at %s stopping value.\n",
			n, Plural(n, "unit", "units"), Plural(n, "enters", "enter"), Plural(n, "its", "their"))
	}
	if s.anyMeasured() {
		b.WriteString("±: 95% interval, its larger half over the figure (±?: unbounded); trimmed mean: of the middle 80%.\n")
	}
	if s.Timed {
		b.WriteString("time confirmed: measured more than once (repeated, or re-timed).\n" +
			"time retimed: timed again alone at the end: slow (confirmed), noise (not confirmed) or ok;\n" +
			"the slowest are re-timed first, then the outliers.\n")
		for _, st := range s.Strategies {
			if st.TimeNS.MaxUnconfirmed {
				b.WriteString(UnconfirmedMark + ": a time measured once, in the sweep: the re-timing's allowance was spent before it.\n")
				break
			}
		}
		if u := s.unstable(); len(u) > 0 {
			fmt.Fprintf(&b, "unstable (runs disagreed on status or counters): %s.\n", strings.Join(u, "; "))
		}
	} else if s.anyMeasured() {
		b.WriteString("times unconfirmed: results.csv has no timing columns (each time was measured once).\n")
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

// tableRow is one row of the main table: a statistic, with a cell per
// strategy. A time figure with an interval has its spread ("±3.1%", see
// fmtSpread) and its interval ("[2.71ms, 3.05ms]") per strategy too ("" and
// "–" for a strategy with no measured unit).
type tableRow struct {
	Label    string
	Cells    []string
	Spread   []string // nil for a figure without an interval
	Interval []string
}

// mainTable returns the strategy names and the rows of the main table,
// one per statistic: counts, then the robust figures first (median,
// quantiles, trimmed mean), the means, the max.
func (s *Summary) mainTable() (head []string, rows []tableRow) {
	for _, st := range s.Strategies {
		head = append(head, st.Solver)
	}
	row := func(label string, cell func(st *StrategySummary) string) {
		r := tableRow{Label: label}
		for _, st := range s.Strategies {
			r.Cells = append(r.Cells, cell(st))
		}
		rows = append(rows, r)
	}
	stat := func(label string, cell func(st *StrategySummary) string) {
		row(label, func(st *StrategySummary) string {
			if st.Measured == 0 {
				return "–"
			}
			return cell(st)
		})
	}
	// figure adds a row of a statistic e; with spread, its spread and
	// interval too.
	figure := func(label string, e func(st *StrategySummary) (Estimate, Interval), f func(float64) string, spread bool) {
		stat(label, func(st *StrategySummary) string { v, _ := e(st); return fmtEstimate(v, f) })
		if !spread {
			return
		}
		r := &rows[len(rows)-1]
		for _, st := range s.Strategies {
			if st.Measured == 0 {
				r.Spread, r.Interval = append(r.Spread, ""), append(r.Interval, "–")
				continue
			}
			v, iv := e(st)
			r.Spread, r.Interval = append(r.Spread, fmtSpread(v.Value, iv)), append(r.Interval, fmtInterval(iv, f))
		}
	}
	row("puzzles", func(st *StrategySummary) string { return strconv.Itoa(st.Units) })
	for _, status := range s.shownStatuses() {
		row(status.String(), func(st *StrategySummary) string { return strconv.Itoa(st.Count(status)) })
	}
	stat("puzzles/s/core", func(st *StrategySummary) string { return fmtEstimate(st.PuzzlesPerSec, fmtSig3) })
	dist := func(name string, d func(st *StrategySummary) *Distribution, fmean, f func(float64) string, spread bool) {
		figure(name+" median", func(st *StrategySummary) (Estimate, Interval) { return d(st).Median, d(st).MedianCI }, f, spread)
		figure(name+" p90", func(st *StrategySummary) (Estimate, Interval) { return d(st).P90, d(st).P90CI }, f, spread)
		figure(name+" p99", func(st *StrategySummary) (Estimate, Interval) { return d(st).P99, d(st).P99CI }, f, spread)
		figure(name+" trimmed mean", func(st *StrategySummary) (Estimate, Interval) {
			return d(st).TrimmedMean, d(st).TrimmedMeanCI
		}, fmean, spread)
		figure(name+" mean", func(st *StrategySummary) (Estimate, Interval) { return d(st).Mean, d(st).MeanCI }, fmean, spread)
		stat(name+" max", func(st *StrategySummary) string {
			if d(st).MaxAt.Label == "" { // nothing measured
				return "–"
			}
			if d(st).MaxUnconfirmed {
				return fmtEstimate(d(st).Max, f) + UnconfirmedMark
			}
			return fmtEstimate(d(st).Max, f)
		})
		stat(name+" max at", func(st *StrategySummary) string { return orDash(d(st).MaxAt.Label) })
	}
	dist("time", func(st *StrategySummary) *Distribution { return &st.TimeNS }, fmtNS, fmtNS, true)
	dist("calls", func(st *StrategySummary) *Distribution { return &st.Calls }, fmtSig3, fmtCount, false)
	stat("no guess", func(st *StrategySummary) string { return fmtEstimate(st.NoGuessPct, fmtPct) })
	stat("guesses/puzzle", func(st *StrategySummary) string { return fmtEstimate(st.GuessesPerPuzzle, fmtSig3) })
	return head, rows
}

// timingRows returns the rows of the noise figure (nil when the run has
// no timing columns): the share of measured units whose time is
// confirmed, the units re-timed and their outcome, the unstable ones;
// with all, a last cell with the run's total.
func (s *Summary) timingRows(all bool) []tableRow {
	if s.Timing == nil {
		return nil
	}
	var rows []tableRow
	row := func(label string, cell func(st *StrategySummary, t *TimingSummary) string, total string) {
		r := tableRow{Label: label}
		for _, st := range s.Strategies {
			if st.Timing == nil {
				r.Cells = append(r.Cells, "–")
				continue
			}
			r.Cells = append(r.Cells, cell(st, st.Timing))
		}
		if all {
			r.Cells = append(r.Cells, total)
		}
		rows = append(rows, r)
	}
	count := func(f func(t *TimingSummary) int) (func(*StrategySummary, *TimingSummary) string, string) {
		return func(_ *StrategySummary, t *TimingSummary) string { return strconv.Itoa(f(t)) }, strconv.Itoa(f(s.Timing))
	}
	confirmed, units := 0, 0
	for _, st := range s.Strategies {
		if st.Timing != nil {
			confirmed, units = confirmed+st.Timing.Confirmed, units+st.Timing.Units
		}
	}
	share := func(n, of int) string {
		if of == 0 {
			return "–"
		}
		return fmtPct(100 * float64(n) / float64(of))
	}
	row("time confirmed", func(_ *StrategySummary, t *TimingSummary) string { return share(t.Confirmed, t.Units) },
		share(confirmed, units))
	for _, c := range []struct {
		label string
		f     func(t *TimingSummary) int
	}{
		{"time retimed", func(t *TimingSummary) int { return t.Retimed }},
		{"time retimed slow", func(t *TimingSummary) int { return t.RetimedSlow }},
		{"time retimed noise", func(t *TimingSummary) int { return t.RetimedNoise }},
		{"time retimed ok", func(t *TimingSummary) int { return t.RetimedConfirmed }},
		{"unstable", func(t *TimingSummary) int { return t.Unstable }},
	} {
		cell, total := count(c.f)
		row(c.label, cell, total)
	}
	return rows
}

// unstable names, per strategy with unstable units, how many and which:
// "norvig 2 (#3, #9)".
func (s *Summary) unstable() []string {
	var out []string
	for _, st := range s.Strategies {
		if t := st.Timing; t != nil && t.Unstable > 0 {
			out = append(out, fmt.Sprintf("%s %d (%s)", st.Solver, t.Unstable, refList(t.UnstableAt, t.Unstable)))
		}
	}
	return out
}

// anyMeasured reports whether some strategy has a measured unit.
func (s *Summary) anyMeasured() bool {
	for _, st := range s.Strategies {
		if st.Measured > 0 {
			return true
		}
	}
	return false
}

// shownStatuses returns solved and every other status some unit has.
func (s *Summary) shownStatuses() []solvers.Status {
	var out []solvers.Status
	for _, status := range solvers.Statuses() {
		if status == solvers.StatusSolved || s.total(status) > 0 {
			out = append(out, status)
		}
	}
	return out
}

func (s *Summary) total(status solvers.Status) int {
	n := 0
	for _, st := range s.Strategies {
		n += st.Count(status)
	}
	return n
}

func (s *Summary) censored() int {
	n := 0
	for _, st := range s.Strategies {
		n += st.Censored
	}
	return n
}

// countsLine says how many puzzles, strategies and rows the summary is
// of: "49151 puzzles, 6 strategies, 294906 rows", and "... so far" for a
// run still being written.
func (s *Summary) countsLine() string {
	line := Count(s.Puzzles, "puzzle", "puzzles") + ", " + Count(len(s.Strategies), "strategy", "strategies") +
		", " + Count(s.Rows, "row", "rows")
	if s.Run.Running() {
		line += " written so far (the run is still running)"
	}
	return line
}

// runningLines says, for a run still being written, how long it has run
// and what run.json knows of each corpus: its size, and its count of
// puzzles once the run has read it to its end. Nil for any other run.
func (s *Summary) runningLines() []string {
	r := s.Run
	if !r.Running() {
		return nil
	}
	out := []string{fmt.Sprintf("run %s is running (started %s before this report): only the rows written so far are summarized",
		r.RunID, fmtNS(float64(r.ElapsedNS)))}
	for _, c := range r.Corpora {
		size, note := corpusSoFar(c)
		out = append(out, "corpus "+c.Path+": "+size+", "+note)
	}
	return out
}

// corpusSoFar says what run.json knows of a corpus of a running run: its
// size ("4.03MB", with its puzzles once the run has read it to its end)
// and a note ("not read to its end yet: its puzzles are counted when the
// run reaches its end").
func corpusSoFar(c rundir.CorpusInfo) (size, note string) {
	size = fmtSig3(float64(c.Size)) + "B"
	switch {
	case c.Complete:
		return fmt.Sprintf("%s (%d invalid), %s", Count(c.Puzzles, "puzzle", "puzzles"), c.Invalid, size), "read to its end"
	case c.Error != "":
		return size, "not read to its end: " + c.Error
	}
	return size, "not read to its end yet: its puzzles are counted when the run reaches its end"
}
