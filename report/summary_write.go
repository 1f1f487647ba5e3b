package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

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

// WriteBench writes summary.bench in the Go benchmark format, one line
// per strategy with measured units:
//
//	BenchmarkSolve/<strategy> 1000 54242 ns/puzzle 4.73 calls/puzzle 3.73 guesses/puzzle
//
// (units measured, then means over them, unrounded but for ns), after
// goos, goarch and cpu lines when the run info knows them, so that
// `benchstat old/summary.bench new/summary.bench` compares two runs.
// Calls and guesses are declared exact (`Unit calls/puzzle
// assume=exact`): they do not depend on the machine, so benchstat reports
// any change of them from one sample per run, while times need several
// runs. A strategy with stopped units gets a comment line: its means are
// lower bounds, and its counters depend on the machine when a timeout
// stopped them.
func (s *Summary) WriteBench(w io.Writer) error {
	var b strings.Builder
	if s.Run != nil && len(s.Run.Machines) > 0 {
		m := s.Run.Machines[0]
		same := func(f func(rundir.Machine) string) string {
			for _, o := range s.Run.Machines[1:] {
				if f(o) != f(m) {
					return ""
				}
			}
			return f(m)
		}
		for _, kv := range [][2]string{
			{"goos", same(func(m rundir.Machine) string { return m.GOOS })},
			{"goarch", same(func(m rundir.Machine) string { return m.GOARCH })},
			{"cpu", same(func(m rundir.Machine) string { return m.CPU })},
		} {
			if kv[1] != "" {
				fmt.Fprintf(&b, "%s: %s\n", kv[0], oneLine(kv[1]))
			}
		}
	}
	b.WriteString("pkg: sudokubatch\n")
	b.WriteString("Unit calls/puzzle assume=exact\nUnit guesses/puzzle assume=exact\n")
	for _, st := range s.Strategies {
		if st.Measured == 0 {
			fmt.Fprintf(&b, "# %s: no measured unit\n", oneLine(st.Solver))
			continue
		}
		if st.Censored > 0 {
			fmt.Fprintf(&b, "# %s: %d of %d units stopped by a limit: its means are lower bounds\n",
				oneLine(st.Solver), st.Censored, st.Measured)
		}
		fmt.Fprintf(&b, "BenchmarkSolve/%s %d %d ns/puzzle %s calls/puzzle %s guesses/puzzle\n",
			benchName(st.Solver), st.Measured, int64(st.TimeNS.Mean.Value),
			strconv.FormatFloat(st.Calls.Mean.Value, 'f', -1, 64),
			strconv.FormatFloat(st.GuessesPerPuzzle.Value, 'f', -1, 64))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing summary.bench: %w", err)
	}
	return nil
}

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

