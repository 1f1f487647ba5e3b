package publish

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/variants"
)

// VariantsTop is how many of each strategy's hardest puzzles by calls
// the report's hard-or-unlucky analysis takes (batch report -variants).
const VariantsTop = 10

// VariantsRequest is batch report -variants N -variants-seeds Seeds.
type VariantsRequest struct {
	N     int // random variants per puzzle; 0: variants.DefaultN
	Seeds int // seeds per orientation of a randomized strategy; 0: variants.DefaultSeeds
}

// Check refuses a request as batch report's and batch run's flags give
// it: -variants below 0 (0: no analysis), -variants-seeds below 1.
func (r VariantsRequest) Check() error {
	if r.N < 0 || r.Seeds < 1 {
		return fmt.Errorf("-variants %d -variants-seeds %d: want -variants >= 0 and -variants-seeds >= 1", r.N, r.Seeds)
	}
	return nil
}

// variantsPlan is what the analysis of a run solves: its puzzles, with
// the strategies of each, in the order of the summary's lists.
type variantsPlan struct {
	cfg     variants.Config
	puzzles []variants.Puzzle
	pairs   int // (puzzle, strategy) pairs
}

// analyse runs the hard-or-unlucky analysis of the run (batch report
// -variants): each strategy's first VariantsTop puzzles by calls (the
// summary's list, the one the report shows), under the run's seed and
// limits, the corpus medians from the summary. The trace is told the
// bound of the cost before it starts and the time taken after, and
// variants.json is written into the run directory. When ctx is canceled
// during the analysis it writes nothing (the run keeps its earlier
// variants.json, if any, and its report) and says so in an
// *InterruptedError.
func (p *publication) analyse(req VariantsRequest) error {
	info := p.run.Manifest
	if info == nil {
		return &InputError{fmt.Errorf("-variants: %s has no %s: the analysis needs the run's seed and limits", p.dir, rundir.ManifestFile)}
	}
	if info.Status == rundir.Running {
		why := "it is still running: its hardest puzzles are not known until it ends"
		if held, ok := rundir.LockHeld(p.dir); ok && !held {
			why = fmt.Sprintf("its run.json says running, but no process holds its lock (killed): batch -resume -out %s finishes it", p.dir)
		}
		return &InputError{fmt.Errorf("-variants: run %s: %s; nothing analysed", p.dir, why)}
	}
	plan, err := p.planVariants(req)
	if err != nil || plan == nil {
		return err
	}
	if err := readGrids(p.ctx, plan.puzzles, info.Settings.Corpora, corpusFiles(p.dir, info)); err != nil {
		return err
	}
	cost, err := variants.CostOf(plan.cfg, plan.puzzles)
	if err != nil {
		return err
	}
	if p.trace.VariantsBound != nil {
		p.trace.VariantsBound(variantsBound(plan.pairs, req.N, cost.Solves, plan.cfg.Timeout, plan.cfg.MaxCalls))
	}
	if err := cost.Fits(); err != nil {
		return &InputError{fmt.Errorf("-variants %d: %w; nothing analysed", req.N, err)}
	}
	if p.trace.VariantsProgress != nil {
		plan.cfg.Progress = p.trace.VariantsProgress(int(cost.Solves))
	}
	start := time.Now()
	v, err := variants.Analyze(p.ctx, plan.cfg, plan.puzzles)
	if plan.cfg.Progress != nil {
		plan.cfg.Progress.Finish()
	}
	if err != nil {
		if p.ctx.Err() != nil {
			return &InterruptedError{fmt.Sprintf("-variants interrupted after %s: nothing written (%s, if any, and the report in %s are as they were)",
				report.FormatDuration(time.Since(start)), rundir.VariantsFile, p.dir)}
		}
		return fmt.Errorf("-variants: %w", err)
	}
	v.Rows = variants.RowsOf(info)
	path := filepath.Join(p.dir, rundir.VariantsFile)
	if err := rundir.WriteVariants(path, v); err != nil {
		return err
	}
	if p.trace.VariantsDone != nil {
		p.trace.VariantsDone(v.Units, time.Since(start), path)
	}
	return nil
}

