package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// fake is a solver whose behaviour is set per puzzle id.
type fake struct {
	name   string
	delay  func(id int) time.Duration
	status solvers.Status
	panic  func(id int) bool
	wrong  bool
	calls  atomic.Int64
	ids    map[solvers.Grid]int
}

func (f *fake) Name() string { return f.name }

func (f *fake) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	f.calls.Add(1)
	id := f.ids[p.Grid]
	if f.panic != nil && f.panic(id) {
		panic(fmt.Sprintf("fake panic on %d", id))
	}
	if f.delay != nil {
		select {
		case <-time.After(f.delay(id)):
		case <-ctx.Done():
			return solvers.Result{Status: solvers.StatusError, Err: ctx.Err()}
		}
	}
	r := solvers.Result{Status: f.status, Calls: uint64(id), Guesses: lim.Seed % 7}
	if f.status == solvers.StatusSolved {
		r.Solution = solution4
		if f.wrong {
			r.Solution.Cells[0], r.Solution.Cells[1] = r.Solution.Cells[1], r.Solution.Cells[0]
		}
	}
	return r
}

var solution4 = solvers.MustParse("4231314223141423").Grid

// corpus4 writes n 4x4 puzzles, all with the same solution but distinct
// givens, and returns the path and a map from grid to id.
func corpus4(t *testing.T, n int, bad map[int]string) (string, map[solvers.Grid]int) {
	t.Helper()
	var sb strings.Builder
	ids := map[solvers.Grid]int{}
	for id := 0; id < n; id++ {
		if line, ok := bad[id]; ok {
			sb.WriteString(line + "\n")
			continue
		}
		// Keep the cells of the bits of id (up to 16 bits) as givens.
		g := solutions4Givens(id)
		sb.WriteString(g.String() + "\n")
		ids[g] = id
	}
	path := filepath.Join(t.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, ids
}

func solutions4Givens(id int) solvers.Grid {
	g := solvers.NewGrid(2)
	for i := 0; i < 16; i++ {
		if (id+1)>>i&1 == 1 {
			g.Cells[i] = solution4.Cells[i]
		}
	}
	return g
}

// memSink collects rows.
type memSink struct {
	rows    []rundir.Row
	flushes int
	failAt  int
}

func (m *memSink) Write(r *rundir.Row) error {
	if m.failAt > 0 && len(m.rows) == m.failAt {
		return errors.New("disk full")
	}
	m.rows = append(m.rows, *r)
	return nil
}
func (m *memSink) Flush() error { m.flushes++; return nil }

func run(t *testing.T, cfg Config) (*Stats, *memSink, error) {
	t.Helper()
	sink := &memSink{}
	if cfg.Sink == nil {
		cfg.Sink = sink
	}
	st, err := Run(context.Background(), cfg)
	return st, sink, err
}

// TestOrderWithRandomDelays runs units that finish out of order, on a
// small window: every row must come out in order with its own puzzle's
// id, line, seed and counters. The second corpus is many times the ring
// of entries (Window+maxBatch), so entries are reused while units of
// later ones run.
func TestOrderWithRandomDelays(t *testing.T) {
	for _, tc := range []struct {
		puzzles int
		unit    time.Duration
	}{{200, time.Millisecond}, {1500, time.Microsecond}} {
		path, ids := corpus4(t, tc.puzzles, nil)
		slow := &fake{name: "slow", status: solvers.StatusSolved, ids: ids,
			delay: func(id int) time.Duration { return time.Duration((id*7919)%5) * tc.unit }}
		quick := &fake{name: "quick", status: solvers.StatusStuck, ids: ids}
		for _, workers := range []int{1, 3, 8} {
			t.Run(fmt.Sprintf("%d/%d", tc.puzzles, workers), func(t *testing.T) {
				st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{slow, quick},
					Workers: workers, Window: 16, Seed: 42})
				if err != nil {
					t.Fatal(err)
				}
				if len(sink.rows) != 2*tc.puzzles || st.Units != 2*tc.puzzles {
					t.Fatalf("%d rows, stats %d units, want %d", len(sink.rows), st.Units, 2*tc.puzzles)
				}
				for i, r := range sink.rows {
					if r.ID != i/2 || r.Solver != []string{"slow", "quick"}[i%2] || r.Line != i/2+1 {
						t.Fatalf("row %d is (%d, %s, line %d)", i, r.ID, r.Solver, r.Line)
					}
					if r.Calls != uint64(r.ID) || r.Seed != PuzzleSeed(42, 0, r.ID) || r.Guesses != r.Seed%7 {
						t.Fatalf("row %d has counters of another unit: %+v", i, r)
					}
					if r.Solver == "slow" && (r.Status != solvers.StatusSolved || r.Solution != solution4.String()) {
						t.Fatalf("row %d: %+v", i, r)
					}
				}
				if got := st.Solvers[0].Statuses["solved"]; got != tc.puzzles {
					t.Fatalf("solved count %d", got)
				}
			})
		}
	}
}

