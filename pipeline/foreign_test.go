package pipeline

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// foreigner is a foreign strategy (it implements solvers.AnswerChecker,
// as an external solver does) that answers the first request of each
// puzzle after first, and every later one after again, right or, with
// cheat, with a wrong grid; drift counts other calls on every request;
// hang blocks the unit of one id until its context ends; late is
// returned by LateFaults.
type foreigner struct {
	ids          map[solvers.Grid]int
	first, again time.Duration
	cheat, drift bool
	hang         int // an id, or -1
	late         []solvers.LateFault

	mu   sync.Mutex
	seen map[int]int // requests by id
}

func (f *foreigner) Name() string { return "foreign" }

func (f *foreigner) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	id := f.ids[p.Grid]
	f.mu.Lock()
	if f.seen == nil {
		f.seen = map[int]int{}
	}
	f.seen[id]++
	n := f.seen[id]
	f.mu.Unlock()
	if id == f.hang {
		<-ctx.Done()
		return solvers.Result{Status: solvers.StatusError, Err: context.Cause(ctx)}
	}
	delay := f.first
	if n > 1 {
		delay = f.again
	}
	time.Sleep(delay)
	r := solvers.Result{Status: solvers.StatusSolved, Solution: solution4, Calls: 3}
	if f.drift {
		r.Calls = uint64(n)
	}
	if f.cheat && n > 1 {
		r.Solution.Cells[0], r.Solution.Cells[1] = r.Solution.Cells[1], r.Solution.Cells[0]
	}
	return r
}

func (f *foreigner) CheckAnswer(context.Context, solvers.Puzzle, *solvers.Result) {}

func (f *foreigner) LateFaults() []solvers.LateFault { return f.late }

// runForeign sweeps n 4x4 puzzles with f (and ids), re-timing on, into
// an amendable sink.
func runForeign(t *testing.T, f *foreigner, n int, stop chan struct{}) (*Stats, *amendSink) {
	t.Helper()
	path, ids := corpus4(t, n, nil)
	f.ids = ids
	sink := &amendSink{}
	st, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: []solvers.Solver{f}, Workers: 2, Sink: sink,
		Retime: true, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	return st, sink
}

// TestForeignRepeatsAreChecked: a foreign strategy that answers its
// repeated requests wrong has its units wrong; one whose counters change
// from request to request has them unstable.
func TestForeignRepeatsAreChecked(t *testing.T) {
	st, sink := runForeign(t, &foreigner{first: time.Millisecond, cheat: true, hang: -1}, 20, nil)
	wrong := 0
	for _, r := range sink.rows {
		if r.Status == solvers.StatusWrong {
			wrong++
		}
	}
	if wrong == 0 || st.Wrong != wrong || st.Solvers[0].Statuses["wrong"] != wrong {
		t.Errorf("%d rows wrong, stats %d and %d: the repeats' answers were not checked, or not counted", wrong, st.Wrong, st.Solvers[0].Statuses["wrong"])
	}
	st, sink = runForeign(t, &foreigner{first: time.Millisecond, drift: true, hang: -1}, 20, nil)
	unstable := 0
	for _, r := range sink.rows {
		if r.Unstable {
			unstable++
		}
	}
	if unstable == 0 || st.Unstable != unstable {
		t.Errorf("%d rows unstable, stats %d: counters that change were not seen", unstable, st.Unstable)
	}
}

// TestForeignCacheKeepsFirstTimes: a foreign strategy that answers
// repeated requests at once keeps the times of its first requests, and
// its re-timed rows say why (retimed cache).
func TestForeignCacheKeepsFirstTimes(t *testing.T) {
	const first = 5 * time.Millisecond
	st, sink := runForeign(t, &foreigner{first: first, hang: -1}, 20, nil)
	cached := 0
	for _, r := range sink.rows {
		if r.NS < int64(first) {
			t.Errorf("#%d: %s (retimed %q), under its first request's %s", r.ID, time.Duration(r.NS), r.Retimed, first)
		}
		if r.Retimed == rundir.RetimedCache {
			cached++
		}
	}
	if cached == 0 || st.Retime.Cached != cached {
		t.Errorf("%d rows retimed cache, stats %d", cached, st.Retime.Cached)
	}
	// The same program answering every request in the same time is no
	// cache: its re-timed times are taken.
	st, sink = runForeign(t, &foreigner{first: first, again: first, hang: -1}, 20, nil)
	for _, r := range sink.rows {
		if r.Retimed == rundir.RetimedCache {
			t.Fatalf("#%d retimed cache, though its repeats take as long as its first request", r.ID)
		}
	}
	if st.Retime.Retimed == 0 {
		t.Errorf("nothing re-timed")
	}
}

// TestForeignStopLeavesCutUnits: the stop ends a foreign unit that waits
// on its answer; the unit has no row (-resume runs it), the others
// theirs.
func TestForeignStopLeavesCutUnits(t *testing.T) {
	stop := make(chan struct{})
	f := &foreigner{first: time.Millisecond, hang: 5}
	go func() {
		for {
			f.mu.Lock()
			hung := f.seen[5] > 0
			f.mu.Unlock()
			if hung {
				close(stop)
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	start := time.Now()
	st, sink := runForeign(t, f, 12, stop)
	if !st.Interrupted || time.Since(start) > 5*time.Second {
		t.Fatalf("interrupted %v after %s", st.Interrupted, time.Since(start))
	}
	for _, r := range sink.rows {
		if r.ID == 5 {
			t.Errorf("#5 has a row (%s, %q): it was cut short by the stop", r.Status, r.Error)
		}
		if r.Status != solvers.StatusSolved {
			t.Errorf("#%d: %s (%q)", r.ID, r.Status, r.Error)
		}
	}
}

// TestForeignLateFaults: a fault a foreign strategy finds after the
// unit's Solve returned makes that unit's row an error.
func TestForeignLateFaults(t *testing.T) {
	f := &foreigner{first: time.Millisecond, hang: -1,
		late: []solvers.LateFault{{Corpus: 0, ID: 3, Err: errors.New("protocol: a line after its answer")}}}
	st, sink := runForeign(t, f, 8, nil)
	for _, r := range sink.rows {
		switch {
		case r.ID == 3 && (r.Status != solvers.StatusError || r.Error != "protocol: a line after its answer" || r.Solution != ""):
			t.Errorf("#3: %s %q %q, want the late fault", r.Status, r.Error, r.Solution)
		case r.ID != 3 && r.Status != solvers.StatusSolved:
			t.Errorf("#%d: %s", r.ID, r.Status)
		}
	}
	if st.Solvers[0].Statuses["error"] != 1 || st.Solvers[0].Statuses["solved"] != 7 {
		t.Errorf("statuses %v, want 7 solved and 1 error", st.Solvers[0].Statuses)
	}
}
