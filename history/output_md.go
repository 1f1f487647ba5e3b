package history

import (
	"bytes"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sudokubatch/report"
)

// The files trend writes in the results root (WriteFiles).
const (
	TrendMD   = "trend.md"   // the trend for people, Markdown
	TrendJSON = "trend.json" // the same for programs (TrendFile)
	PageFile  = "index.html" // the history page
)

// mdNights is how many nights, newest first, trend.md lists per series;
// the history page and trend.json list them all.
const mdNights = 20

// seriesView is one series as trend.md and the history page show it:
// the figures formatted once, for both.
type seriesView struct {
	Series     *Series
	Report     *Report // nil: the detectors did not run on this series
	Head       string  // "Series 1/2 3f2a…: 10 nights"
	Newest     string  // the newest night, its settings and the machine's factor, one sentence
	Strategies []strategyRow
	Alarms     []alarmView
	Steps      []stepRow
	Notes      []string
	Names      []string    // the strategies of the series, in color order
	Nights     []nightView // newest first
	Unacked    int         // new alarms not acknowledged
	Charts     []TrendChart
}

// strategyRow is one line of the verdict table.
type strategyRow struct {
	Solver, Color                  string
	Last, Baseline, Change, Beyond string
	Machine, Counters, Verdict     string
	Drift                          string // StrategyTrend.Drift
	Alarm                          bool   // the verdict is one that alarms (slower, counters changed)
}

// alarmView is one alarm with what is known of it.
type alarmView struct {
	Alarm  *Alarm
	Title  string // "new time alarm: dlx, night 7 (run)"
	Ack    string // "acknowledged: why (…)", or how to acknowledge it
	Good   string
	Bisect string // the script, relative to the root
	// BisectCmd runs it, from the tool's work tree (the script's header
	// says how to start the bisection).
	BisectCmd string
	Moved     []movedRow
	Puzzles   string // the puzzles named when no moved times are known (a counters change), "and N more"
	Unacked   bool
}

type movedRow struct{ Label, Old, New, Ratio, Confirmed string }

type stepRow struct {
	Solver, Night, Date, Revision, Before, After, Ratio, Status string
}

// nightView is one night of the nights' table.
type nightView struct {
	Index               int
	Date, Revision, Run string
	Page                string        // href of its page, relative to the root; empty: none
	PagePath            string        // the page's path, relative to the root
	Verdicts            []verdictCell // one per strategy of the series (Verdict empty: none that night)
	Alarms              string
}

type verdictCell struct{ Solver, Verdict, Class string }

// buildViews formats the history h and its reports for trend.md and the
// page. charts[i] are the charts of h.Series[i].
func buildViews(root string, h *History, reports []*Report, charts [][]TrendChart) []*seriesView {
	var out []*seriesView
	for i, s := range h.Series {
		var r *Report
		if i < len(reports) {
			r = reports[i]
		}
		v := &seriesView{Series: s, Report: r, Charts: charts[i]}
		v.Head = fmt.Sprintf("Series %d/%d %s: %s", i+1, len(h.Series), s.ID, report.Count(len(s.Nights), "night", "nights"))
		v.Newest = newestText(s, r)
		v.Strategies = strategyRows(s, r)
		if r != nil {
			v.Alarms = alarmViews(root, r)
			for _, st := range r.Steps {
				v.Steps = append(v.Steps, stepRowOf(st))
			}
			v.Notes = r.Notes
		} else {
			v.Notes = []string{"The detectors did not run on this series: the figures of its nights are shown without verdicts."}
		}
		v.Names = strategyOrder(s.Nights)
		v.Nights = nightViews(root, s, r)
		for _, a := range v.Alarms {
			if a.Unacked {
				v.Unacked++
			}
		}
		out = append(out, v)
	}
	return out
}

// newestText says which night is the newest, what the gate compared it
// with, and the machine's common factor.
func newestText(s *Series, r *Report) string {
	n := s.Newest()
	var b strings.Builder
	fmt.Fprintf(&b, "Newest night %s (%s UTC, revision %s)", n.Run, n.Start.UTC().Format("2006-01-02 15:04"), shortRev(n.Revision))
	if r == nil {
		b.WriteString(".")
		return b.String()
	}
	opt := r.Options
	base, thr := opt.Baseline, opt.Threshold
	if base <= 0 {
		base = DefaultBaseline
	}
	if thr <= 0 {
		thr = DefaultThreshold
	}
	fmt.Fprintf(&b, "; gate: against a baseline of up to the previous %s, alarm beyond %s", report.Count(base, "night", "nights"), fmtPct(thr))
	if m := r.Machine; m != nil {
		fmt.Fprintf(&b, "; the machine's common factor %s (median of %s)", fmtMultiple(m.Ratio), report.Count(m.Strategies, "strategy", "strategies"))
		if m.Used {
			b.WriteString(", divided out of each strategy's change")
		} else {
			b.WriteString(", not divided out (too few strategies)")
		}
	}
	b.WriteString(".")
	return b.String()
}

