package main

import (
	"context"
	"os"
	"path/filepath"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
)

// comparePrefix starts the name of the directory of a comparison page
// that batch compare writes beside NEW: NEW/compare-<OLD's run id>.
const comparePrefix = "compare-"

// runDirOf returns the directory of a run as named: a run directory, or
// a rows file (results.csv, named so even when the run gzipped it).
func runDirOf(path string) string {
	if b := filepath.Base(path); b == rundir.ResultsFile || b == rundir.ResultsGzip {
		return filepath.Dir(path)
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return filepath.Dir(path)
	}
	return path
}

// comparePageDir is where batch compare writes its page without -o:
// in NEW's run directory, compare-<OLD's run id, or the base name of its
// directory>.
func comparePageDir(c *report.Comparison) string {
	old := c.Old.RunID
	if old == "" {
		old = filepath.Base(runDirOf(c.Old.Path))
		if abs, err := filepath.Abs(runDirOf(c.Old.Path)); err == nil {
			old = filepath.Base(abs)
		}
	}
	return filepath.Join(runDirOf(c.New.Path), comparePrefix+old)
}

// writeComparePage writes the page of comparison c (of oldRun and newRun)
// and its charts into dir: dir/index.html and dir/charts/. newPage links
// NEW's page from it ("": the link to NEW's index.html if it has one).
// It returns the charts written; chartsErr names the charts that could
// not be drawn (the page is written without them), err is a page that
// could not be written.
func writeComparePage(ctx context.Context, dir string, c *report.Comparison, oldRun, newRun *report.Run, newPage string) (charts []report.Chart, chartsErr, err error) {
	charts, chartsErr = chart.WriteCompare(ctx, filepath.Join(dir, rundir.ChartsDir), c, oldRun, newRun, chart.CompareOptions{})
	if ctx.Err() != nil {
		return charts, nil, ctx.Err()
	}
	if newPage == "" {
		newPage = runPageFrom(dir, newRun.Path)
	}
	opt := report.ComparePageOptions{Charts: charts, ChartsDir: rundir.ChartsDir,
		OldPage: runPageFrom(dir, oldRun.Path), NewPage: newPage, NewRunDir: showDir(runDirOf(newRun.Path)), Busy: history.DefaultBusy}
	return charts, chartsErr, report.WriteComparePage(ctx, dir, c, oldRun, newRun, opt)
}

// runPageFrom returns the link from a page in dir to the page of the run
// at path (its index.html), or "" when the run has none or no relative
// link reaches it.
func runPageFrom(dir, path string) string {
	page := filepath.Join(runDirOf(path), rundir.PageFile)
	if _, err := os.Stat(page); err != nil {
		return ""
	}
	absDir, err1 := filepath.Abs(dir)
	absPage, err2 := filepath.Abs(page)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(absDir, absPage)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}
