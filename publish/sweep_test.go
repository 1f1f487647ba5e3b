package publish

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// sweepRun sweeps the puzzles of range rng of the default corpus (the
// embedded copy) through the strategies into dir, as batch does
// (rundir.Create, pipeline.Run, Close), its start set to start: a
// finished run with its rows and run.json, no report.
func sweepRun(t testing.TB, dir string, start time.Time, rng string, names ...string) {
	t.Helper()
	ctx := context.Background()
	known, err := corpus.Identify(ctx, []string{corpus.Default})
	if err != nil {
		t.Fatal(err)
	}
	set := rundir.Settings{Solvers: names, Seed: 1, Range: rng, Corpora: []string{corpus.Default}, Runs: 1}
	m := &rundir.Manifest{Tool: "sudokubatch", RunID: filepath.Base(dir), Start: start.UTC(), Settings: set, Corpora: known}
	d, err := rundir.Create(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Begin(rundir.Segment{Start: start.UTC(), Command: []string{"batch", "-range", rng}, Workers: 1,
		Machine: rundir.Machine{CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2}}); err != nil {
		t.Fatal(err)
	}
	sel, err := pipeline.NewSelection(set)
	if err != nil {
		t.Fatal(err)
	}
	cfg := pipeline.Config{Corpora: set.Corpora, Workers: 1, Seed: set.Seed, Select: sel, Runs: 1, Sink: d, Known: known, RunDir: dir}
	for _, n := range names {
		s, ok := solvers.Lookup(n)
		if !ok {
			t.Fatalf("no strategy %s", n)
		}
		cfg.Solvers = append(cfg.Solvers, s.Solver)
	}
	stats, err := pipeline.Run(ctx, cfg)
	d.Manifest.UpdateCorpora(stats.Corpora)
	d.SetTiming(stats.Timing())
	status, why := stats.Status(err)
	if err := d.Close(status, why); err != nil || status != rundir.Finished {
		t.Fatalf("sweep into %s: %s %s, %v", dir, status, why, err)
	}
}
