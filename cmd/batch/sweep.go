package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"sudokubatch/internal/progress"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// sweepGCPercent is the GOGC of the sweep (pipeline.Config.GCPercent).
// The sweep's live heap is a few MB (the window of units, the tables),
// below the collector's minimum goal at the default GOGC (4 MB): at 50
// the heap stays nearer what is live, for the same CPU time
// (docs/PERFORMANCE.md, "Memory").
const sweepGCPercent = 50

// sweep runs the pipeline into dir, records how it ended, and prints the
// summary (and writes the report unless -report=false).
func sweep(e *env, f *runFlags, dir *rundir.Dir, s rundir.Settings, start time.Time) error {
	cfg, invalid, err := sweepConfig(e, f, dir, s)
	if err != nil {
		dir.Release()
		return err
	}
	// A resumed stream must start with the bytes the run read (its copy
	// in the run directory): checked before anything is recorded.
	if f.resume {
		streams, err := pipeline.OpenStreams(e.ctx, &cfg)
		if err != nil {
			dir.Release()
			if e.ctx.Err() != nil {
				return e.ctx.Err()
			}
			return &exitError{exitUsage, fmt.Errorf("cannot resume %s: %w", dir.Path, err)}
		}
		cfg.Streams = streams
	}

	seg := rundir.Segment{Start: start.UTC(), Command: e.args0, Workers: f.workers, Machine: rundir.ThisMachine()}
	seg.Scheduler = rundir.ThisJob(os.Getenv)
	if err = dir.Begin(seg); err != nil {
		cfg.Streams.Close()
		dir.Release()
		return err
	}
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
	swept := make(chan struct{})
	cfg.Stop = stopOnInterrupt(e, swept, "again to quit at once")
	if !f.quiet {
		defer showProgress(e, &cfg)()
	}

	stats, runErr := pipeline.Run(context.Background(), cfg)
	close(swept)
	end := time.Now()
	f.externals.Close()

	dir.Manifest.UpdateCorpora(stats.Corpora)
	timing := stats.Timing()
	timing.Null = nullsOf(f.externals)
	dir.SetTiming(timing)
	if !f.resume && stats.Issued+stats.Skipped == 0 && runErr == nil && stats.Complete() {
		// A new run whose selection matched no puzzle leaves nothing
		// behind: not its directory, and not results/latest.
		dir.Discard()
		return emptySelection(stats, s)
	}
	status, why := stats.Status(runErr)
	if closeErr := dir.Close(status, why); runErr == nil {
		runErr = closeErr
	}
	if f.out == "" && !f.resume {
		if err := rundir.UpdateLatest(rundir.DefaultRoot, dir.Path); err != nil {
			fmt.Fprintf(e.stderr, "batch: %v\n", err)
		}
	}

	printSummary(e.stdout, e.width(), dir, stats, end.Sub(start), f.workers, !f.report, runErr)
	printCorpora(e.stdout, e.width(), stats.Corpora)
	var reportErr error
	reported := false
	if f.report && dir.Rows() > 0 && runErr == nil {
		// After an interrupted sweep the report of what was done is
		// written whole (a second Ctrl-C ends the process); during a
		// sweep that was not interrupted, a Ctrl-C stops the report.
		ctx := e.ctx
		if stats.Interrupted {
			ctx = context.Background()
		}
		opt := reportOptions{svg: f.svg, top: report.DefaultTop, width: e.width()} // the highlight: run.json's (resolveHighlight)
		if f.variants.n > 0 && status == rundir.Finished && !stats.Interrupted {
			opt.variants = &f.variants // an unfinished run's hard lists are not the run's
		}
		if f.gzip && status == rundir.Finished {
			opt.rowsFile = rundir.ResultsFile + ".gz" // gzipped below, once the report is written
		}
		reportErr = writeReportOf(ctx, e, dir.Path, opt)
		reported = reportErr == nil
	}
	// After the report only: -report=false leaves results.csv plain, as
	// the rows to read with other tools, and the sweep's time its own.
	if f.gzip && reported && status == rundir.Finished {
		compressRows(e, dir.Path)
	}
	printNotes(e.stdout, e.width(), stats, s)
	for _, x := range f.externals {
		if n := x.Restarts(); n > 0 {
			fprintf(e.stdout, e.width(), "note: external %s: %s started again (after a timeout, a crash or a protocol error; -ext-restarts %d at most)\n",
				x.Name(), report.Count(n, "process", "processes"), f.ext.restarts)
		}
		if x.Refused() > 0 {
			fprintf(e.stdout, e.width(), "note: external %s: the restart cap was reached: its units after it were not sent, their rows say error (restart cap reached); raise -ext-restarts\n",
				x.Name())
		}
		if n := x.Strays(); n > 0 {
			fprintf(e.stdout, e.width(), "note: external %s: %s came after an answer too many requests back to name its unit\n", x.Name(), report.Count(n, "line", "lines"))
		}
		if null := x.Null(); null.Samples > 0 {
			fprintf(e.stdout, e.width(), "note: external %s: null round trip %s median (p10 %s, p90 %s) over %d samples during the sweep: it is part of each unit's time\n",
				x.Name(), report.FormatDuration(time.Duration(null.MedianNS)), report.FormatDuration(time.Duration(null.P10NS)),
				report.FormatDuration(time.Duration(null.P90NS)), null.Samples)
		}
	}
	invalid.Rest()
	for _, c := range stats.Corpora {
		if c.Complete && c.Puzzles == 0 {
			fmt.Fprintf(e.stderr, "batch: warning: no puzzle line in %s\n", c.Path)
		}
	}
	return sweepExit(e, dir, stats, runErr, reportErr, f.externals.Failures(statusesOf(stats)))
}

