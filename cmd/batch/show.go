package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/internal/progress"
	"sudokubatch/report"
	"sudokubatch/show"
	"sudokubatch/solvers"
)

// defaultShowTimeout is show's time limit per strategy: every strategy
// but the exhaustive ones solves any 17-clue puzzle well within it, and
// those stop there rather than take seconds or hours.
const defaultShowTimeout = time.Second

func showMain(e *env, args []string) error {
	fs := newFlagSet(e, "show", "ID [-corpus F] [-run DIR] [flags]",
		"Print puzzle ID (0-based, as in results.csv; #39949 works too) and its solution as grids, run\n"+
			"the strategies (-solvers; default every one, exhaustive ones included) on it one after the\n"+
			"other, each stopped at -timeout (default "+defaultShowTimeout.String()+"), and print their status, time and\n"+
			"counters; every solution is checked (a wrong one exits 1). With a run (-run DIR, default\n"+
			"results/latest when it exists), also print where the puzzle ranks in it for each strategy: rank\n"+
			"by calls and by time among the strategy's measured units, percentile and multiple of the median.\n"+
			"The corpus is -corpus, else the run's first corpus, else "+defaultCorpus+". A missing id or a\n"+
			"line that is not a puzzle exits 2; Ctrl-C stops it in any phase (exit 130).",
		"  batch show 39949                                  # ranks in results/latest\n"+
			"  batch show 0 -run results/20261121-230501         # the run's corpus and ranks\n"+
			"  batch show 12 -corpus puzzles.txt.gz -run ''      # another corpus, no ranks\n"+
			"  batch show 39949 -solvers all -timeout 60s        # all, a minute each\n"+
			"  batch show 39949 -transform R876543210C876543210  # its 180-degree turn\n"+
			"  echo 4000300200040020 | batch show 0 -corpus -    # a puzzle of your own\n")
	corpusFlag := fs.String("corpus", "", "corpus `file` holding the puzzle; - for stdin (default: the run's first corpus, else "+defaultCorpus+")")
	runFlag := fs.String("run", "", "run `directory` to rank the puzzle in; '' for none (default: results/latest when it exists)")
	solverList := fs.String("solvers", "all", "comma-separated `strategies` to run, in that order, or all for every one; not empty")
	timeout := fs.Duration("timeout", defaultShowTimeout, "time limit per strategy, e.g. 100ms, 1m; 0 for none")
	maxCalls := fs.Uint64("max-calls", 0, "limit on a strategy's `calls` (deterministic); 0 for none")
	seed := fs.Uint64("seed", 0, "run `seed` for the randomized strategies (default: the run's seed, else 1)")
	transform := fs.String("transform", "", "solve the puzzle's variant under this `transform` (as batch variants prints it, e.g. R876543210C876543210: the 180-degree turn; docs/VARIANTS.md)")
	var ext extFlags
	addExtFlags(fs, &ext)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := ext.resolve(); err != nil {
		return err
	}
	set := cli.Given(fs)
	id, err := puzzleArg(fs)
	if err != nil {
		return err
	}
	if *timeout < 0 {
		return usageErr("-timeout %s: want a duration >= 0", *timeout)
	}
	run, runDir, err := show.LoadRun(e.ctx, *runFlag, set["run"])
	if err != nil {
		return inputErr(e, err)
	}
	names, fromRun, err := show.Solvers(*solverList, run, ext.specs.Names())
	if err != nil {
		return usageErr("%v", err)
	}
	xs, err := startExternals(e, ext.specs, names, ext.options(1, false))
	if err != nil {
		return err
	}
	defer xs.Close()
	p, err := findPuzzle(e, show.Request{ID: id, Corpus: *corpusFlag, Stdin: e.stdin, Run: run, RunDir: runDir, RunNamed: set["run"]})
	if err != nil {
		return err
	}
	p.Show.Uncounted = xs.Uncounted()
	if *transform != "" {
		if err := p.Transform(*transform); err != nil {
			return usageErr("-transform: %v", err)
		}
	}
	if p.Run != nil {
		p.Show.NotRun = show.NotRunNote(fromRun)
	}
	if !set["seed"] {
		*seed = p.Seed()
	}
	ss, err := solvers.Resolve(names, xs.Solvers())
	if err != nil {
		return usageErr("%v", err)
	}
	if progress.IsTerminal(e.stderr) {
		e.notef("batch: running %s on #%d (at most %s each)…\n", report.Count(len(ss), "strategy", "strategies"), id, report.LimitText(*timeout, *maxCalls))
	}
	warn, err := p.Solve(e.ctx, ss, *timeout, *maxCalls, *seed)
	if err != nil {
		return err
	}
	if warn != "" {
		e.notef("batch: warning: %s\n", warn)
	}
	if err := p.Show.WriteText(e.stdout, e.width()); err != nil {
		return err
	}
	if wrong := p.Show.Wrong(); len(wrong) > 0 {
		return &exitError{exitWrong, fmt.Errorf("wrong solution from %s: a strategy has a bug", strings.Join(wrong, ", "))}
	}
	return nil
}

// puzzleArg returns the one argument of fs's command, a puzzle id
// (0-based; #39949 works too).
func puzzleArg(fs *flag.FlagSet) (int, error) {
	if fs.NArg() != 1 {
		return 0, usageErr("%s needs one puzzle ID; got %d %s; see batch %s -h", fs.Name(), fs.NArg(), report.Plural(fs.NArg(), "argument", "arguments"), fs.Name())
	}
	id, err := strconv.Atoi(strings.TrimPrefix(fs.Arg(0), "#"))
	if err != nil || id < 0 {
		return 0, usageErr("puzzle ID %q: want a 0-based puzzle number, e.g. 39949 or #39949", fs.Arg(0))
	}
	return id, nil
}

// findPuzzle finds the puzzle of r (show.Find) and prints the warnings.
func findPuzzle(e *env, r show.Request) (*show.Puzzle, error) {
	p, warns, err := show.Find(e.ctx, r)
	if err != nil {
		return nil, inputErr(e, err)
	}
	for _, w := range warns {
		e.notef("batch: warning: %s\n", w)
	}
	return p, nil
}
