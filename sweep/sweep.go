// Package sweep runs `batch run` into its run directory:
//
//  1. Open makes the run directory of a new sweep (the corpora
//     identified, the external solvers started first, so that a program
//     that does not start leaves nothing behind, and recorded in run.json)
//     or opens the run to finish (-resume: its corpora checked, the flags
//     given again checked against its settings, its external programs
//     unchanged, then started), and makes the pipeline's configuration
//     (a resumed stream checked against the copy the run kept), and
//     begins the segment of this process in run.json;
//  2. the command adds what it shows (the progress, the invalid lines,
//     the Ctrl-C that stops the sweep) to Sweep.Config;
//  3. Run runs the pipeline into the directory and records how the sweep
//     ended: the corpora as read, the timing and the external solvers'
//     null round trips, the status; a new sweep that selected no puzzle
//     leaves nothing behind; results/latest points at a new run made
//     under results/.
//
// The command makes the settings from its flags (rundir.Request), prints
// what the sweep did and writes the report from the directory. The
// external solvers' programs are recorded in run.json here: neither
// rundir nor solvers/external knows the other.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
)

// GCPercent is the GOGC of a sweep (pipeline.Config.GCPercent). Its
// live heap is a few MB (the window of units, the tables), below the
// collector's minimum goal at the default GOGC (4 MB): at 50 the heap
// stays nearer what is live, for the same CPU time (docs/PERFORMANCE.md,
// "Memory").
const GCPercent = 50

// Options are a sweep as the command asks for it.
type Options struct {
	// Settings are those the flags make (rundir.Request.Settings); a
	// resumed run sweeps with its own, and the flags given again (Given)
	// must agree with them.
	Settings rundir.Settings
	Given    func(flag string) bool
	Resume   bool
	// Out is the run directory; "" for a new results/<run id>, or the
	// run to resume (rundir.ResumeTarget: results/latest, or a newer run
	// a killed process left running).
	Out string
	// Corpora are the corpora named on the command line: with Resume,
	// none means the run's.
	Corpora     []string
	Highlight   []int // -highlight, recorded in run.json
	NoHighlight bool  // -highlight none
	Workers     int
	Ext         []external.Spec  // -ext (with -ext-files)
	ExtOptions  external.Options // their options; Workers and Count are the sweep's
	Stdin       io.Reader
	Command     []string // the command line, for the segment's provenance
	Start       time.Time
	// Say is told each line the sweep says while it opens (the run
	// resumed, a program left out); Started each external solver
	// started, with the time it took.
	Say     func(line string)
	Started func(x *external.Solver, took time.Duration)
}

// Sweep is an open run directory, its external solvers started and the
// segment of this process begun: Run sweeps it, Close ends what Run did
// not.
type Sweep struct {
	Dir       *rundir.Dir
	Settings  rundir.Settings // the sweep's: a resumed run's own
	Externals external.Set
	// Config is the pipeline's configuration of the sweep; the command
	// sets its Stop, Progress and Invalid before Run.
	Config pipeline.Config
	opt    Options
	ran    bool
	procs  int // GOMAXPROCS before FitProcs, set again by Close (0: unchanged)
}

// UsageError is an error of what the command asked for (exit 2): a
// corpus or a run directory that cannot be used, a flag that disagrees
// with the run to resume, a program that does not start.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// usage wraps err as a UsageError, or returns ctx's error when ctx was
// canceled (the error is then the interruption's).
func usage(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &UsageError{err}
}

