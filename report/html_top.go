package report

import (
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"sudokubatch/solvers"
)

// The top of the run's page, its first screen: the verdict in a
// sentence or two (what changed since the previous night, which
// strategy is fastest and which slowest among those that solved
// puzzles, which puzzles are hard for several strategies), the run's
// facts (when, which build, on what machine, how busy it was), a line
// per strategy that solved nothing, then the headline table.

// pageTop is the data of the top of the page.
type pageTop struct {
	Verdict template.HTML // the verdict's sentences, the puzzles and the previous night linked
	Facts   string        // when, which build, where, how busy: one line
	Busy    string        // a warning when other work took more than PageOptions.Busy of the CPUs; ""
	NoSolve []string      // a sentence per strategy that solved no puzzle
}

// top returns the top of the page of s: href gives the link of a
// puzzle's entry by its anchor.
func (s *Summary) top(opt PageOptions, href func(string) string) pageTop {
	var t pageTop
	var parts []string
	esc := template.HTMLEscapeString
	switch {
	case opt.Previous != nil:
		parts = append(parts, fmt.Sprintf(`Since the previous night: <a href="%s">%s</a>.`, esc(opt.Previous.Href), esc(opt.Previous.Text)))
	case opt.NoPrevious != "":
		parts = append(parts, esc(opt.NoPrevious)+".")
	}
	if line := trendVerdict(opt.Trend); line != "" {
		parts = append(parts, esc(line)+".")
	}
	if line := s.speedVerdict(); line != "" {
		parts = append(parts, esc(line)+".")
	}
	if line := s.hardVerdict(href); line != "" {
		parts = append(parts, line)
	}
	t.Verdict = template.HTML(strings.Join(parts, " "))
	t.Facts, t.Busy = s.runFacts(opt.Busy)
	t.NoSolve = s.noSolveLines()
	return t
}

// trendVerdict sums up the history's verdicts of the run's night: the
// strategies it raised an alarm for, or that it found none; "" without
// a history.
func trendVerdict(trend map[string]TrendCell) string {
	if len(trend) == 0 {
		return ""
	}
	var alarms []string
	base := ""
	for _, name := range slices.Sorted(maps.Keys(trend)) {
		c := trend[name]
		if base == "" {
			base = c.Baseline
		}
		if c.Alarm {
			a := name + " " + c.Verdict
			if c.Change != "" {
				a += " (" + c.Change + ")"
			}
			alarms = append(alarms, a)
		}
	}
	against := "against the history"
	if base != "" {
		against = "against " + base
	}
	if len(alarms) == 0 {
		return "No alarm " + against
	}
	return "Alarm " + against + ": " + strings.Join(alarms, "; ")
}

// speedVerdict names the fastest and the slowest strategy by median
// time among those that solved a puzzle, with what did not end solved:
// "Fastest bitboard, median 2.20µs, 600 of 600 solved; slowest
// backtrack, median 45.8ms, 361 of 600 solved, 239 stopped by the time
// limit (100ms)".
func (s *Summary) speedVerdict() string {
	var solving []*StrategySummary
	for _, st := range s.Strategies {
		if st.Count(solvers.StatusSolved) > 0 && st.Measured > 0 {
			solving = append(solving, st)
		}
	}
	if len(solving) == 0 {
		return ""
	}
	slices.SortStableFunc(solving, func(a, b *StrategySummary) int { return cmp.Compare(a.TimeNS.Median.Value, b.TimeNS.Median.Value) })
	describe := func(st *StrategySummary) string {
		return fmt.Sprintf("%s, median %s, %s", st.Solver, fmtEstimate(st.TimeNS.Median, fmtNS), s.outcomes(st))
	}
	if len(solving) == 1 {
		st := solving[0]
		return fmt.Sprintf("Only %s solved puzzles: median %s, %s", st.Solver, fmtEstimate(st.TimeNS.Median, fmtNS), s.outcomes(st))
	}
	return "Fastest " + describe(solving[0]) + "; slowest " + describe(solving[len(solving)-1])
}

// outcomes says how a strategy's units ended: "600 of 600 solved",
// "361 of 600 solved, 239 stopped by the time limit (100ms)".
func (s *Summary) outcomes(st *StrategySummary) string {
	out := fmt.Sprintf("%d of %d solved", st.Count(solvers.StatusSolved), st.Units)
	for _, status := range solvers.Statuses() {
		n := st.Count(status)
		if n == 0 || status == solvers.StatusSolved {
			continue
		}
		out += fmt.Sprintf(", %d %s", n, s.statusWords(status))
	}
	return out
}

// statusWords says what a status means, for a sentence: "stopped by the
// time limit (100ms)", "stuck".
func (s *Summary) statusWords(st solvers.Status) string {
	switch st {
	case solvers.StatusTimeout:
		if s.Run != nil && s.Run.Settings.TimeoutNS > 0 {
			return "stopped by the time limit (" + time.Duration(s.Run.Settings.TimeoutNS).String() + ")"
		}
		return "stopped by the time limit"
	case solvers.StatusLimit:
		if s.Run != nil && s.Run.Settings.MaxCalls > 0 {
			return "stopped by the call limit (" + fmtCount(float64(s.Run.Settings.MaxCalls)) + ")"
		}
		return "stopped by the call limit"
	}
	return st.String()
}

