package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// PuzzleRank places one puzzle among one strategy's units of a run, as
// `batch show` prints it.
type PuzzleRank struct {
	Solver string `json:"solver"`
	Found  bool   `json:"found"` // the run has a row for this (puzzle, strategy)
	// Unit is that row, with its ranks by calls and by time among the
	// strategy's measured units (1: the most) and its multiples of the
	// strategy's medians, as in the summary; ranks are 0 when the unit is
	// not measured (invalid, unsupported, error) or not found.
	Unit RankedUnit `json:"unit"`
	// Measured is the number of the strategy's measured units: the N of
	// a rank r/N.
	Measured int `json:"measured"`
	// PctCalls and PctTime are percentiles: the share (%) of the
	// strategy's measured units with at most this unit's calls (time).
	// 100 for the hardest; 0 when not ranked.
	PctCalls float64 `json:"pct_calls"`
	PctTime  float64 `json:"pct_time"`
	// TimeBasis is the time the strategy is ranked by in the run
	// (Series.Basis), as its summary ranks it.
	TimeBasis TimeBasis `json:"time_basis"`
}

// RankPuzzle places puzzle id of the named corpus of res in each of the
// strategies of res (one PuzzleRank per series, in Results order). Ranks,
// medians and the treatment of stopped units are those of Summarize: a
// stopped unit is ranked at the value it had reached.
func RankPuzzle(res *Results, corpus string, id int) []PuzzleRank {
	ci := -1
	for i, c := range res.Corpora {
		if c == corpus {
			ci = i
		}
	}
	ranks := make([]PuzzleRank, 0, len(res.Series))
	for _, ser := range res.Series {
		pr := PuzzleRank{Solver: ser.Solver, TimeBasis: ser.Basis()}
		if ci >= 0 {
			var hard []RankedUnit
			st, rs := summarizeSeries(res, ser, 0, &hard)
			pr.Measured = st.Measured
			p, inRun := res.puzzleAt(ci, id)
			if i, ok := rs.rowsOf(map[int32]bool{p: true})[p]; inRun && ok {
				pr.Found, pr.Unit = true, rs.units([]int32{i})[0]
				n := float64(st.Measured)
				pr.PctCalls = 100 * (n - float64(pr.Unit.RankCalls) + 1) / n
				pr.PctTime = 100 * (n - float64(pr.Unit.RankTime) + 1) / n
			} else if inRun {
				for j := range ser.Len() {
					if ser.Puzzle(j) == p {
						e := ser.At(j)
						pr.Found, pr.Unit = true, rankedUnit(res, ser.Solver, &e)
						break
					}
				}
			}
		}
		ranks = append(ranks, pr)
	}
	return ranks
}

// PuzzleShow is what `batch show` prints about one puzzle: the puzzle
// and its solution as grids, one row per strategy run on it now, and
// where the puzzle ranks in a run. WriteText renders it and does not
// change it.
type PuzzleShow struct {
	Corpus    string                // the corpus file as given
	Entry     corpus.Entry          // the puzzle, its id and line
	Solutions int                   // solutions counted (0, 1, 2 = two or more); -1 when not counted
	Limits    string                // how each strategy was stopped, e.g. "timeout 10s per strategy, no call limit"
	Units     []rundir.Row          // one per strategy, as a run would write them
	Run       string                // the run ranked in; "" for none
	RunNote   string                // said instead of the ranks when there is no run (or it lacks the corpus)
	RunLabel  string                // the puzzle's corpus in the run when it has another name; "" otherwise
	Ranks     []PuzzleRank          // RankPuzzle over the run
	RunSize   int                   // puzzles in the run (Results.Puzzles)
	NotRun    string                // why strategies of the run were not run now (external solvers); "" when none
	Time      func(ns int64) string // formats a time; nil: three significant digits in ns, µs, ms or s
	// Transform, when set, is the transform (solvers.Transform's string)
	// that made Entry.Puzzle from the corpus's puzzle: the strategies ran
	// on that variant, and the ranks are the original's.
	Transform string
	// Uncounted names, per strategy, the counters (calls, guesses,
	// backtracks) it does not report: an external solver's undeclared
	// ones, shown as absent ("–"), not 0.
	Uncounted map[string][]string
}

// Solution returns the checked solution found by the first strategy that
// solved the puzzle, and how many different solutions the strategies
// found; a zero Grid and 0 when none did.
func (s *PuzzleShow) Solution() (solvers.Grid, int) {
	var first solvers.Grid
	seen := map[string]bool{}
	for _, u := range s.Units {
		if u.Status != solvers.StatusSolved || u.Solution == "" {
			continue
		}
		if len(seen) == 0 {
			if p, err := solvers.ParsePuzzle(u.Solution); err == nil {
				first = p.Grid
			}
		}
		seen[u.Solution] = true
	}
	return first, len(seen)
}

