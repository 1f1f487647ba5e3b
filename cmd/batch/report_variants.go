package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/variants"
)

// variantsTop is how many of each strategy's hardest puzzles by calls
// batch report -variants analyses.
const variantsTop = 10

// variantsRequest is batch report -variants K -variants-seeds M.
type variantsRequest struct {
	n, seeds int
}

// analyseVariants runs the hard-or-unlucky analysis of the run in dir
// (batch report -variants): each strategy's first variantsTop puzzles by
// calls (sum's list, the one the report shows), under the run's seed and
// limits, the corpus medians from sum. It prints the bound of the cost
// before it starts and the time taken after, and writes variants.json
// into dir. When ctx is canceled during the analysis it writes nothing
// (the run keeps its earlier variants.json, if any, and its report) and
// says so in an *exitError (exit 130).
func analyseVariants(ctx context.Context, warn io.Writer, dir string, run *report.Run, sum *report.Summary, req variantsRequest) error {
	info := run.Manifest
	if info == nil {
		return &exitError{exitUsage, fmt.Errorf("-variants: %s has no %s: the analysis needs the run's seed and limits", dir, rundir.ManifestFile)}
	}
	if info.Status == rundir.Running {
		why := "it is still running: its hardest puzzles are not known until it ends"
		if held, ok := history.LockHeld(dir); ok && !held {
			why = fmt.Sprintf("its run.json says running, but no process holds its lock (killed): batch -resume -out %s finishes it", dir)
		}
		return &exitError{exitUsage, fmt.Errorf("-variants: run %s: %s; nothing analysed", dir, why)}
	}
	set := info.Settings
	files := corpusFiles(dir, info)
	var ss []solvers.Solver
	medians := map[string]variants.CorpusMedian{}
	type key struct {
		corpus string
		id     int
	}
	wanted := map[key]*variants.Puzzle{}
	var order []key
	for _, st := range sum.Strategies {
		s, ok := solvers.Lookup(st.Solver)
		if !ok {
			fmt.Fprintf(warn, "batch: -variants: %s left out: an external strategy is not started by batch report\n", st.Solver)
			continue
		}
		if len(st.ByCalls) == 0 {
			continue
		}
		ss = append(ss, s.Solver)
		medians[st.Solver] = variants.CorpusMedian{Calls: st.Calls.Median.Value, NS: st.TimeNS.Median.Value,
			From: fmt.Sprintf("run %s (%d puzzles)", dir, st.Measured)}
		for _, u := range st.ByCalls[:min(variantsTop, len(st.ByCalls))] {
			k := key{u.Puzzle.Corpus, u.Puzzle.ID}
			if wanted[k] == nil {
				ci := slices.Index(set.Corpora, k.corpus)
				if ci < 0 {
					return fmt.Errorf("-variants: corpus %s of puzzle %s is not in %s", k.corpus, u.Puzzle.Label, rundir.ManifestFile)
				}
				wanted[k] = &variants.Puzzle{Corpus: k.corpus, CorpusIndex: ci, ID: k.id}
				order = append(order, k)
			}
			wanted[k].Solvers = append(wanted[k].Solvers, st.Solver)
		}
	}
	if len(order) == 0 {
		fmt.Fprintf(warn, "batch: -variants: no puzzle to analyse\n")
		return nil
	}
	// The puzzles' grids, from the corpora (the run's copy of a stream).
	last := map[string]int{}
	for k := range wanted {
		last[k.corpus] = max(last[k.corpus], k.id)
	}
	found := 0
	for ci, path := range set.Corpora {
		l, ok := last[path]
		if !ok {
			continue
		}
		err := corpus.Each(ctx, files[ci], path, func(e *corpus.Entry) bool {
			if p := wanted[key{path, e.ID}]; p != nil && e.Err == nil {
				p.Puzzle = e.Puzzle
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
	if found < len(order) {
		return fmt.Errorf("-variants: %d of the %d puzzles to analyse are not in their corpus files", len(order)-found, len(order))
	}
	puzzles := make([]variants.Puzzle, len(order))
	pairs := 0
	for i, k := range order {
		puzzles[i] = *wanted[k]
		pairs += len(puzzles[i].Solvers)
	}
	timeout := time.Duration(set.TimeoutNS)
	cfg := variants.Config{Solvers: ss, N: req.n, Seeds: req.seeds, RunSeed: set.Seed,
		Timeout: timeout, MaxCalls: set.MaxCalls, Medians: medians}
	cost, err := variants.CostOf(cfg, puzzles)
	if err != nil {
		return err
	}
	fmt.Fprintf(warn, "%s\n", variantsBound(pairs, req, cost.Solves, timeout, set.MaxCalls))
	if err := cost.Fits(); err != nil {
		return &exitError{exitUsage, fmt.Errorf("-variants %d: %w; nothing analysed", req.n, err)}
	}
	units := int(cost.Solves)
	disp := newProgress(warn, isTerminal(warn), 5*time.Second)
	disp.SetTotal(units)
	cfg.Progress = disp
	start := time.Now()
	v, err := variants.Analyze(ctx, cfg, puzzles)
	disp.Finish()
	if err != nil {
		if ctx.Err() != nil {
			return &exitError{exitInterrupted, fmt.Errorf("-variants interrupted after %s: nothing written (%s, if any, and the report in %s are as they were)",
				report.FormatDuration(time.Since(start)), rundir.VariantsFile, dir)}
		}
		return fmt.Errorf("-variants: %w", err)
	}
	v.Rows = variants.RowsOf(info)
	if err := rundir.WriteVariants(filepath.Join(dir, rundir.VariantsFile), v); err != nil {
		return err
	}
	fmt.Fprintf(warn, "variants: %s in %s (wall time); wrote %s\n", report.Count(v.Units, "solve", "solves"),
		report.FormatDuration(time.Since(start)), filepath.Join(dir, rundir.VariantsFile))
	return nil
}

// variantsBound says what the analysis will cost before it starts:
// "variants: 60 units x 101 solves = 6060 solves, each at most 100ms: at
// most 10m6s" (the solves of a randomized strategy's seeds counted in).
func variantsBound(pairs int, req variantsRequest, units int64, timeout time.Duration, maxCalls uint64) string {
	n := req.n
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

// readRunVariants reads the hard-or-unlucky analysis of the run in dir
// (run loaded from it), when it has one made from the run's rows as they
// are now (variants.Stale): one made while the run was running, or
// before it was resumed, is left out, and warn says why and how to make
// it again. A file that cannot be read is a note too, never a failed
// report.
func readRunVariants(warn io.Writer, dir string, run *report.Run) *rundir.Variants {
	path := filepath.Join(dir, rundir.VariantsFile)
	v, err := rundir.ReadVariants(path)
	if err != nil {
		fmt.Fprintf(warn, "batch: %v (the report leaves the analysis out)\n", err)
		return nil
	}
	if v == nil {
		return nil
	}
	var written time.Time
	if st, err := os.Stat(path); err == nil {
		written = st.ModTime()
	}
	if why := variants.Stale(v, run.Manifest, written); why != "" {
		fmt.Fprintf(warn, "batch: %s is not of the run's rows (%s): the report leaves it out; batch report -variants %d %s makes it again\n",
			path, why, v.Settings.N, dir)
		return nil
	}
	return v
}
