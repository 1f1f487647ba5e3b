package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/internal/cli"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
	"sudokubatch/variants"
)

const (
	defaultCorpus  = corpus.Default // the file when there is one, else the copy in the binary
	defaultTimeout = 100 * time.Millisecond
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
	shard     string // k/n; -shard auto is resolved into it (settingsFromFlags)
	autoShard string // -shard auto or auto/N as given; "" for k/n
	resume    bool
	out       string
	unique    bool
	runs      int
	quiet     bool
	highlight string
	svg       bool
	report    bool
	gzip      bool
	variants  variantsRequest // -variants K -variants-seeds M: the analysis before the report; n 0: none
	cpuprof   string
	profile   *os.File // the -cpuprofile file, opened before the run is created
	ext       extFlags
	// solversSet: -solvers was given; without it the sweep runs the
	// default strategies and every -ext one.
	solversSet bool
	externals  external.Set // the external solvers started for the sweep
}

// exampleSolvers names two strategies for the help's examples: the
// last two of the default set.
var exampleSolvers = func() string {
	d := solvers.Defaults()
	return strings.Join(d[max(len(d)-2, 0):], ",")
}()

func runMain(e *env, args []string) error {
	fs := newFlagSet(e, "run", "[flags] [corpus ...]",
		"Sweep every puzzle of the corpora (default "+defaultCorpus+") through the strategies,\n"+
			"one row per (puzzle, strategy) in results/<run-id>/results.csv, provenance in run.json.",
		"  batch                                   # the default corpus, default strategies and limits\n"+
			"  batch -solvers "+exampleSolvers+" -timeout 0  # two strategies, no time limit\n"+
			"  batch -ids 39949,2018 -solvers all      # two puzzles, every strategy\n"+
			"  batch -timeout 0 -max-calls 10000000    # a deterministic nightly sweep\n"+
			"  batch -shard 1/3 -out results/shard-1   # one shard of three (see batch merge)\n"+
			"  batch -shard auto -out results/shard-$SLURM_ARRAY_TASK_ID  # in a Slurm job array: its task's shard\n"+
			"  batch -out results/nightly -resume      # finish an interrupted run\n"+
			"  zcat big.txt.gz | batch -               # standard input\n")
	var f runFlags
	fs.StringVar(&f.solvers, "solvers", strings.Join(solvers.Defaults(), ","), "comma-separated `strategies` in output order, or all for every one; not empty")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "number of `workers` solving in parallel")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "time limit per (puzzle, strategy), e.g. 100ms, 10s; 0 for none")
	fs.Uint64Var(&f.maxCalls, "max-calls", 0, "limit on a strategy's `calls` per puzzle (deterministic); 0 for none")
	fs.Uint64Var(&f.seed, "seed", 1, "run `seed`; each puzzle's seed derives from it and the puzzle id")
	fs.StringVar(&f.ids, "ids", "", "only these puzzle `ids` (0-based), e.g. 39949,2018")
	fs.StringVar(&f.rng, "range", "", "only ids in `a:b` (a <= id < b)")
	fs.IntVar(&f.limit, "limit", 0, "only the first `n` puzzles of each corpus file; 0 for every puzzle")
	fs.StringVar(&f.shard, "shard", "", "only ids with id % n == k, for shard `k/n`; auto: k and n of a Slurm job array's task (sbatch --array=0-7), auto/N: k of the task or of a Kubernetes Indexed Job's pod (JOB_COMPLETION_INDEX), n = N")
	fs.BoolVar(&f.resume, "resume", false, "finish the run in -out (default: results/latest), with its settings")
	fs.StringVar(&f.out, "out", "", "run `directory` (default: results/<run-id>)")
	fs.IntVar(&f.runs, "runs", rundir.MaxRuns, fmt.Sprintf("timed runs at most of a unit under 50µs whose first run reads slow (1 to %d): the row's ns is their median; 1 times each unit once and checks none for stability", rundir.MaxRuns))
	fs.BoolVar(&f.unique, "unique", false, "count each puzzle's solutions (0, 1, 2 = two or more) in the solutions column")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&f.highlight, "highlight", "", "puzzle `ids` to mark in the report, e.g. 39949,2018, or none (default: #39949 on the default corpus)")
	fs.BoolVar(&f.svg, "svg", false, "also write the charts as SVG; a scatter of more than 5000 puzzles stays PNG only (about 120 bytes a point), and the report says so")
	fs.StringVar(&f.cpuprof, "cpuprofile", "", "write a CPU profile of the sweep to `file`, for go tool pprof")
	fs.BoolVar(&f.report, "report", true, "write the summary, charts and index.html at the end (-report=false: results.csv and run.json only)")
	fs.BoolVar(&f.gzip, "gzip", true, "once the run is finished and its report written, gzip results.csv into results.csv.gz, which every command reads (-gzip=false: keep it plain); an unfinished run, and -report=false, leave it plain")
	fs.IntVar(&f.variants.n, "variants", 0, "with the report of a finished run, first tell hard from unlucky: each strategy's 10 hardest puzzles by calls in `K` random variants each (as batch report -variants K; the cost bound is printed first); 0: none")
	fs.IntVar(&f.variants.seeds, "variants-seeds", variants.DefaultSeeds, "with -variants, `seeds` per orientation of a randomized strategy")
	addExtFlags(fs, &f.ext)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := f.ext.resolve(); err != nil {
		return err
	}
	if f.variants.n < 0 || f.variants.seeds < 1 {
		return usageErr("-variants %d -variants-seeds %d: want -variants >= 0 and -variants-seeds >= 1", f.variants.n, f.variants.seeds)
	}
	set := cli.Given(fs)
	f.solversSet = set["solvers"]

	settings, err := settingsFromFlags(&f, fs.Args())
	if err != nil {
		return err
	}
	if f.autoShard != "" {
		fmt.Fprintf(e.stderr, "batch: -shard %s: shard %s, of %s\n", f.autoShard, settings.Shard, rundir.ThisJob(os.Getenv))
	}
	if fs.NArg() == 0 && !f.resume && stdinHoldsInput(e.stdin) {
		// Not refused: schedulers run nightly jobs with a pipe on stdin.
		fmt.Fprintf(e.stderr, "batch: reading the default corpus (%s); standard input is not read: give - to sweep it\n", defaultCorpus)
	}
	if limit := maxWorkers(); f.workers > limit {
		fmt.Fprintf(e.stderr, "batch: -workers %d capped at %d: more workers than a few per CPU only share the CPUs (%d here), and each holds units in flight\n",
			f.workers, limit, runtime.NumCPU())
		f.workers = limit
	}
	if f.cpuprof != "" {
		if f.profile, err = os.Create(f.cpuprof); err != nil {
			return usageErr("-cpuprofile: %v", err)
		}
		defer f.profile.Close()
	}
	var dir *rundir.Dir
	start := time.Now()
	defer func() { f.externals.Close() }()
	if f.resume {
		if dir, settings, err = resumeRun(e, &f, set, fs.Args(), settings); err == nil {
			if err = checkUnchanged(dir.Path, settings.External); err == nil {
				err = startRunExternals(e, &f, specsOf(settings), &settings)
			}
			if err != nil {
				dir.Release()
			}
		}
	} else if err = startRunExternals(e, &f, f.ext.specs, &settings); err == nil {
		dir, err = createRun(e, &f, settings, start)
	}
	if err != nil {
		return err
	}
	return sweep(e, &f, dir, settings, start)
}