// Open opens the run directory of the sweep opt asks for and begins this
// process's segment in it (see the package doc, step 1).
func Open(ctx context.Context, opt Options) (*Sweep, error) {
	s := &Sweep{Settings: opt.Settings, opt: opt}
	var err error
	if opt.Resume {
		err = s.resume(ctx)
	} else if err = s.startExternals(ctx, opt.Ext); err == nil {
		err = s.create(ctx)
	}
	if err == nil {
		err = s.configure(ctx)
	}
	if err == nil {
		if len(s.Externals) == 0 {
			// A foreign unit's answer wakes its worker: on a processor
			// shared with the writer it would wait for the writer's batch.
			s.procs = FitProcs(opt.Workers, os.Getenv)
		}
		seg := rundir.Segment{Start: opt.Start.UTC(), Command: opt.Command, Workers: opt.Workers, Machine: rundir.ThisMachine(),
			Scheduler: rundir.ThisJob(os.Getenv)}
		if err = s.Dir.Begin(seg); err != nil {
			s.Config.Streams.Close()
		}
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close ends the external solvers, releases the run directory when Run
// did not, and gives the process back the processors FitProcs took
// (the command closes the sweep after its report).
func (s *Sweep) Close() {
	if s.procs > 0 {
		runtime.GOMAXPROCS(s.procs)
		s.procs = 0
	}
	s.Externals.Close()
	if s.Dir != nil && !s.ran {
		s.Dir.Release()
	}
}

// create identifies the corpora and creates the run directory with
// run.json recording them (rundir.CreateNew).
func (s *Sweep) create(ctx context.Context) error {
	corpora, err := corpus.Identify(ctx, s.Settings.Corpora)
	if err != nil {
		return usage(ctx, err)
	}
	m := &rundir.Manifest{Tool: "sudokubatch", Start: s.opt.Start.UTC(), Settings: s.Settings, Corpora: corpora,
		Highlight: s.opt.Highlight, NoHighlight: s.opt.NoHighlight}
	if s.Dir, err = rundir.CreateNew(s.opt.Out, m); err != nil {
		if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
			// Not the command's fault (exit 1, as any I/O error): the
			// same command runs once there is room, and nothing is left
			// behind (rundir.Create).
			return fmt.Errorf("%w; nothing was swept and nothing left behind: free space there and run again", err)
		}
		// Whatever else stops the creation of the directory (it holds a
		// run or other files, it cannot be made: -out /proc/x) is a bad
		// -out.
		return &UsageError{err}
	}
	return nil
}

// resume opens the run to finish; its settings come from run.json
// (rundir.Settings.CheckResume), its external programs must be those it
// recorded; then they are started.
func (s *Sweep) resume(ctx context.Context) error {
	out := s.opt.Out
	if out == "" {
		var why string
		if out, why = rundir.ResumeTarget(rundir.DefaultRoot); why != "" {
			s.opt.Say(why)
		}
	}
	dir, err := rundir.Resume(out, corpus.VerifyRun(ctx, out))
	if err != nil {
		return usage(ctx, err)
	}
	s.Dir, s.Settings = dir, dir.Manifest.Settings
	flags := s.opt.Settings
	flags.External = namedRecords(s.opt.Ext)
	if err := s.Settings.CheckResume(out, flags, s.opt.Given, s.opt.Corpora); err != nil {
		return &UsageError{err}
	}
	if dir.Manifest.Status == rundir.Finished {
		s.opt.Say(out + " is already finished; checking that every unit is there")
	}
	s.opt.Say(resumeLine(out, dir))
	for _, line := range streamLines(out, dir.Manifest) {
		s.opt.Say(line)
	}
	if err := checkUnchanged(out, s.Settings.External); err != nil {
		return &UsageError{err}
	}
	return s.startExternals(ctx, specsOf(s.Settings.External))
}

// startExternals starts the external solvers of the sweep among specs
// (those of its strategies); a new run records them in its settings.
func (s *Sweep) startExternals(ctx context.Context, specs []external.Spec) error {
	if len(specs) == 0 {
		return nil
	}
	opt := s.opt.ExtOptions
	opt.Workers, opt.Count = s.opt.Workers, s.Settings.Unique
	warn := func(w string) { s.opt.Say("warning: " + w) }
	xs, err := external.StartAll(ctx, specs, s.Settings.Solvers, opt, warn, s.opt.Started)
	if err != nil {
		return usage(ctx, err)
	}
	s.Externals = xs
	if !s.opt.Resume {
		s.Settings.External = recordsOf(xs)
	}
	return nil
}

// configure makes the pipeline's configuration of the sweep; a resumed
// stream must start with the bytes the run read (its copy in the run
// directory): checked here, before anything is recorded.
func (s *Sweep) configure(ctx context.Context) error {
	set, dir := s.Settings, s.Dir
	cfg := pipeline.Config{Corpora: set.Corpora, Workers: s.opt.Workers, Timeout: time.Duration(set.TimeoutNS),
		MaxCalls: set.MaxCalls, Seed: set.Seed, Unique: set.Unique, Sink: dir, Stdin: s.opt.Stdin,
		Known: dir.Manifest.Corpora, RunDir: dir.Path, Retime: true, Runs: set.Runs, GCPercent: GCPercent}
	var err error
	if cfg.Solvers, err = solvers.Resolve(set.Solvers, s.Externals.Solvers()); err != nil {
		return &UsageError{err} // validated with the settings: not reached
	}
	if cfg.Select, err = pipeline.NewSelection(set); err != nil {
		return &UsageError{err} // validated with the settings: not reached
	}
	if s.opt.Resume {
		cfg.Skip = dir.Skip
		if cfg.Streams, err = pipeline.OpenStreams(ctx, &cfg); err != nil {
			return usage(ctx, fmt.Errorf("cannot resume %s: %w", dir.Path, err))
		}
	}
	s.Config = cfg
	return nil
}

// Result is how a sweep ended.
type Result struct {
	Stats   *pipeline.Stats
	Elapsed time.Duration // from Options.Start to the end of the pipeline
	Status  string        // rundir.Finished, Interrupted or Failed
	// Err stopped the sweep or its record (a corpus that cannot be
	// opened, a write error); nil when neither did.
	Err    error
	Timing rundir.Timing // as run.json records it
	// Empty: a new sweep whose selection matched no puzzle; it left
	// nothing behind, not its directory and not results/latest.
	Empty bool
}

// Run runs the pipeline into the run directory and records how the
// sweep ended (see the package doc, step 3). It runs until the corpora
// are swept, or Config.Stop is closed and the units running are done.
func (s *Sweep) Run() *Result {
	s.ran = true
	stats, runErr := pipeline.Run(context.Background(), s.Config)
	res := &Result{Stats: stats, Elapsed: time.Since(s.opt.Start)}
	s.Externals.Close()
	d := s.Dir
	d.Manifest.UpdateCorpora(stats.Corpora)
	res.Timing = stats.Timing()
	res.Timing.Null = nullsOf(s.Externals)
	d.SetTiming(res.Timing)
	if !s.opt.Resume && stats.Issued+stats.Skipped == 0 && runErr == nil && stats.Complete() {
		d.Discard()
		res.Empty = true
		return res
	}
	status, why := stats.Status(runErr)
	if closeErr := d.Close(status, why); runErr == nil {
		runErr = closeErr
	}
	res.Status, res.Err = status, runErr
	if s.opt.Out == "" && !s.opt.Resume {
		if err := rundir.UpdateLatest(rundir.DefaultRoot, d.Path); err != nil {
			s.opt.Say(err.Error())
		}
	}
	return res
}

// failures returns the line of each external solver that failed
// wholesale in the sweep (external.Set.Failures).
func (s *Sweep) failures(stats *pipeline.Stats) []string {
	return s.Externals.Failures(func(name string) map[string]int {
		for _, ss := range stats.Solvers {
			if ss.Name == name {
				return ss.Statuses
			}
		}
		return nil
	})
}

// Verdict says how the sweep of res ended, the most serious first: an
// error that stopped it, an interruption, a corpus not read to its end,
// wrong answers, external strategies that failed wholesale, the error of
// the report written after it (reportErr, returned as it is), then a
// re-timing that could not be recorded. It returns the lines to say
// first (the other corpora and strategies at fault), whether it was
// interrupted, and the error the sweep ends with, nil when it ended well. Each message names the rows and how to go
// on.
func (s *Sweep) Verdict(res *Result, reportErr error) (notes []string, interrupted bool, err error) {
	dir, stats := s.Dir, res.Stats
	results := filepath.Join(dir.Path, rundir.ResultsFile)
	if path, err := rundir.RowsPath(dir.Path); err == nil {
		results = path // results.csv.gz once gzipped
	}
	wrong := report.Count(stats.Wrong, "wrong answer", "wrong answers")
	corpusErrs, failed := stats.CorpusErrors(), s.failures(stats)
	switch {
	case res.Err != nil:
		return nil, false, fmt.Errorf("%v (the rows done so far are in %s; finish with: batch -resume -out %s)", res.Err, dir.Path, dir.Path)
	case stats.Interrupted:
		if stats.Wrong > 0 {
			notes = append(notes, fmt.Sprintf("%s (status wrong in %s): a strategy has a bug", wrong, results))
		}
		return notes, true, fmt.Errorf("interrupted: %s in %s; finish with: batch -resume -out %s", report.Count(dir.Rows(), "row", "rows"), results, dir.Path)
	case len(corpusErrs) > 0:
		last := len(corpusErrs) - 1
		return corpusErrs[:last], false, fmt.Errorf("%s (the rows of the puzzles read before it are in %s, and the other corpora were swept)", corpusErrs[last], results)
	case stats.Wrong > 0:
		return failed, false, fmt.Errorf("%s (status wrong in %s): a strategy has a bug", wrong, results)
	case len(failed) > 0:
		last := len(failed) - 1
		return failed[:last], false, fmt.Errorf("%s (%s)", failed[last], results)
	case reportErr != nil:
		return nil, false, reportErr
	case stats.Retime.Error != "":
		return nil, false, fmt.Errorf("%s%s (every row is in %s, with its sweep time: the times are unconfirmed)", pipeline.RetimeNotRecorded, stats.Retime.Error, results)
	}
	return nil, false, nil
}

// End is what the sweep says at its end (report.SweepEnd: the summary
// lines, the table of statuses when table, and the notes) of res.
func (s *Sweep) End(res *Result, table bool) *report.SweepEnd {
	st := res.Stats
	end := &report.SweepEnd{Dir: s.Dir.Path, Rows: s.Dir.Rows(), Failed: res.Err != nil, Elapsed: res.Elapsed, Workers: s.opt.Workers,
		Units: st.Units, Skipped: st.Skipped, Timing: res.Timing, Cached: st.Retime.Cached, Table: table,
		Corpora: st.Corpora, Settings: s.Settings, Invalid: st.Invalid}
	end.Peak, _ = rundir.PeakRSS()
	for _, ss := range st.Solvers {
		end.Solvers = append(end.Solvers, report.SweepCounts{Name: ss.Name, Units: ss.Units, Statuses: ss.Statuses, NS: ss.NS})
	}
	for _, x := range s.Externals {
		end.Externals = append(end.Externals, report.ExternalEnd{Name: x.Name(), Restarts: x.Restarts(),
			MaxRestarts: s.opt.ExtOptions.MaxRestarts, Refused: x.Refused() > 0, Strays: x.Strays()})
	}
	return end
}

// CountUnits counts the units of the sweep beside it, for a progress's
// total and ETA: it reads files only, a stream is read once, by the
// sweep, and its total stays unknown (pipeline.CountUnits). Call it
// once Config is set.
func (s *Sweep) CountUnits(ctx context.Context) (int, error) {
	return pipeline.CountUnits(ctx, s.Config)
}

// FitProcs runs the process on as many processors (GOMAXPROCS) as the
// sweep has workers, when they are fewer and GOMAXPROCS is not set in the
// environment (getenv): a sweep of -workers 1 then uses one processor,
// as a user sharing a host asks of it, and its reader and writer run on
// the worker's processor between batches rather than on another, where
// each batch handed over woke an idle thread that could preempt the
// worker in the middle of its next block: less CPU time, fewer units
// re-timed as noise, some more wall time (docs/PERFORMANCE.md). It
// returns the processors there were, which Close sets again (0:
// unchanged). Open does not call it for a sweep with an external solver.
// GOMAXPROCS is set when the runtime took it: a count above 0.
func FitProcs(workers int, getenv func(string) string) (was int) {
	n, err := strconv.ParseInt(getenv("GOMAXPROCS"), 10, 32)
	if workers >= 1 && workers < runtime.GOMAXPROCS(0) && (err != nil || n <= 0) {
		return runtime.GOMAXPROCS(workers)
	}
	return 0
}

// MaxWorkers is the most workers a sweep starts (the command caps
// -workers there and says so): more than a few per CPU only share the
// CPUs, and each worker holds batches of units in flight, so the reorder
// window (and memory) grows with the count.
func MaxWorkers() int { return max(256, 4*runtime.NumCPU()) }
