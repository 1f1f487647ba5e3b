package report

import (
	"fmt"
	"strconv"
	"strings"
)

// TrendCell is what the history of a run's series says of one strategy
// on the run's night, for the page's headline (cmd/batch reads it with
// the history package, which report cannot import).
type TrendCell struct {
	Change   string  // the change against the baseline with its interval: "×1.032 [1.011, 1.054]"; "" when none
	Ratio    float64 // the change's ratio, for sorting (0: none)
	Verdict  string  // "no change", "slower", "not enough history", ...
	Alarm    bool    // the verdict is an alarm of that night
	Baseline string  // what it was compared with: "the previous 7 nights"
}

// pageHeadline is the page's first table: a row per strategy, and its
// symbols explained.
type pageHeadline struct {
	Head    []headCol
	Rows    [][]headCell
	Symbols string
}

// headCol is a column of the headline: its name and, on hover, what it
// holds.
type headCol struct{ Name, Title string }

// headCell is a cell of the headline: its text, the number it sorts by
// (Sort, "" for text), its interval or explanation on hover, a link to a
// puzzle's anchor, and a class (st-timeout, alarm).
type headCell struct {
	Text, Sort, Title, Anchor, Class, Small string
	// SmallCI follows Small, an interval a small screen leaves out.
	SmallCI string
}

// headline returns the page's headline: per strategy (in the summary's
// order) the median and p99 time with their spreads (the interval on
// hover) and, when trend has cells, its change against the history's
// baseline, first, so that a phone shows them without a sideways swipe;
// then its puzzles by status (solved always), the no-guess rate and its
// hardest puzzle by calls (none for a strategy that solved nothing: its
// calls say when it gave up).
func (s *Summary) headline(trend map[string]TrendCell) pageHeadline {
	h := pageHeadline{Head: []headCol{{"strategy", ""},
		{"median time", "median time per puzzle; under it, its 95% interval's spread (the interval on hover)"},
		{"p99 time", "99th percentile of the time per puzzle, with its spread"}}}
	if len(trend) > 0 {
		h.Head = append(h.Head, headCol{"vs. history", "the median time against the baseline of the series' earlier nights (batch trend), the machine's common factor taken out"})
	}
	statuses := s.shownStatuses()
	for _, st := range statuses {
		h.Head = append(h.Head, headCol{st.String(), "puzzles that ended " + st.String()})
	}
	h.Head = append(h.Head,
		headCol{"puzzles", "units of the strategy in the run"},
		headCol{"no guess", "share of the puzzles solved without a guess"},
		headCol{"hardest (calls)", "the puzzle that took the strategy the most calls"})
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	var texts []string
	for _, st := range s.Strategies {
		row := []headCell{{Text: st.Solver, Small: st.basisTag(), Title: st.basisTitle()}}
		for _, q := range []struct {
			e  Estimate
			iv Interval
		}{{st.TimeNS.Median, st.TimeNS.MedianCI}, {st.TimeNS.P99, st.TimeNS.P99CI}} {
			if st.Measured == 0 {
				row = append(row, headCell{Text: "–"})
				continue
			}
			row = append(row, headCell{Text: fmtEstimate(q.e, fmtNS), Sort: num(q.e.Value),
				Small: fmtSpread(q.e.Value, q.iv), Title: "95% confidence interval: " + fmtInterval(q.iv, fmtNS)})
		}
		if len(trend) > 0 {
			t, ok := trend[st.Solver]
			c := headCell{Text: "–"}
			if ok {
				c = headCell{Text: t.Verdict, Title: strings.TrimSpace("against " + t.Baseline)}
				c.Small, c.SmallCI, _ = strings.Cut(t.Change, " [")
				if c.SmallCI != "" {
					c.SmallCI = " [" + c.SmallCI
				}
				if t.Ratio > 0 {
					c.Sort = num(t.Ratio)
				}
				if t.Alarm {
					c.Class = "alarm"
				}
			}
			row = append(row, c)
		}
		for _, status := range statuses {
			n := st.Count(status)
			c := headCell{Text: strconv.Itoa(n), Sort: strconv.Itoa(n)}
			if n > 0 && status.String() != "solved" {
				c.Class = "st-" + status.String()
			}
			row = append(row, c)
		}
		row = append(row, headCell{Text: strconv.Itoa(st.Units), Sort: strconv.Itoa(st.Units)})
		if st.Measured == 0 {
			row = append(row, headCell{Text: "–"})
		} else {
			row = append(row, headCell{Text: fmtEstimate(st.NoGuessPct, fmtPct), Sort: num(st.NoGuessPct.Value)})
		}
		if len(st.ByCalls) > 0 && st.Solved() {
			u := st.ByCalls[0]
			row = append(row, headCell{Text: u.Puzzle.Label, Anchor: anchor(u.Puzzle), Sort: strconv.FormatUint(u.Calls, 10),
				Small: unitValue(u, float64(u.Calls), fmtCount) + " " + Plural(min(int(u.Calls), 2), "call", "calls"),
				Title: "×" + fmtSig3(u.XMedianCalls) + " the strategy's median calls"})
		} else {
			row = append(row, headCell{Text: "–"})
		}
		for _, c := range row[1:] {
			texts = append(texts, c.Text, c.Small)
		}
		h.Rows = append(h.Rows, row)
	}
	h.Symbols = strings.TrimSpace(symbolsNote(texts...))
	return h
}

// chartLead returns the first clause of a chart's caption, for under its
// thumbnail: up to the first colon or sentence end, or about 25 words,
// ended with a period.
func chartLead(caption string) string {
	lead := caption
	if i := strings.IndexAny(lead, ":;"); i > 40 {
		lead = lead[:i]
	} else if i := strings.Index(lead, ". "); i > 0 {
		lead = lead[:i]
	}
	if words := strings.Fields(lead); len(words) > 28 {
		lead = strings.Join(words[:25], " ") + " …"
	}
	lead = strings.TrimRight(lead, ". ")
	if lead == "" {
		return ""
	}
	return lead + "."
}

// timingLead says in one line how many of the times are confirmed and
// how many units were re-timed.
func (s *Summary) timingLead() string {
	t := s.Timing
	if t == nil {
		return ""
	}
	lead := fmt.Sprintf("%s of the %s measured have a confirmed time (measured more than once); %s re-timed alone at the end",
		fmtPct(100*float64(t.Confirmed)/float64(max(t.Units, 1))), Count(t.Units, "unit", "units"), Count(t.Retimed, "unit", "units"))
	if t.Retimed > 0 {
		lead += fmt.Sprintf(" (%d confirmed slow, %d noise, %d ok)", t.RetimedSlow, t.RetimedNoise, t.RetimedConfirmed)
	}
	return lead + "."
}
