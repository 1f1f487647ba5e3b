package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/internal/cli"
	"sudokubatch/internal/progress"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
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
		"  batch show 39949                                   # the default corpus, ranks in results/latest\n"+
			"  batch show 0 -run results/20261121-230501          # the run's corpus, ranks in that run\n"+
			"  batch show 12 -corpus puzzles.txt.gz -run ''       # another corpus, no ranks\n"+
			"  batch show 39949 -solvers all -timeout 60s         # every strategy, a minute each\n"+
			"  batch show 39949 -transform R876543210C876543210   # its 180-degree turn\n"+
			"  echo 4000300200040020 | batch show 0 -corpus -     # a puzzle of your own\n")
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
	run, runDir, err := showRun(e, *runFlag, set["run"])
	if err != nil {
		return err
	}
	names, fromRun, err := showSolvers(*solverList, run, ext.specs.Names())
	if err != nil {
		return err
	}
	xs, err := startExternals(e, ext.specs, names, ext.options(1, false))
	if err != nil {
		return err
	}
	defer xs.Close()

	path, file, err := showCorpus(run, runDir, *corpusFlag)
	if err != nil {
		return err
	}
	ent, info, err := findShown(e, path, file, id)
	if err != nil {
		return err
	}

	// The puzzle's corpus in the run: same name, else same SHA-256.
	show := &report.PuzzleShow{Corpus: path, Entry: ent, Solutions: -1, Uncounted: xs.Uncounted()}
	if *transform != "" {
		tr, err := solvers.ParseTransform(*transform, ent.Puzzle.Box)
		if err != nil {
			return usageErr("-transform: %v", err)
		}
		show.Entry.Puzzle = tr.ApplyPuzzle(ent.Puzzle)
		if !tr.IsIdentity() {
			show.Transform = tr.String()
		}
	}
	corpusIndex := -1
	if run != nil {
		if corpusIndex, err = placeShown(e, show, run, runDir, info.SHA256, set["run"]); err != nil {
			return err
		}
		if corpusIndex < 0 {
			run = nil
		}
	} else if !set["run"] {
		show.RunNote = fmt.Sprintf("No ranks: no run in %s (rank in a run with -run DIR).", filepath.Join(rundir.DefaultRoot, "latest"))
	}
	if !set["seed"] {
		*seed = 1 // the default of batch run
		if run != nil && run.Manifest != nil {
			*seed = run.Manifest.Settings.Seed
		}
	}
	cfg, at := showConfig(names, xs, path, run, corpusIndex, *timeout, *maxCalls, *seed)
	if progress.IsTerminal(e.stderr) {
		e.notef("batch: running %s on #%d (at most %s each)…\n", report.Count(len(cfg.Solvers), "strategy", "strategies"), id, report.LimitText(*timeout, *maxCalls))
	}
	if err := solveShown(e.ctx, show, cfg, at, *timeout, *maxCalls); err != nil {
		return err
	}
	if run != nil {
		show.NotRun = fromRunNote(fromRun)
		if w := show.RankIn(run, run.CorpusNames()[at]); w != "" {
			e.notef("batch: warning: %s\n", w)
		}
	}
	if err := show.WriteText(e.stdout, e.width()); err != nil {
		return err
	}
	if wrong := show.Wrong(); len(wrong) > 0 {
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

// showRun loads the run to rank in: -run (flag, set when given), else
// results/latest when it holds a run; nil and "" for none.
func showRun(e *env, flag string, set bool) (*report.Run, string, error) {
	runDir := flag
	if !set {
		latest := filepath.Join(rundir.DefaultRoot, "latest")
		if _, err := rundir.RowsPath(latest); err == nil {
			runDir = latest
		}
	}
	if runDir == "" {
		return nil, "", nil
	}
	run, err := report.LoadRun(e.ctx, runDir)
	if err != nil {
		if e.ctx.Err() != nil {
			return nil, "", e.ctx.Err()
		}
		return nil, "", &exitError{exitUsage, err}
	}
	return run, runDir, nil
}

// showCorpus chooses the corpus of the puzzle: -corpus (flag), else the
// run's first corpus, else the default. It returns its name and the file
// to read it from: the run's corpus is read where the run keeps it
// (corpus.InRun: a stream's copy in the run directory, not today's
// standard input); a file of the run that is not here is an error.
func showCorpus(run *report.Run, runDir, flag string) (path, file string, err error) {
	if flag != "" {
		return flag, flag, nil
	}
	if run == nil || len(run.CorpusNames()) == 0 {
		return defaultCorpus, defaultCorpus, nil
	}
	path = run.CorpusNames()[0]
	if file = corpus.InRun(runDir, run.Manifest, 0); file == "" {
		file = path
	}
	if _, err := corpus.Classify(file); err != nil {
		return "", "", usageErr("the corpus of run %s, %s, is not here (%v); name it with -corpus FILE", runDir, path, errors.Unwrap(err))
	}
	return path, file, nil
}

// findShown finds puzzle id in the corpus named path, read from file
// ("-": standard input); a corpus that cannot be read, a missing id or a
// line that is not a puzzle is a usage error.
func findShown(e *env, path, file string, id int) (corpus.Entry, rundir.CorpusInfo, error) {
	var stdin io.Reader // nil unless the corpus is standard input
	if file == "-" {
		stdin = e.stdin
	}
	ent, found, info, err := corpus.Find(e.ctx, file, stdin, id)
	switch {
	case err != nil && e.ctx.Err() != nil:
		return ent, info, err
	case err != nil:
		return ent, info, &exitError{exitUsage, fmt.Errorf("looking for puzzle #%d: %w", id, err)}
	case !found && info.Puzzles == 0:
		return ent, info, usageErr("corpus %s has no puzzle: no puzzle #%d", path, id)
	case !found:
		return ent, info, usageErr("corpus %s has %d %s (ids 0 to %d): no puzzle #%d", path, info.Puzzles,
			report.Plural(info.Puzzles, "puzzle", "puzzles"), info.Puzzles-1, id)
	case ent.Err != nil:
		return ent, info, usageErr("puzzle #%d is not a puzzle: %v", id, ent.Err)
	}
	return ent, info, nil
}

// placeShown finds the shown puzzle's corpus (SHA-256 sha) in run
// (PuzzleShow.PlaceIn) and prints the warnings; not found, it is a usage
// error when the run was named (-run), else it returns -1 (no ranks).
func placeShown(e *env, show *report.PuzzleShow, run *report.Run, runDir, sha string, named bool) (int, error) {
	at, warns := show.PlaceIn(run, runDir, sha)
	if at < 0 && named {
		return -1, usageErr("corpus %s is not a corpus of run %s (its corpora: %s); choose one with -corpus",
			show.Corpus, runDir, strings.Join(run.CorpusNames(), ", "))
	}
	for _, w := range warns {
		e.notef("batch: warning: %s\n", w)
	}
	return at, nil
}

// showConfig is the configuration that runs the strategies names on
// the shown puzzle as a run would run them, and the index of its corpus:
// in a run (at corpusIndex >= 0), among the run's corpora, so that the
// seeds are the run's.
func showConfig(names []string, xs external.Set, path string, run *report.Run, corpusIndex int, timeout time.Duration, maxCalls, seed uint64) (pipeline.Config, int) {
	cfg := pipeline.Config{Corpora: []string{path}, Timeout: timeout, MaxCalls: maxCalls, Seed: seed}
	cfg.Solvers, _ = solvers.Resolve(names, xs.Solvers()) // names chosen by showSolvers
	if corpusIndex < 0 {
		return cfg, 0
	}
	cfg.Corpora = slices.Clone(run.CorpusNames())
	cfg.Corpora[corpusIndex] = path
	return cfg, corpusIndex
}

// solveShown runs cfg's strategies on the shown puzzle (corpus at of
// cfg.Corpora), then counts its solutions within timeout; it returns
// ctx.Err() when ctx is canceled.
func solveShown(ctx context.Context, show *report.PuzzleShow, cfg pipeline.Config, at int, timeout time.Duration, maxCalls uint64) error {
	show.Units = pipeline.SolveEntry(ctx, cfg, at, show.Entry)
	if err := ctx.Err(); err != nil {
		return err
	}
	show.Limits = fmt.Sprintf("%s per strategy, seed %d", report.LimitText(timeout, maxCalls), cfg.Seed)
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	if n, err := solvers.CountSolutions(cctx, show.Entry.Puzzle, 2); err == nil {
		show.Solutions = n
	}
	return ctx.Err()
}