// planVariants chooses the puzzles of the analysis from the summary:
// each built-in strategy's first VariantsTop puzzles by calls, its
// corpus medians the run's. An external strategy is left out (batch
// report does not start it), with a note. It returns nil, with a note,
// when there is no puzzle to analyse.
func (p *publication) planVariants(req VariantsRequest) (*variantsPlan, error) {
	set := p.run.Manifest.Settings
	plan := &variantsPlan{cfg: variants.Config{N: req.N, Seeds: req.Seeds, RunSeed: set.Seed,
		Timeout: time.Duration(set.TimeoutNS), MaxCalls: set.MaxCalls, Medians: map[string]variants.CorpusMedian{}}}
	at := map[puzzleKey]int{} // a puzzle's place in plan.puzzles
	for _, st := range p.sum.Strategies {
		s, ok := solvers.Lookup(st.Solver)
		if !ok {
			p.note("-variants: %s left out: an external strategy is not started by batch report", st.Solver)
			continue
		}
		if len(st.ByCalls) == 0 {
			continue
		}
		plan.cfg.Solvers = append(plan.cfg.Solvers, s.Solver)
		plan.cfg.Medians[st.Solver] = variants.CorpusMedian{Calls: st.Calls.Median.Value, NS: st.TimeNS.Median.Value,
			From: fmt.Sprintf("run %s (%d puzzles)", p.dir, st.Measured)}
		for _, u := range st.ByCalls[:min(VariantsTop, len(st.ByCalls))] {
			k := puzzleKey{u.Puzzle.Corpus, u.Puzzle.ID}
			i, ok := at[k]
			if !ok {
				ci := slices.Index(set.Corpora, k.corpus)
				if ci < 0 {
					return nil, fmt.Errorf("-variants: corpus %s of puzzle %s is not in %s", k.corpus, u.Puzzle.Label, rundir.ManifestFile)
				}
				i = len(plan.puzzles)
				at[k] = i
				plan.puzzles = append(plan.puzzles, variants.Puzzle{Corpus: k.corpus, CorpusIndex: ci, ID: k.id})
			}
			plan.puzzles[i].Solvers = append(plan.puzzles[i].Solvers, st.Solver)
			plan.pairs++
		}
	}
	if len(plan.puzzles) == 0 {
		p.note("-variants: no puzzle to analyse")
		return nil, nil
	}
	return plan, nil
}

type puzzleKey struct {
	corpus string
	id     int
}

// readGrids reads the grids of puzzles from the run's corpora (named as
// the run names them; files[i] is the file to read corpora[i] from: the
// run's copy of a stream), each corpus up to the last id wanted of it.
func readGrids(ctx context.Context, puzzles []variants.Puzzle, corpora, files []string) error {
	at := map[puzzleKey]*variants.Puzzle{}
	last := map[string]int{}
	for i := range puzzles {
		pz := &puzzles[i]
		at[puzzleKey{pz.Corpus, pz.ID}] = pz
		last[pz.Corpus] = max(last[pz.Corpus], pz.ID)
	}
	found := 0
	for ci, path := range corpora {
		l, ok := last[path]
		if !ok {
			continue
		}
		err := corpus.Each(ctx, files[ci], path, func(e *corpus.Entry) bool {
			if pz := at[puzzleKey{path, e.ID}]; pz != nil && e.Err == nil {
				pz.Puzzle = e.Puzzle
				found++
			}
			return e.ID < l
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("-variants: reading the puzzles: %w", err)
		}
	}
	if found < len(puzzles) {
		return fmt.Errorf("-variants: %d of the %d puzzles to analyse are not in their corpus files", len(puzzles)-found, len(puzzles))
	}
	return nil
}

// variantsBound says what the analysis will cost before it starts:
// "variants: 60 units x 101 solves = 6060 solves, each at most 100ms: at
// most 10m6s" (the solves of a randomized strategy's seeds counted in).
// n is the variants per puzzle (0: variants.DefaultN).
func variantsBound(pairs, n int, units int64, timeout time.Duration, maxCalls uint64) string {
	if n <= 0 {
		n = variants.DefaultN
	}
	s := fmt.Sprintf("variants: %s x %d solves", report.Count(pairs, "unit", "units"), int64(n)+1)
	if units != int64(pairs)*(int64(n)+1) {
		s += " (and seeds)"
	}
	s += fmt.Sprintf(" = %d solves", units)
	switch {
	case timeout > 0:
		total := "over " + report.FormatDuration(time.Duration(math.MaxInt64))
		if units < int64(math.MaxInt64/timeout) {
			total = report.FormatDuration(time.Duration(units) * timeout)
		}
		s += fmt.Sprintf(", each at most %s: at most %s", report.FormatDuration(timeout), total)
	case maxCalls > 0:
		s += fmt.Sprintf(", each at most %s calls (the run had no timeout)", report.FormatCountShort(float64(maxCalls)))
	default:
		s += ", each unbounded (the run had no timeout and no call limit)"
	}
	return s
}

// runVariants reads the run's hard-or-unlucky analysis, when it has one
// made from the run's rows as they are now (variants.Stale): one made
// while the run was running, or before it was resumed, is left out with
// a note that says why and how to make it again. A file that cannot be
// read is a note too, never a failed report.
func (p *publication) runVariants() *rundir.Variants {
	path := filepath.Join(p.dir, rundir.VariantsFile)
	v, err := rundir.ReadVariants(path)
	if err != nil {
		p.note("%v (the report leaves the analysis out)", err)
		return nil
	}
	if v == nil {
		return nil
	}
	var written time.Time
	if st, err := os.Stat(path); err == nil {
		written = st.ModTime()
	}
	if why := variants.Stale(v, p.run.Manifest, written); why != "" {
		p.note("%s is not of the run's rows (%s): the report leaves it out; batch report -variants %d %s makes it again",
			path, why, v.Settings.N, p.dir)
		return nil
	}
	return v
}