func TestPanicAndWrong(t *testing.T) {
	path, ids := corpus4(t, 10, nil)
	p := &fake{name: "p", status: solvers.StatusSolved, ids: ids, panic: func(id int) bool { return id == 3 }}
	w := &fake{name: "w", status: solvers.StatusSolved, ids: ids, wrong: true}
	st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{p, w}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) != 20 {
		t.Fatalf("%d rows", len(sink.rows))
	}
	r := sink.rows[6]
	if r.ID != 3 || r.Status != solvers.StatusError || !strings.Contains(r.Error, "panic: fake panic on 3") {
		t.Fatalf("panic row: %+v", r)
	}
	if sink.rows[8].Status != solvers.StatusSolved {
		t.Fatalf("the run did not go on after the panic: %+v", sink.rows[8])
	}
	for _, r := range sink.rows {
		if r.Solver == "w" && (r.Status != solvers.StatusWrong || !strings.Contains(r.Error, "wrong solution")) {
			t.Fatalf("wrong answer not caught: %+v", r)
		}
	}
	if st.Wrong != 10 {
		t.Fatalf("stats.Wrong = %d", st.Wrong)
	}
}

func TestInvalidLines(t *testing.T) {
	path, ids := corpus4(t, 6, map[int]string{1: "12345", 4: "1100000000000000"})
	var reported []string
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids}
	st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 2,
		Invalid: func(e error) { reported = append(reported, e.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Invalid != 2 || len(reported) != 2 {
		t.Fatalf("invalid %d, reported %v", st.Invalid, reported)
	}
	for _, r := range sink.rows {
		bad := r.ID == 1 || r.ID == 4
		if bad != (r.Status == solvers.StatusInvalid) {
			t.Fatalf("row %+v", r)
		}
		if r.ID == 1 && r.Error != path+":2: puzzle has 5 symbols, want 16 (4x4), 81 (9x9) or 256 (16x16)" {
			t.Fatalf("message %q", r.Error)
		}
	}
	// The solver runs on the 4 puzzles only, as many times as their rows
	// say (cheap units are repeated).
	runs := 0
	for _, r := range sink.rows {
		if (r.Status == solvers.StatusInvalid) != (r.Runs == 0) {
			t.Fatalf("row %+v", r)
		}
		runs += r.Runs
	}
	if int(f.calls.Load()) != runs || runs < 4 {
		t.Fatalf("solver called %d times, rows say %d runs (4 puzzles)", f.calls.Load(), runs)
	}
}

func TestSelection(t *testing.T) {
	path, ids := corpus4(t, 30, nil)
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids}
	tests := []struct {
		name string
		sel  Selection
		want []int
	}{
		{"ids", Selection{IDs: []int{3, 7, 29, 40}}, []int{3, 7, 29}},
		{"range", Selection{From: 5, To: 9}, []int{5, 6, 7, 8}},
		{"limit", Selection{Limit: 3}, []int{0, 1, 2}},
		{"shard", Selection{Shard: 1, Of: 10}, []int{1, 11, 21}},
		{"limit and shard", Selection{Limit: 12, Shard: 2, Of: 5}, []int{2, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Select: tt.sel})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, r := range sink.rows {
				got = append(got, r.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("ids %v, want %v", got, tt.want)
			}
			if c := st.Corpora[0]; c.Puzzles != 30 || c.Lines != 30 || len(c.SHA256) != 64 {
				t.Fatalf("corpus info %+v: want the whole file counted", c)
			}
		})
	}
}

func TestStopFinishesRunningUnits(t *testing.T) {
	path, ids := corpus4(t, 100, nil)
	stop := make(chan struct{})
	var started atomic.Int64
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids, delay: func(id int) time.Duration {
		if started.Add(1) == 10 {
			close(stop)
		}
		return 20 * time.Millisecond
	}}
	st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 4, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Interrupted {
		t.Fatal("not marked interrupted")
	}
	n := len(sink.rows)
	if n < 10 || n > 20 {
		t.Fatalf("%d rows after stopping at the 10th unit", n)
	}
	for i, r := range sink.rows {
		if r.ID != i || r.Status != solvers.StatusSolved {
			t.Fatalf("row %d: %+v (want a complete prefix)", i, r)
		}
	}
	if int(f.calls.Load()) != n {
		t.Fatalf("%d units ran but %d rows written: a finished unit was lost", f.calls.Load(), n)
	}
}

