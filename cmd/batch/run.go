package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/internal/cli"
	"sudokubatch/publish"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/sweep"
	"sudokubatch/variants"
)

const (
	defaultCorpus  = corpus.Default // the file when there is one, else the copy in the binary
	defaultTimeout = 100 * time.Millisecond
	maxInvalidShow = 5
)

// runFlags are the flags of `batch run`: the sweep they ask for (req,
// checked by rundir.Request.Settings) and how it runs.
type runFlags struct {
	req       rundir.Request
	workers   int
	resume    bool
	out       string
	quiet     bool
	highlight string
	svg       bool
	report    bool
	gzip      bool
	variants  publish.VariantsRequest // -variants K -variants-seeds M: the analysis before the report; N 0: none
	cpuprof   string
	profile   *os.File // the -cpuprofile file, opened before the run is created
	ext       extFlags
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
		"  batch                                   # the defaults\n"+
			"  batch -solvers "+exampleSolvers+" -timeout 0  # two strategies, no time limit\n"+
			"  batch -ids 39949,2018 -solvers all      # two puzzles, every strategy\n"+
			"  batch -timeout 0 -max-calls 10000000    # a deterministic nightly sweep\n"+
			"  batch -shard 1/3 -out results/shard-1   # one shard of three (see batch merge)\n"+
			"  batch -shard auto -out results/shard-$SLURM_ARRAY_TASK_ID  # a Slurm array's\n"+
			"  batch -out results/nightly -resume      # finish an interrupted run\n"+
			"  zcat big.txt.gz | batch -               # standard input\n")
	var f runFlags
	fs.StringVar(&f.req.Solvers, "solvers", strings.Join(solvers.Defaults(), ","), "comma-separated `strategies` in output order, or all for every one; not empty")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "number of `workers` solving in parallel; fewer than GOMAXPROCS: the process runs on as many processors (not with -ext, nor when GOMAXPROCS is set)")
	fs.DurationVar(&f.req.Timeout, "timeout", defaultTimeout, "time limit per (puzzle, strategy), e.g. 100ms, 10s; 0 for none")
	fs.Uint64Var(&f.req.MaxCalls, "max-calls", 0, "limit on a strategy's `calls` per puzzle (deterministic); 0 for none")
	fs.Uint64Var(&f.req.Seed, "seed", 1, "run `seed`; each puzzle's seed derives from it and the puzzle id")
	fs.StringVar(&f.req.IDs, "ids", "", "only these puzzle `ids` (0-based), e.g. 39949,2018")
	fs.StringVar(&f.req.Range, "range", "", "only ids in `a:b` (a <= id < b)")
	fs.IntVar(&f.req.Limit, "limit", 0, "only the first `n` puzzles of each corpus file; 0 for every puzzle")
	fs.StringVar(&f.req.Shard, "shard", "", "only ids with id % n == k, for shard `k/n`; auto: k and n of a Slurm job array's task (sbatch --array=0-7), auto/N: k of the task or of a Kubernetes Indexed Job's pod (JOB_COMPLETION_INDEX), n = N")
	fs.BoolVar(&f.resume, "resume", false, "finish the run in -out (default: results/latest, or a newer run a killed process left running), with its settings")
	fs.StringVar(&f.out, "out", "", "run `directory` (default: results/<run-id>)")
	fs.IntVar(&f.req.Runs, "runs", rundir.MaxRuns, fmt.Sprintf("timed runs at most of a unit under 50µs whose first run reads slow (1 to %d): the row's ns is their median; 1 times each unit once and checks none for stability", rundir.MaxRuns))
	fs.BoolVar(&f.req.Unique, "unique", false, "count each puzzle's solutions (0, 1, 2 = two or more) in the solutions column")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.StringVar(&f.highlight, "highlight", "", "puzzle `ids` to mark in the report, e.g. 39949,2018, or none (default: #39949 on the default corpus)")
	fs.BoolVar(&f.svg, "svg", false, "write SVG too: a scatter of more than 5000 puzzles stays PNG only (about 120 bytes a point), and the report says so")
	fs.StringVar(&f.cpuprof, "cpuprofile", "", "write a CPU profile of the sweep to `file`, for go tool pprof")
	fs.BoolVar(&f.report, "report", true, "write the summary, charts and index.html at the end (-report=false: results.csv and run.json only)")
	fs.BoolVar(&f.gzip, "gzip", true, "once the run is finished and its report written, gzip results.csv into results.csv.gz, which every command reads (-gzip=false: keep it plain); an unfinished run, and -report=false, leave it plain")
	fs.IntVar(&f.variants.N, "variants", 0, "with the report of a finished run, first tell hard from unlucky: each strategy's 10 hardest puzzles by calls in `K` random variants each (as batch report -variants K; the cost bound is printed first); 0: none")
	fs.IntVar(&f.variants.Seeds, "variants-seeds", variants.DefaultSeeds, "with -variants, `seeds` per orientation of a randomized strategy")
	addExtFlags(fs, &f.ext)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	settings, set, err := runSettings(e, fs, &f)
	if err != nil {
		return err
	}
	if f.cpuprof != "" {
		if f.profile, err = os.Create(f.cpuprof); err != nil {
			return usageErr("-cpuprofile: %v", err)
		}
		defer f.profile.Close()
	}
	opt := sweep.Options{Settings: settings, Given: func(flag string) bool { return set[flag] }, Resume: f.resume,
		Out: f.out, Corpora: fs.Args(), Workers: f.workers, Ext: f.ext.specs, ExtOptions: f.ext.options(0, false),
		Stdin: e.stdin, Command: e.args0, Start: time.Now(), Say: func(line string) { e.notef("batch: %s\n", line) },
		Started: startedNote(e)}
	if f.highlight != "" && !f.resume {
		if opt.Highlight, opt.NoHighlight, err = parseHighlight(f.highlight); err != nil {
			return usageErr("-highlight: %v", err)
		}
	}
	sw, err := sweep.Open(e.ctx, opt)
	if err != nil {
		return err
	}
	defer sw.Close()
	return runSweep(e, &f, sw)
}

