package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/solvers"
)

const (
	defaultCorpus  = "data/sudoku17.txt"
	defaultRoot    = "results"
	defaultTimeout = 100 * time.Millisecond
	corpusSHA256   = "71755fa5646701ae543b1435012492ec5b99f3d42b08da847e6d48d8b87676d7"
	maxInvalidShow = 5
)

// runFlags are the flags of `batch run`.
type runFlags struct {
	solvers   string
	workers   int
	timeout   time.Duration
	maxCalls  uint64
	seed      uint64
	ids       string
	rng       string
	limit     int
	shard     string
	resume    bool
	out       string
	unique    bool
	quiet     bool
	highlight string
	svg       bool
	report    bool
	cpuprof   string
}

func runMain(e *env, args []string) error {
	fs := newFlagSet(e, "run", "[flags] [corpus ...]",
		"Sweep every puzzle of the corpora (default "+defaultCorpus+") through the strategies,\n"+
			"one row per (puzzle, strategy) in results/<run-id>/results.csv, provenance in run.json.",
		"  batch                                   # the default corpus, default strategies and limits\n"+
			"  batch -solvers bitboard,dlx -timeout 0  # two strategies, no time limit\n"+
			"  batch -ids 39949,2018 -solvers all      # two puzzles, every strategy\n"+
			"  batch -timeout 0 -max-calls 10000000    # a deterministic nightly sweep\n"+
			"  batch -shard 1/3 -out results/shard-1   # one shard of three (see batch merge)\n"+
			"  batch -out results/nightly -resume      # finish an interrupted run\n"+
			"  zcat big.txt.gz | batch -               # standard input\n")
	var f runFlags
	fs.StringVar(&f.solvers, "solvers", "", "comma-separated `strategies` in output order; `all` for every one (default: all but bruteforce)")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "number of `workers` solving in parallel")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "time limit per (puzzle, strategy), e.g. 100ms, 10s; 0 for none")
	fs.Uint64Var(&f.maxCalls, "max-calls", 0, "limit on a strategy's `calls` per puzzle (deterministic); 0 for none")
	fs.Uint64Var(&f.seed, "seed", 1, "run `seed`; each puzzle's seed derives from it and the puzzle id")
	fs.StringVar(&f.ids, "ids", "", "only these puzzle `ids` (0-based), e.g. 39949,2018")
	fs.StringVar(&f.rng, "range", "", "only ids in `a:b` (a <= id < b)")
	fs.IntVar(&f.limit, "limit", 0, "only the first `n` puzzles of each corpus file")
	fs.StringVar(&f.shard, "shard", "", "only ids with id % n == k, for shard `k/n`")
	fs.BoolVar(&f.resume, "resume", false, "finish the run in -out (default: results/latest), with its settings")
	fs.StringVar(&f.out, "out", "", "run `directory` (default: results/<run-id>)")
	fs.BoolVar(&f.unique, "unique", false, "count each puzzle's solutions (0, 1, 2 = two or more) in the solutions column")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&f.highlight, "highlight", "", "puzzle `ids` to mark in the report, e.g. 39949")
	fs.BoolVar(&f.svg, "svg", false, "also write the charts as SVG")
	fs.StringVar(&f.cpuprof, "cpuprofile", "", "write a CPU profile of the sweep to `file` (go tool pprof; cmd/batch/default.pgo is one)")
	fs.BoolVar(&f.report, "report", true, "write the summary, charts and index.html at the end (-report=false: results.csv and run.json only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })

	settings, err := settingsFromFlags(&f, fs.Args())
	if err != nil {
		return err
	}
	var dir *pipeline.RunDir
	start := time.Now()
	if f.resume {
		dir, settings, err = resumeRun(e, &f, set, fs.Args(), settings)
	} else {
		dir, err = createRun(e, &f, settings, start)
	}
	if err != nil {
		return err
	}
	return sweep(e, &f, dir, settings, start)
}

// settingsFromFlags turns the flags into the settings recorded in run.json.
func settingsFromFlags(f *runFlags, corpora []string) (report.Settings, error) {
	s := report.Settings{TimeoutNS: int64(f.timeout), Timeout: f.timeout.String(), MaxCalls: f.maxCalls,
		Seed: f.seed, Range: f.rng, Limit: f.limit, Shard: f.shard, Unique: f.unique, Corpora: corpora}
	if f.timeout < 0 {
		return s, usageErr("-timeout %s: want a duration >= 0", f.timeout)
	}
	if f.workers < 1 {
		return s, usageErr("-workers %d: want at least 1", f.workers)
	}
	if f.limit < 0 {
		return s, usageErr("-limit %d: want a number >= 0", f.limit)
	}
	names, err := solverNames(f.solvers)
	if err != nil {
		return s, err
	}
	s.Solvers = names
	if f.ids != "" {
		if s.IDs, err = pipeline.ParseIDs(f.ids); err != nil {
			return s, usageErr("-ids: %v", err)
		}
	}
	if f.rng != "" {
		if _, _, err := pipeline.ParseRange(f.rng); err != nil {
			return s, usageErr("-range: %v", err)
		}
	}
	if f.shard != "" {
		if _, _, err := pipeline.ParseShard(f.shard); err != nil {
			return s, usageErr("-shard: %v", err)
		}
	}
	if len(s.Corpora) == 0 {
		s.Corpora = []string{defaultCorpus}
	}
	seen := map[string]bool{}
	for _, c := range s.Corpora {
		if seen[c] {
			return s, usageErr("corpus %s is given twice", c)
		}
		seen[c] = true
	}
	return s, nil
}