// strategyRows is the verdict table: the report's strategies, or the
// newest night's figures alone when there is no report.
func strategyRows(s *Series, r *Report) []strategyRow {
	var rows []strategyRow
	if r == nil || len(r.Strategies) == 0 {
		for _, st := range s.Newest().Strategy {
			rows = append(rows, strategyRow{Solver: st.Solver, Color: hexColor(st.Solver), Last: fmtQuantileCI(st.Median),
				Baseline: "–", Change: "–", Beyond: "–", Machine: "–", Counters: "–", Drift: "–", Verdict: "–"})
		}
		return rows
	}
	for _, st := range r.Strategies {
		row := strategyRow{Solver: st.Solver, Color: hexColor(st.Solver), Baseline: "–", Change: "–", Beyond: "–", Machine: "–", Counters: "–", Drift: "–"}
		if st.Last != nil {
			row.Last = fmtQuantileCI(st.Last.Median)
		} else {
			row.Last = "–"
		}
		if g := st.Gate; g != nil {
			row.Baseline = fmtEstimateNS(g.BaseNS)
			row.Change = fmtRatio(g.Ratio) + " " + fmtCI(g.CI)
			if g.Machine != 0 && g.Machine != 1 {
				row.Machine = fmtMultiple(g.Machine)
				row.Beyond = fmtMultiple(g.Adjusted) + " " + fmtCI(g.AdjustedCI)
			} else {
				row.Machine = "none"
				row.Beyond = row.Change
			}
		}
		if c := st.Counters; c != nil {
			switch {
			case c.Skipped != "":
				row.Counters = "not compared: " + c.Skipped
			case c.Changed > 0:
				row.Counters = fmt.Sprintf("%d of %d changed", c.Changed, c.Compared)
			default:
				row.Counters = fmt.Sprintf("same (%d)", c.Compared)
			}
		}
		if st.Drift != nil && st.Drift.Value != 0 {
			row.Drift = fmtRatio(*st.Drift)
		}
		row.Verdict = verdictText(st)
		row.Alarm = st.Verdict == VerdictSlower || st.Verdict == VerdictCounters
		rows = append(rows, row)
	}
	return rows
}

// verdictText is a strategy's verdict with the night an alarm was raised
// and its acknowledgement.
func verdictText(st *StrategyTrend) string {
	v := st.Verdict
	if st.Since != nil {
		v += fmt.Sprintf(" (since night %d, %s)", st.Since.Index, st.Since.Start.UTC().Format(time.DateOnly))
	}
	switch {
	case st.Ack != nil && v == VerdictAcknowledged:
		v += ": " + st.Ack.Why
	case st.Ack != nil:
		v += " (acknowledged: " + st.Ack.Why + ")"
	}
	return v
}

// alarmViews formats the newest night's alarms: a time alarm with the
// moved puzzles of its strategy's gate (their times), the others with
// the puzzles they name (a step's are those of the gate on its first
// night, whose times the report does not hold).
func alarmViews(root string, r *Report) []alarmView {
	var out []alarmView
	for _, a := range r.Alarms {
		v := alarmView{Alarm: a, Unacked: a.Unacknowledged(), Bisect: a.Bisect}
		if a.Bisect != "" {
			path := filepath.Join(root, filepath.FromSlash(a.Bisect))
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
			v.BisectCmd = "git bisect run sh " + shellQuote(path)
		}
		state := "new"
		if !a.New {
			state = "known"
		}
		v.Title = fmt.Sprintf("%s %s alarm: %s, night %d (%s, %s UTC): %s", state, a.Kind, a.Solver, a.Night.Index, a.Night.Run,
			a.Night.Start.UTC().Format("2006-01-02 15:04"), a.Text)
		if a.Ack != nil {
			v.Ack = fmt.Sprintf("Acknowledged: %s (annotation of %s, %s).", a.Ack.Why, a.Ack.Run, a.Ack.At.UTC().Format("2006-01-02 15:04"))
		} else if a.New {
			v.Ack = fmt.Sprintf("Not acknowledged: batch trend -ack %s %s \"why\" acknowledges it.", a.Night.Run, a.Solver)
		}
		if a.Good != nil {
			v.Good = fmt.Sprintf("Last good night: %d (%s, %s UTC, revision %s).", a.Good.Index, a.Good.Run,
				a.Good.Start.UTC().Format("2006-01-02 15:04"), shortRev(a.Good.Revision))
		}
		var gate *Gate
		for _, st := range r.Strategies {
			if st.Solver == a.Solver {
				gate = st.Gate
			}
		}
		if gate != nil && a.Kind == AlarmTime && (r.Newest == nil || a.Night.Run == r.Newest.Run) && len(gate.Moved) > 0 {
			for _, m := range gate.Moved {
				conf := "no"
				if m.Confirmed {
					conf = "yes"
				}
				v.Moved = append(v.Moved, movedRow{Label: m.Puzzle.Label, Old: fmtNS(float64(m.OldNS)), New: fmtNS(float64(m.NewNS)),
					Ratio: fmtMultiple(m.Ratio), Confirmed: conf})
			}
		} else if len(a.Puzzles) > 0 {
			labels := make([]string, len(a.Puzzles))
			for i, p := range a.Puzzles {
				labels[i] = p.Label
				if labels[i] == "" {
					labels[i] = "#" + strconv.Itoa(p.ID)
				}
			}
			v.Puzzles = strings.Join(labels, ", ")
			for _, st := range r.Strategies {
				if st.Solver == a.Solver && st.Counters != nil && st.Counters.Changed > len(a.Puzzles) {
					v.Puzzles += fmt.Sprintf(" and %d more", st.Counters.Changed-len(a.Puzzles))
				}
			}
		}
		out = append(out, v)
	}
	return out
}

