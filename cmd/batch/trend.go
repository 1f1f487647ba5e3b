package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// trendAbout is what `batch trend -h` says the command does.
const trendAbout = "Read the history of nightly runs: every run directory under -root (default " + rundir.DefaultRoot + "), or the\n" +
	"runs named. The figures of each finished run come from its run.json and summary.json, gathered\n" +
	"into an index, -root/" + history.IndexFile + ", that trend refreshes (only runs new or changed since are read)\n" +
	"and rebuilds from the run directories when it is missing or damaged. Runs form series by\n" +
	"signature: corpora (SHA-256), selection (-ids, -range, -limit, -shard), -timeout, -max-calls,\n" +
	"-unique, -runs, the machine (CPU model and count) and the workers; runs of another signature\n" +
	"are another series, never mixed. With runs named, the series is the newest named run's.\n\n" +
	"Three detectors judge the newest night of each series, per strategy:\n" +
	"  counters  its calls, guesses and status, puzzle by puzzle, against the previous night (units a\n" +
	"            timeout stopped in either night are not compared; a randomised strategy only under\n" +
	"            the same seed): any change is an alarm, with the puzzles' ids;\n" +
	"  time      the nightly gate: its times against the per-puzzle median of its previous -baseline\n" +
	"            nights (at least 3), paired by puzzle, the ratio of median times with its 95%\n" +
	"            interval divided by the machine's factor (the median of the strategies' ratios);\n" +
	"            slower when that interval lies beyond -threshold and beyond the spread of the\n" +
	"            strategy's own nightly level over its baseline nights. An alarm the night it\n" +
	"            appears; the nights after, \"still slower\", not alarmed again; a night when other\n" +
	"            work took more than -busy of the workers' CPU time is \"slower on a busy machine\";\n" +
	"            a night that ran the build of its baseline nights (revision, Go version, tags) is\n" +
	"            \"slower, same build\": the machine's, not an alarm (-same-build alarms on it too);\n" +
	"  steps     change points of its nightly median over the whole series, at least 3 nights on\n" +
	"            each side (one slow night is a spike, not a step), each reported once.\n" +
	"-ack NIGHT STRATEGY \"why\" records in -root/" + history.AnnotationsFile + " that the change of STRATEGY on NIGHT is\n" +
	"known: its alarms are acknowledged and its baseline starts afresh from NIGHT.\n\n" +
	"Only the rows of the few nights the detectors compare are read. Exit 1 when the newest night of\n" +
	"a series (of those whose newest night is within a day of the newest of all) has a new alarm\n" +
	"that no annotation acknowledges; 0 otherwise; 2 on a usage error, a root or run that does not\n" +
	"exist, or an annotations file that cannot be read."

// trendFlags are trend's settings.
type trendFlags struct {
	root, ack string
	nights    int
	opt       history.Options
}

func trendMain(e *env, args []string) error {
	fs := newFlagSet(e, "trend", "[-root DIR] [-threshold 5%] [-baseline 7] [RUN ...] | -ack NIGHT STRATEGY \"why\"", trendAbout,
		"  batch trend                                      # every run under results/\n"+
			"  batch trend -root /srv/nightly -nights 0         # another root, every night listed\n"+
			"  batch trend -threshold 10% -baseline 14\n"+
			"  batch trend -ack 20261125-230501 dlx \"dlx: the column order changed on purpose\"\n"+
			"  batch trend results/20261124-230501 results/20261125-230502 results/latest\n")
	var tf trendFlags
	fs.StringVar(&tf.root, "root", rundir.DefaultRoot, "results root `directory`: its run directories, "+history.IndexFile+" and "+history.AnnotationsFile)
	fs.IntVar(&tf.nights, "nights", 10, "list the newest `n` nights of each series; 0 for all")
	threshold := fs.String("threshold", "5%", "the smallest change of median time that is an alarm: a `share` (5%, 0.05) or a ratio (1.05)")
	fs.IntVar(&tf.opt.Baseline, "baseline", history.DefaultBaseline, fmt.Sprintf("the gate's baseline: the previous `n` nights (at least %d)", history.MinBaseline))
	busy := fs.String("busy", "10%", "the `share` of the workers' CPU time that other work may take during a night before its slowdowns are no alarm (run.json records it); none for no limit")
	fs.BoolVar(&tf.opt.SameBuild, "same-build", false, "alarm on a slowdown whose night ran the build of its baseline nights too (by default it is \"slower, same build\": the machine's)")
	fs.StringVar(&tf.ack, "ack", "", "acknowledge the change of a strategy on `NIGHT` (a run directory): -ack NIGHT STRATEGY \"why\"")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var err error
	if tf.opt.Threshold, err = parseShare(*threshold); err != nil {
		return usageErr("-threshold %s: %v", *threshold, err)
	}
	if tf.opt.Busy = 1; *busy != "none" {
		if tf.opt.Busy, err = parseShare(*busy); err != nil {
			return usageErr("-busy %s: %v, or none", *busy, err)
		}
	}
	switch {
	case tf.nights < 0:
		return usageErr("-nights %d: want a count >= 0", tf.nights)
	case tf.opt.Baseline < history.MinBaseline:
		return usageErr("-baseline %d: want at least %d nights", tf.opt.Baseline, history.MinBaseline)
	}
	if fi, err := os.Stat(tf.root); err != nil || !fi.IsDir() {
		return usageErr("results root %s: not a directory (-root names the directory of the run directories)", tf.root)
	}
	runs := fs.Args()
	if tf.ack != "" {
		if len(runs) != 2 {
			return usageErr("-ack %s: want -ack NIGHT STRATEGY \"why\" (%d arguments after NIGHT)", tf.ack, len(runs))
		}
		return ackMain(e, tf, runs[0], runs[1])
	}
	for _, run := range runs {
		if _, err := os.Stat(run); err != nil {
			return usageErr("run %s: %v", run, err)
		}
	}
	return trendRun(e, tf, runs)
}