// startRunExternals starts the external solvers of the sweep among specs
// (those of s.Solvers), before the run directory is made or resumed: a
// program that does not start leaves nothing behind. A new run records
// them in s.External.
func startRunExternals(e *env, f *runFlags, specs []external.Spec, s *rundir.Settings) error {
	if len(specs) == 0 {
		return nil
	}
	xs, err := startExternals(e, specs, s.Solvers, f.ext.options(f.workers, s.Unique))
	if err != nil {
		return err
	}
	f.externals = xs
	if !f.resume {
		s.External = recordsOf(xs)
	}
	return nil
}

// settingsFromFlags turns the flags into the settings recorded in run.json.
func settingsFromFlags(f *runFlags, corpora []string) (rundir.Settings, error) {
	if f.runs < 1 || f.runs > rundir.MaxRuns {
		return rundir.Settings{}, usageErr("-runs %d: want 1 to %d", f.runs, rundir.MaxRuns)
	}
	if rundir.IsAutoShard(f.shard) {
		shard, err := rundir.AutoShard(f.shard, os.Getenv)
		if err != nil {
			return rundir.Settings{}, usageErr("-shard %v", err)
		}
		f.autoShard, f.shard = f.shard, shard
	}
	s := rundir.Settings{TimeoutNS: int64(f.timeout), Timeout: f.timeout.String(), MaxCalls: f.maxCalls,
		Seed: f.seed, Range: f.rng, Limit: f.limit, Shard: f.shard, Unique: f.unique, Corpora: corpora, Runs: f.runs}
	if f.timeout < 0 {
		return s, usageErr("-timeout %s: want a duration >= 0", f.timeout)
	}
	if f.workers < 1 {
		return s, usageErr("-workers %d: want at least 1", f.workers)
	}
	if f.limit < 0 {
		return s, usageErr("-limit %d: want a number >= 0", f.limit)
	}
	names, err := solverNames(f.solvers, f.ext.specs.Names())
	if err != nil {
		return s, err
	}
	if !f.solversSet {
		names = append(solvers.Defaults(), f.ext.specs.Names()...)
	}
	s.Solvers = names
	if f.ids != "" {
		if s.IDs, err = rundir.ParseIDs(f.ids); err != nil {
			return s, usageErr("-ids: %v", err)
		}
	}
	if f.rng != "" {
		if a, b, ok := strings.Cut(f.rng, ":"); ok && a != "" && a == b {
			return s, usageErr("the selection matches no puzzle: -range %s is empty (a:b selects a <= id < b)", f.rng)
		}
		if _, _, err := rundir.ParseRange(f.rng); err != nil {
			return s, usageErr("-range: %v", err)
		}
	}
	if f.shard != "" {
		if _, _, err := rundir.ParseShard(f.shard); err != nil {
			return s, usageErr("-shard: %v; or auto: the shard of a Slurm job array's task or a Kubernetes Indexed Job's pod", err)
		}
	}
	if len(s.Corpora) == 0 {
		s.Corpora = []string{defaultCorpus}
	}
	seen := map[string]bool{}
	for _, c := range s.Corpora {
		// A path that run.json or results.csv could not record as given
		// (a line break, bytes that are not UTF-8) is refused up front:
		// a run over it could not be resumed.
		if err := rundir.CheckCorpusPath(c); err != nil {
			return s, usageErr("%v", err)
		}
		if seen[c] {
			return s, usageErr("corpus %s is given twice", c)
		}
		seen[c] = true
	}
	if err := s.Validate(); err != nil {
		return s, usageErr("%v", err) // the checks above should have caught it
	}
	return s, nil
}