func stepRowOf(st *Step) stepRow {
	status := "reported before"
	if st.New {
		status = "new"
	}
	if st.Ack != nil {
		status += "; acknowledged: " + st.Ack.Why
	}
	return stepRow{Solver: st.Solver, Night: strconv.Itoa(st.Night.Index), Date: st.Night.Start.UTC().Format(time.DateOnly),
		Revision: shortRev(st.Night.Revision), Before: fmtNS(st.Before), After: fmtNS(st.After), Ratio: fmtMultiple(st.Ratio), Status: status}
}

// nightViews lists the nights of s, newest first: from the report's rows
// (verdicts, alarms, page), or from the series alone.
func nightViews(root string, s *Series, r *Report) []nightView {
	rows := make([]*NightRow, 0, len(s.Nights))
	if r != nil && len(r.Nights) > 0 {
		rows = append(rows, r.Nights...)
	} else {
		for i, n := range s.Nights {
			row := &NightRow{Night: NightRef{Index: i + 1, Run: n.Run, Start: n.Start, Revision: n.Revision}}
			page := n.Run + "/" + PageFile
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(page))); err == nil && fi.Mode().IsRegular() {
				row.Page = page
			}
			rows = append(rows, row)
		}
	}
	names := strategyOrder(s.Nights)
	out := make([]nightView, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		row := rows[i]
		v := nightView{Index: row.Night.Index, Date: row.Night.Start.UTC().Format("2006-01-02 15:04"),
			Revision: shortRev(row.Night.Revision), Run: row.Night.Run, Page: pageHref(row.Page), PagePath: row.Page}
		for _, name := range names {
			verdict := row.Verdicts[name]
			v.Verdicts = append(v.Verdicts, verdictCell{Solver: name, Verdict: verdict, Class: verdictClass(verdict)})
		}
		var alarms []string
		for _, a := range row.Alarms {
			t := a.Kind + " " + a.Solver
			if a.Ack != nil {
				t += " (acknowledged)"
			} else if !a.New {
				t += " (known)"
			}
			alarms = append(alarms, t)
		}
		v.Alarms = strings.Join(alarms, ", ")
		out = append(out, v)
	}
	return out
}

// verdictClass is the CSS class of a verdict on the page.
func verdictClass(v string) string {
	switch v {
	case VerdictSlower, VerdictCounters:
		return "alarm"
	case VerdictStillSlower, VerdictUndecided:
		return "warn"
	case VerdictAcknowledged:
		return "ack"
	case VerdictFaster:
		return "good"
	}
	return ""
}

// pageHref is a file as a link from the results root: each segment of a
// relative path escaped, "./" in front so that no run name reads as a
// scheme; an absolute path (a run named outside the root) as a file: URL.
func pageHref(page string) string {
	if page == "" {
		return ""
	}
	if filepath.IsAbs(page) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String()
	}
	segs := strings.Split(filepath.ToSlash(page), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "./" + strings.Join(segs, "/")
}

