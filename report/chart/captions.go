package chart

import (
	"fmt"
	"slices"
	"strings"

	"sudokubatch/report"
)

// gaveWord names the rows that gave up: "stuck", "wrong" or
// "stuck/wrong".
func (c *column) gaveWord() string { return kindsWord(c.stuck, "stuck", c.wrong, "wrong") }

// kindsWord names rows of two kinds, a of the first and b of the second:
// the first's word, the second's when there are only those, or both.
func kindsWord(a int, aWord string, b int, bWord string) string {
	switch {
	case a > 0 && b > 0:
		return aWord + "/" + bWord
	case b > 0:
		return bWord
	default:
		return aWord
	}
}

// gaveCount says how many rows gave up: "300 stuck", "1 wrong",
// "3 stuck, 1 wrong".
func (c *column) gaveCount() string {
	var parts []string
	if c.stuck > 0 {
		parts = append(parts, fmt.Sprintf("%d stuck", c.stuck))
	}
	if c.wrong > 0 {
		parts = append(parts, fmt.Sprintf("%d wrong", c.wrong))
	}
	return strings.Join(parts, ", ")
}

// shares says what share of the plotted rows ended how, for a legend:
// "100% solved", "84% solved; 16% timeout", "0% solved; 100% stuck",
// "90% solved, 10% unsolvable; 1 wrong". The finished part comes first,
// always; unsolvable is named only when there is some.
func (c *column) shares() string {
	if c.n == 0 {
		return "nothing plotted"
	}
	fin := percent(c.fin-c.unsolvable, c.n) + " solved"
	if c.unsolvable > 0 {
		fin += ", " + percent(c.unsolvable, c.n) + " unsolvable"
	}
	var rest []string
	for _, k := range []struct {
		n    int
		word string
	}{{c.stuck, "stuck"}, {c.wrong, "wrong"}, {c.timeouts, "timeout"}, {c.limits, "limit"}} {
		if k.n > 0 {
			rest = append(rest, percent(k.n, c.n)+" "+k.word)
		}
	}
	if len(rest) == 0 {
		return fin
	}
	return fin + "; " + strings.Join(rest, ", ")
}

// percent formats k of n as a whole percentage that is never 0% or
// 100% unless k is none or all of n: "<1%", "37%", ">99%".
func percent(k, n int) string {
	switch {
	case n <= 0 || k <= 0:
		return "0%"
	case k >= n:
		return "100%"
	}
	p := 100 * float64(k) / float64(n)
	switch {
	case p < 1:
		return "<1%"
	case p > 99:
		return ">99%"
	}
	return fmt.Sprintf("%.0f%%", p)
}

// censorWord names the censored rows: "timeout", "limit" or
// "timeout/limit".
func (c *column) censorWord() string { return kindsWord(c.timeouts, "timeout", c.limits, "limit") }

// censorCount says how many rows are censored: "394 timeouts",
// "1 limit", "3 timeouts, 2 limits".
func (c *column) censorCount() string {
	var parts []string
	if c.timeouts > 0 {
		parts = append(parts, report.Count(c.timeouts, "timeout", "timeouts"))
	}
	if c.limits > 0 {
		parts = append(parts, report.Count(c.limits, "limit", "limits"))
	}
	return strings.Join(parts, ", ")
}

// notes lists, for a caption, what the chart leaves out or changes:
// "12 invalid/unsupported/error rows not plotted", "3 zero times drawn
// at 1ns".
func (c *column) notes() []string {
	var out []string
	if c.zeros > 0 {
		what := map[bool]string{true: "time of 0 ns is", false: "times of 0 ns are"}[c.zeros == 1]
		if c.measure == measureCalls {
			what = map[bool]string{true: "count of 0 calls is", false: "counts of 0 calls are"}[c.zeros == 1]
		}
		out = append(out, fmt.Sprintf("%d %s drawn at %s", c.zeros, what, c.measure.label(c.measure.floor())))
	}
	if c.skipped > 0 {
		out = append(out, fmt.Sprintf("%s not plotted (invalid, unsupported or error)", report.Count(c.skipped, "row", "rows")))
	}
	return out
}

func (cs *chartSet) histTitle(col *column) string {
	what := "time per puzzle"
	if col.measure == measureCalls {
		what = "calls per puzzle"
	}
	return cs.title(col.solver+": "+what, col.rows)
}

func (cs *chartSet) histCaption(col *column, idx int) string {
	what, slow := "time per puzzle", "slowest"
	if col.measure == measureCalls {
		what, slow = "calls per puzzle", "costliest"
	}
	bins := "in bins shared by all strategies"
	if col.measure == measureCalls {
		bins = "in bins of its own (what a call is depends on the strategy)"
	}
	height := "a bar's height is the number of puzzles in its bin"
	_, fin, gave, cen := cs.histBins(col, idx)
	if logY, _ := logCounts(fin, gave, cen); logY {
		height = "a bar's height is the number of puzzles in its bin, on a log scale so that bins of a single puzzle show"
	}
	main := fmt.Sprintf("Histogram of %s's %s on a log scale, %s: %s", col.solver, what, bins, height)
	var extra []string
	if labels := cs.hardest(col); len(labels) > 0 {
		extra = append(extra, fmt.Sprintf("the %s %s (first in the summary's list) %s labelled #id", slow,
			report.Count(len(labels), "puzzle", "puzzles"), report.Plural(len(labels), "is", "are")))
		if slices.ContainsFunc(labels, func(l rankedLabel) bool { return strings.HasSuffix(l.text, report.UnconfirmedMark) }) {
			extra = append(extra, report.UnconfirmedMark+" marks a time measured once, in the sweep: "+cs.unconfirmedWhy)
		}
	}
	unit := strings.TrimSuffix(what, " per puzzle")
	switch {
	case col.unfinished() > 0 && col.fin == 0:
		extra = append(extra, "it finished no puzzle (solved, or proved unsolvable): every bar is hatched")
	case col.unfinished() > 0:
		extra = append(extra, fmt.Sprintf("solid bars are the %s it finished (solved, or proved unsolvable); the hatched segments stacked on them are the puzzles it did not finish, not counted as finished",
			report.Count(col.fin, "puzzle", "puzzles")))
	}
	if col.gaveUp() > 0 {
		extra = append(extra, fmt.Sprintf("the pale segment hatched in its color is the %s, drawn at the %s the strategy took to give up without a solution (stuck: it stopped by itself and would never solve them)",
			col.gaveCount(), unit))
	}
	if col.censored() > 0 {
		extra = append(extra, fmt.Sprintf("the segment hatched in black is the %s, drawn at the %s where they were stopped (a lower bound)",
			col.censorCount(), unit))
	}
	if len(col.find(cs.opt.Highlight)) > 0 {
		extra = append(extra, "highlighted puzzles are marked in magenta")
	}
	extra = append(extra, cs.absentHighlights(col))
	extra = append(extra, col.notes()...)
	if col.n == 0 {
		extra = append(extra, "no row of this strategy has a measurement to plot")
	}
	return sentence(main, extra...)
}
