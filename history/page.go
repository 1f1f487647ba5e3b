package history

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// The files trend writes in the results root (WriteFiles).
const (
	TrendMD   = "trend.md"   // the trend for people, Markdown
	TrendJSON = "trend.json" // the same for programs (TrendFile)
	PageFile  = "index.html" // the history page
)

// pageData is what the page template reads.
type pageData struct {
	Summary  string
	MD, JSON string
	Series   []*seriesView
	Skipped  []Skipped
}

// WriteFiles writes trend's files for the history h under root, given
// one report per series of h (in the order of h.Series; nil for a series
// whose detectors could not run):
//
//  1. root/ChartDir/<series>-<measure>.png and .svg: per series the
//     median time (with its 95% interval as a band), the p99 time, the
//     total calls and the timeouts per night, each strategy in its color,
//     steps and alarms marked;
//  2. root/TrendMD: per series the verdict table of the newest night,
//     its alarms (with their moved puzzles and bisect scripts), the steps,
//     the notes, the newest nights; then the runs skipped;
//  3. root/TrendJSON: the same for programs (TrendFile);
//  4. root/PageFile: the history page, which shows the charts and links
//     each night's own page.
//
// Each file is written atomically (a temporary file renamed). A chart
// that cannot be drawn is left out of the page and named in the error;
// the other files are still written. WriteFiles returns the paths of the
// files written (root joined with their names), charts first.
func WriteFiles(root string, h *History, reports []*Report) (written []string, err error) {
	if h == nil {
		return nil, errors.New("writing trend files: no history")
	}
	if len(reports) > len(h.Series) {
		return nil, fmt.Errorf("writing trend files: %d reports for %d series", len(reports), len(h.Series))
	}
	var errs []error
	charts := make([][]TrendChart, len(h.Series))
	for i, s := range h.Series {
		if len(s.Nights) == 0 {
			return written, fmt.Errorf("writing trend files: series %s has no night", s.ID)
		}
		var r *Report
		if i < len(reports) {
			r = reports[i]
		}
		cs, err := writeCharts(root, s, r)
		for _, c := range cs {
			written = append(written, filepath.Join(root, filepath.FromSlash(c.PNG)), filepath.Join(root, filepath.FromSlash(c.SVG)),
				filepath.Join(root, filepath.FromSlash(c.Small)))
		}
		charts[i] = cs
		if err != nil {
			errs = append(errs, err)
		}
	}
	views := buildViews(root, h, reports, charts)

	write := func(name string, b []byte) {
		path := filepath.Join(root, name)
		if err := rundir.WriteFile(path, b); err != nil {
			errs = append(errs, err)
			return
		}
		written = append(written, path)
	}
	write(TrendMD, writeMarkdown(h, views))
	if b, err := encodeTrendFile(trendFile(h, reports, views)); err != nil {
		errs = append(errs, err)
	} else {
		write(TrendJSON, b)
	}
	if b, err := renderPage(h, views); err != nil {
		errs = append(errs, err)
	} else {
		write(PageFile, b)
	}
	return written, errors.Join(errs...)
}

// renderPage renders the history page.
func renderPage(h *History, views []*seriesView) ([]byte, error) {
	d := pageData{
		Summary: fmt.Sprintf("%s, %s skipped.", report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs")),
		MD:      TrendMD, JSON: TrendJSON, Series: views, Skipped: h.Skipped,
	}
	var b bytes.Buffer
	if err := pageTemplate().Execute(&b, d); err != nil {
		return nil, fmt.Errorf("writing the history page: %w", err)
	}
	return b.Bytes(), nil
}

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
	BusyShare  string      // the share of other work over which a night is busy: "10%"
	Unacked    int         // new alarms not acknowledged
	Blind      []string    // the strategies the gate is blind to, and why
	Charts     []TrendChart
}