// solverNames resolves -solvers.
func solverNames(list string) ([]string, error) {
	var names []string
	switch strings.TrimSpace(list) {
	case "":
		for _, n := range solvers.Names() {
			if n != "bruteforce" {
				names = append(names, n)
			}
		}
		return names, nil
	case "all":
		return solvers.Names(), nil
	}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		s, ok := solvers.Lookup(n)
		if !ok {
			return nil, usageErr("-solvers: unknown strategy %q (known: %s)", n, strings.Join(solvers.Names(), ", "))
		}
		if slices.Contains(names, s.Name()) {
			return nil, usageErr("-solvers: %s is given twice", s.Name())
		}
		names = append(names, s.Name())
	}
	return names, nil
}

// checkCorpora fails with exit 2 when a corpus is missing; the default
// corpus gets a message that says what it is and where it comes from.
func checkCorpora(corpora []string) error {
	for _, c := range corpora {
		if c == "-" {
			continue
		}
		st, err := os.Stat(c)
		switch {
		case err != nil && c == defaultCorpus:
			return usageErr("the default corpus %s is missing (%v).\n"+
				"It is Gordon Royle's list of 49151 17-clue puzzles, third-party data kept beside the checkout:\n"+
				"%s is a symbolic link to ../../shared/data/sudoku17.txt (SHA-256 %s); see data/README.md.\n"+
				"Or name a corpus file: batch [flags] FILE", c, errors.Unwrap(err), defaultCorpus, corpusSHA256)
		case err != nil:
			return usageErr("corpus %s: %v", c, errors.Unwrap(err))
		case st.IsDir():
			return usageErr("corpus %s is a directory, want a puzzle file", c)
		}
	}
	return nil
}

func createRun(e *env, f *runFlags, s report.Settings, start time.Time) (*pipeline.RunDir, error) {
	if err := checkCorpora(s.Corpora); err != nil {
		return nil, err
	}
	out := f.out
	if out == "" {
		if err := os.MkdirAll(defaultRoot, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", defaultRoot, err)
		}
		out = filepath.Join(defaultRoot, pipeline.NewRunID(defaultRoot, start))
	}
	info := &report.RunInfo{Tool: "sudokubatch", RunID: filepath.Base(out), Start: start.UTC(), Settings: s}
	if f.highlight != "" {
		ids, err := pipeline.ParseIDs(f.highlight)
		if err != nil {
			return nil, usageErr("-highlight: %v", err)
		}
		info.Highlight = ids
	}
	dir, err := pipeline.Create(out, info)
	if errors.Is(err, pipeline.ErrRunExists) {
		return nil, &exitError{exitUsage, err}
	}
	return dir, err
}

// resumeRun opens the run to finish. Its settings come from run.json;
// flags that decide rows may be repeated but must agree.
func resumeRun(e *env, f *runFlags, set map[string]bool, corpora []string, flags report.Settings) (*pipeline.RunDir, report.Settings, error) {
	out := f.out
	if out == "" {
		out = filepath.Join(defaultRoot, "latest")
		if target, err := filepath.EvalSymlinks(out); err == nil {
			out = target
		}
	}
	dir, err := pipeline.Resume(out)
	if err != nil {
		return nil, flags, &exitError{exitUsage, err}
	}
	s := dir.Info.Settings
	conflicts := []struct {
		flag string
		same bool
	}{
		{"solvers", slices.Equal(flags.Solvers, s.Solvers)},
		{"timeout", flags.TimeoutNS == s.TimeoutNS},
		{"max-calls", flags.MaxCalls == s.MaxCalls},
		{"seed", flags.Seed == s.Seed},
		{"ids", slices.Equal(flags.IDs, s.IDs)},
		{"range", flags.Range == s.Range},
		{"limit", flags.Limit == s.Limit},
		{"shard", flags.Shard == s.Shard},
		{"unique", flags.Unique == s.Unique},
	}
	for _, c := range conflicts {
		if set[c.flag] && !c.same {
			dir.Close(dir.Info.Status)
			return nil, s, usageErr("-resume: -%s differs from the run's setting in %s/run.json; resume with the run's settings (omit -%s)", c.flag, out, c.flag)
		}
	}
	if len(corpora) > 0 && !slices.Equal(corpora, s.Corpora) {
		dir.Close(dir.Info.Status)
		return nil, s, usageErr("-resume: corpora %v differ from the run's %v", corpora, s.Corpora)
	}
	if err := checkCorpora(s.Corpora); err != nil {
		dir.Close(dir.Info.Status)
		return nil, s, err
	}
	if dir.Info.Status == report.RunFinished {
		fmt.Fprintf(e.stderr, "batch: %s is already finished; checking that every unit is there\n", out)
	}
	fmt.Fprintf(e.stderr, "batch: resuming %s: %d rows already done\n", out, dir.Rows())
	return dir, s, nil
}

