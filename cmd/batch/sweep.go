package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/pprof"
	"time"

	"sudokubatch/internal/progress"
	"sudokubatch/pipeline"
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
		defer showProgress(e, &sw.Config)()
	}
	res := sw.Run()
	close(swept)
	if res.Empty {
		return usageErr("%s", report.EmptySelection(res.Stats.Corpora, sw.Settings.Corpora))
	}
	end := sweepEnd(f, sw, res)
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

// sweepEnd is what the sweep says at its end (report.SweepEnd).
func sweepEnd(f *runFlags, sw *sweep.Sweep, res *sweep.Result) *report.SweepEnd {
	st := res.Stats
	end := &report.SweepEnd{Dir: sw.Dir.Path, Rows: sw.Dir.Rows(), Failed: res.Err != nil, Elapsed: res.Elapsed, Workers: f.workers,
		Units: st.Units, Skipped: st.Skipped, Timing: res.Timing, Cached: st.Retime.Cached, Table: !f.report,
		Corpora: st.Corpora, Settings: sw.Settings, Invalid: st.Invalid}
	end.Peak, _ = rundir.PeakRSS()
	for _, ss := range st.Solvers {
		end.Solvers = append(end.Solvers, report.SweepCounts{Name: ss.Name, Units: ss.Units, Statuses: ss.Statuses, NS: ss.NS})
	}
	for _, x := range sw.Externals {
		end.Externals = append(end.Externals, report.ExternalEnd{Name: x.Name(), Restarts: x.Restarts(),
			MaxRestarts: f.ext.restarts, Refused: x.Refused() > 0, Strays: x.Strays()})
	}
	return end
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
	opt := publish.Options{SVG: f.svg, Top: report.DefaultTop} // the highlight: run.json's
	if f.variants.N > 0 && status == rundir.Finished && !stats.Interrupted {
		opt.Variants = &f.variants // an unfinished run's hard lists are not the run's
	}
	if f.gzip && status == rundir.Finished {
		opt.RowsFile = rundir.ResultsGzip // gzipped below, once the report is written
	}
	if err := writeReportOf(ctx, e, dir.Path, opt); err != nil {
		return err
	}
	// After the report only: -report=false leaves results.csv plain, as
	// the rows to read with other tools, and the sweep's time its own.
	if f.gzip && status == rundir.Finished {
		compressRows(e, dir.Path)
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
			fmt.Fprintf(e.stderr, "\nbatch: interrupted: finishing the running units and writing the results (%s)\n", again)
			close(stop)
		case <-swept:
		}
	}()
	return stop
}

// showProgress gives cfg a progress display on stderr, a bar on a
// terminal, and counts the units beside the sweep for its total. The
// function returned stops the count.
func showProgress(e *env, cfg *pipeline.Config) (stop func()) {
	display := progress.New(e.stderr, progress.IsTerminal(e.stderr), 5*time.Second)
	cfg.Progress = display
	countCtx, cancelCount := context.WithCancel(e.ctx)
	go countUnits(countCtx, *cfg, display)
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

// countUnits counts the units of the run beside it, so that the progress
// display can show a total and an ETA. It reads files only: a stream is
// read once, by the run, and its total stays unknown (a count, no ETA).
// The total may arrive before the first unit or after the last: the
// display takes both.
func countUnits(ctx context.Context, cfg pipeline.Config, d progress.Display) {
	if n, err := pipeline.CountUnits(ctx, cfg); err == nil {
		d.SetTotal(n)
	}
}
