package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/pprof"
	"time"

	"sudokubatch/internal/progress"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/sweep"
)

// runSweep runs the sweep opened in sw, with the progress on stderr (a
// Ctrl-C stops it), prints what it did, writes the report unless
// -report=false, and returns the error it exits with.
func runSweep(e *env, f *runFlags, sw *sweep.Sweep) error {
	if f.profile != nil {
		// Opened before the run directory was made (runMain): a bad path
		// leaves nothing behind.
		if err := pprof.StartCPUProfile(f.profile); err == nil {
			defer pprof.StopCPUProfile()
		} else {
			fmt.Fprintf(e.stderr, "batch: -cpuprofile: %v (the sweep goes on without it)\n", err)
		}
	}
	chart.ReleaseFonts() // no chart until the report: not in the sweep's memory
	invalid := &progress.Invalid{W: e.stderr, Show: maxInvalidShow}
	sw.Config.Invalid = invalid.Report
	swept := make(chan struct{})
	sw.Config.Stop = stopOnInterrupt(e, swept, "again to quit at once")
	if !f.quiet {
		defer showProgress(e, sw)()
	}
	res := sw.Run()
	close(swept)
	if res.Empty {
		return usageErr("%s", report.EmptySelection(res.Stats.Corpora, sw.Settings.Corpora))
	}
	end := sw.End(res, !f.report)
	end.WriteSummary(e.stdout, e.width())
	reportErr := reportSweep(e, f, sw.Dir, res)
	end.WriteNotes(e.stdout, e.width())
	invalid.Rest()
	for _, c := range res.Stats.Corpora {
		if c.Complete && c.Puzzles == 0 {
			fmt.Fprintf(e.stderr, "batch: warning: no puzzle line in %s\n", c.Path)
		}
	}
	return sweepExit(e, sw, res, reportErr)
}

// reportSweep writes the report of the sweep, unless -report=false or it
// wrote no row or failed, then gzips the rows of a finished run
// (-gzip).
func reportSweep(e *env, f *runFlags, dir *rundir.Dir, res *sweep.Result) error {
	stats, status := res.Stats, res.Status
	if !f.report || dir.Rows() == 0 || res.Err != nil {
		return nil
	}
	// After an interrupted sweep the report of what was done is written
	// whole (a second Ctrl-C ends the process); during a sweep that was
	// not interrupted, a Ctrl-C stops the report.
	ctx := e.ctx
	if stats.Interrupted {
		ctx = context.Background()
	}
	opt := publish.AfterSweep(f.svg, f.variants, f.gzip, status, stats.Interrupted)
	if err := writeReportOf(ctx, e, dir.Path, opt); err != nil {
		return err
	}
	// After the report only: -report=false leaves results.csv plain, as
	// the rows to read with other tools, and the sweep's time its own.
	if opt.RowsFile == rundir.ResultsGzip {
		// A failure is a warning: the rows stay whole in results.csv,
		// and the sweep's outcome does not change.
		if line, err := publish.GzipRows(dir.Path); err != nil {
			fmt.Fprintf(e.stderr, "batch: warning: %v\n", err)
		} else if line != "" {
			fprintf(e.stdout, e.width(), "%s\n", line)
		}
	}
	return nil
}

// stopOnInterrupt returns the sweep's Stop channel: closed on the first
// SIGINT, SIGTERM or SIGHUP (e.ctx, see main), which stops issuing units;
// a second signal ends the process, as the message says in again.
// Closing swept ends the watch.
func stopOnInterrupt(e *env, swept <-chan struct{}, again string) <-chan struct{} {
	stop := make(chan struct{})
	go func() {
		select {
		case <-e.ctx.Done():
			e.notef("\nbatch: interrupted: finishing the running units and writing the results (%s)\n", again)
			close(stop)
		case <-swept:
		}
	}()
	return stop
}

// showProgress gives the sweep a progress display on stderr, a bar on a
// terminal, and counts the units beside the sweep for its total (which
// may arrive before the first unit or after the last: the display takes
// both). The function returned stops the count.
func showProgress(e *env, sw *sweep.Sweep) (stop func()) {
	display := progress.New(e.stderr, progress.IsTerminal(e.stderr), 5*time.Second)
	sw.Config.Progress = display
	countCtx, cancelCount := context.WithCancel(e.ctx)
	go func() {
		if n, err := sw.CountUnits(countCtx); err == nil {
			display.SetTotal(n)
		}
	}()
	return cancelCount
}

// sweepExit returns the error the sweep ends with (sweep.Verdict) with
// its exit code (see main.go): 130 for an interruption, the report's own,
// else 1; the lines before it go to stderr.
func sweepExit(e *env, sw *sweep.Sweep, res *sweep.Result, reportErr error) error {
	notes, interrupted, err := sw.Verdict(res, reportErr)
	for _, n := range notes {
		e.notef("batch: %s\n", n)
	}
	switch {
	case err == nil, err == reportErr:
		return err
	case interrupted:
		return &exitError{exitInterrupted, err}
	}
	return &exitError{exitWrong, err}
}

// writeReportOf writes the report of the run in dir at the end of a
// sweep. Its errors say how to build it again: the rows are safe.
func writeReportOf(ctx context.Context, e *env, dir string, opt publish.Options) error {
	err := writeReport(ctx, e.stdout, e.stderr, dir, opt, false, e.width())
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return &exitError{exitInterrupted, fmt.Errorf("report interrupted; the rows are whole in %s: build the report with: batch report %s", filepath.Join(dir, rundir.ResultsFile), dir)}
	}
	return &exitError{exitWrong, fmt.Errorf("writing the report: %v; the rows are whole in %s: build the report again with: batch report %s", err, filepath.Join(dir, rundir.ResultsFile), dir)}
}