// trendRun reads the history, runs the detectors and prints them.
func trendRun(e *env, tf trendFlags, runs []string) error {
	start := time.Now()
	idx, refresh, err := history.Update(tf.root)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if refresh.WriteErr != nil {
		// The output below says how the index was refreshed; a failed
		// write is a warning of its own: the next trend reads the runs again.
		fmt.Fprintf(e.stderr, "batch trend: %s\n", refresh)
	}
	acks, err := history.ReadAnnotations(tf.root)
	if err != nil {
		return &exitError{exitUsage, fmt.Errorf("reading the acknowledgements: %w", err)}
	}
	h := idx.All()
	if len(runs) > 0 {
		if h, err = idx.Selected(tf.root, runs); err != nil {
			return err
		}
	}
	tf.opt.Memo = idx.Memo()
	reports := make([]*history.Report, len(h.Series))
	for i, s := range h.Series {
		if reports[i], err = history.Evaluate(e.ctx, tf.root, s, acks, tf.opt); err != nil {
			return fmt.Errorf("series %s: %w", s.ID, err)
		}
	}
	writeBisects(e, tf.root, reports)
	if err := idx.SaveMemo(refresh.Path, tf.opt.Memo); err != nil {
		fmt.Fprintf(e.stderr, "batch trend: the verdicts could not be kept in %s: %v\n", refresh.Path, err)
	}
	if err := writeTrend(e.stdout, tf.root, refresh, h, reports, tf.nights); err != nil {
		return err
	}
	// The files describe the whole root: with runs named, the history of
	// those runs only is printed, and the root's files are left as they are.
	if len(runs) > 0 {
		fmt.Fprintf(e.stdout, "\n(runs named: %s, %s, %s and the charts in %s are left as they were; batch trend -root %s writes them)\n",
			history.TrendMD, history.TrendJSON, history.PageFile, tf.root, tf.root)
	} else if written, err := history.WriteFiles(tf.root, h, reports); err != nil {
		fmt.Fprintf(e.stderr, "batch trend: %v\n", err)
	} else if len(written) > 0 {
		fmt.Fprintf(e.stdout, "\nwrote %s, %s, %s and %d chart files (PNG, SVG and a small PNG each) in %s\n", history.TrendMD, history.TrendJSON, history.PageFile, len(written)-3, tf.root)
	}
	nights := 0
	for _, s := range h.Series {
		nights += len(s.Nights)
	}
	fmt.Fprintf(e.stderr, "trend: %s in %s in %s%s\n", report.Count(nights, "night", "nights"),
		report.Count(len(h.Series), "series", "series"), time.Since(start).Round(time.Millisecond), peakNote())
	if alarms := counted(h, reports); len(alarms) > 0 {
		var what []string
		for _, a := range alarms {
			what = append(what, fmt.Sprintf("%s (%s, night %s)", a.Solver, a.Kind, a.Night.Run))
		}
		return &exitError{exitWrong, fmt.Errorf("%s: %s (acknowledge with batch trend -ack NIGHT STRATEGY \"why\")",
			report.Count(len(alarms), "new alarm", "new alarms"), strings.Join(what, ", "))}
	}
	return nil
}

