package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/pipeline"
	"sudokubatch/rundir"
)

// counter is a pipeline.Progress that counts what it is told.
type counter struct{ added, finished atomic.Int64 }

func (c *counter) Add(n int) { c.added.Add(int64(n)) }
func (c *counter) Finish()   { c.finished.Add(1) }

// TestReportAnalysesVariants: batch report -variants analyses each
// strategy's VariantsTop hardest puzzles by calls: the trace is told the
// bound, then each solve, then the end; variants.json is written and its
// strips drawn. An analysis past the cost allowed, of a run without
// run.json or of a run still running, is an *InputError with nothing
// analysed; a variants.json of other rows is left out, with a note.
func TestReportAnalysesVariants(t *testing.T) {
	testenv.SkipUnderRace(t, "6 reports, their charts and 20 strips: 2.5 s, 57 s under -race (load average 10); TestReportVariantsInterrupted runs the analysis under it")
	dir := t.TempDir()
	sweepRun(t, dir, night, "39930:39960", "norvig", "dlx")
	var bound string
	var solves, done int
	prog := &counter{}
	trace := &Trace{
		VariantsBound:    func(line string) { bound = line },
		VariantsProgress: func(n int) pipeline.Progress { solves = n; return prog },
		VariantsDone:     func(n int, _ time.Duration, path string) { done = n },
		Note:             func(s string) { t.Errorf("note: %s", s) },
	}
	plain, err := Report(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Report(context.Background(), dir, Options{Variants: &VariantsRequest{N: 2, Seeds: 1}, Trace: trace})
	if err != nil {
		t.Fatal(err)
	}
	const want = 2 * VariantsTop * 3 // each strategy's 10 puzzles, the original and 2 variants each
	if bound != "variants: 20 units x 3 solves = 60 solves, each unbounded (the run had no timeout and no call limit)" || solves != want ||
		prog.added.Load() != want || prog.finished.Load() == 0 || done != want {
		t.Errorf("bound %q, %d solves announced, %d told, finished %d times, %d done; want %d solves", bound, solves,
			prog.added.Load(), prog.finished.Load(), done, want)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.VariantsFile)); err != nil {
		t.Fatal(err)
	}
	if res.Charts != plain.Charts+2*VariantsTop {
		t.Errorf("%d charts, want the run's %d and a strip per puzzle and strategy", res.Charts, plain.Charts)
	}

	var notes []string
	trace = &Trace{Note: func(s string) { notes = append(notes, s) }, VariantsProgress: func(int) pipeline.Progress {
		t.Error("an analysis refused started")
		return nil
	}}
	if _, err := Report(context.Background(), dir, Options{Variants: &VariantsRequest{N: 1_000_000_000}, Trace: trace}); !isInput(err, "nothing analysed") {
		t.Errorf("a billion variants: %v, want an *InputError", err)
	}
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Rows--
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := Report(context.Background(), dir, Options{Trace: trace}); err != nil || len(notes) != 1 ||
		!strings.Contains(notes[0], "is not of the run's rows (it was made from 60 rows of run") {
		t.Errorf("variants.json of other rows: %v, notes %q; want it left out with a note", err, notes)
	}
	m.Status = rundir.Running
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := Report(context.Background(), dir, Options{Variants: &VariantsRequest{N: 2}, Trace: trace}); !isInput(err, "says running") {
		t.Errorf("a run still running: %v, want an *InputError", err)
	}
	if err := os.Remove(filepath.Join(dir, rundir.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Report(context.Background(), dir, Options{Variants: &VariantsRequest{N: 2}, Trace: trace}); !isInput(err, "has no run.json") {
		t.Errorf("no run.json: %v, want an *InputError", err)
	}
}

// TestReportVariantsInterrupted: an analysis stopped by ctx writes
// nothing and says so, an *InterruptedError that is context.Canceled.
func TestReportVariantsInterrupted(t *testing.T) {
	dir := t.TempDir()
	sweepRun(t, dir, night, "39930:39960", "norvig")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	trace := &Trace{VariantsProgress: func(int) pipeline.Progress { cancel(); return nil }}
	_, err := Report(ctx, dir, Options{Variants: &VariantsRequest{N: 100}, Trace: trace})
	ie, ok := errors.AsType[*InterruptedError](err)
	if !ok || !errors.Is(err, context.Canceled) || !strings.Contains(ie.Msg, "nothing written") {
		t.Fatalf("interrupted: %v, want an *InterruptedError", err)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.VariantsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("variants.json written: %v", err)
	}
}

// isInput reports whether err is an *InputError that says what.
func isInput(err error, what string) bool {
	_, ok := errors.AsType[*InputError](err)
	return ok && strings.Contains(err.Error(), what)
}