// runSettings checks the flags of run and returns the settings of the
// sweep they ask for (rundir.Request.Settings) and the flags given; it
// says on stderr which shard -shard auto took, that standard input is
// not read, and when -workers is capped.
func runSettings(e *env, fs *flag.FlagSet, f *runFlags) (rundir.Settings, map[string]bool, error) {
	if err := f.ext.resolve(); err != nil {
		return rundir.Settings{}, nil, err
	}
	if err := f.variants.Check(); err != nil {
		return rundir.Settings{}, nil, usageErr("%v", err)
	}
	if f.workers < 1 {
		return rundir.Settings{}, nil, usageErr("-workers %d: want at least 1", f.workers)
	}
	set := cli.Given(fs)
	f.req.SolversGiven, f.req.External, f.req.Corpora = set["solvers"], f.ext.specs.Names(), fs.Args()
	if len(f.req.Corpora) == 0 {
		f.req.Corpora = []string{defaultCorpus}
	}
	settings, err := f.req.Settings(os.Getenv)
	if err != nil {
		return settings, nil, usageErr("%v", err)
	}
	if rundir.IsAutoShard(f.req.Shard) {
		fmt.Fprintf(e.stderr, "batch: -shard %s: shard %s, of %s\n", f.req.Shard, settings.Shard, rundir.ThisJob(os.Getenv))
	}
	if fs.NArg() == 0 && !f.resume && corpus.HoldsInput(e.stdin) {
		// Not refused: schedulers run nightly jobs with a pipe on stdin.
		fmt.Fprintf(e.stderr, "batch: reading the default corpus (%s); standard input is not read: give - to sweep it\n", defaultCorpus)
	}
	if limit := sweep.MaxWorkers(); f.workers > limit {
		fmt.Fprintf(e.stderr, "batch: -workers %d capped at %d: more workers than a few per CPU only share the CPUs (%d here), and each holds units in flight\n",
			f.workers, limit, runtime.NumCPU())
		f.workers = limit
	}
	return settings, set, nil
}
