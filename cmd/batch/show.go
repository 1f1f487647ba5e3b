package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
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
		"  batch show 39949                                   # the default corpus, ranks in results/latest\n"+
			"  batch show 0 -run results/20261121-230501          # the run's corpus, ranks in that run\n"+
			"  batch show 12 -corpus puzzles.txt.gz -run ''       # another corpus, no ranks\n"+
			"  batch show 39949 -solvers all -timeout 60s         # every strategy, a minute each\n"+
			"  echo 4000300200040020 | batch show 0 -corpus -     # a puzzle of your own\n")
	corpus := fs.String("corpus", "", "corpus `file` holding the puzzle; - for stdin (default: the run's first corpus, else "+defaultCorpus+")")
	runFlag := fs.String("run", "", "run `directory` to rank the puzzle in; '' for none (default: results/latest when it exists)")
	solverList := fs.String("solvers", "all", "comma-separated `strategies` to run, in that order, or all for every one; not empty")
	timeout := fs.Duration("timeout", defaultShowTimeout, "time limit per strategy, e.g. 100ms, 1m; 0 for none")
	maxCalls := fs.Uint64("max-calls", 0, "limit on a strategy's `calls` (deterministic); 0 for none")
	seed := fs.Uint64("seed", 0, "run `seed` for the randomized strategies (default: the run's seed, else 1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if fs.NArg() != 1 {
		return usageErr("show needs one puzzle ID; got %d %s; see batch show -h", fs.NArg(), pluralWord(fs.NArg(), "argument", "arguments"))
	}
	id, err := strconv.Atoi(strings.TrimPrefix(fs.Arg(0), "#"))
	if err != nil || id < 0 {
		return usageErr("puzzle ID %q: want a 0-based puzzle number, e.g. 39949 or #39949", fs.Arg(0))
	}
	if *timeout < 0 {
		return usageErr("-timeout %s: want a duration >= 0", *timeout)
	}
	names, err := solverNames(*solverList)
	if err != nil {
		return err
	}

	// The run to rank in: -run, else results/latest when it holds a run.
	runDir := *runFlag
	if !set["run"] {
		latest := filepath.Join(rundir.DefaultRoot, "latest")
		if _, err := os.Stat(filepath.Join(latest, rundir.ResultsFile)); err == nil {
			runDir = latest
		}
	}
	var run *report.Run
	if runDir != "" {
		if run, err = report.LoadRun(e.ctx, runDir); err != nil {
			if e.ctx.Err() != nil {
				return e.ctx.Err()
			}
			return &exitError{exitUsage, err}
		}
	}

	// The corpus: -corpus, else the run's first, else the default.
	path := *corpus
	var runCorpora []string // the run's corpora, in the order their seeds derive from
	if run != nil {
		runCorpora = run.Results.Corpora
		if run.Manifest != nil && len(run.Manifest.Settings.Corpora) > 0 {
			runCorpora = run.Manifest.Settings.Corpora
		}
	}
	if path == "" {
		path = defaultCorpus
		if len(runCorpora) > 0 {
			path = runCorpora[0]
		}
	}
	if *corpus == "" && run != nil && path != "-" {
		if _, err := os.Stat(path); err != nil {
			return usageErr("the corpus of run %s, %s, is not here (%v); name it with -corpus FILE", runDir, path, errors.Unwrap(err))
		}
	}
	ent, found, info, err := pipeline.FindPuzzle(e.ctx, path, e.stdin, id)
	switch {
	case err != nil && e.ctx.Err() != nil:
		return err
	case err != nil:
		return &exitError{exitUsage, fmt.Errorf("looking for puzzle #%d: %w", id, err)}
	case !found && info.Puzzles == 0:
		return usageErr("corpus %s has no puzzle: no puzzle #%d", path, id)
	case !found:
		return usageErr("corpus %s has %d %s (ids 0 to %d): no puzzle #%d", path, info.Puzzles,
			pluralWord(info.Puzzles, "puzzle", "puzzles"), info.Puzzles-1, id)
	case ent.Err != nil:
		return usageErr("puzzle #%d is not a puzzle: %v", id, ent.Err)
	}

	// The puzzle's corpus in the run: same name, else same SHA-256.
	show := &report.PuzzleShow{Corpus: path, Entry: ent, Solutions: -1, Run: runDir}
	corpusIndex, runCorpus := -1, ""
	if run != nil {
		corpusIndex, runCorpus = matchRunCorpus(run, runCorpora, path, info)
		switch {
		case corpusIndex < 0 && set["run"]:
			return usageErr("corpus %s is not a corpus of run %s (its corpora: %s); choose one with -corpus", path, runDir, strings.Join(runCorpora, ", "))
		case corpusIndex < 0:
			show.Run = ""
			show.RunNote = fmt.Sprintf("No ranks: %s is a run over %s, not %s (rank in another run with -run DIR).",
				runDir, strings.Join(runCorpora, ", "), path)
			run = nil
		default:
			if runCorpus != path {
				show.RunLabel = runCorpus
			}
			if sha := runCorpusSHA(run, runCorpus); sha != "" && info.SHA256 != "" && sha != info.SHA256 {
				fmt.Fprintf(e.stderr, "batch: warning: %s has changed since run %s (SHA-256 differs): the run's #%d may be another puzzle\n", path, runDir, id)
			}
		}
	} else if !set["run"] {
		show.RunNote = fmt.Sprintf("No ranks: no run in %s (rank in a run with -run DIR).", filepath.Join(rundir.DefaultRoot, "latest"))
	}
	runSeed := *seed
	if !set["seed"] {
		runSeed = 1 // the default of batch run
		if run != nil && run.Manifest != nil {
			runSeed = run.Manifest.Settings.Seed
		}
	}

	// The strategies, one after the other, as a run would run them.
	cfg := pipeline.Config{Corpora: []string{path}, Timeout: *timeout, MaxCalls: *maxCalls, Seed: runSeed}
	for _, name := range names {
		s, _ := solvers.Lookup(name)
		cfg.Solvers = append(cfg.Solvers, s.Solver)
	}
	at := 0
	if corpusIndex >= 0 {
		cfg.Corpora = slices.Clone(runCorpora)
		cfg.Corpora[corpusIndex] = path
		at = corpusIndex
	}
	if fd, ok := e.stderr.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(fd.Fd())) {
		fmt.Fprintf(e.stderr, "batch: running %d strategies on #%d (at most %s each)…\n", len(cfg.Solvers), id, limitText(*timeout, *maxCalls))
	}
	ctx := e.ctx
	show.Units = pipeline.SolveEntry(ctx, cfg, at, ent)
	if err := ctx.Err(); err != nil {
		return err
	}
	show.Limits = fmt.Sprintf("%s per strategy, seed %d", limitText(*timeout, *maxCalls), runSeed)
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if *timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, *timeout)
	}
	if n, err := solvers.CountSolutions(cctx, ent.Puzzle, 2); err == nil {
		show.Solutions = n
	}
	cancel()
	if err := ctx.Err(); err != nil {
		return err
	}

	if run != nil {
		show.Ranks = report.RankPuzzle(run.Results, runCorpus, id)
		show.RunSize = run.Results.Puzzles
		for _, r := range show.Ranks {
			if r.Found && r.Unit.Puzzle.Line != ent.Line {
				fmt.Fprintf(e.stderr, "batch: warning: run %s has #%d of %s on line %d, the corpus now on line %d: it may be another puzzle\n",
					runDir, id, runCorpus, r.Unit.Puzzle.Line, ent.Line)
				break
			}
		}
	}
	if err := show.WriteText(e.stdout); err != nil {
		return err
	}
	if wrong := show.Wrong(); len(wrong) > 0 {
		return &exitError{exitWrong, fmt.Errorf("wrong solution from %s: a strategy has a bug", strings.Join(wrong, ", "))}
	}
	return nil
}

