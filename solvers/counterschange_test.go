//go:build counterschange

package solvers

import (
	"context"
	"hash/fnv"
	"slices"
	"testing"
)

// countersChangeN is how many puzzles of the corpus the tag's test
// solves (dlx: about 30 µs each, twice).
const countersChangeN = 3000

// TestCountersChangeIDs solves the first countersChangeN puzzles of the
// corpus with dlx, with the counterschange tag's change on and off, and
// checks that exactly the puzzles the rule picks differ, each by one call
// and one guess with the same status, solution and backtracks. The rule
// is recomputed here with hash/fnv over the corpus line itself, not with
// countersChangePicks. It logs the ids, the list the counters detector
// must report for a sweep of those puzzles.
func TestCountersChangeIDs(t *testing.T) {
	t.Cleanup(func() { countersChangeOff = false })
	var want, got []int
	ctx := context.Background()
	s := &dlx{}
	eachCorpus(t, func(e corpusEntry) bool {
		if e.ID >= countersChangeN {
			return false
		}
		h := fnv.New32a()
		h.Write([]byte(e.Puzzle.String()))
		if h.Sum32()%100 == 0 {
			want = append(want, e.ID)
		}
		countersChangeOff = false
		on := s.Solve(ctx, e.Puzzle, Limits{})
		countersChangeOff = true
		off := s.Solve(ctx, e.Puzzle, Limits{})
		if on.Status != StatusSolved || on.Status != off.Status || on.Solution != off.Solution || on.Backtracks != off.Backtracks {
			t.Fatalf("#%d: changed %v %s %d backtracks, plain %v %s %d: want the same status, solution and backtracks",
				e.ID, on.Status, on.Solution, on.Backtracks, off.Status, off.Solution, off.Backtracks)
		}
		if on.Calls != on.Guesses+1 {
			t.Errorf("#%d: changed counters %+v: want calls == guesses+1, as dlx keeps", e.ID, countersOf(on))
		}
		switch {
		case on.Calls == off.Calls && on.Guesses == off.Guesses:
		case on.Calls == off.Calls+1 && on.Guesses == off.Guesses+1:
			got = append(got, e.ID)
		default:
			t.Errorf("#%d: changed counters %+v, plain %+v: want the same or one call and one guess more",
				e.ID, countersOf(on), countersOf(off))
		}
		return true
	})
	t.Logf("first %d puzzles: %d changed, ids %v", countersChangeN, len(got), got)
	if len(want) == 0 || len(want) > countersChangeN/50 {
		t.Fatalf("the rule picks %d of %d puzzles: want a few (1 in 100 on average)", len(want), countersChangeN)
	}
	if !slices.Equal(got, want) {
		t.Errorf("changed ids %v, want the rule's %v", got, want)
	}
}

// TestCountersChangeSparesLimits: a puzzle the rule picks is left as it
// is when a limit stopped its search, or when it used every call
// -max-calls allows (the changed code would have been stopped).
func TestCountersChangeSparesLimits(t *testing.T) {
	ctx := context.Background()
	var p Puzzle
	found := false
	eachCorpus(t, func(e corpusEntry) bool {
		p, found = e.Puzzle, countersChangePicks(&e.Puzzle)
		return !found
	})
	if !found {
		t.Fatal("the rule picks no puzzle of the corpus")
	}
	s := &dlx{}
	t.Cleanup(func() { countersChangeOff = false })
	countersChangeOff = true
	plain := s.Solve(ctx, p, Limits{})
	countersChangeOff = false
	if r := s.Solve(ctx, p, Limits{}); r.Calls != plain.Calls+1 {
		t.Fatalf("no limit: %d calls, plain %d: want one more", r.Calls, plain.Calls)
	}
	for _, tc := range []struct {
		name     string
		maxCalls uint64
		want     uint64
	}{
		{"stopped", plain.Calls - 1, plain.Calls - 1},
		{"every call allowed used", plain.Calls, plain.Calls},
		{"one call to spare", plain.Calls + 1, plain.Calls + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := s.Solve(ctx, p, Limits{MaxCalls: tc.maxCalls}); r.Calls != tc.want {
				t.Errorf("-max-calls %d: %d calls (%v), want %d", tc.maxCalls, r.Calls, r.Status, tc.want)
			}
		})
	}
}
