// Package show finds one puzzle of a corpus by its id, places it in a
// run, solves it with the strategies as a sweep would, and ranks it in
// the run: what `batch show` prints (report.PuzzleShow renders it), and
// the puzzle `batch variants` analyses with the run's corpus medians.
//
// The data flow:
//  1. LoadRun loads the run to rank in: the one named (-run), else
//     results/latest when it holds a run; none when -run is empty.
//  2. Find chooses the corpus (-corpus, else the run's first, else the
//     default corpus; a run's stream is read from its copy), finds the
//     puzzle in it, and places its corpus in the run, by name then by
//     SHA-256: a Puzzle, whose Show the command prints.
//  3. Solve runs the strategies on it through the pipeline's SolveEntry,
//     with the seed the run would give it, counts its solutions, and
//     ranks it among each strategy's units of the run.
//
// Every error of Find and LoadRun is the user's input (exit 2), but when
// the context was canceled.
package show

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// LoadRun loads the run to rank in: dir when given (-run; "" for none),
// else DefaultRoot/latest when it holds a run. It returns nil and "" for
// none.
func LoadRun(ctx context.Context, dir string, given bool) (*report.Run, string, error) {
	if !given {
		latest := filepath.Join(rundir.DefaultRoot, rundir.LatestLink)
		if _, err := rundir.RowsPath(latest); err == nil {
			dir = latest
		}
	}
	if dir == "" {
		return nil, "", nil
	}
	run, err := report.LoadRun(ctx, dir)
	if err != nil {
		return nil, "", err
	}
	return run, dir, nil
}

// Request names the puzzle to find.
type Request struct {
	ID int
	// Corpus is the file that holds the puzzle (-corpus; "-" for Stdin);
	// "" for the run's first corpus, else corpus.Default.
	Corpus string
	Stdin  io.Reader
	// Run and RunDir are the run to place it in (LoadRun; nil for none);
	// RunNamed says it was named (-run): a corpus not in it is an error.
	Run      *report.Run
	RunDir   string
	RunNamed bool
}

// Puzzle is a puzzle found in its corpus and placed in a run.
type Puzzle struct {
	Show   *report.PuzzleShow // the puzzle and, once solved, what the strategies did
	File   string             // the file it was read from
	Info   rundir.CorpusInfo  // its corpus's identity as read now
	Run    *report.Run        // the run its corpus is of; nil for none
	RunDir string
	Index  int // the index of its corpus among Run's corpora; -1 without Run
}

// Find finds the puzzle of r and places it in r.Run. It returns the
// warnings to print (the corpus changed since the run).
func Find(ctx context.Context, r Request) (*Puzzle, []string, error) {
	name, file, err := corpusOf(r.Run, r.RunDir, r.Corpus)
	if err != nil {
		return nil, nil, err
	}
	var stdin io.Reader // nil unless the corpus is standard input
	if file == "-" {
		stdin = r.Stdin
	}
	ent, found, info, err := corpus.Find(ctx, file, stdin, r.ID)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("looking for puzzle #%d: %w", r.ID, err)
	case !found && info.Puzzles == 0:
		return nil, nil, fmt.Errorf("corpus %s has no puzzle: no puzzle #%d", name, r.ID)
	case !found:
		return nil, nil, fmt.Errorf("corpus %s has %d %s (ids 0 to %d): no puzzle #%d", name, info.Puzzles,
			report.Plural(info.Puzzles, "puzzle", "puzzles"), info.Puzzles-1, r.ID)
	case ent.Err != nil:
		return nil, nil, fmt.Errorf("puzzle #%d is not a puzzle: %v", r.ID, ent.Err)
	}
	p := &Puzzle{Show: &report.PuzzleShow{Corpus: name, Entry: ent, Solutions: -1}, File: file, Info: info, Index: -1}
	if r.Run == nil {
		if !r.RunNamed {
			p.Show.RunNote = fmt.Sprintf("No ranks: no run in %s (rank in a run with -run DIR).", filepath.Join(rundir.DefaultRoot, rundir.LatestLink))
		}
		return p, nil, nil
	}
	at, warns := p.Show.PlaceIn(r.Run, r.RunDir, info.SHA256)
	if at < 0 && r.RunNamed {
		return nil, nil, fmt.Errorf("corpus %s is not a corpus of run %s (its corpora: %s); choose one with -corpus",
			name, r.RunDir, strings.Join(r.Run.CorpusNames(), ", "))
	}
	if at >= 0 {
		p.Run, p.RunDir, p.Index = r.Run, r.RunDir, at
	}
	return p, warns, nil
}

