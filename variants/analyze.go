package variants

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// line is one line of the corpus that Analyze sweeps: orientation k (0:
// the original) of puzzle p under seed j (0: the sweep's seed).
type line struct {
	p, k, j int
}

// plan is the corpus of one analysis: every puzzle's orientations and
// seeds, in order, and which strategies each puzzle is solved with.
type plan struct {
	cfg        Config
	puzzles    []Puzzle
	transforms [][]solvers.Transform // per puzzle: the identity, then N random transforms
	seeds      []int                 // per puzzle: the seeds per orientation (1 when no randomized strategy asks)
	asked      [][]bool              // per puzzle, per strategy of cfg.Solvers
	randomized []bool                // per strategy
	lines      []line
}

func (cfg *Config) defaults() {
	if cfg.N <= 0 {
		cfg.N = DefaultN
	}
	if cfg.Seeds <= 0 {
		cfg.Seeds = DefaultSeeds
	}
	if cfg.DrawSeed == 0 {
		cfg.DrawSeed = 1
	}
	if cfg.Randomized == nil {
		cfg.Randomized = func(s solvers.Solver) bool {
			st, ok := solvers.Lookup(s.Name())
			return ok && st.Solver == s && st.Randomized
		}
	}
}

func newPlan(cfg Config, puzzles []Puzzle) (*plan, error) {
	cfg.defaults()
	pl := &plan{cfg: cfg, puzzles: puzzles}
	for _, s := range cfg.Solvers {
		pl.randomized = append(pl.randomized, cfg.Randomized(s))
	}
	for pi, pz := range puzzles {
		asked := make([]bool, len(cfg.Solvers))
		if pz.Solvers == nil {
			for i := range asked {
				asked[i] = true
			}
		}
		for _, name := range pz.Solvers {
			i := slices.IndexFunc(cfg.Solvers, func(s solvers.Solver) bool { return s.Name() == name })
			if i < 0 {
				return nil, fmt.Errorf("puzzle #%d: strategy %q is not among the analysis' strategies", pz.ID, name)
			}
			asked[i] = true
		}
		seeds := 1
		for i, a := range asked {
			if a && pl.randomized[i] {
				seeds = cfg.Seeds
			}
		}
		// The draw depends on the draw seed and the puzzle only, so a
		// puzzle's variants are the same whatever else is analysed.
		r := rand.New(rand.NewPCG(cfg.DrawSeed, uint64(pz.ID)<<8|uint64(pz.CorpusIndex)))
		ts := []solvers.Transform{solvers.Identity(pz.Puzzle.Box)}
		for range cfg.N {
			ts = append(ts, solvers.RandomTransform(r, pz.Puzzle.Box))
		}
		pl.transforms = append(pl.transforms, ts)
		pl.seeds = append(pl.seeds, seeds)
		pl.asked = append(pl.asked, asked)
		for k := range ts {
			for j := range seeds {
				pl.lines = append(pl.lines, line{p: pi, k: k, j: j})
			}
		}
	}
	return pl, nil
}

// skip reports whether the unit (line l, strategy s) is not solved: the
// puzzle does not ask for s, or s is not randomized and l is another seed.
func (pl *plan) skip(l line, s int) bool {
	return !pl.asked[l.p][s] || (l.j > 0 && !pl.randomized[s])
}

// seed is the seed of line l: seed 0 is the one the sweep gave the
// puzzle, so that the original under it repeats the sweep's solve.
func (pl *plan) seed(l line) uint64 {
	pz := pl.puzzles[l.p]
	s0 := pipeline.PuzzleSeed(pl.cfg.RunSeed, pz.CorpusIndex, pz.ID)
	if l.j == 0 {
		return s0
	}
	return pipeline.PuzzleSeed(s0, 1, l.j)
}

// sink keeps the pipeline's rows in memory, by line and strategy.
type sink struct {
	rows map[[2]int]*rundir.Row // (line, strategy index)
	idx  map[string]int
}

func (s *sink) Write(r *rundir.Row) error {
	c := *r
	s.rows[[2]int{r.ID, s.idx[r.Solver]}] = &c
	return nil
}

func (s *sink) Flush() error { return nil }

// Amend lets the pipeline's re-timing amend the rows (pipeline.Amender).
func (s *sink) Amend(fix func(*rundir.Row) bool) (int, error) {
	keys := make([][2]int, 0, len(s.rows))
	for k := range s.rows {
		keys = append(keys, k)
	}
	// In the order of a run's rows: by line, then strategy.
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	n := 0
	for _, k := range keys {
		if fix(s.rows[k]) {
			n++
		}
	}
	return n, nil
}

