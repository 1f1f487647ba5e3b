package report

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sudokubatch/rundir"
)

func (s *Summary) writeHardest(b *bytes.Buffer) {
	fmt.Fprintf(b, "\n## Hardest puzzles\n\nThe %d highest per strategy by calls and by time; "+
		"× median is the multiple of the strategy's median. %s lists, per strategy, every unit "+
		"above its p99 of calls or stopped by a limit. Calls do not depend on the machine; times do "+
		"(garbage collection, scheduling, a cold start), so a long time with ordinary calls is "+
		"usually noise", s.Top, rundir.HardCSV)
	b.WriteString(". A unit stopped by a limit ranks at the value where the limit stopped it, shown ≥; " +
		"by time, the units a timeout stopped tie at the limit (the earliest time one was stopped), " +
		"listed by the calls they reached, then by id: how far the timer overshot the limit is no measure of a puzzle")
	if s.Timed {
		b.WriteString("; " + UnconfirmedMark + " marks a time measured once, in the sweep, that the re-timing " +
			"did not reach (see Timing).\n")
	} else {
		b.WriteString(". Times are unconfirmed (see Timing).\n")
	}
	for _, st := range s.Strategies {
		fmt.Fprintf(b, "\n### %s\n\n", mdText(st.Solver))
		if st.Measured == 0 {
			fmt.Fprintf(b, "No measured unit: its %d %s are invalid, unsupported or errors.\n",
				st.Units, Plural(st.Units, "unit", "units"))
			continue
		}
		fmt.Fprintf(b, "In %s: %d %s (stopped by a limit, or calls above the p99, %s).\n\n", rundir.HardCSV,
			st.Hard, Plural(st.Hard, "unit", "units"), fmtEstimate(st.Calls.P99, fmtCount))
		stopped := 0
		for _, u := range slices.Concat(st.ByCalls, st.ByTime) {
			if u.Status.Censored() {
				stopped++
			}
		}
		if stopped > 0 {
			b.WriteString("Some of these units were stopped by a limit: their values are where the limit " +
				"stopped them (those a timeout stopped tie by time, their rank shared), so their order among " +
				"themselves says little about the puzzles.\n\n")
		}
		b.WriteString("By calls:\n\n")
		var rows [][]string
		for _, u := range st.ByCalls {
			rows = append(rows, []string{strconv.Itoa(u.RankCalls), mdText(u.Puzzle.Label),
				unitValue(u, float64(u.Calls), fmtCount), unitValue(u, u.XMedianCalls, fmtMultiple),
				unitValue(u, float64(u.NS), fmtNS), u.Status.String()})
		}
		head, align := s.variantsColumn([]string{"rank", "puzzle", "calls", "× median", "time", "status"}, "rlrrrl", st.ByCalls, rows)
		writeMDTable(b, head, rows, align)
		if s.Timed {
			fmt.Fprintf(b, "\nBy time (%s):\n\n", s.timeListNote(st))
		} else {
			fmt.Fprintf(b, "\nBy time, unconfirmed (%d measured %s):\n\n", st.Measured,
				Plural(st.Measured, "unit, timed once", "units, each timed once"))
		}
		rows = rows[:0]
		for _, u := range st.ByTime {
			rows = append(rows, []string{strconv.Itoa(u.RankTime), mdText(u.Puzzle.Label),
				unitTime(u), unitValue(u, u.XMedianTime, fmtMultiple),
				unitValue(u, float64(u.Calls), fmtCount), u.Status.String()})
		}
		head, align = s.variantsColumn([]string{"rank", "puzzle", "time", "× median", "calls", "status"}, "rlrrrl", st.ByTime, rows)
		writeMDTable(b, head, rows, align)
	}
}

// UnconfirmedMark follows a time measured once, in the sweep of a run
// that confirms its slowest times, where the re-timing did not reach it
// (RankedUnit.Unconfirmed, Distribution.MaxUnconfirmed).
const UnconfirmedMark = "†"

// unitTime formats the time of a listed unit: ≥ when a limit stopped
// it (a timeout at the time every timeout ranks at, TimeBound),
// UnconfirmedMark when the re-timing did not reach it.
func unitTime(u RankedUnit) string {
	ns := u.NS
	if u.TimeBound > 0 {
		ns = u.TimeBound
	}
	t := unitValue(u, float64(ns), fmtNS)
	if u.Unconfirmed {
		t += UnconfirmedMark
	}
	return t
}

// timeListNote says how the times of st's list by time were measured,
// in a run with the timing columns: "every listed time confirmed", or
// "3 of 20 listed times unconfirmed (†): measured once, the re-timing's
// allowance was spent" (UnconfirmedWhy).
func (s *Summary) timeListNote(st *StrategySummary) string {
	n, stopped := 0, false
	for _, u := range st.ByTime {
		if u.Unconfirmed {
			n++
		}
		stopped = stopped || u.Status.Censored()
	}
	if n == 0 && stopped {
		return "every listed time confirmed, or a bound (≥)"
	}
	if n == 0 {
		return "every listed time confirmed"
	}
	return fmt.Sprintf("%d of %d listed %s unconfirmed (%s): measured once, %s",
		n, len(st.ByTime), Plural(len(st.ByTime), "time", "times"), UnconfirmedMark, s.UnconfirmedWhy())
}

// UnconfirmedWhy says why a time of the run is marked UnconfirmedMark:
// its re-timing could not be written (a full disk); the run did not reach
// its re-timing, which runs when the sweep ends (an interrupted run, or
// one still running: nothing was re-timed, so "its allowance was spent"
// would be false); else the time allowed for the re-timing was spent
// before it reached the unit.
func (s *Summary) UnconfirmedWhy() string {
	switch {
	case s.Timing != nil && len(s.Timing.RetimeErrors) > 0:
		return "the re-timing could not be recorded (see Timing)"
	case s.Run != nil && s.Run.Status == rundir.Interrupted:
		return "the run was interrupted before its re-timing"
	case s.Run != nil && s.Run.Status == rundir.Running:
		return "the run has not reached its re-timing yet"
	case s.Run != nil && s.Run.Status != rundir.Finished:
		return "the run ended before its re-timing"
	}
	return allowanceSpent
}

// allowanceSpent is UnconfirmedWhy in a finished run.
const allowanceSpent = "the re-timing's allowance was spent"

// UnconfirmedCause is UnconfirmedWhy said of one marked time, after
// "timed once, in the sweep: " in a legend or a caption.
func (s *Summary) UnconfirmedCause() string {
	why := s.UnconfirmedWhy()
	if why == allowanceSpent {
		return why + " before it"
	}
	return why
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
	b.WriteString("A puzzle is hard for a strategy when its calls are above the strategy's p99 of calls " +
		"(its top 1%); a unit a limit stopped counts when the calls it reached already are, and one that " +
		"gave up (stuck) never does, whatever its calls. " +
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
		fmt.Fprintf(b, "%s; the first %d:\n\n", Count(s.SeveralTotal, "puzzle", "puzzles"), len(s.Several))
	} else {
		fmt.Fprintf(b, "%d %s:\n\n", s.SeveralTotal, Plural(s.SeveralTotal, "puzzle", "puzzles"))
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
