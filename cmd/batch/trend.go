package main

import (
	"fmt"
	"io"
	"os"
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
	"into an index, -root/" + history.IndexFile + ", that trend refreshes (only runs new or changed since are read;\n" +
	"results.csv never is) and rebuilds from the run directories when it is missing or damaged.\n" +
	"Runs form series by signature: corpora (SHA-256), selection (-ids, -range, -limit, -shard),\n" +
	"-timeout, -max-calls, -unique, -runs, the machine (CPU model and count) and the workers; runs\n" +
	"of another signature are another series, never mixed. For each series trend prints its key,\n" +
	"its nights (date, revision, run) and, per strategy of its newest night, the median time with\n" +
	"its 95% interval, p99, solved, timeouts and the no-guess rate; then the runs it skipped and why\n" +
	"(not finished, no summary, unreadable, other signature). With runs named, the series is the\n" +
	"newest named run's, and named runs of another signature are skipped.\n\n" +
	"The detectors (counters, the nightly time gate, change points) are not built yet: trend exits\n" +
	"0 when it could read the history, 2 on a usage error or a root or run that does not exist."

func trendMain(e *env, args []string) error {
	fs := newFlagSet(e, "trend", "[-root DIR] [RUN ...]", trendAbout,
		"  batch trend                                      # every run under results/\n"+
			"  batch trend -root /srv/nightly -nights 0         # another root, every night listed\n"+
			"  batch trend results/20261124-230501 results/20261125-230502 results/latest\n")
	root := fs.String("root", rundir.DefaultRoot, "results root `directory`: its run directories and "+history.IndexFile)
	last := fs.Int("nights", 10, "list the newest `n` nights of each series; 0 for all")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *last < 0 {
		return usageErr("-nights %d: want a count >= 0", *last)
	}
	if fi, err := os.Stat(*root); err != nil || !fi.IsDir() {
		return usageErr("results root %s: not a directory (-root names the directory of the run directories)", *root)
	}
	for _, run := range fs.Args() {
		if _, err := os.Stat(run); err != nil {
			return usageErr("run %s: %v", run, err)
		}
	}
	start := time.Now()
	idx, refresh, err := history.Update(*root)
	if err != nil {
		return &exitError{exitUsage, err}
	}
	if refresh.WriteErr != nil {
		// The output below says how the index was refreshed; a failed
		// write is a warning of its own: the next trend reads the runs again.
		fmt.Fprintf(e.stderr, "batch trend: %s\n", refresh)
	}
	h := idx.All()
	if fs.NArg() > 0 {
		if h, err = idx.Selected(*root, fs.Args()); err != nil {
			return err
		}
	}
	if err := writeTrend(e.stdout, refresh, h, *last); err != nil {
		return err
	}
	nights := 0
	for _, s := range h.Series {
		nights += len(s.Nights)
	}
	fmt.Fprintf(e.stderr, "trend: %s in %s in %s%s\n", report.Count(nights, "night", "nights"),
		report.Count(len(h.Series), "series", "series"), time.Since(start).Round(time.Millisecond), peakNote())
	return nil
}

// writeTrend prints the history h: each series with its nights and its
// newest night's figures, then the runs skipped.
func writeTrend(w io.Writer, refresh *history.Refresh, h *history.History, last int) error {
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
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t\n", len(s.Nights)-len(nights)+j+1, n.Start.Format("2006-01-02 15:04"), shortRevision(n.Revision), run)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		n := s.Newest()
		fmt.Fprintf(w, "  newest night %s (%s, %s):\n", n.Run, n.Start.Format(time.DateOnly), shortRevision(n.Revision))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  strategy\tmedian\t95% interval\tp99\tsolved\ttimeouts\tno-guess\tcalls\tguesses\t")
		for _, st := range n.Strategy {
			fmt.Fprintf(tw, "  %s\t%s\t[%s, %s]\t%s\t%d\t%d\t%.1f%%\t%d\t%d\t\n", st.Solver,
				quantileText(st.Median.Value, st.Median.Bound),
				report.FormatDuration(time.Duration(st.Median.Lo)), report.FormatDuration(time.Duration(st.Median.Hi)),
				quantileText(st.P99.Value, st.P99.Bound), st.Solved, st.TimedOut, st.NoGuessPct, st.Calls, st.Guesses)
		}
		if err := tw.Flush(); err != nil {
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

// quantileText is a time quantile for people, "≥" before a lower bound.
func quantileText(ns int64, bound string) string {
	s := report.FormatDuration(time.Duration(ns))
	if bound == "lower" {
		return "≥" + s
	}
	if bound == "upper" {
		return "≤" + s
	}
	return s
}

// shortRevision is a VCS revision cut to 12 characters ("(unknown)" kept).
func shortRevision(rev string) string {
	if rev == "" {
		return "(unknown)"
	}
	if len(rev) > 12 && !strings.ContainsAny(rev, " ()") {
		return rev[:12]
	}
	return rev
}