// strategyRow is one line of the verdict table.
type strategyRow struct {
	Solver, Color                  string
	Last, Baseline, Change, Beyond string
	Machine, Counters, Verdict     string
	Drift                          string // StrategyTrend.Drift
	Spread                         string // Gate.Spread: what the nightly level reaches by noise alone
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
	Other               string        // the share of the workers' CPU time other work took while it ran ("–": not recorded)
	Busy                bool          // more than Options.Busy: a busy night, judged against busy nights
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
		if r != nil {
			for _, b := range r.Blind {
				v.Blind = append(v.Blind, fmt.Sprintf("The gate is blind to %s: it judged none of its last %s (%s); a slowdown of it there is no alarm.",
					b.Solver, report.Count(b.Nights, "night", "nights"), b.Why))
			}
		}
		v.Names = strategyOrder(s.Nights)
		v.Nights = nightViews(root, s, r)
		v.BusyShare = FormatShare(busyShare(r))
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
	fmt.Fprintf(&b, "Newest night %s (%s UTC, revision %s)", n.Run, n.Start.UTC().Format("2006-01-02 15:04"), ShortRevision(n.Revision))
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
	fmt.Fprintf(&b, "; gate: against a baseline of up to the previous %s, alarm beyond %s", report.Count(base, "night", "nights"), FormatShare(thr))
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
			rows = append(rows, strategyRow{Solver: st.Solver, Color: hexColor(st.Solver), Last: fmtQuantileCI(st.Median) + ownTime(&st),
				Baseline: "–", Change: "–", Beyond: "–", Machine: "–", Counters: "–", Drift: "–", Spread: "–", Verdict: "–"})
		}
		return rows
	}
	for _, st := range r.Strategies {
		row := strategyRow{Solver: st.Solver, Color: hexColor(st.Solver), Baseline: "–", Change: "–", Beyond: "–", Machine: "–", Counters: "–", Drift: "–", Spread: "–"}
		if st.Last != nil {
			row.Last = fmtQuantileCI(st.Last.Median) + ownTime(st.Last)
		} else {
			row.Last = "–"
		}
		if g := st.Gate; g != nil {
			row.Baseline = FormatEstimateNS(g.BaseNS)
			row.Change = fmtRatio(g.Ratio) + " " + fmtCI(g.CI)
			row.Spread = "–"
			if g.Spread > 1 {
				row.Spread = fmtMultiple(g.Spread)
			}
			if g.Machine != 0 && g.Machine != 1 {
				row.Machine = fmtMultiple(g.Machine)
				ratio, interval := adjustedCells(g)
				row.Beyond = "×" + ratio + " " + interval
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
		v += fmt.Sprintf(" (since night %d, %s)", st.Since.Index, fmtDay(st.Since.Start))
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
			v.BisectCmd = "git bisect run sh " + report.ShellQuote(path)
		}
		state := "new"
		if !a.New {
			state = "known"
		}
		v.Title = fmt.Sprintf("%s %s alarm: %s, night %d (%s, %s UTC): %s", state, a.Kind, a.Solver, a.Night.Index, a.Night.Run,
			fmtMinute(a.Night.Start), a.Text)
		if a.Ack != nil {
			v.Ack = fmt.Sprintf("Acknowledged: %s (annotation of %s, %s).", a.Ack.Why, a.Ack.Run, fmtMinute(a.Ack.At))
		} else if a.New {
			night := a.Start.Run // the night the change started
			if night == "" {
				night = a.Night.Run
			}
			v.Ack = fmt.Sprintf("Not acknowledged: batch trend -ack %s %s \"why\" acknowledges it.", night, a.Solver)
		}
		if a.Good != nil {
			v.Good = fmt.Sprintf("Last good night: %d (%s, %s UTC, revision %s).", a.Good.Index, a.Good.Run,
				fmtMinute(a.Good.Start), ShortRevision(a.Good.Revision))
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
	return stepRow{Solver: st.Solver, Night: strconv.Itoa(st.Night.Index), Date: fmtDay(st.Night.Start),
		Revision: ShortRevision(st.Night.Revision), Before: fmtNS(st.Before), After: fmtNS(st.After), Ratio: fmtMultiple(st.Ratio), Status: status}
}

// busyShare is the share of other work over which a night of r is busy.
func busyShare(r *Report) float64 {
	if r != nil && r.Options.Busy > 0 {
		return r.Options.Busy
	}
	return DefaultBusy
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
	busy := busyShare(r)
	out := make([]nightView, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		row := rows[i]
		v := nightView{Index: row.Night.Index, Date: fmtMinute(row.Night.Start),
			Revision: ShortRevision(row.Night.Revision), Run: row.Night.Run, Page: pageHref(row.Page), PagePath: row.Page, Other: "–"}
		if k := row.Night.Index - 1; k >= 0 && k < len(s.Nights) && s.Nights[k].Run == row.Night.Run && s.Nights[k].OtherShare != nil {
			v.Other, v.Busy = otherCell(s.Nights[k].OtherShare, busy)
		}
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
	case VerdictSlower, VerdictCounters, VerdictMissing:
		return "alarm"
	case VerdictStillSlower, VerdictUndecided, VerdictBusy, VerdictDisturbed, VerdictSameBuild:
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