// Wrong returns the strategies whose solution failed the check.
func (s *PuzzleShow) Wrong() []string {
	var names []string
	for _, u := range s.Units {
		if u.Status == solvers.StatusWrong {
			names = append(names, u.Solver)
		}
	}
	return names
}

// WriteText writes the puzzle and its solution side by side (one under
// the other when two grids do not fit in width), the table of the
// strategies run on it and its ranks in the run, every line within width
// columns (0: DefaultTextWidth).
func (s *PuzzleShow) WriteText(w io.Writer, width int) error {
	fmtTime := s.Time
	if fmtTime == nil {
		fmtTime = func(ns int64) string { return fmtNS(float64(ns)) }
	}
	var b bytes.Buffer
	p := s.Entry.Puzzle
	side := p.Side()
	fmt.Fprintf(&b, "#%d of %s, line %d", s.Entry.ID, s.Corpus, s.Entry.Line)
	if s.Transform != "" {
		fmt.Fprintf(&b, ", transformed by %s", s.Transform)
	}
	fmt.Fprintf(&b, ": %dx%d, %d %s", side, side, p.Clues(), Plural(p.Clues(), "clue", "clues"))
	switch {
	case s.Solutions == 0:
		b.WriteString(", no solution")
	case s.Solutions == 1:
		b.WriteString(", 1 solution")
	case s.Solutions >= 2:
		b.WriteString(", several solutions")
	}
	b.WriteString("\n\n")
	sol, nsol := s.Solution()
	writeGrids(&b, p.Grid, sol, width)
	if nsol > 1 {
		fmt.Fprintf(&b, "The strategies found %d different solutions; the first one is shown.\n", nsol)
	}

	if len(s.Units) == 0 {
		b.WriteString("\nNo strategy was run now.\n")
	} else {
		s.writeUnits(&b, fmtTime, width)
	}
	s.writeRanks(&b, width)
	if _, err := io.WriteString(w, Wrap(b.String(), width)); err != nil {
		return fmt.Errorf("writing puzzle: %w", err)
	}
	return nil
}

// writeUnits writes the table of the strategies run now on the puzzle.
func (s *PuzzleShow) writeUnits(b *bytes.Buffer, fmtTime func(int64) string, width int) {
	fmt.Fprintf(b, "\nEach strategy, one after the other (%s):\n\n", s.Limits)
	rows := [][]string{{"strategy", "status", "time", "calls", "guesses", "backtracks", "filled"}}
	var notes []string
	for _, u := range s.Units {
		if !u.Status.Measured() {
			rows = append(rows, []string{u.Solver, u.Status.String(), "–", "–", "–", "–", "–"})
		} else {
			mark := ""
			if u.Status.Censored() {
				mark = "≥"
			}
			counter := func(name string, v uint64) string {
				if slices.Contains(s.Uncounted[u.Solver], name) {
					return "–"
				}
				return mark + strconv.FormatUint(v, 10)
			}
			rows = append(rows, []string{u.Solver, u.Status.String(), mark + fmtTime(u.NS),
				counter("calls", u.Calls), counter("guesses", u.Guesses), counter("backtracks", u.Backtracks), strconv.Itoa(u.Filled)})
		}
		switch u.Status {
		case solvers.StatusWrong, solvers.StatusError, solvers.StatusUnsupported, solvers.StatusInvalid:
			note := u.Solver + ": " + u.Error // "wrong solution: ..." says its status
			if !strings.HasPrefix(u.Error, u.Status.String()) {
				note = u.Solver + ": " + u.Status.String() + ": " + u.Error
			}
			notes = append(notes, note)
		}
	}
	writeTextTable(b, rows, 2, 1, width)
	for _, n := range notes {
		fmt.Fprintf(b, "%s\n", n)
	}
	if s.censored() {
		b.WriteString("≥: stopped by a limit; the values are those reached when it stopped.\n")
	}
}

func (s *PuzzleShow) censored() bool {
	for _, u := range s.Units {
		if u.Status.Censored() {
			return true
		}
	}
	return false
}