func TestCancelStopsAtOnce(t *testing.T) {
	path, ids := corpus4(t, 50, nil)
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids, delay: func(int) time.Duration { return time.Hour }}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 2, Sink: &memSink{}})
		done <- err
	}()
	// Each unit takes an hour unless the cancel stops it: the bound only
	// turns that wait into a failure.
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(testenv.AwaitLimit):
		t.Fatalf("Run still running %s after its context ended: it waits for units of an hour", testenv.AwaitLimit)
	}
}

func TestWriteErrorStopsRun(t *testing.T) {
	path, ids := corpus4(t, 5000, nil)
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids}
	_, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 2,
		Sink: &memSink{failAt: 10}, Window: 256})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	if n := f.calls.Load(); n > (256+2*maxBatch)*maxRuns { // calls: up to maxRuns per unit
		t.Fatalf("%d units ran after the write error: more than the window", n)
	}
}

func TestSkipForResume(t *testing.T) {
	path, ids := corpus4(t, 20, nil)
	a := &fake{name: "a", status: solvers.StatusSolved, ids: ids}
	b := &fake{name: "b", status: solvers.StatusSolved, ids: ids}
	st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{a, b},
		Skip: func(c, id, s int) bool { return id < 7 || (id == 7 && s == 0) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Skipped != 15 || len(sink.rows) != 25 || sink.rows[0].ID != 7 || sink.rows[0].Solver != "b" {
		t.Fatalf("skipped %d, %d rows, first %+v", st.Skipped, len(sink.rows), sink.rows[0])
	}
}

func TestMissingAndDirectoryCorpus(t *testing.T) {
	f := &fake{name: "f", status: solvers.StatusSolved}
	dir := t.TempDir()
	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "nope.txt"), "no such file"},
		{dir, "is a directory"},
	} {
		// Not fatal: the corpus's Error says why, and the other corpora
		// of the run are still swept.
		st, _, err := run(t, Config{Corpora: []string{tt.path}, Solvers: []solvers.Solver{f}})
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		if errs := st.CorpusErrors(); len(errs) != 1 || !strings.Contains(errs[0], tt.want) || !strings.Contains(errs[0], tt.path) || st.Complete() {
			t.Errorf("%s: corpus errors %q, want %q and the path", tt.path, errs, tt.want)
		}
	}
}

func TestUniqueCountsOncePerPuzzle(t *testing.T) {
	path, ids := corpus4(t, 5, nil)
	var counted atomic.Int64
	counter := func(ctx context.Context, p solvers.Puzzle, max int) (int, error) {
		counted.Add(1)
		return 1 + ids[p.Grid]%2, nil
	}
	a := &fake{name: "a", status: solvers.StatusSolved, ids: ids}
	b := &fake{name: "b", status: solvers.StatusSolved, ids: ids}
	_, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{a, b}, Unique: true, Counter: counter, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if counted.Load() != 5 {
		t.Fatalf("counted %d times, want once per puzzle", counted.Load())
	}
	for _, r := range sink.rows {
		if r.Solutions != 1+r.ID%2 {
			t.Fatalf("row %+v", r)
		}
	}
}

// stopAt is a Progress that closes stop once n units are done.
type stopAt struct {
	n, done int
	stop    chan struct{}
}

func (p *stopAt) Add(n int) {
	if p.done += n; p.done >= p.n && p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
}
func (p *stopAt) Finish() {}

// TestStopNearTheEndIsInterrupted: the first Ctrl-C comes when every unit is
// issued but not all are done. The batches still queued are dropped, so
// the run is interrupted, not finished (before, only the reader set
// Interrupted, and it had already ended).
func TestStopNearTheEndIsInterrupted(t *testing.T) {
	path, ids := corpus4(t, 200, nil)
	f := &fake{name: "f", status: solvers.StatusSolved, ids: ids, delay: func(int) time.Duration { return time.Millisecond }}
	stop := make(chan struct{})
	st, sink, err := run(t, Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 1,
		Window: 256 * maxBatch, Stop: stop, Progress: &stopAt{n: 150, stop: stop}})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Interrupted || st.Complete() {
		t.Fatalf("stopped with %d of 200 rows: interrupted %v, complete %v", len(sink.rows), st.Interrupted, st.Complete())
	}
	if st.Issued != 200 || st.Units != len(sink.rows) || len(sink.rows) >= 200 {
		t.Fatalf("%d issued, %d rows (stats %d): the stop did not drop queued units", st.Issued, len(sink.rows), st.Units)
	}
	for i, r := range sink.rows {
		if r.ID != i {
			t.Fatalf("row %d has id %d: not a prefix", i, r.ID)
		}
	}
}
