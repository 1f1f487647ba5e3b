package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/internal/progress"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/variants"
)

// defaultVariantsSample is how many puzzles of the corpus are solved for
// the strategies' corpus medians when no run gives them.
const defaultVariantsSample = 200

// minSampleCorpus: a corpus of fewer puzzles is not sampled for the
// corpus medians; the default corpus is.
const minSampleCorpus = 50

func variantsMain(e *env, args []string) error {
	fs := newFlagSet(e, "variants", "ID [-n K] [-seeds M] [-solvers LIST] [flags]",
		"Tell whether puzzle ID is hard for each strategy or met it in a bad orientation: solve the original\n"+
			"and K random variants of it (isomorphs: digits relabelled, bands, rows, stacks and columns\n"+
			"reordered, transposed; each as a replayable transform for batch show -transform), a randomized\n"+
			"strategy under M seeds per orientation, through the sweep's timing; print per strategy the\n"+
			"distribution of calls (they lead) and time over the variants, where the original stands in it,\n"+
			"and the verdict: hard (the variants' median far above the strategy's corpus median), unlucky\n"+
			"(the original in the upper tail of its variants) or typical (docs/VARIANTS.md). The corpus\n"+
			"medians come from the run (-run, default results/latest, when its corpus is the puzzle's), else\n"+
			"from a sample of the corpus. Writes variants.json and a strip chart per strategy in -out.",
		"  batch variants 39949                               # 100 variants, the default strategies\n"+
			"  batch variants 0 -corpus hard.txt -solvers backtrack,dlx -n 200\n"+
			"  batch variants 39949 -solvers randmrv -seeds 20     # seed luck and orientation luck\n")
	corpusFlag := fs.String("corpus", "", "corpus `file` holding the puzzle; - for stdin (default: the run's first corpus, else "+defaultCorpus+")")
	runFlag := fs.String("run", "", "run `directory` whose medians the verdicts use; '' for none (default: results/latest when it exists)")
	solverList := fs.String("solvers", strings.Join(solvers.Defaults(), ","), "comma-separated `strategies`, or all for every one")
	n := fs.Int("n", variants.DefaultN, "random `variants` beside the original")
	seeds := fs.Int("seeds", variants.DefaultSeeds, "`seeds` per orientation for the randomized strategies")
	drawSeed := fs.Uint64("draw-seed", 1, "`seed` of the draw of the variants")
	seed := fs.Uint64("seed", 0, "run `seed` the puzzle's seed derives from (default: the run's, else 1)")
	timeout := fs.Duration("timeout", defaultShowTimeout, "time limit per solve; 0 for none")
	maxCalls := fs.Uint64("max-calls", 0, "limit on a solve's `calls` (deterministic); 0 for none")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines solving")
	sample := fs.Int("sample", defaultVariantsSample, "puzzles of the corpus solved for the corpus medians when no run gives them; 0 for none")
	out := fs.String("out", "", "output `directory` (default: results/variants/ID, or results/variants/CORPUS-ID for another corpus)")
	svg := fs.Bool("svg", false, "write the strip charts as SVG as well as PNG")
	asJSON := fs.Bool("json", false, "print variants.json instead of the text")
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
	switch {
	case *n < 1:
		return usageErr("-n %d: want 1 or more variants", *n)
	case *seeds < 1:
		return usageErr("-seeds %d: want 1 or more", *seeds)
	case *timeout < 0:
		return usageErr("-timeout %s: want a duration >= 0", *timeout)
	case *workers < 1:
		return usageErr("-workers %d: want 1 or more", *workers)
	case *sample < 0:
		return usageErr("-sample %d: want 0 or more", *sample)
	}
	list := *solverList
	if !set["solvers"] {
		list = solvers.DefaultList(ext.specs.Names())
	}
	names, err := solverNames(list, ext.specs.Names())
	if err != nil {
		return err
	}
	run, runDir, err := showRun(e, *runFlag, set["run"])
	if err != nil {
		return err
	}
	path, file, err := showCorpus(run, runDir, *corpusFlag)
	if err != nil {
		return err
	}
	ent, info, err := findShown(e, path, file, id)
	if err != nil {
		return err
	}
	show := &report.PuzzleShow{Corpus: path, Entry: ent}
	corpusIndex := -1
	if run != nil {
		if corpusIndex, err = placeShown(e, show, run, runDir, info.SHA256, set["run"]); err != nil {
			return err
		}
	}
	if !set["seed"] {
		*seed = 1
		if corpusIndex >= 0 && run.Manifest != nil {
			*seed = run.Manifest.Settings.Seed
		}
	}
	xs, err := startExternals(e, ext.specs, names, ext.options(*workers, false))
	if err != nil {
		return err
	}
	defer xs.Close()
	ss, err := solvers.Resolve(names, xs.Solvers())
	if err != nil {
		return err
	}
	cfg := variants.Config{Solvers: ss, N: *n, Seeds: *seeds, DrawSeed: *drawSeed, RunSeed: *seed,
		Timeout: *timeout, MaxCalls: *maxCalls, Workers: *workers}
	pz := variants.Puzzle{Corpus: path, CorpusIndex: max(corpusIndex, 0), ID: id, Puzzle: ent.Puzzle}
	// The bound first, before the corpus medians are sampled: an
	// analysis that cannot fit is refused at once.
	cost, err := variants.CostOf(cfg, []variants.Puzzle{pz})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "batch: %s of #%d: %s (%s)…\n", report.Count(*n+1, "orientation", "orientations"), id,
		report.Count(int(cost.Solves), "solve", "solves"), report.LimitText(*timeout, *maxCalls))
	if err := cost.Fits(); err != nil {
		return usageErr("-n %d -seeds %d: %v; nothing analysed", *n, *seeds, err)
	}

	medians, why := runMedians(runDir, run, corpusIndex, names)
	if why != "" {
		e.notef("batch: %s\n", why)
	}
	if missing := missingMedians(names, medians); len(missing) > 0 && *sample > 0 {
		// A corpus of a few puzzles (one's own hard puzzle) has no median
		// worth the name: the default corpus's is the reference then.
		from, count := file, info.Puzzles
		if count < minSampleCorpus {
			from = defaultCorpus
			if count, err = corpusCount(e.ctx, from); err != nil {
				return err
			}
		}
		if from == "-" {
			e.notef("batch: no corpus medians for %s: a corpus on standard input is read once (give a run with -run)\n", strings.Join(missing, ", "))
		} else {
			e.notef("batch: corpus medians of %s from a sample of %d puzzles of %s (%s)…\n",
				strings.Join(missing, ", "), min(*sample, count), from, report.LimitText(*timeout, *maxCalls))
			sampled, err := variants.SampleMedians(e.ctx, cfg, from, count, *sample, missing)
			if err != nil {
				return err
			}
			maps.Copy(medians, sampled)
		}
	}
	cfg.Medians = medians

	disp := progress.New(e.stderr, progress.IsTerminal(e.stderr), 5*time.Second)
	disp.SetTotal(int(cost.Solves))
	cfg.Progress = disp
	v, err := variants.Analyze(e.ctx, cfg, []variants.Puzzle{pz})
	disp.Finish()
	if err != nil {
		if e.ctx.Err() != nil {
			e.notef("batch: variants: nothing written (a verdict needs every solve of its strategy)\n")
			return e.ctx.Err()
		}
		return err
	}

	dir := *out
	if dir == "" {
		name := strconv.Itoa(id)
		if path != defaultCorpus {
			name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-" + name
		}
		dir = filepath.Join(rundir.DefaultRoot, "variants", name)
	}
	written, err := writeVariants(dir, v, *svg)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(append(b, '\n'))
		return err
	}
	t := &report.VariantsText{V: v, Corpus: path, ID: id, Replay: report.ShellCommand(variants.ReplayArgs(id, path, defaultCorpus, cfg)) + " -transform"}
	if err := t.WriteText(e.stdout, e.width()); err != nil {
		return err
	}
	fprintf(e.stdout, e.width(), "\nWrote %s: %s and %s.\n", dir, rundir.VariantsFile, report.Count(len(written)-1, "strip chart", "strip charts"))
	for _, a := range v.Analyses {
		if a.Original.Status == solvers.StatusWrong.String() || wrongIn(a.Variants) {
			return &exitError{exitWrong, fmt.Errorf("wrong solution from %s on a variant: a strategy has a bug", a.Solver)}
		}
	}
	return nil
}