// matchRunCorpus finds the corpus at path among the run's corpora: by
// name, else by the SHA-256 recorded in run.json. It returns its index
// (-1 if none) and its name in the run.
func matchRunCorpus(run *report.Run, runCorpora []string, path string, info rundir.CorpusInfo) (int, string) {
	for i, c := range runCorpora {
		if filepath.Clean(c) == filepath.Clean(path) {
			return i, c
		}
	}
	for i, c := range runCorpora {
		if sha := runCorpusSHA(run, c); sha != "" && sha == info.SHA256 {
			return i, c
		}
	}
	return -1, ""
}

// runCorpusSHA returns the SHA-256 the run recorded for corpus name, or "".
func runCorpusSHA(run *report.Run, name string) string {
	if run.Manifest == nil {
		return ""
	}
	for _, c := range run.Manifest.Corpora {
		if c.Path == name {
			return c.SHA256
		}
	}
	return ""
}

// limitText says how a strategy is stopped: "timeout 10s", "no timeout,
// at most 1000 calls".
func limitText(timeout time.Duration, maxCalls uint64) string {
	parts := []string{"no timeout"}
	if timeout > 0 {
		parts[0] = "timeout " + timeout.String()
	}
	if maxCalls > 0 {
		parts = append(parts, fmt.Sprintf("at most %d calls", maxCalls))
	}
	return strings.Join(parts, ", ")
}