// corpusOf chooses the corpus of the puzzle: flag (-corpus), else the
// run's first corpus, else the default. It returns its name and the file
// to read it from: the run's corpus is read where the run keeps it
// (corpus.InRun: a stream's copy in the run directory, not today's
// standard input); a file of the run that is not here is an error.
func corpusOf(run *report.Run, runDir, flag string) (name, file string, err error) {
	if flag != "" {
		return flag, flag, nil
	}
	if run == nil || len(run.CorpusNames()) == 0 {
		return corpus.Default, corpus.Default, nil
	}
	name = run.CorpusNames()[0]
	if file = corpus.InRun(runDir, run.Manifest, 0); file == "" {
		file = name
	}
	if _, err := corpus.Classify(file); err != nil {
		return "", "", fmt.Errorf("the corpus of run %s, %s, is not here (%v); name it with -corpus FILE", runDir, name, errors.Unwrap(err))
	}
	return name, file, nil
}

// Seed is the run seed the puzzle's seed derives from: its run's, else
// 1 (the default of batch run).
func (p *Puzzle) Seed() uint64 {
	if p.Run != nil && p.Run.Manifest != nil {
		return p.Run.Manifest.Settings.Seed
	}
	return 1
}

// Transform makes the puzzle its variant under the transform tr
// (solvers.ParseTransform: the string batch variants prints): the
// strategies solve the variant, and the ranks stay the original's.
func (p *Puzzle) Transform(tr string) error {
	t, err := solvers.ParseTransform(tr, p.Show.Entry.Puzzle.Box)
	if err != nil {
		return err
	}
	p.Show.Entry.Puzzle = t.ApplyPuzzle(p.Show.Entry.Puzzle)
	if !t.IsIdentity() {
		p.Show.Transform = t.String()
	}
	return nil
}

// Solve runs ss on the puzzle one after the other as a run runs a unit,
// each within timeout and maxCalls (0: none) under the run seed seed: in
// a run, its corpus among the run's, so that each strategy's seed is the
// run's. Then it counts the puzzle's solutions (up to 2) within timeout,
// and ranks it in the run. It returns the ranking's warning (the run has
// the puzzle on another line), or "", and ctx.Err() when ctx is canceled.
func (p *Puzzle) Solve(ctx context.Context, ss []solvers.Solver, timeout time.Duration, maxCalls, seed uint64) (string, error) {
	cfg := pipeline.Config{Corpora: []string{p.Show.Corpus}, Solvers: ss, Timeout: timeout, MaxCalls: maxCalls, Seed: seed}
	at := 0
	if p.Run != nil {
		at = p.Index
		cfg.Corpora = slices.Clone(p.Run.CorpusNames())
		cfg.Corpora[at] = p.Show.Corpus
	}
	p.Show.Units = pipeline.SolveEntry(ctx, cfg, at, p.Show.Entry)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	p.Show.Limits = fmt.Sprintf("%s per strategy, seed %d", report.LimitText(timeout, maxCalls), seed)
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	if n, err := solvers.CountSolutions(cctx, p.Show.Entry.Puzzle, 2); err == nil {
		p.Show.Solutions = n
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if p.Run == nil {
		return "", nil
	}
	return p.Show.RankIn(p.Run, p.Run.CorpusNames()[at]), nil
}