// statusesOf returns the counts by status of a strategy's units in the
// sweep of stats, by its name.
func statusesOf(stats *pipeline.Stats) func(name string) map[string]int {
	return func(name string) map[string]int {
		for _, ss := range stats.Solvers {
			if ss.Name == name {
				return ss.Statuses
			}
		}
		return nil
	}
}

// sweepConfig returns the pipeline's configuration for a sweep into dir
// with the settings s, and the counter of the invalid lines it reports.
func sweepConfig(e *env, f *runFlags, dir *rundir.Dir, s rundir.Settings) (pipeline.Config, *progress.Invalid, error) {
	cfg := pipeline.Config{Corpora: s.Corpora, Workers: f.workers, Timeout: time.Duration(s.TimeoutNS),
		MaxCalls: s.MaxCalls, Seed: s.Seed, Unique: s.Unique, Sink: dir, Stdin: e.stdin,
		Known: dir.Manifest.Corpora, RunDir: dir.Path, Retime: true, Runs: s.Runs, GCPercent: sweepGCPercent}
	ss, err := solvers.Resolve(s.Solvers, f.externals.Solvers())
	if err != nil {
		return cfg, nil, usageErr("%v", err) // validated with the settings: not reached
	}
	cfg.Solvers = ss
	sel, err := pipeline.NewSelection(s)
	if err != nil {
		return cfg, nil, usageErr("%v", err) // validated with the settings: not reached
	}
	cfg.Select = sel
	if f.resume {
		cfg.Skip = dir.Skip
	}
	invalid := &progress.Invalid{W: e.stderr, Show: maxInvalidShow}
	cfg.Invalid = invalid.Report
	return cfg, invalid, nil
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

// emptySelection is the usage error of a new sweep that solved nothing:
// its corpora have no puzzle, or its selection matches none of them.
func emptySelection(stats *pipeline.Stats, s rundir.Settings) error {
	puzzles := 0
	var counts []string
	for _, c := range stats.Corpora {
		puzzles += c.Puzzles
		counts = append(counts, fmt.Sprintf("%s has %d %s", c.Path, c.Puzzles, report.Plural(c.Puzzles, "puzzle", "puzzles")))
	}
	if puzzles == 0 {
		return usageErr("no puzzle line in %s (empty, or only comments and blank lines): nothing was solved", strings.Join(s.Corpora, ", "))
	}
	return usageErr("the selection matches no puzzle (%s; ids count from 0): nothing was solved", strings.Join(counts, ", "))
}

// sweepExit returns the error a sweep exits with, the most serious first
// (see the exit codes in main.go): an error that stopped it, an
// interruption, a corpus not read to its end, wrong answers, external
// strategies that failed wholesale (failed: why, one each), the report's
// error, then a re-timing that could not be recorded.
func sweepExit(e *env, dir *rundir.Dir, stats *pipeline.Stats, runErr, reportErr error, failed []string) error {
	results := filepath.Join(dir.Path, rundir.ResultsFile)
	if path, err := rundir.RowsPath(dir.Path); err == nil {
		results = path // results.csv.gz once gzipped
	}
	corpusErrs := stats.CorpusErrors()
	switch {
	case runErr != nil:
		return &exitError{exitWrong, fmt.Errorf("%v (the rows done so far are in %s; finish with: batch -resume -out %s)", runErr, dir.Path, dir.Path)}
	case stats.Interrupted:
		if stats.Wrong > 0 {
			e.notef("batch: %s (status wrong in %s): a strategy has a bug\n", report.Count(stats.Wrong, "wrong answer", "wrong answers"), results)
		}
		return &exitError{exitInterrupted, fmt.Errorf("interrupted: %s in %s; finish with: batch -resume -out %s", report.Count(dir.Rows(), "row", "rows"), results, dir.Path)}
	case len(corpusErrs) > 0:
		for _, ce := range corpusErrs[:len(corpusErrs)-1] {
			e.notef("batch: %s\n", ce)
		}
		return &exitError{exitWrong, fmt.Errorf("%s (the rows of the puzzles read before it are in %s, and the other corpora were swept)",
			corpusErrs[len(corpusErrs)-1], results)}
	case stats.Wrong > 0:
		for _, why := range failed {
			e.notef("batch: %s\n", why)
		}
		return &exitError{exitWrong, fmt.Errorf("%s (status wrong in %s): a strategy has a bug", report.Count(stats.Wrong, "wrong answer", "wrong answers"), results)}
	case len(failed) > 0:
		for _, why := range failed[:len(failed)-1] {
			e.notef("batch: %s\n", why)
		}
		return &exitError{exitWrong, fmt.Errorf("%s (%s)", failed[len(failed)-1], results)}
	case reportErr != nil:
		return reportErr
	case stats.Retime.Error != "":
		return &exitError{exitWrong, fmt.Errorf("%s%s (every row is in %s, with its sweep time: the times are unconfirmed)", pipeline.RetimeNotRecorded, stats.Retime.Error, results)}
	}
	return nil
}

// writeReportOf writes the report of the run in dir at the end of a
// sweep. Its errors say how to build it again: the rows are safe.
func writeReportOf(ctx context.Context, e *env, dir string, opt reportOptions) error {
	_, err := writeReport(ctx, e.stdout, e.stderr, dir, opt)
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

// printCorpora prints, per corpus, what became of its lines: puzzles,
// invalid lines and skipped lines (blank, comment, count header) add up
// to the lines read; each line folded to width columns.
func printCorpora(w io.Writer, width int, corpora []rundir.CorpusInfo) {
	for _, c := range corpora {
		valid := c.Puzzles - c.Invalid
		counts := fmt.Sprintf("%d %s = %d %s + %d invalid + %d skipped (blank, comment or count header)",
			c.Lines, report.Plural(c.Lines, "line", "lines"), valid, report.Plural(valid, "puzzle", "puzzles"), c.Invalid, c.Skipped)
		switch {
		case c.Error != "":
			fprintf(w, width, "corpus %s: %s read before the error\n", c.Path, counts)
		case c.Complete:
			fprintf(w, width, "corpus %s: %s\n", c.Path, counts)
		case c.Lines == 0:
			fprintf(w, width, "corpus %s: not read\n", c.Path)
		default:
			fprintf(w, width, "corpus %s: read up to line %d: %s\n", c.Path, c.Lines, counts)
		}
	}
}

// printSummary prints where the results are, how long the run took and,
// with table (no report to print its own), per strategy how the units of
// this run ended; each line folded to width columns.
func printSummary(w io.Writer, width int, dir *rundir.Dir, st *pipeline.Stats, elapsed time.Duration, workers int, table bool, runErr error) {
	var b strings.Builder
	if runErr != nil {
		// A write error: the rows counted may not all have reached the file.
		fmt.Fprintf(&b, "results: %s (incomplete: %s stopped by an error)\n", dir.Path, rundir.ResultsFile)
	} else {
		fmt.Fprintf(&b, "results: %s (%s in %s)\n", dir.Path, report.Count(dir.Rows(), "row", "rows"), rundir.ResultsFile)
	}
	fmt.Fprintf(&b, "took %s with %s: %s this run", report.FormatDuration(elapsed), report.Count(workers, "worker", "workers"),
		report.Count(st.Units, "unit", "units"))
	if st.Skipped > 0 {
		fmt.Fprintf(&b, ", %d already done", st.Skipped)
	}
	fmt.Fprintln(&b, peakNote())
	if r := st.Retime; r.Error != "" {
		fmt.Fprintf(&b, "timing: the re-timing could not be recorded, the rows keep their sweep times: %s\n", r.Error)
	} else if r.Retimed > 0 || r.Left > 0 || st.Unstable > 0 {
		fmt.Fprintf(&b, "timing: %s re-timed alone in %s: %d confirmed slow, %d noise, %d slowest confirmed",
			report.Count(r.Retimed, "unit", "units"), report.FormatDuration(time.Duration(r.NS)), r.Slow, r.Noise, r.Confirmed)
		if r.Cached > 0 {
			fmt.Fprintf(&b, "; %d not taken (an external solver that answers repeated requests as a cache does)", r.Cached)
		}
		if r.Left > 0 {
			fmt.Fprintf(&b, "; %d left (time allowed spent)", r.Left)
		}
		if st.Unstable > 0 {
			fmt.Fprintf(&b, "; %s whose runs disagreed (unstable)", report.Count(st.Unstable, "unit", "units"))
		}
		fmt.Fprintf(&b, "; timer overhead %d ns subtracted; collector %.2f%% of CPU\n", st.TimerNS, 100*st.GC.CPUShare)
	}
	io.WriteString(w, report.Wrap(b.String(), width))
	if table {
		printStatusTable(w, width, st)
	}
}

// printNotes says how many units a limit stopped, and how to measure
// them, and how many lines were not puzzles; each line folded to width
// columns.
func printNotes(w io.Writer, width int, st *pipeline.Stats, s rundir.Settings) {
	stoppedBy := func(status string) (int, string) {
		n := 0
		var per []string
		for _, ss := range st.Solvers {
			if k := ss.Statuses[status]; k > 0 {
				n += k
				per = append(per, fmt.Sprintf("%s %d", ss.Name, k))
			}
		}
		return n, strings.Join(per, ", ")
	}
	if n, per := stoppedBy("timeout"); n > 0 {
		raise := "Raise the limit"
		if next := higherTimeout(time.Duration(s.TimeoutNS)); next > 0 {
			raise += fmt.Sprintf(" (-timeout %s)", next)
		}
		fprintf(w, width, "note: %s stopped at -timeout %s (%s); %s timeout. "+
			"%s, or sweep without one: -timeout 0 -max-calls N.\n",
			report.Count(n, "unit", "units"), s.Timeout, per, report.Plural(n, "its row says", "their rows say"), raise)
	}
	if n, per := stoppedBy("limit"); n > 0 {
		fprintf(w, width, "note: %s stopped at -max-calls %d (%s); %s limit.\n", report.Count(n, "unit", "units"),
			s.MaxCalls, per, report.Plural(n, "its row says", "their rows say"))
	}
	if st.Invalid > 0 {
		fprintf(w, width, "note: %s (status invalid, with file, line and reason)\n",
			report.Plural(st.Invalid, "1 corpus line is not a puzzle", fmt.Sprintf("%d corpus lines are not puzzles", st.Invalid)))
	}
}

// higherTimeout returns a -timeout to suggest above t: the first of 1s,
// 10s, 1m and 10m past it, or 0 past them all. (A unit of an external
// solver under -timeout 0 stops at -ext-timeout: the same applies.)
func higherTimeout(t time.Duration) time.Duration {
	for _, d := range []time.Duration{time.Second, 10 * time.Second, time.Minute, 10 * time.Minute} {
		if d > t {
			return d
		}
	}
	return 0
}

// printStatusTable prints per strategy how the units of this run ended
// (report.WriteStatusTable), fitted to width columns.
func printStatusTable(w io.Writer, width int, st *pipeline.Stats) {
	counts := make([]report.SweepCounts, len(st.Solvers))
	for i, ss := range st.Solvers {
		counts[i] = report.SweepCounts{Name: ss.Name, Units: ss.Units, Statuses: ss.Statuses, NS: ss.NS}
	}
	report.WriteStatusTable(w, counts, width)
}