// writeBisects writes a git bisect run script for each new alarm, not
// acknowledged, that names a good night and puzzles (history.WriteBisect),
// under root/trend/, and records its path in the alarm (a known one had
// its script written the night it was new). A script that cannot be
// written is a warning: the alarm stands without it.
func writeBisects(e *env, root string, reports []*history.Report) {
	for _, r := range reports {
		if r == nil {
			continue
		}
		for _, a := range r.Alarms {
			if !a.New || a.Good == nil || len(a.Puzzles) == 0 || a.Ack != nil {
				continue
			}
			rel, err := history.WriteBisect(root, r, a)
			if err != nil {
				fmt.Fprintf(e.stderr, "batch trend: the bisect script of %s's %s alarm: %v\n", a.Solver, a.Kind, err)
				continue
			}
			a.Bisect = rel
		}
	}
}

// counted returns the new, unacknowledged alarms that make trend exit 1:
// those of the series whose newest night started within a day of the
// newest night of all (a series that stopped running long ago does not
// fail every night that follows).
func counted(h *history.History, reports []*history.Report) []*history.Alarm {
	var newest time.Time
	for _, s := range h.Series {
		if t := s.Newest().Start; t.After(newest) {
			newest = t
		}
	}
	var out []*history.Alarm
	for i, s := range h.Series {
		if reports[i] == nil || newest.Sub(s.Newest().Start) > 24*time.Hour {
			continue
		}
		for _, a := range reports[i].Alarms {
			if a.Unacknowledged() {
				out = append(out, a)
			}
		}
	}
	return out
}

// ackMain records an acknowledgement and prints the history after it.
func ackMain(e *env, tf trendFlags, solver, why string) error {
	idx, _, err := history.Update(tf.root)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	rel := tf.ack
	if abs, err := filepath.Abs(tf.ack); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if absRoot, err := filepath.Abs(tf.root); err == nil {
			if r, err := filepath.Rel(absRoot, abs); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
	}
	en := idx.Lookup(rel)
	if en == nil {
		en = idx.Lookup(filepath.Base(tf.ack))
	}
	switch {
	case en == nil:
		return usageErr("-ack %s: no run of that name under %s", tf.ack, tf.root)
	case en.Night == nil:
		return usageErr("-ack %s: not a night of the history: %s", tf.ack, en.Skip)
	case en.Night.StrategyNamed(solver) == nil:
		var names []string
		for _, st := range en.Night.Strategy {
			names = append(names, st.Solver)
		}
		return usageErr("-ack %s %s: night %s has no strategy %s (it has %s)", tf.ack, solver, en.Run, solver, strings.Join(names, ", "))
	}
	ack := history.Ack{Run: en.Run, RunID: en.Night.RunID, Solver: solver, Why: why}
	if _, err := history.Acknowledge(tf.root, ack); err != nil {
		return &exitError{exitUsage, err}
	}
	fmt.Fprintf(e.stderr, "trend: acknowledged %s on night %s: %s (in %s)\n", solver, en.Run, why, filepath.Join(tf.root, history.AnnotationsFile))
	return trendRun(e, tf, nil)
}

// parseShare reads a threshold: "5%", a share below 1 (0.05) or a
// ratio of 1 or more (1.05).
func parseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("want a share such as 5%%, 0.05 or 1.05")
	case pct:
		f /= 100
	case f >= 1:
		f--
	}
	if f <= 0 || f >= 1 {
		return 0, fmt.Errorf("want a change above 0%% and below 100%%")
	}
	return f, nil
}

