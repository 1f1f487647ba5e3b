package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// sweep runs the pipeline into dir and prints the summary.
func sweep(e *env, f *runFlags, dir *rundir.Dir, s rundir.Settings, start time.Time) error {
	cfg := pipeline.Config{Corpora: s.Corpora, Workers: f.workers, Timeout: time.Duration(s.TimeoutNS),
		MaxCalls: s.MaxCalls, Seed: s.Seed, Unique: s.Unique, Sink: dir, Stdin: e.stdin}
	for _, n := range s.Solvers {
		sv, _ := solvers.Lookup(n)
		cfg.Solvers = append(cfg.Solvers, sv.Solver)
	}
	cfg.Select.IDs = s.IDs
	if s.Range != "" {
		cfg.Select.From, cfg.Select.To, _ = pipeline.ParseRange(s.Range)
	}
	cfg.Select.Limit = s.Limit
	if s.Shard != "" {
		cfg.Select.Shard, cfg.Select.Of, _ = pipeline.ParseShard(s.Shard)
	}
	if f.resume {
		cfg.Skip = dir.Skip
	}

	// Invalid lines: the first few on stderr now, a count of the rest at the end.
	var invalidMu sync.Mutex
	invalid := 0
	cfg.Invalid = func(err error) {
		invalidMu.Lock()
		defer invalidMu.Unlock()
		invalid++
		if invalid <= maxInvalidShow {
			fmt.Fprintf(e.stderr, "batch: invalid line: %v\n", err)
		}
	}

	// The first SIGINT/SIGTERM (e.ctx, see main) stops issuing units; a
	// second one ends the process.
	stop := make(chan struct{})
	swept := make(chan struct{})
	defer close(swept)
	go func() {
		select {
		case <-e.ctx.Done():
			fmt.Fprintln(e.stderr, "\nbatch: interrupted: finishing the running units and writing the results (again to quit at once)")
			close(stop)
		case <-swept:
		}
	}()
	cfg.Stop = stop

	if !f.quiet {
		tty := false
		if fd, ok := e.stderr.(interface{ Fd() uintptr }); ok {
			tty = term.IsTerminal(int(fd.Fd()))
		}
		display := newProgress(e.stderr, tty, 5*time.Second)
		cfg.Progress = display
		go countUnits(cfg, display)
	}

	seg := rundir.Segment{Start: start.UTC(), Command: e.args0, Workers: f.workers, Machine: rundir.ThisMachine(), Status: rundir.Running}
	dir.Manifest.Segments = append(dir.Manifest.Segments, seg)
	if err := rundir.WriteManifest(dir.Path, dir.Manifest); err != nil {
		return err
	}

	if f.cpuprof != "" {
		pf, err := os.Create(f.cpuprof)
		if err != nil {
			return usageErr("-cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			pf.Close()
			return usageErr("-cpuprofile: %v", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			pf.Close()
		}()
	}
	stats, runErr := pipeline.Run(context.Background(), cfg)

	end := time.Now()
	status := rundir.Finished
	switch {
	case runErr != nil:
		status = rundir.Failed
	case stats.Interrupted:
		status = rundir.Interrupted
	}
	info := dir.Manifest
	info.Corpora = stats.Corpora
	info.End = end.UTC()
	info.DurationNS += end.Sub(start).Nanoseconds()
	info.Duration = time.Duration(info.DurationNS).Round(time.Millisecond).String()
	last := &info.Segments[len(info.Segments)-1]
	last.End, last.Rows, last.Status = end.UTC(), stats.Units, status
	closeErr := dir.Close(status)
	if runErr == nil {
		runErr = closeErr
	}
	if f.out == "" && !f.resume {
		if err := rundir.UpdateLatest(rundir.DefaultRoot, dir.Path); err != nil {
			fmt.Fprintf(e.stderr, "batch: %v\n", err)
		}
	}

	printSummary(e.stdout, dir, stats, end.Sub(start), f.workers, !f.report, runErr)
	if f.report && dir.Rows() > 0 && runErr == nil {
		if _, err := writeReport(e.stdout, e.stderr, dir.Path, reportOptions{highlight: dir.Manifest.Highlight, explicit: true, svg: f.svg, top: report.DefaultTop}); err != nil {
			fmt.Fprintf(e.stderr, "batch: report: %v (rebuild it with: batch report %s)\n", err, dir.Path)
			if runErr == nil {
				runErr = err
			}
		}
	}
	printNotes(e.stdout, stats, s)
	if invalid > maxInvalidShow {
		fmt.Fprintf(e.stderr, "batch: %d more invalid lines (status invalid in results.csv)\n", invalid-maxInvalidShow)
	}
	var empty []string
	puzzles := 0
	for _, c := range stats.Corpora {
		puzzles += c.Puzzles
		if c.Puzzles == 0 {
			empty = append(empty, c.Path)
		}
	}
	switch {
	case runErr == nil && !stats.Interrupted && puzzles == 0:
		return usageErr("no puzzle line in %s (empty, or only comments and blank lines): nothing was solved", strings.Join(empty, ", "))
	case len(empty) > 0:
		fmt.Fprintf(e.stderr, "batch: warning: no puzzle line in %s\n", strings.Join(empty, ", "))
	}
	var corpusErr *pipeline.CorpusError
	switch {
	case errors.As(runErr, &corpusErr):
		return &exitError{exitWrong, fmt.Errorf("%v (the rows of the puzzles read before it are in %s)", runErr, dir.Path)}
	case runErr != nil:
		return &exitError{exitWrong, fmt.Errorf("%v (the rows done so far are in %s; finish with -resume -out %s)", runErr, dir.Path, dir.Path)}
	case stats.Interrupted:
		return &exitError{exitInterrupted, fmt.Errorf("interrupted: %d rows written to %s; finish with: batch -resume -out %s", dir.Rows(), dir.Path, dir.Path)}
	case stats.Wrong > 0:
		return &exitError{exitWrong, fmt.Errorf("%d wrong answers (status wrong in %s): a strategy has a bug", stats.Wrong, filepath.Join(dir.Path, rundir.ResultsFile))}
	}
	return nil
}

// countUnits counts the units of the run beside it, so that the progress
// display can show a total and an ETA (regular files only). The total may
// arrive before the first unit or after the last: the display takes both.
func countUnits(cfg pipeline.Config, d display) {
	if n, err := pipeline.CountUnits(cfg); err == nil {
		d.SetTotal(n)
	}
}

// printSummary prints where the results are, how long the run took and,
// with table (no report to print its own), per strategy how the units of
// this run ended.
func printSummary(w io.Writer, dir *rundir.Dir, st *pipeline.Stats, elapsed time.Duration, workers int, table bool, runErr error) {
	var corpusErr *pipeline.CorpusError
	if runErr != nil && !errors.As(runErr, &corpusErr) {
		// A write error: the rows counted may not all have reached the file.
		fmt.Fprintf(w, "results: %s (incomplete: %s stopped by an error)\n", dir.Path, rundir.ResultsFile)
	} else {
		fmt.Fprintf(w, "results: %s (%d rows in %s)\n", dir.Path, dir.Rows(), rundir.ResultsFile)
	}
	fmt.Fprintf(w, "took %s with %d workers: %d units this run", elapsed.Round(time.Millisecond), workers, st.Units)
	if st.Skipped > 0 {
		fmt.Fprintf(w, ", %d already done", st.Skipped)
	}
	fmt.Fprintln(w, peakNote())
	if table {
		printStatusTable(w, st)
	}
}

// printNotes says how many units a limit stopped, and how to measure
// them, and how many lines were not puzzles.
func printNotes(w io.Writer, st *pipeline.Stats, s rundir.Settings) {
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
		fmt.Fprintf(w, "note: %d units stopped at -timeout %s (%s); their rows say timeout.\n"+
			"      Raise the limit (-timeout 10s), or sweep without one: -timeout 0 -max-calls N.\n", n, s.Timeout, per)
	}
	if n, per := stoppedBy("limit"); n > 0 {
		fmt.Fprintf(w, "note: %d units stopped at -max-calls %d (%s); their rows say limit.\n", n, s.MaxCalls, per)
	}
	if st.Invalid > 0 {
		fmt.Fprintf(w, "note: %d corpus lines are not puzzles (status invalid, with file, line and reason)\n", st.Invalid)
	}
}

// printStatusTable prints per strategy how the units of this run ended.
func printStatusTable(w io.Writer, st *pipeline.Stats) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	statuses := solvers.Statuses()
	fmt.Fprint(tw, "strategy\tunits\t")
	for _, status := range statuses {
		fmt.Fprintf(tw, "%s\t", status)
	}
	fmt.Fprint(tw, "mean time\t\n")
	for _, ss := range st.Solvers {
		fmt.Fprintf(tw, "%s\t%d\t", ss.Name, ss.Units)
		for _, status := range statuses {
			fmt.Fprintf(tw, "%d\t", ss.Statuses[status.String()])
		}
		mean := "-"
		if ss.Units > 0 {
			mean = report.FormatDuration(time.Duration(ss.NS / int64(ss.Units)))
		}
		fmt.Fprintf(tw, "%s\t\n", mean)
	}
	tw.Flush()
}