// writeMarkdown renders trend.md.
func writeMarkdown(h *History, views []*seriesView) []byte {
	var b bytes.Buffer
	b.WriteString("# Trend\n\n")
	fmt.Fprintf(&b, "%s, %s skipped. The same in %s; the charts in %s/; the history page %s.\n",
		report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs"), TrendJSON, ChartDir, PageFile)
	for _, v := range views {
		fmt.Fprintf(&b, "\n## %s\n\n", md(v.Head))
		fmt.Fprintf(&b, "%s\n\n%s\n\n", mdCode(v.Series.Key), md(v.Newest))
		b.WriteString("| strategy | last median [95%] | baseline median | change [95%] | machine | beyond the machine [95%] | drift | counters | verdict |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|---|---|\n")
		for _, r := range v.Strategies {
			verdict := md(r.Verdict)
			if r.Alarm {
				verdict = "**" + verdict + "**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", md(r.Solver), md(r.Last), md(r.Baseline), md(r.Change),
				md(r.Machine), md(r.Beyond), md(r.Drift), md(r.Counters), verdict)
		}
		if v.Report != nil {
			b.WriteString("\n### Alarms\n\n")
			if len(v.Alarms) == 0 {
				b.WriteString("None on the newest night.\n")
			}
			for _, a := range v.Alarms {
				title := md(a.Title)
				if a.Unacked {
					title = "**" + title + "**"
				}
				fmt.Fprintf(&b, "- %s\n", title)
				for _, line := range []string{a.Ack, a.Good} {
					if line != "" {
						fmt.Fprintf(&b, "  %s\n", md(line))
					}
				}
				if a.Bisect != "" {
					fmt.Fprintf(&b, "  Bisect script: [%s](%s); in the tool's work tree, after the git bisect start of its header: %s\n", md(a.Bisect), pageHref(a.Bisect), mdCode(a.BisectCmd))
				}
				if a.Puzzles != "" {
					fmt.Fprintf(&b, "  Puzzles: %s.\n", md(a.Puzzles))
				}
				if len(a.Moved) > 0 {
					b.WriteString("\n  | puzzle | baseline | newest | ratio | confirmed |\n  |---|--:|--:|--:|---|\n")
					for _, m := range a.Moved {
						fmt.Fprintf(&b, "  | %s | %s | %s | %s | %s |\n", md(m.Label), m.Old, m.New, m.Ratio, m.Confirmed)
					}
					b.WriteString("\n")
				}
			}
			b.WriteString("\n### Steps\n\n")
			if len(v.Steps) == 0 {
				b.WriteString("No change point over the series.\n")
			} else {
				b.WriteString("| strategy | night | date | revision | before | after | ratio | |\n|---|--:|---|---|--:|--:|--:|---|\n")
				for _, s := range v.Steps {
					fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", md(s.Solver), s.Night, s.Date, md(s.Revision), s.Before, s.After, s.Ratio, md(s.Status))
				}
			}
		}
		if len(v.Notes) > 0 {
			b.WriteString("\n### Notes\n\n")
			for _, n := range v.Notes {
				fmt.Fprintf(&b, "- %s\n", md(n))
			}
		}
		if len(v.Charts) > 0 {
			b.WriteString("\n### Charts\n\n")
			for _, c := range v.Charts {
				fmt.Fprintf(&b, "- [%s](%s) ([SVG](%s))\n", md(c.Title), pageHref(c.PNG), pageHref(c.SVG))
			}
		}
		b.WriteString("\n### Nights\n\n")
		b.WriteString("| night | date (UTC) | revision | run | verdicts | alarms |\n|--:|---|---|---|---|---|\n")
		for i, n := range v.Nights {
			if i == mdNights {
				fmt.Fprintf(&b, "| | | | | %s earlier: see %s or %s | |\n", report.Count(len(v.Nights)-mdNights, "night", "nights"), PageFile, TrendJSON)
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
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", n.Index, n.Date, md(n.Revision), run, strings.Join(verdicts, "; "), md(n.Alarms))
		}
	}
	if len(h.Skipped) > 0 {
		b.WriteString("\n## Skipped runs\n\n| run | why |\n|---|---|\n")
		for _, sk := range h.Skipped {
			fmt.Fprintf(&b, "| %s | %s |\n", md(sk.Run), md(sk.Reason))
		}
	}
	return b.Bytes()
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

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./+,:=@%.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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

// fmtQuantileCI formats a time quantile and its interval: "1.23ms
// [1.20ms, 1.25ms]", "≥100ms" for a lower bound.
func fmtQuantileCI(q Quantile) string {
	s := boundMark(q.Bound) + fmtNS(float64(q.Value))
	if q.Lo > 0 || q.Hi > 0 {
		s += " [" + fmtNS(float64(q.Lo)) + ", " + fmtNS(float64(q.Hi)) + "]"
	}
	return s
}

func fmtEstimateNS(e report.Estimate) string {
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

// fmtPct formats a share as a percentage: 0.05 is "5%".
func fmtPct(x float64) string { return report.TrimNumber(x*100) + "%" }

// hexColor is a strategy's chart color as CSS.
func hexColor(name string) string {
	r, g, b, _ := strategyColor(name).RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