func (s *PuzzleShow) writeRanks(b *bytes.Buffer, width int) {
	if s.Run == "" {
		if s.RunNote != "" {
			fmt.Fprintf(b, "\n%s\n", s.RunNote)
		}
		return
	}
	found := false
	for _, r := range s.Ranks {
		found = found || r.Found
	}
	label := fmt.Sprintf("#%d", s.Entry.ID)
	if s.RunLabel != "" {
		label = fmt.Sprintf("#%d of %s", s.Entry.ID, s.RunLabel)
	}
	if !found {
		fmt.Fprintf(b, "\n%s is not in run %s (%d %s).\n", label, s.Run, s.RunSize, Plural(s.RunSize, "puzzle", "puzzles"))
		return
	}
	if s.Transform != "" {
		label += " as given (not this variant)"
	}
	fmt.Fprintf(b, "\nWhere %s ranks in run %s, per strategy among its measured units "+
		"(rank 1: the most calls, the longest time; percentile: share of the units with at most this value):\n\n", label, s.Run)
	rows := [][]string{{"strategy", "status", "calls", "rank", "percentile", "× median", "time", "rank", "percentile", "× median"}}
	stopped, tied := false, false
	rank := func(rank, tie, n int) string {
		if tie > 1 {
			tied = true
			return fmt.Sprintf("=%d/%d", rank, n)
		}
		return fmt.Sprintf("%d/%d", rank, n)
	}
	for _, r := range s.Ranks {
		u := r.Unit
		switch {
		case !r.Found:
			rows = append(rows, []string{r.Solver, "not in run", "–", "–", "–", "–", "–", "–", "–", "–"})
		case u.RankCalls == 0:
			rows = append(rows, []string{r.Solver, u.Status.String(), "–", "–", "–", "–", "–", "–", "–", "–"})
		default:
			stopped = stopped || u.Status.Censored()
			rows = append(rows, []string{r.Solver, u.Status.String(),
				unitValue(u, float64(u.Calls), func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }),
				rank(u.RankCalls, u.TiedCalls, r.Measured), fmtPercentile(r.PctCalls),
				unitValue(u, u.XMedianCalls, fmtMultiple),
				strings.TrimSuffix(unitTime(u), UnconfirmedMark),
				rank(u.RankTime, u.TiedTime, r.Measured), fmtPercentile(r.PctTime),
				unitValue(u, u.XMedianTime, fmtMultiple)})
		}
	}
	// The calls and their rank, the time and its: a block split between
	// them keeps each group under its value's header.
	b.WriteString(termTable{rows: rows, left: 2, keys: 1, groups: []int{2, 6}}.render(width))
	if stopped {
		b.WriteString("≥: the run stopped this unit at a limit; it is ranked at the value it had reached (by time, " +
			"a unit a timeout stopped at the limit, with every other such unit).\n")
	}
	if tied {
		b.WriteString("=: a rank shared with other units of equal value.\n")
	}
	var self []string
	for _, r := range s.Ranks {
		if r.Found && r.TimeBasis == BasisSelf {
			self = append(self, r.Solver)
		}
	}
	if len(self) > 0 {
		fmt.Fprintf(b, "Time of %s: %s own (self_ns), as the run's summary ranks %s.\n", strings.Join(self, ", "),
			Plural(len(self), "its", "their"), Plural(len(self), "it", "them"))
	}
	if s.NotRun != "" {
		fmt.Fprintf(b, "%s\n", s.NotRun)
	}
}

// fmtPercentile formats a percentile rounded down to 0.1, so that only
// the hardest units show p100: p100, p99.9, p50.0.
func fmtPercentile(v float64) string {
	if v >= 100 {
		return "p100"
	}
	return "p" + strconv.FormatFloat(math.Floor(v*10)/10, 'f', 1, 64)
}

// writeGrids writes the puzzle and, when it is not zero, the solution
// side by side, each with box borders (Grid.Format); one under the other
// when two grids do not fit in cols columns.
func writeGrids(b *bytes.Buffer, puzzle, solution solvers.Grid, cols int) {
	left := strings.Split(strings.TrimSuffix(puzzle.Format(), "\n"), "\n")
	width := columns(left[0])
	if solution.IsZero() {
		b.WriteString("puzzle (no strategy solved it)\n")
		for _, l := range left {
			b.WriteString(l + "\n")
		}
		return
	}
	right := strings.Split(strings.TrimSuffix(solution.Format(), "\n"), "\n")
	const gap = "   "
	if 2*width+len(gap) > textWidthOr(cols) {
		b.WriteString("puzzle\n" + strings.Join(left, "\n") + "\n\nsolution\n" + strings.Join(right, "\n") + "\n")
		return
	}
	fmt.Fprintf(b, "%-*s%ssolution\n", width, "puzzle", gap)
	for i, l := range left {
		b.WriteString(l + gap + right[i] + "\n")
	}
}

// writeTextTable writes rows (the first is the header) as a table for a
// terminal fitted to width: the first left columns aligned left, the
// others right; split into blocks under the first keys columns when it
// is too wide (termTable).
func writeTextTable(b *bytes.Buffer, rows [][]string, left, keys, width int) {
	b.WriteString(termTable{rows: rows, left: left, keys: keys}.render(width))
}
