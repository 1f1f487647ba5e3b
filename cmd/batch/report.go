package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"sudokubatch/pipeline"
	"sudokubatch/report"
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
	if st, err := os.Stat(filepath.Join(dir, pipeline.ResultsFile)); err != nil || st.IsDir() {
		return usageErr("%s has no %s: not a run directory", dir, pipeline.ResultsFile)
	}
	var ids []int
	if *highlight != "" {
		var err error
		if ids, err = pipeline.ParseIDs(*highlight); err != nil {
			return usageErr("-highlight: %v", err)
		}
	}
	_, err := writeReport(e.stdout, e.stderr, dir, reportOptions{highlight: ids, svg: *svg, top: *top, explicit: *highlight != ""})
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
// prints the main table to w. It reads results.csv by passes
// (report.Stream), so that its memory does not grow with the rows; a
// file whose rows are not in run order is loaded in memory instead.
func writeReport(w, warn io.Writer, dir string, opt reportOptions) (*report.Summary, error) {
	start := time.Now()
	// Reading and summarising makes short-lived garbage: collecting more
	// often than the default (100) keeps the peak memory near what is
	// live, for little time.
	defer debug.SetGCPercent(debug.SetGCPercent(reportGCPercent))
	info, err := report.ReadRunInfo(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		info = nil // a bare results.csv: report what it holds
	}
	path := filepath.Join(dir, pipeline.ResultsFile)
	var src reportSource
	st, err := report.OpenStream(path)
	switch {
	case err == nil:
		defer st.Close()
		src = st
	case errors.Is(err, report.ErrNotStreamable):
		res, err := report.LoadResults(path)
		if err != nil {
			return nil, &exitError{exitWrong, err}
		}
		src = memorySource{res}
	default:
		return nil, &exitError{exitWrong, err}
	}
	highlight := opt.highlight
	var corpora []string
	title := src.CorpusLabel()
	if info != nil {
		src.OrderSolvers(info.Settings.Solvers)
		if !opt.explicit {
			highlight = info.Highlight
		}
		corpora = info.Settings.Corpora
		title += ", run " + info.RunID
	}
	sum, err := src.Summarize(report.SummaryOptions{Top: opt.top, Highlight: highlight, RunInfo: info})
	if err != nil {
		return nil, &exitError{exitWrong, err}
	}
	if err := report.WriteSummaryFiles(dir, sum); err != nil {
		return sum, err
	}
	chartsDir := filepath.Join(dir, "charts")
	if err := os.MkdirAll(chartsDir, 0o755); err != nil {
		return sum, fmt.Errorf("writing charts: %w", err)
	}
	charts, err := src.WriteCharts(chartsDir, report.ChartOptions{Highlight: highlight, SVG: opt.svg, Title: title})
	if err != nil {
		fmt.Fprintf(warn, "batch: charts: %v\n", err)
	}
	if err := src.WritePage(dir, sum, report.PageOptions{Charts: charts, ChartsDir: "charts", Corpora: corpora}); err != nil {
		return sum, err
	}
	if err := sum.WriteText(w); err != nil {
		return sum, err
	}
	fmt.Fprintf(w, "report: %s (summary.md, hard.csv, %d charts) in %s%s\n",
		filepath.Join(dir, report.PageFile), len(charts), time.Since(start).Round(time.Millisecond), peakNote())
	return sum, err
}

// reportSource is what writeReport reads: a report.Stream, or the rows
// in memory.
type reportSource interface {
	CorpusLabel() string
	OrderSolvers(names []string)
	Summarize(opt report.SummaryOptions) (*report.Summary, error)
	WriteCharts(dir string, opt report.ChartOptions) ([]report.Chart, error)
	WritePage(dir string, s *report.Summary, opt report.PageOptions) error
}

// memorySource reports a report.Results.
type memorySource struct{ *report.Results }

func (m memorySource) Summarize(opt report.SummaryOptions) (*report.Summary, error) {
	return report.Summarize(m.Results, opt), nil
}

func (m memorySource) WriteCharts(dir string, opt report.ChartOptions) ([]report.Chart, error) {
	return report.WriteCharts(dir, m.Results, opt)
}

func (m memorySource) WritePage(dir string, s *report.Summary, opt report.PageOptions) error {
	return report.WritePage(dir, m.Results, s, opt)
}
