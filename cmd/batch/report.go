package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

func reportMain(e *env, args []string) error {
	fs := newFlagSet(e, "report", "DIR",
		"Rebuild the summary (summary.md, summary.json, summary.bench, hard.csv), the charts\n"+
			"(charts/*.png) and the page (index.html) of the run in DIR from DIR/results.csv alone,\n"+
			"so that a finished, interrupted or merged run reports the same way.",
		"  batch report results/latest\n"+
			"  batch report -highlight 39949,2018 -svg results/20261121-230501\n")
	highlight := fs.String("highlight", "", "puzzle `ids` to mark on every chart and in the page (default: the run's -highlight)")
	svg := fs.Bool("svg", false, "also write the charts as SVG")
	top := fs.Int("top", report.DefaultTop, "hardest puzzles listed per strategy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageErr("report needs one run directory")
	}
	dir := fs.Arg(0)
	if st, err := os.Stat(filepath.Join(dir, rundir.ResultsFile)); err != nil || st.IsDir() {
		return usageErr("%s has no %s: not a run directory", dir, rundir.ResultsFile)
	}
	var ids []int
	if *highlight != "" {
		var err error
		if ids, err = rundir.ParseIDs(*highlight); err != nil {
			return usageErr("-highlight: %v", err)
		}
	}
	_, err := writeReport(e.ctx, e.stdout, e.stderr, dir, reportOptions{highlight: ids, svg: *svg, top: *top, explicit: *highlight != ""})
	return err
}

// reportGCPercent is the GOGC of writeReport.
const reportGCPercent = 25

type reportOptions struct {
	highlight []int
	explicit  bool // highlight given on the command line (else the run's)
	svg       bool
	top       int
}

// writeReport builds the summary files, the charts and the page of the
// run in dir from its results.csv (and run.json when there is one), and
// prints the main table to w. The rows are held in memory as numbers
// (report.Results, about 20 bytes a row).
func writeReport(ctx context.Context, w, warn io.Writer, dir string, opt reportOptions) (*report.Summary, error) {
	start := time.Now()
	// Reading and summarising makes short-lived garbage: collecting more
	// often than the default (100) keeps the peak memory near what is
	// live, for little time.
	defer debug.SetGCPercent(debug.SetGCPercent(reportGCPercent))
	run, err := report.LoadRun(dir)
	if err != nil {
		return nil, &exitError{exitWrong, err}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, info := run.Results, run.Manifest
	highlight := opt.highlight
	var corpora []string
	title := res.CorpusLabel()
	if info != nil {
		if !opt.explicit {
			highlight = info.Highlight
		}
		corpora = info.Settings.Corpora
		title += ", run " + info.RunID
	}
	sum := report.Summarize(res, report.SummaryOptions{Top: opt.top, Highlight: highlight, Manifest: info})
	if err := report.WriteSummaryFiles(dir, sum); err != nil {
		return sum, err
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	charts, err := chart.Write(filepath.Join(dir, rundir.ChartsDir), res,
		chart.Options{Highlight: highlight, SVG: opt.svg, Title: title, Baseline: solvers.Baseline()})
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	if err != nil {
		fmt.Fprintf(warn, "batch: charts: %v\n", err)
	}
	if err := report.WritePage(dir, res, sum, report.PageOptions{Charts: charts, ChartsDir: rundir.ChartsDir, Corpora: corpora}); err != nil {
		return sum, err
	}
	if err := sum.WriteText(w); err != nil {
		return sum, err
	}
	fmt.Fprintf(w, "report: %s (summary.md, hard.csv, %d charts) in %s%s\n",
		filepath.Join(dir, rundir.PageFile), len(charts), time.Since(start).Round(time.Millisecond), peakNote())
	return sum, err
}