// WriteText writes the main table for a terminal: one column per
// strategy, one row per statistic, human units (µs, ms, s; k, M) with
// three significant digits, and only the statuses that occur (solved
// always), so that seven strategies fit in 100 columns.
func (s *Summary) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n\n", s.Corpus, s.countsLine())
	rows := s.mainTable()
	width := 0
	for _, r := range rows {
		width = max(width, len([]rune(r[0])))
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range rows {
		r[0] += strings.Repeat(" ", width-len([]rune(r[0]))) // labels left, numbers right
		fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	if n := s.censored(); n > 0 {
		fmt.Fprintf(&b, "\n≥: lower bound, ≤: upper bound: %d %s stopped by a limit %s at %s stopping value.\n",
			n, plural(n, "unit", "units"), plural(n, "enters", "enter"), plural(n, "its", "their"))
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	return nil
}

// mainTable returns the rows of the main table: a header row with the
// strategy names, then one row per statistic, label first.
func (s *Summary) mainTable() [][]string {
	head := []string{""}
	for _, st := range s.Strategies {
		head = append(head, st.Solver)
	}
	rows := [][]string{head}
	row := func(label string, cell func(st *StrategySummary) string) {
		r := []string{label}
		for _, st := range s.Strategies {
			r = append(r, cell(st))
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
	row("puzzles", func(st *StrategySummary) string { return strconv.Itoa(st.Units) })
	for _, status := range s.shownStatuses() {
		row(status.String(), func(st *StrategySummary) string { return strconv.Itoa(st.Count(status)) })
	}
	stat("puzzles/s/core", func(st *StrategySummary) string { return fmtEstimate(st.PuzzlesPerSec, fmtSig3) })
	dist := func(name string, d func(st *StrategySummary) *Distribution, fmean, f func(float64) string) {
		stat(name+" mean", func(st *StrategySummary) string { return fmtEstimate(d(st).Mean, fmean) })
		stat(name+" median", func(st *StrategySummary) string { return fmtEstimate(d(st).Median, f) })
		stat(name+" p90", func(st *StrategySummary) string { return fmtEstimate(d(st).P90, f) })
		stat(name+" p99", func(st *StrategySummary) string { return fmtEstimate(d(st).P99, f) })
		stat(name+" max", func(st *StrategySummary) string { return fmtEstimate(d(st).Max, f) })
		stat(name+" max at", func(st *StrategySummary) string { return d(st).MaxAt.Label })
	}
	dist("time", func(st *StrategySummary) *Distribution { return &st.TimeNS }, fmtNS, fmtNS)
	dist("calls", func(st *StrategySummary) *Distribution { return &st.Calls }, fmtSig3, fmtCount)
	stat("no guess", func(st *StrategySummary) string {
		return fmtEstimate(st.NoGuessPct, func(v float64) string { return fmt.Sprintf("%.1f%%", v) })
	})
	stat("guesses/puzzle", func(st *StrategySummary) string { return fmtEstimate(st.GuessesPerPuzzle, fmtSig3) })
	return rows
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

func (s *Summary) countsLine() string {
	return fmt.Sprintf("%d %s, %d %s, %d %s", s.Puzzles, plural(s.Puzzles, "puzzle", "puzzles"),
		len(s.Strategies), plural(len(s.Strategies), "strategy", "strategies"), s.Rows, plural(s.Rows, "row", "rows"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fmtEstimate formats e with f, marked "≥" or "≤" when it is a bound.
func fmtEstimate(e Estimate, f func(float64) string) string {
	switch e.Bound {
	case BoundLower:
		return "≥" + f(e.Value)
	case BoundUpper:
		return "≤" + f(e.Value)
	}
	return f(e.Value)
}

// round3 rounds v to three significant digits.
func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return r
}

// fixed3 formats x, in [0, 1000) after rounding to three significant
// digits, with as many decimals as three significant digits need.
func fixed3(x float64) string {
	switch ax := math.Abs(x); {
	case ax == 0:
		return "0"
	case ax < 1: // 0.500, 0.0892
		return strconv.FormatFloat(x, 'f', 2-int(math.Floor(math.Log10(ax))), 64)
	case ax < 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case ax < 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// fmtSig3 formats v with three significant digits and an SI suffix:
// 0.5, 6.70, 530, 1.23k, 10.7M.
func fmtSig3(v float64) string {
	r := round3(v)
	for _, p := range []struct {
		scale  float64
		suffix string
	}{{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(r) >= p.scale {
			return fixed3(r/p.scale) + p.suffix
		}
	}
	return fixed3(r)
}

// fmtCount formats a count: exact below 1000 when it is an integer,
// fmtSig3 otherwise.
func fmtCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return fmtSig3(v)
}

// fmtNS formats nanoseconds with three significant digits in ns, µs, ms
// or s: 850ns, 36.7µs, 1.00ms, 102ms, 12.3s.
func fmtNS(ns float64) string {
	r := round3(ns)
	switch a := math.Abs(r); {
	case a >= 1e9:
		return fixed3(r/1e9) + "s"
	case a >= 1e6:
		return fixed3(r/1e6) + "ms"
	case a >= 1e3:
		return fixed3(r/1e3) + "µs"
	}
	return fixed3(r) + "ns"
}

// FormatDuration formats d like the reports do: three significant digits
// in ns, µs, ms or s.
func FormatDuration(d time.Duration) string { return fmtNS(float64(d)) }

// fmtMultiple formats a multiple of the median: ×1.00, ×530, ×1.23k.
func fmtMultiple(x float64) string { return "×" + fmtSig3(x) }