// writeVariants writes variants.json and the strip charts into dir and
// returns the files written.
func writeVariants(dir string, v *rundir.Variants, svg bool) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, rundir.VariantsFile)
	if err := rundir.WriteVariants(path, v); err != nil {
		return nil, err
	}
	charts, err := stripCharts(dir, v, svg)
	if err != nil {
		return nil, err
	}
	return append([]string{path}, charts...), nil
}

func wrongIn(us []rundir.VariantUnit) bool {
	for _, u := range us {
		if u.Status == solvers.StatusWrong.String() {
			return true
		}
	}
	return false
}

// runMedians reads the strategies' corpus medians from the run's
// summary.json when it is the run's and its corpus is the puzzle's; the
// second result says why not ("" when it was read, or with no run).
func runMedians(runDir string, run *report.Run, corpusIndex int, names []string) (map[string]variants.CorpusMedian, string) {
	medians := map[string]variants.CorpusMedian{}
	if run == nil || corpusIndex < 0 {
		return medians, ""
	}
	b, err := os.ReadFile(filepath.Join(runDir, rundir.SummaryJSON))
	if err != nil {
		return medians, fmt.Sprintf("no %s in %s (batch report %s writes it): corpus medians from a sample", rundir.SummaryJSON, runDir, runDir)
	}
	var sum report.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return medians, fmt.Sprintf("%s: %v: corpus medians from a sample", filepath.Join(runDir, rundir.SummaryJSON), err)
	}
	if run.Manifest != nil && (sum.Run == nil || sum.Run.RunID != run.Manifest.RunID) {
		return medians, fmt.Sprintf("%s is not the run's (batch report %s rewrites it): corpus medians from a sample", filepath.Join(runDir, rundir.SummaryJSON), runDir)
	}
	for _, st := range sum.Strategies {
		if st.Measured == 0 {
			continue
		}
		medians[st.Solver] = variants.CorpusMedian{Calls: st.Calls.Median.Value, NS: st.TimeNS.Median.Value,
			From: fmt.Sprintf("run %s (%d puzzles)", runDir, st.Measured)}
	}
	return medians, ""
}

func missingMedians(names []string, medians map[string]variants.CorpusMedian) []string {
	var missing []string
	for _, n := range names {
		if _, ok := medians[n]; !ok {
			missing = append(missing, n)
		}
	}
	return missing
}

// corpusCount counts the puzzles of the corpus file (its units under
// one strategy).
func corpusCount(ctx context.Context, file string) (int, error) {
	return pipeline.CountUnits(ctx, pipeline.Config{Corpora: []string{file}, Solvers: []solvers.Solver{solvers.All()[0].Solver}})
}
