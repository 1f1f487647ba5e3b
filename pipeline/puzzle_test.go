package pipeline

import (
	"context"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

func TestFindPuzzle(t *testing.T) {
	path, ids := corpus4(t, 6, map[int]string{4: "12345"})
	check := func(id int, wantOK bool, wantErr string) solvers.Entry {
		t.Helper()
		e, ok, info, err := FindPuzzle(context.Background(), path, nil, id)
		if err != nil {
			t.Fatal(err)
		}
		// Found, the corpus is read only as far as the puzzle; not
		// found, to its end.
		if ok != wantOK || info.SHA256 == "" || info.Size == 0 || (!ok && (info.Puzzles != 6 || info.Invalid != 1 || !info.Complete)) {
			t.Fatalf("id %d: found %v, info %+v", id, ok, info)
		}
		if got := ""; e.Err != nil || wantErr != "" {
			if e.Err != nil {
				got = e.Err.Error()
			}
			if got != wantErr {
				t.Fatalf("id %d: error %q, want %q", id, got, wantErr)
			}
		}
		return e
	}
	if e := check(3, true, ""); ids[e.Puzzle.Grid] != 3 || e.Line != 4 {
		t.Errorf("id 3: %+v", e)
	}
	check(4, true, path+":5: puzzle has 5 symbols, want 16 (4x4), 81 (9x9) or 256 (16x16)")
	check(6, false, "")
	if _, _, _, err := FindPuzzle(context.Background(), path+".nope", nil, 0); err == nil {
		t.Error("missing corpus: no error")
	}
	// Standard input.
	e, ok, info, err := FindPuzzle(context.Background(), "-", strings.NewReader("# c\n4231314223141423\n0000000000000000\n"), 1)
	if err != nil || !ok || e.Line != 3 || info.Puzzles != 2 {
		t.Errorf("stdin: %+v %v %+v %v", e, ok, info, err)
	}
}

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
		e, ok, _, err := FindPuzzle(context.Background(), path, nil, id)
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
	e, _, _, _ := FindPuzzle(context.Background(), path, nil, 5)
	two := Config{Corpora: []string{"first.txt", path}, Solvers: mk(), Seed: 42}
	if r := SolveEntry(context.Background(), two, 1, e)[0]; r.Seed != puzzleSeed(42, 1, 5) || r.Corpus != path {
		t.Errorf("second corpus: %+v", r)
	}
}