// writeTrend prints the history h: each series with its nights and its
// newest night's figures, then the runs skipped.
func writeTrend(w io.Writer, root string, refresh *history.Refresh, h *history.History, reports []*history.Report, last int) error {
	fmt.Fprintf(w, "history: %s\n", refresh)
	fmt.Fprintf(w, "%s, %s skipped\n", report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs"))
	for i, s := range h.Series {
		fmt.Fprintf(w, "\nseries %d/%d %s: %s\n  %s\n", i+1, len(h.Series), s.ID, report.Count(len(s.Nights), "night", "nights"), s.Key)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  night\tdate (UTC)\trevision\trun\t")
		nights := s.Nights
		if last > 0 && len(nights) > last {
			fmt.Fprintf(tw, "  ...\t%s earlier\t\t\t\n", report.Count(len(nights)-last, "night", "nights"))
			nights = nights[len(nights)-last:]
		}
		for j, n := range nights {
			run := n.Run
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t\n", len(s.Nights)-len(nights)+j+1, n.Start.Format("2006-01-02 15:04"), history.ShortRevision(n.Revision), run)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		n := s.Newest()
		fmt.Fprintf(w, "  newest night %s (%s, %s):\n", n.Run, n.Start.Format(time.DateOnly), history.ShortRevision(n.Revision))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  strategy\tmedian\t95% interval\tp99\tsolved\ttimeouts\tno-guess\tcalls\tguesses\t")
		for _, st := range n.Strategy {
			fmt.Fprintf(tw, "  %s\t%s\t[%s, %s]\t%s\t%d\t%d\t%.1f%%\t%d\t%d\t\n", st.Solver,
				history.FormatQuantile(st.Median),
				report.FormatDuration(time.Duration(st.Median.Lo)), report.FormatDuration(time.Duration(st.Median.Hi)),
				history.FormatQuantile(st.P99), st.Solved, st.TimedOut, st.NoGuessPct, st.Calls, st.Guesses)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := writeDetectors(w, root, reports[i]); err != nil {
			return err
		}
	}
	if len(h.Skipped) > 0 {
		fmt.Fprintf(w, "\nskipped:\n")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, sk := range h.Skipped {
			fmt.Fprintf(tw, "  %s\t%s\n", sk.Run, sk.Reason)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// writeDetectors prints what the detectors found of a series' newest
// night: a line per strategy, the alarms, the steps and the notes.
func writeDetectors(w io.Writer, root string, r *history.Report) error {
	if r == nil {
		return nil
	}
	fmt.Fprintf(w, "  against the baseline (the previous %d nights at most; an alarm beyond %s", r.Options.Baseline, history.FormatShare(r.Options.Threshold))
	if m := r.Machine; m != nil {
		fmt.Fprintf(w, "; common to the %d strategies, the machine's x%.3f", m.Strategies, m.Ratio)
		if !m.Used {
			fmt.Fprintf(w, ", not taken out")
		}
	}
	fmt.Fprintln(w, "):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  strategy\tmedian\tbaseline\tchange\t95% interval\tsince first\tcounters\tverdict\t")
	for _, st := range r.Strategies {
		base, change, iv := "-", "-", "-"
		if g := st.Gate; g != nil {
			base = history.FormatEstimateNS(g.BaseNS)
			change = fmt.Sprintf("x%.3f", g.Adjusted)
			iv = fmt.Sprintf("[%.3f, %.3f]", g.AdjustedCI.Lo, g.AdjustedCI.Hi)
		}
		counters := "-"
		if c := st.Counters; c != nil {
			switch {
			case c.Skipped != "":
				counters = "not compared"
			case c.Changed > 0:
				counters = fmt.Sprintf("%d of %d changed", c.Changed, c.Compared)
			default:
				counters = fmt.Sprintf("same (%d)", c.Compared)
			}
		}
		verdict := st.Verdict
		if st.Since != nil {
			verdict += fmt.Sprintf(" (since night %d, %s)", st.Since.Index, st.Since.Start.Format(time.DateOnly))
		}
		drift := "-"
		if st.Drift != nil {
			drift = fmt.Sprintf("x%.3f", st.Drift.Value)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", st.Solver, history.FormatQuantile(st.Last.Median), base, change, iv, drift, counters, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, a := range r.Alarms {
		var tag string
		switch {
		case a.Ack != nil:
			tag = "acknowledged (" + a.Ack.Why + ")"
		case a.New:
			tag = "NEW ALARM"
		default:
			tag = "known"
		}
		fmt.Fprintf(w, "  %s [%s]: %s\n", tag, a.Kind, a.Text)
		if len(a.Puzzles) > 0 {
			var ids []string
			for _, p := range a.Puzzles {
				ids = append(ids, p.Label)
			}
			fmt.Fprintf(w, "    puzzles: %s\n", strings.Join(ids, " "))
		}
		if a.Good != nil {
			fmt.Fprintf(w, "    last good night: %d %s (%s)\n", a.Good.Index, a.Good.Run, history.ShortRevision(a.Good.Revision))
		}
		if a.Bisect != "" {
			fmt.Fprintf(w, "    bisect: %s (its first lines say how to run it)\n", filepath.Join(root, a.Bisect))
		}
	}
	for _, st := range r.Steps {
		state := ""
		switch {
		case st.Ack != nil:
			state = " (acknowledged: " + st.Ack.Why + ")"
		case st.New:
			state = " (new)"
		}
		if st.SameBuild {
			state += " (same build on both sides: the machine's)"
		}
		fmt.Fprintf(w, "  step: %s x%.3f from night %d (%s, %s, %s)%s\n", st.Solver, st.Ratio, st.Night.Index, st.Night.Run,
			st.Night.Start.Format(time.DateOnly), history.ShortRevision(st.Night.Revision), state)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	return nil
}