// sweep runs the pipeline into dir and prints the summary.
func sweep(e *env, f *runFlags, dir *pipeline.RunDir, s report.Settings, start time.Time) error {
	cfg := pipeline.Config{Corpora: s.Corpora, Workers: f.workers, Timeout: time.Duration(s.TimeoutNS),
		MaxCalls: s.MaxCalls, Seed: s.Seed, Unique: s.Unique, Sink: dir, Stdin: e.stdin}
	for _, n := range s.Solvers {
		sv, _ := solvers.Lookup(n)
		cfg.Solvers = append(cfg.Solvers, sv)
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

	// The first SIGINT/SIGTERM stops issuing units; the default handler is
	// restored at once, so a second one ends the process.
	sigCtx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	stop := make(chan struct{})
	go func() {
		<-sigCtx.Done()
		stopSignals()
		select {
		case <-stop:
			return
		default:
		}
		fmt.Fprintln(e.stderr, "\nbatch: interrupted: finishing the running units and writing the results (again to quit at once)")
		close(stop)
	}()
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
	}()
	cfg.Stop = stop

	if !f.quiet {
		tty := false
		if fd, ok := e.stderr.(interface{ Fd() uintptr }); ok {
			tty = term.IsTerminal(int(fd.Fd()))
		}
		display := pipeline.NewProgress(e.stderr, tty, 5*time.Second)
		cfg.Progress = display
		go countUnits(cfg, display)
	}

	seg := report.Segment{Start: start.UTC(), Command: e.args0, Workers: f.workers, Machine: pipeline.ThisMachine(), Status: report.RunRunning}
	dir.Info.Segments = append(dir.Info.Segments, seg)
	if err := report.WriteRunInfo(dir.Dir, dir.Info); err != nil {
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
	status := report.RunFinished
	switch {
	case runErr != nil:
		status = report.RunFailed
	case stats.Interrupted:
		status = report.RunInterrupted
	}
	info := dir.Info
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
		if err := pipeline.UpdateLatest(defaultRoot, dir.Dir); err != nil {
			fmt.Fprintf(e.stderr, "batch: %v\n", err)
		}
	}

	printSummary(e.stdout, dir, stats, end.Sub(start), f.workers, !f.report, runErr)
	if f.report && dir.Rows() > 0 && runErr == nil {
		if _, err := writeReport(e.stdout, e.stderr, dir.Dir, reportOptions{highlight: dir.Info.Highlight, explicit: true, svg: f.svg, top: report.DefaultTop}); err != nil {
			fmt.Fprintf(e.stderr, "batch: report: %v (rebuild it with: batch report %s)\n", err, dir.Dir)
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
		return &exitError{exitWrong, fmt.Errorf("%v (the rows of the puzzles read before it are in %s)", runErr, dir.Dir)}
	case runErr != nil:
		return &exitError{exitWrong, fmt.Errorf("%v (the rows done so far are in %s; finish with -resume -out %s)", runErr, dir.Dir, dir.Dir)}
	case stats.Interrupted:
		return &exitError{exitInterrupted, fmt.Errorf("interrupted: %d rows written to %s; finish with: batch -resume -out %s", dir.Rows(), dir.Dir, dir.Dir)}
	case stats.Wrong > 0:
		return &exitError{exitWrong, fmt.Errorf("%d wrong answers (status wrong in %s): a strategy has a bug", stats.Wrong, filepath.Join(dir.Dir, pipeline.ResultsFile))}
	}
	return nil
}

// countUnits counts the units of the run beside it, so that the progress
// display can show a total and an ETA (regular files only). The total may
// arrive before the first unit or after the last: the display takes both.
func countUnits(cfg pipeline.Config, d pipeline.Display) {
	if n, err := pipeline.CountUnits(cfg); err == nil {
		d.SetTotal(n)
	}
}

// printSummary prints where the results are, how long the run took and,
// with table (no report to print its own), per strategy how the units of
// this run ended.
func printSummary(w io.Writer, dir *pipeline.RunDir, st *pipeline.Stats, elapsed time.Duration, workers int, table bool, runErr error) {
	var corpusErr *pipeline.CorpusError
	if runErr != nil && !errors.As(runErr, &corpusErr) {
		// A write error: the rows counted may not all have reached the file.
		fmt.Fprintf(w, "results: %s (incomplete: %s stopped by an error)\n", dir.Dir, pipeline.ResultsFile)
	} else {
		fmt.Fprintf(w, "results: %s (%d rows in %s)\n", dir.Dir, dir.Rows(), pipeline.ResultsFile)
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
func printNotes(w io.Writer, st *pipeline.Stats, s report.Settings) {
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
