package history

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sudokubatch/report"
	"sudokubatch/report/chart"
)

// mdNights is how many nights, newest first, trend.md lists per series;
// the history page and trend.json list them all.
const mdNights = 20

// writeMarkdown renders trend.md.
func writeMarkdown(h *History, views []*seriesView) []byte {
	var b bytes.Buffer
	b.WriteString("# Trend\n\n")
	fmt.Fprintf(&b, "%s, %s skipped. The same in %s; the charts in %s/; the history page %s.\n",
		report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs"), TrendJSON, ChartDir, PageFile)
	for _, v := range views {
		mdSeries(&b, v)
	}
	if len(h.Skipped) > 0 {
		b.WriteString("\n## Skipped runs\n\n| run | why |\n|---|---|\n")
		for _, sk := range h.Skipped {
			fmt.Fprintf(&b, "| %s | %s |\n", md(sk.Run), md(sk.Reason))
		}
	}
	return b.Bytes()
}

// mdSeries writes the section of one series: its strategies' verdicts,
// its alarms and steps (when evaluated), notes, charts and nights.
func mdSeries(b *bytes.Buffer, v *seriesView) {
	fmt.Fprintf(b, "\n## %s\n\n", md(v.Head))
	fmt.Fprintf(b, "%s\n\n%s\n\n", mdCode(v.Series.Key), md(v.Newest))
	b.WriteString("| strategy | last median [95%] | baseline median | change [95%] | machine | beyond the machine [95%] | noise | drift | counters | verdict |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|---|---|\n")
	for _, r := range v.Strategies {
		verdict := md(r.Verdict)
		if r.Alarm {
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", md(r.Solver), md(r.Last), md(r.Baseline), md(r.Change),
			md(r.Machine), md(r.Beyond), md(r.Spread), md(r.Drift), md(r.Counters), verdict)
	}
	if v.Report != nil {
		mdAlarms(b, v.Alarms)
		mdSteps(b, v.Steps)
	}
	if len(v.Notes) > 0 {
		b.WriteString("\n### Notes\n\n")
		for _, n := range v.Notes {
			fmt.Fprintf(b, "- %s\n", md(n))
		}
	}
	if len(v.Charts) > 0 {
		b.WriteString("\n### Charts\n\n")
		for _, c := range v.Charts {
			fmt.Fprintf(b, "- [%s](%s) ([SVG](%s))\n", md(c.Title), pageHref(c.PNG), pageHref(c.SVG))
		}
	}
	mdNightTable(b, v.Nights)
}

// mdAlarms writes the alarms of the newest night, each with its
// acknowledgement, good night, bisect script and the puzzles that moved.
func mdAlarms(b *bytes.Buffer, alarms []alarmView) {
	b.WriteString("\n### Alarms\n\n")
	if len(alarms) == 0 {
		b.WriteString("None on the newest night.\n")
	}
	for _, a := range alarms {
		title := md(a.Title)
		if a.Unacked {
			title = "**" + title + "**"
		}
		fmt.Fprintf(b, "- %s\n", title)
		for _, line := range []string{a.Ack, a.Good} {
			if line != "" {
				fmt.Fprintf(b, "  %s\n", md(line))
			}
		}
		if a.Bisect != "" {
			fmt.Fprintf(b, "  Bisect script: [%s](%s); in the tool's work tree, after the git bisect start of its header: %s\n", md(a.Bisect), pageHref(a.Bisect), mdCode(a.BisectCmd))
		}
		if a.Puzzles != "" {
			fmt.Fprintf(b, "  Puzzles: %s.\n", md(a.Puzzles))
		}
		if len(a.Moved) > 0 {
			b.WriteString("\n  | puzzle | baseline | newest | ratio | confirmed |\n  |---|--:|--:|--:|---|\n")
			for _, m := range a.Moved {
				fmt.Fprintf(b, "  | %s | %s | %s | %s | %s |\n", md(m.Label), m.Old, m.New, m.Ratio, m.Confirmed)
			}
			b.WriteString("\n")
		}
	}
}

// mdSteps writes the change points of the series.
func mdSteps(b *bytes.Buffer, steps []stepRow) {
	b.WriteString("\n### Steps\n\n")
	if len(steps) == 0 {
		b.WriteString("No change point over the series.\n")
	} else {
		b.WriteString("| strategy | night | date | revision | before | after | ratio | |\n|---|--:|---|---|--:|--:|--:|---|\n")
		for _, s := range steps {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", md(s.Solver), s.Night, s.Date, md(s.Revision), s.Before, s.After, s.Ratio, md(s.Status))
		}
	}
}

// mdNightTable writes the table of nights, newest first, at most mdNights
// of them.
func mdNightTable(b *bytes.Buffer, nights []nightView) {
	b.WriteString("\n### Nights\n\n")
	b.WriteString("| night | date (UTC) | revision | run | other work | verdicts | alarms |\n|--:|---|---|---|--:|---|---|\n")
	for i, n := range nights {
		if i == mdNights {
			fmt.Fprintf(b, "| | | | | | %s earlier: see %s or %s | |\n", report.Count(len(nights)-mdNights, "night", "nights"), PageFile, TrendJSON)
			break
		}
		run := md(n.Run)
		if n.Page != "" {
			run = "[" + run + "](" + n.Page + ")"
		}
		var verdicts []string
		for _, c := range n.Verdicts {
			if c.Verdict == "" {
				continue
			}
			verdicts = append(verdicts, md(c.Solver)+": "+md(c.Verdict))
		}
		other := n.Other
		if n.Busy {
			other = "**" + other + "**"
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s |\n", n.Index, n.Date, md(n.Revision), run, other, strings.Join(verdicts, "; "), md(n.Alarms))
	}
}

// md escapes text for a Markdown table cell or line: no HTML, no table
// break, no emphasis, code or link taken from the text, one line.
// Brackets alone stay as they are: intervals read "[1.150, 1.250]".
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '|', '\\', '`', '*', '_':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '(', '[', ':':
			// "](", "][" and "]:" would make a link of the text before.
			if strings.HasSuffix(b.String(), "]") {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode is s in a code span: backquotes in s are taken as they are
// (a longer fence) and newlines become spaces.
func mdCode(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}

// The formats of the figures: times as the reports give them (three
// significant digits in ns, µs, ms or s), ratios as batch compare does
// (three decimals near 1).

func fmtNS(ns float64) string { return report.FormatDuration(time.Duration(math.Round(ns))) }

func boundMark(bound string) string {
	switch bound {
	case "lower":
		return "≥"
	case "upper":
		return "≤"
	}
	return ""
}

// FormatQuantile formats a time quantile without its interval: "1.23ms",
// "≥100ms" for a lower bound.
func FormatQuantile(q Quantile) string { return boundMark(q.Bound) + fmtNS(float64(q.Value)) }

// fmtQuantileCI formats a time quantile and its interval: "1.23ms
// [1.20ms, 1.25ms]", "≥100ms" for a lower bound.
func fmtQuantileCI(q Quantile) string {
	s := FormatQuantile(q)
	if q.Lo > 0 || q.Hi > 0 {
		s += " [" + fmtNS(float64(q.Lo)) + ", " + fmtNS(float64(q.Hi)) + "]"
	}
	return s
}

// FormatEstimateNS formats a time estimate (ns), "≥" or "≤" before a
// bound.
func FormatEstimateNS(e report.Estimate) string {
	return boundMark(e.Bound.String()) + fmtNS(e.Value)
}

// fmtRatioNum formats a ratio near 1 with three decimals (1.003), far
// from 1 with three significant digits.
func fmtRatioNum(x float64) string {
	if x >= 0.01 && x < 100 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return report.TrimNumber(x)
}

func fmtMultiple(x float64) string { return "×" + fmtRatioNum(x) }

// fmtRatio formats a ratio as a multiple, marked ≥, ≤ or ~ when it is a
// bound.
func fmtRatio(r report.Ratio) string {
	mark := boundMark(r.Bound.String())
	if r.Either {
		mark = "~"
	}
	return mark + fmtMultiple(r.Value)
}

func fmtCI(ci report.RatioCI) string {
	return "[" + fmtRatioNum(ci.Lo) + ", " + fmtRatioNum(ci.Hi) + "]"
}

// FormatShare formats a share as a percentage: 0.05 is "5%".
func FormatShare(x float64) string { return report.TrimNumber(x*100) + "%" }

// hexColor is a strategy's chart color as CSS.
func hexColor(name string) string { return chart.HexColor(chart.StrategyColor(name)) }