// hardVerdict names the puzzles hard for the most strategies (three at
// most), linked: "Hard for several strategies: #39630 (4), #40179 (3),
// #40164 (3) of 17."; "" when none is.
func (s *Summary) hardVerdict(href func(string) string) string {
	if len(s.Several) == 0 {
		return ""
	}
	var ps []string
	for _, sh := range s.Several[:min(3, len(s.Several))] {
		ps = append(ps, fmt.Sprintf(`<a href="%s">%s</a> (%s)`, template.HTMLEscapeString(href(anchor(sh.Puzzle))),
			template.HTMLEscapeString(sh.Puzzle.Label), template.HTMLEscapeString(strings.Join(sh.HardFor, ", "))))
	}
	of := ""
	if s.SeveralTotal > len(ps) {
		of = fmt.Sprintf(" (the first %d of %d)", len(ps), s.SeveralTotal)
	}
	return "Hard for several strategies" + of + ": " + strings.Join(ps, "; ") + "."
}

// runFacts is the run's facts in a line: its id, when it started and how
// long it took, the build (the tool's revision as run.json records it),
// the machine, the workers and how busy the machine was; and, when other
// work took more than busy of the workers' CPU time, a warning.
func (s *Summary) runFacts(busy float64) (facts, warning string) {
	r := s.Run
	if r == nil {
		return "No run.json: when, where and with which build are not known.", ""
	}
	var parts []string
	when := "Run " + r.RunID
	if !r.Start.IsZero() {
		when += ", started " + r.Start.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	if r.DurationNS > 0 {
		when += ", took " + FormatDuration(time.Duration(r.DurationNS))
	}
	parts = append(parts, when)
	switch len(r.Machines) {
	case 0:
	case 1:
		m := r.Machines[0]
		parts = append(parts, "revision "+ShortRevision(m.Version))
		where := m.Host
		if where == "" {
			where = "a machine"
		}
		parts = append(parts, fmt.Sprintf("%s: %s, %d CPUs, %s", where, m.CPU, m.NumCPU, Count(r.Workers, "worker", "workers")))
	default:
		var revs []string
		for _, m := range r.Machines {
			if rev := ShortRevision(m.Version); !slices.Contains(revs, rev) {
				revs = append(revs, rev)
			}
		}
		parts = append(parts, Plural(len(revs), "revision ", "revisions ")+strings.Join(revs, ", "), Count(len(r.Machines), "machine", "machines"))
	}
	if sh := r.OtherShare; sh != nil {
		parts = append(parts, "other work took "+fmtShare(*sh)+" of the workers' CPU time")
		if busy > 0 && *sh > busy {
			warning = fmt.Sprintf("The machine was busy: other work took %s of the workers' CPU time while the units were timed (more than %s): its times, and the slowdowns they show, may be the machine's.",
				fmtShare(*sh), fmtShare(busy))
		}
	} else {
		parts = append(parts, "how busy the machine was is not recorded")
	}
	return strings.Join(parts, " · ") + ".", warning
}

// fmtShare formats a share as a percentage: 0.125 is "12.5%".
func fmtShare(x float64) string { return TrimNumber(100*x) + "%" }

// noSolveLines says, of each strategy that solved none of its measured
// puzzles, how they ended: "singles solved none of its 600 puzzles:
// stuck on every one (it stopped by itself, without a solution); it has
// no charts of its own and no lists of hardest puzzles."
func (s *Summary) noSolveLines() []string {
	var out []string
	for _, st := range s.Strategies {
		if st.Measured == 0 || st.Solved() {
			continue
		}
		how := ""
		for _, status := range solvers.Statuses() {
			if n := st.Count(status); n > 0 {
				if how != "" {
					how += ", "
				}
				if n == st.Units {
					how += s.statusWords(status) + " on every one"
				} else {
					how += fmt.Sprintf("%d %s", n, s.statusWords(status))
				}
			}
		}
		line := fmt.Sprintf("%s solved none of its %s: %s", st.Solver, Count(st.Units, "puzzle", "puzzles"), how)
		if st.Count(solvers.StatusStuck) == st.Units {
			line += " (it stopped by itself, without a solution)"
		}
		out = append(out, line+"; it has no charts of its own and no lists of hardest puzzles.")
	}
	return out
}

// Solved reports whether the strategy finished a puzzle (solved it, or
// proved it unsolvable): a strategy that did not gets no charts of its
// own and no lists of hardest puzzles on the page, a line instead.
func (st *StrategySummary) Solved() bool {
	return st.Count(solvers.StatusSolved)+st.Count(solvers.StatusUnsolvable) > 0
}

// goBuild matches a path element of a binary go run or go test built
// in a temporary directory.
var goBuild = regexp.MustCompile(`(^|/)go-build\d+/`)

// RerunCommand is a command line that made a run, for a reader to run
// again: the program named as it is called (batch), or `go run
// ./cmd/batch` when it was a binary go run built in a temporary
// directory, then the arguments, each quoted for a shell.
func RerunCommand(args []string) string {
	if len(args) == 0 {
		return ""
	}
	prog := filepath.Base(args[0])
	if goBuild.MatchString(filepath.ToSlash(args[0])) {
		prog = "go run ./cmd/batch"
	} else {
		prog = ShellQuote(prog)
	}
	if len(args) == 1 {
		return prog
	}
	return prog + " " + ShellCommand(args[1:])
}
