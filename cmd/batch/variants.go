package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/internal/progress"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/show"
	"sudokubatch/solvers"
	"sudokubatch/variants"
)

// defaultVariantsSample is how many puzzles of the corpus are solved for
// the strategies' corpus medians when no run gives them.
const defaultVariantsSample = 200

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
		"  batch variants 39949                            # 100 variants\n"+
			"  batch variants 0 -corpus hard.txt -solvers backtrack,dlx -n 200\n"+
			"  batch variants 39949 -solvers randmrv -seeds 20  # seed and orientation luck\n")
	var f variantsFlags
	fs.StringVar(&f.corpus, "corpus", "", "corpus `file` holding the puzzle; - for stdin (default: the run's first corpus, else "+defaultCorpus+")")
	fs.StringVar(&f.run, "run", "", "run `directory` whose medians the verdicts use; '' for none (default: results/latest when it exists)")
	fs.StringVar(&f.solvers, "solvers", strings.Join(solvers.Defaults(), ","), "comma-separated `strategies`, or all for every one")
	fs.IntVar(&f.cfg.N, "n", variants.DefaultN, "random `variants` beside the original")
	fs.IntVar(&f.cfg.Seeds, "seeds", variants.DefaultSeeds, "`seeds` per orientation for the randomized strategies")
	fs.Uint64Var(&f.cfg.DrawSeed, "draw-seed", 1, "`seed` of the draw of the variants")
	fs.Uint64Var(&f.cfg.RunSeed, "seed", 0, "run `seed` the puzzle's seed derives from (default: the run's, else 1)")
	fs.DurationVar(&f.cfg.Timeout, "timeout", defaultShowTimeout, "time limit per solve; 0 for none")
	fs.Uint64Var(&f.cfg.MaxCalls, "max-calls", 0, "limit on a solve's `calls` (deterministic); 0 for none")
	fs.IntVar(&f.cfg.Workers, "workers", runtime.GOMAXPROCS(0), "goroutines solving")
	fs.IntVar(&f.sample, "sample", defaultVariantsSample, "puzzles of the corpus solved for the corpus medians when no run gives them; 0 for none")
	fs.StringVar(&f.out, "out", "", "output `directory` (default: results/variants/ID, or results/variants/CORPUS-ID for another corpus)")
	fs.BoolVar(&f.svg, "svg", false, "write the strip charts as SVG as well as PNG")
	fs.BoolVar(&f.json, "json", false, "print variants.json instead of the text")
	addExtFlags(fs, &f.ext)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	id, set, err := f.check(fs)
	if err != nil {
		return err
	}
	list := f.solvers
	if !set["solvers"] {
		list = solvers.DefaultList(f.ext.specs.Names())
	}
	names, err := solvers.Choose(list, f.ext.specs.Names())
	if err != nil {
		return usageErr("%v", err)
	}
	run, runDir, err := show.LoadRun(e.ctx, f.run, set["run"])
	if err != nil {
		return inputErr(e, err)
	}
	p, err := findPuzzle(e, show.Request{ID: id, Corpus: f.corpus, Stdin: e.stdin, Run: run, RunDir: runDir, RunNamed: set["run"]})
	if err != nil {
		return err
	}
	if !set["seed"] {
		f.cfg.RunSeed = p.Seed()
	}
	xs, err := startExternals(e, f.ext.specs, names, f.ext.options(f.cfg.Workers, false))
	if err != nil {
		return err
	}
	defer xs.Close()
	if f.cfg.Solvers, err = solvers.Resolve(names, xs.Solvers()); err != nil {
		return usageErr("%v", err)
	}
	pz := variants.Puzzle{Corpus: p.Show.Corpus, CorpusIndex: max(p.Index, 0), ID: id, Puzzle: p.Show.Entry.Puzzle}
	// The bound first, before the corpus medians are sampled: an
	// analysis that cannot fit is refused at once.
	cost, err := variants.CostOf(f.cfg, []variants.Puzzle{pz})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "batch: %s of #%d: %s (%s)…\n", report.Count(f.cfg.N+1, "orientation", "orientations"), id,
		report.Count(int(cost.Solves), "solve", "solves"), report.LimitText(f.cfg.Timeout, f.cfg.MaxCalls))
	if err := cost.Fits(); err != nil {
		return usageErr("-n %d -seeds %d: %v; nothing analysed", f.cfg.N, f.cfg.Seeds, err)
	}
	say := func(line string) { e.notef("batch: %s\n", line) }
	if f.cfg.Medians, err = p.CorpusMedians(e.ctx, f.cfg, names, f.sample, defaultCorpus, say); err != nil {
		return err
	}
	disp := progress.New(e.stderr, progress.IsTerminal(e.stderr), 5*time.Second)
	disp.SetTotal(int(cost.Solves))
	f.cfg.Progress = disp
	v, err := variants.Analyze(e.ctx, f.cfg, []variants.Puzzle{pz})
	disp.Finish()
	if err != nil {
		if e.ctx.Err() != nil {
			e.notef("batch: variants: nothing written (a verdict needs every solve of its strategy)\n")
			return e.ctx.Err()
		}
		return err
	}
	return writeVariants(e, &f, v, p.Show.Corpus, id)
}

// variantsFlags are the flags of batch variants: the analysis they ask
// for (cfg) and where it goes.
type variantsFlags struct {
	cfg                  variants.Config
	corpus, run, solvers string
	sample               int
	out                  string
	svg, json            bool
	ext                  extFlags
}

// check checks the flags and returns the puzzle's id and the flags given.
func (f *variantsFlags) check(fs *flag.FlagSet) (int, map[string]bool, error) {
	if err := f.ext.resolve(); err != nil {
		return 0, nil, err
	}
	id, err := puzzleArg(fs)
	if err != nil {
		return 0, nil, err
	}
	if err := f.cfg.Check(); err != nil {
		return 0, nil, usageErr("%v", err)
	}
	if f.sample < 0 {
		return 0, nil, usageErr("-sample %d: want 0 or more", f.sample)
	}
	return id, cli.Given(fs), nil
}

// writeVariants writes variants.json and the strip charts of v into -out
// (publish.WriteVariants; default publish.VariantsDir), then prints v: the
// text, or with -json variants.json. A wrong answer exits 1.
func writeVariants(e *env, f *variantsFlags, v *rundir.Variants, corpusName string, id int) error {
	dir := f.out
	if dir == "" {
		dir = publish.VariantsDir(rundir.DefaultRoot, corpusName, defaultCorpus, id)
	}
	charts, err := publish.WriteVariants(dir, v, f.svg)
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(e.stdout) // as json.MarshalIndent, a newline after
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
	} else {
		replay := append(variants.ReplayArgs(id, corpusName, defaultCorpus, f.cfg), f.ext.specs.ReplayFlags(f.cfg.Solvers)...)
		t := &report.VariantsText{V: v, Corpus: corpusName, ID: id, Replay: report.ShellCommand(replay) + " -transform"}
		if err := t.WriteText(e.stdout, e.width()); err != nil {
			return err
		}
		fprintf(e.stdout, e.width(), "\nWrote %s: %s and %s.\n", dir, rundir.VariantsFile, report.Count(len(charts), "strip chart", "strip charts"))
	}
	if s := variants.Wrong(v); s != "" {
		return &exitError{exitWrong, fmt.Errorf("wrong solution from %s on a variant: a strategy has a bug", s)}
	}
	return nil
}