// Analyze solves every puzzle's original and cfg.N random variants (times
// cfg.Seeds seeds for a randomized strategy) with the strategies each
// asks for, in one sweep through the pipeline, and returns one analysis
// per (puzzle, strategy) in the order of puzzles, then of cfg.Solvers.
// When ctx is canceled or cfg.Stop closed, it returns the analyses of
// the (puzzle, strategy) pairs whose every unit was solved, and ctx's
// error or ErrInterrupted.
func Analyze(ctx context.Context, cfg Config, puzzles []Puzzle) (*rundir.Variants, error) {
	c, err := CostOf(cfg, puzzles)
	if err != nil {
		return nil, err
	}
	if err := c.Fits(); err != nil {
		return nil, err
	}
	pl, err := newPlan(cfg, puzzles)
	if err != nil {
		return nil, err
	}
	cfg = pl.cfg
	if err := pl.check(ctx); err != nil {
		return nil, err
	}
	var text strings.Builder
	for _, l := range pl.lines {
		text.WriteString(pl.transforms[l.p][l.k].ApplyPuzzle(pl.puzzles[l.p].Puzzle).String())
		text.WriteByte('\n')
	}
	sk := &sink{rows: map[[2]int]*rundir.Row{}, idx: map[string]int{}}
	for i, s := range cfg.Solvers {
		sk.idx[s.Name()] = i
	}
	pcfg := pipeline.Config{
		Corpora:  []string{"-"},
		Stdin:    strings.NewReader(text.String()),
		Solvers:  cfg.Solvers,
		Workers:  cfg.Workers,
		Timeout:  cfg.Timeout,
		MaxCalls: cfg.MaxCalls,
		SeedOf:   func(_, id int) uint64 { return pl.seed(pl.lines[id]) },
		Skip:     func(_, id, s int) bool { return pl.skip(pl.lines[id], s) },
		Retime:   true,
		Sink:     sk,
		Progress: cfg.Progress,
		Stop:     cfg.Stop,
	}
	start := time.Now()
	st, err := pipeline.Run(ctx, pcfg)
	v := &rundir.Variants{
		Settings: rundir.VariantSettings{
			N: cfg.N, Seeds: cfg.Seeds, DrawSeed: cfg.DrawSeed, RunSeed: cfg.RunSeed,
			TimeoutNS: int64(cfg.Timeout), MaxCalls: cfg.MaxCalls,
			HardFactor: HardFactor, UnluckyPct: UnluckyPct, UnluckyFactor: UnluckyFactor,
		},
		Units:     len(sk.rows),
		ElapsedNS: int64(time.Since(start)),
	}
	if err == nil && st.Interrupted {
		err = ErrInterrupted
	}
	v.Analyses = pl.analyses(sk)
	return v, err
}

// check verifies that every variant is a valid puzzle with as many
// solutions (counted up to two) as its original: a variant that is not
// would be a bug of the transforms, and its verdict meaningless.
func (pl *plan) check(ctx context.Context) error {
	for pi, pz := range pl.puzzles {
		want, err := solvers.CountSolutions(ctx, pz.Puzzle, 2)
		if err != nil {
			return err
		}
		for _, t := range pl.transforms[pi][1:] {
			v := t.ApplyPuzzle(pz.Puzzle)
			if _, err := solvers.ParsePuzzle(v.String()); err != nil {
				return fmt.Errorf("variant %s of #%d is not a valid puzzle (%v): a bug of the transforms", t, pz.ID, err)
			}
			n, err := solvers.CountSolutions(ctx, v, 2)
			if err != nil {
				return err
			}
			if n != want {
				return fmt.Errorf("variant %s of #%d has %d solutions (counted up to 2), the original %d: a bug of the transforms", t, pz.ID, n, want)
			}
		}
	}
	return nil
}

// ErrInterrupted: cfg.Stop was closed before every unit was solved.
var ErrInterrupted = fmt.Errorf("variants: interrupted")

// analyses builds the analysis of each (puzzle, strategy) whose units
// were all solved.
func (pl *plan) analyses(sk *sink) []rundir.VariantAnalysis {
	var out []rundir.VariantAnalysis
	first := 0 // the puzzle's first line
	for pi, pz := range pl.puzzles {
		nl := len(pl.transforms[pi]) * pl.seeds[pi]
	solversLoop:
		for s, solver := range pl.cfg.Solvers {
			if !pl.asked[pi][s] {
				continue
			}
			var units []unit
			for id := first; id < first+nl; id++ {
				l := pl.lines[id]
				if pl.skip(l, s) {
					continue
				}
				r, ok := sk.rows[[2]int{id, s}]
				if !ok {
					continue solversLoop // not solved: stopped before it
				}
				units = append(units, unit{line: l, row: r, t: pl.transforms[pi][l.k]})
			}
			out = append(out, pl.analyse(pz, solver.Name(), pl.randomized[s], units))
		}
		first += nl
	}
	return out
}

type unit struct {
	line line
	row  *rundir.Row
	t    solvers.Transform
}

func (u unit) variantUnit() rundir.VariantUnit {
	return rundir.VariantUnit{Transform: u.t.String(), Seed: u.row.Seed, Status: u.row.Status.String(),
		Calls: u.row.Calls, Guesses: u.row.Guesses, NS: u.row.NS}
}
