package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
)

// ComparePrefix starts the name of the directory of a comparison page
// written beside NEW: NEW/compare-<OLD's run id>.
const ComparePrefix = "compare-"

// Comparison is two runs compared (batch compare OLD NEW).
type Comparison struct {
	*report.Comparison
	OldRun, NewRun *report.Run
}

// Compare reads the runs at oldPath and newPath (each a run directory or
// a rows file: results.csv, or results.csv.gz) and compares NEW with OLD
// (report.Compare). A run that cannot be read, or two runs that share
// no strategy or puzzle (report.ErrNothingToCompare), is an
// *InputError. The comparison is returned with an error too when it was
// made: its warnings (other corpora, settings or machines) are for the
// terminal either way.
func Compare(ctx context.Context, oldPath, newPath string, opt report.CompareOptions) (*Comparison, error) {
	c := &Comparison{}
	for i, path := range []string{oldPath, newPath} {
		run, err := report.LoadRun(ctx, path)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &InputError{err}
		}
		if i == 0 {
			c.OldRun = run
		} else {
			c.NewRun = run
		}
	}
	var err error
	c.Comparison, err = report.Compare(ctx, c.OldRun, c.NewRun, opt)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case c.Comparison == nil:
		c = nil
	}
	if errors.Is(err, report.ErrNothingToCompare) {
		err = &InputError{err}
	}
	return c, err
}

// SlowerText names the strategies surely slower than the threshold of
// the comparison (Slower: report.CompareOptions.Threshold), with their
// median time's ratio and its interval: "dlx (median time ×1.250, 95%
// interval [1.210, 1.290], over 120 puzzles)"; "" when none is.
func (c *Comparison) SlowerText() string {
	var what []string
	for _, d := range c.Strategies {
		if d.Slower {
			what = append(what, fmt.Sprintf("%s (median time ×%.3f, 95%% interval [%.3f, %.3f], over %d puzzles)",
				d.Solver, d.MedianRatio.Value, d.TimeCI.Lo, d.TimeCI.Hi, d.Timed))
		}
	}
	return strings.Join(what, ", ")
}

// PageDir is where the comparison's page goes when no directory is
// named: in NEW's run directory, compare-<OLD's run id, or the base name
// of its directory>.
func (c *Comparison) PageDir() string {
	old := c.Old.RunID
	if old == "" {
		old = filepath.Base(runDirOf(c.Old.Path))
		if abs, err := filepath.Abs(runDirOf(c.Old.Path)); err == nil {
			old = filepath.Base(abs)
		}
	}
	return filepath.Join(runDirOf(c.New.Path), ComparePrefix+old)
}

// WritePage writes the comparison's page and charts into dir
// (WriteComparePage), linking NEW's page when it has one.
func (c *Comparison) WritePage(ctx context.Context, dir string) (charts []report.Chart, chartsErr, err error) {
	return WriteComparePage(ctx, dir, c.Comparison, c.OldRun, c.NewRun, "")
}

// WritePageIn writes the comparison's page and charts into dir ("":
// PageDir) and returns the line that names it, "compare: page
// DIR/index.html (4 charts)", and its warnings: charts that could not
// be drawn, a page that could not be written (then no line). Neither
// changes the comparison's exit code (exit 1 says "slower than
// -threshold", which scripts such as trend's bisect scripts read); the
// error is ctx's when it was canceled.
func (c *Comparison) WritePageIn(ctx context.Context, dir string) (line string, warnings []string, err error) {
	if dir == "" {
		dir = c.PageDir()
	}
	charts, chartsErr, err := c.WritePage(ctx, dir)
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if chartsErr != nil {
		warnings = append(warnings, fmt.Sprintf("comparison charts: %v", chartsErr))
	}
	if err != nil {
		return "", append(warnings, err.Error()), nil
	}
	return fmt.Sprintf("compare: page %s (%s)", filepath.Join(dir, rundir.PageFile), report.Count(len(charts), "chart", "charts")), warnings, nil
}

// WriteComparePage writes the page of comparison c (of oldRun and
// newRun) and its charts into dir: dir/index.html and dir/charts/.
// newPage links NEW's page from it ("": the link to NEW's index.html
// if it has one). It returns the charts written; chartsErr names the
// charts that could not be drawn (the page is written without them),
// err is a page that could not be written.
func WriteComparePage(ctx context.Context, dir string, c *report.Comparison, oldRun, newRun *report.Run, newPage string) (charts []report.Chart, chartsErr, err error) {
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