// solverNames resolves -solvers (solvers.Choose): a usage error.
func solverNames(list string, ext []string) ([]string, error) {
	names, err := solvers.Choose(list, ext)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return names, nil
}

// maxWorkers is the most workers a run starts: more than a few per CPU
// only share the CPUs, and each worker holds batches of units in flight,
// so the reorder window (and memory) grows with the count.
func maxWorkers() int { return max(256, 4*runtime.NumCPU()) }

// createRun identifies the corpora (a missing one exits 2), then creates
// the run directory with run.json recording them.
func createRun(e *env, f *runFlags, s rundir.Settings, start time.Time) (*rundir.Dir, error) {
	corpora, err := corpus.Identify(e.ctx, s.Corpora)
	if err != nil {
		if e.ctx.Err() != nil {
			return nil, e.ctx.Err()
		}
		return nil, &exitError{exitUsage, err}
	}
	out := f.out
	if out == "" {
		if err := os.MkdirAll(rundir.DefaultRoot, 0o755); err != nil {
			return nil, &exitError{exitUsage, fmt.Errorf("creating %s: %w", rundir.DefaultRoot, err)}
		}
		out = filepath.Join(rundir.DefaultRoot, rundir.NewRunID(rundir.DefaultRoot, start))
	}
	info := &rundir.Manifest{Tool: "sudokubatch", RunID: filepath.Base(out), Start: start.UTC(), Settings: s, Corpora: corpora}
	if f.highlight != "" {
		ids, none, err := parseHighlight(f.highlight)
		if err != nil {
			return nil, usageErr("-highlight: %v", err)
		}
		info.Highlight, info.NoHighlight = ids, none
	}
	dir, err := rundir.Create(out, info)
	if err != nil {
		// Whatever stops the creation of the directory (it holds a run or
		// other files, it cannot be made: -out /proc/x) is a bad -out.
		return nil, &exitError{exitUsage, err}
	}
	return dir, nil
}

// latestRun returns the run directory that results/latest points at.
func latestRun() string {
	out := filepath.Join(rundir.DefaultRoot, rundir.LatestLink)
	if target, err := filepath.EvalSymlinks(out); err == nil {
		return target
	}
	return out
}

// resumeRun opens the run to finish. Its settings come from run.json;
// flags that decide rows may be repeated but must agree.
func resumeRun(e *env, f *runFlags, set map[string]bool, corpora []string, flags rundir.Settings) (*rundir.Dir, rundir.Settings, error) {
	out := f.out
	if out == "" {
		out = latestRun()
	}
	dir, err := rundir.Resume(out, corpus.VerifyRun(e.ctx, out))
	if err != nil {
		if e.ctx.Err() != nil {
			return nil, flags, e.ctx.Err()
		}
		return nil, flags, &exitError{exitUsage, err}
	}
	s := dir.Manifest.Settings
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
		{"runs", flags.Runs == s.Runs || (s.Runs == 0 && flags.Runs == rundir.MaxRuns)},
		{"ext", sameSpecs(f.ext.specs, s.External)},
		{"ext-files", sameSpecs(f.ext.specs, s.External)},
	}
	for _, c := range conflicts {
		if set[c.flag] && !c.same {
			dir.Release()
			return nil, s, usageErr("-resume: -%s differs from the run's setting in %s/run.json; resume with the run's settings (omit -%s)", c.flag, out, c.flag)
		}
	}
	if len(corpora) > 0 && !slices.Equal(corpora, s.Corpora) {
		dir.Release()
		return nil, s, usageErr("-resume: corpora %v differ from the run's %v", corpora, s.Corpora)
	}
	if dir.Manifest.Status == rundir.Finished {
		fmt.Fprintf(e.stderr, "batch: %s is already finished; checking that every unit is there\n", out)
	}
	fmt.Fprintf(e.stderr, "batch: resuming %s: %s already done\n", out, report.Count(dir.Rows(), "row", "rows"))
	for i, c := range dir.Manifest.Corpora {
		if c.Stream && !c.Complete && c.Path == "-" {
			fmt.Fprintf(e.stderr, "batch: the run read %d bytes of standard input (kept in %s): give the same input again, it is checked against them\n",
				c.Size, filepath.Join(out, rundir.StreamFile(i)))
		}
	}
	return dir, s, nil
}
