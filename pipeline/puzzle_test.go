package pipeline

import (
	"context"
	"testing"

	"sudokubatch/corpus"
	"sudokubatch/solvers"
)

// SolveEntry gives the rows Run gives, but for the time, and derives
// the seed from the corpus index it is given.
func TestSolveEntryMatchesRun(t *testing.T) {
	path, ids := corpus4(t, 8, map[int]string{2: "1100000000000000"})
	mk := func() []solvers.Solver {
		return []solvers.Solver{&fake{name: "a", status: solvers.StatusSolved, ids: ids},
			&fake{name: "w", status: solvers.StatusSolved, wrong: true, ids: ids},
			&fake{name: "p", panic: func(int) bool { return true }, ids: ids}}
	}
	cfg := Config{Corpora: []string{path}, Solvers: mk(), Seed: 42, MaxCalls: 100}
	_, sink, err := run(t, Config{Corpora: cfg.Corpora, Solvers: mk(), Seed: 42, MaxCalls: 100, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{0, 2, 5} {
		e, ok, _, err := corpus.Find(context.Background(), path, nil, id)
		if err != nil || !ok {
			t.Fatal(id, err)
		}
		got := SolveEntry(context.Background(), cfg, 0, e)
		if len(got) != 3 {
			t.Fatalf("%d rows", len(got))
		}
		for i, r := range got {
			want := sink.rows[id*3+i]
			r.NS, want.NS = 0, 0
			r.NSMin, want.NSMin, r.NSMedian, want.NSMedian = 0, 0, 0, 0
			if r != want {
				t.Errorf("id %d %s:\n got %+v\nwant %+v", id, r.Solver, r, want)
			}
		}
	}
	// With the puzzle's corpus second in the run, the seed follows.
	e, _, _, _ := corpus.Find(context.Background(), path, nil, 5)
	two := Config{Corpora: []string{"first.txt", path}, Solvers: mk(), Seed: 42}
	if r := SolveEntry(context.Background(), two, 1, e)[0]; r.Seed != PuzzleSeed(42, 1, 5) || r.Corpus != path {
		t.Errorf("second corpus: %+v", r)
	}
}
