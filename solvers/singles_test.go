package solvers

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestSinglesCorpusStuck runs singles on the whole 17-clue corpus: naked
// singles alone never finish a 17-clue puzzle, so every one must end
// stuck, having filled fewer cells than were empty.
func TestSinglesCorpusStuck(t *testing.T) {
	var filled []int
	var sweeps, maxSweeps uint64
	eachCorpus(t, func(e corpusEntry) bool {
		r := singles{}.Solve(context.Background(), e.Puzzle, Limits{})
		if r.Status != StatusStuck || r.Filled >= e.Puzzle.Empty() || r.Calls < 1 || r.Guesses != 0 || r.Backtracks != 0 {
			t.Fatalf("puzzle #%d: status %v calls %d guesses %d backtracks %d filled %d of %d, want stuck",
				e.ID, r.Status, r.Calls, r.Guesses, r.Backtracks, r.Filled, e.Puzzle.Empty())
		}
		filled = append(filled, r.Filled)
		sweeps += r.Calls
		maxSweeps = max(maxSweeps, r.Calls)
		return true
	})
	if len(filled) != 49151 {
		t.Fatalf("read %d puzzles, want 49151", len(filled))
	}
	slices.Sort(filled)
	zero := len(filled) - len(slices.DeleteFunc(slices.Clone(filled), func(n int) bool { return n == 0 }))
	t.Logf("%d puzzles, all stuck; cells filled: min %d, median %d, max %d; %d puzzles with none filled; sweeps: mean %.2f, max %d",
		len(filled), filled[0], filled[len(filled)/2], filled[len(filled)-1], zero,
		float64(sweeps)/float64(len(filled)), maxSweeps)
}

func TestSinglesKnown(t *testing.T) {
	tests := []struct {
		name   string
		want   Status
		calls  uint64 // sweeps, the last one changing nothing
		filled int
	}{
		// The DS document's own example grid ("M") is not available here;
		// Norvig's grid1 is an easy grid that naked singles finish: seven
		// sweeps fill its 49 empty cells, the eighth changes nothing.
		{"norvig-grid1", StatusSolved, 8, 49},
		{"4x4-a", StatusSolved, 4, 11},
		{"16x16-a", StatusSolved, 7, 116},
		// One cell filled (r7c5 = 7) in the first sweep, none in the second.
		{"corpus-0", StatusStuck, 2, 1},
		{"langer-hard", StatusStuck, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := knownByName(t, tt.name)
			r := singles{}.Solve(context.Background(), k.puzzle, Limits{})
			if r.Status != tt.want || r.Calls != tt.calls || r.Filled != tt.filled || r.Guesses != 0 || r.Backtracks != 0 {
				t.Fatalf("status %v calls %d filled %d guesses %d backtracks %d, want %v calls %d filled %d and no guess",
					r.Status, r.Calls, r.Filled, r.Guesses, r.Backtracks, tt.want, tt.calls, tt.filled)
			}
			if r.Status == StatusSolved {
				if err := Check(k.puzzle, r.Solution); err != nil {
					t.Fatalf("wrong solution %s: %v", r.Solution, err)
				}
				if r.Solution != k.solution {
					t.Fatalf("solution %s, want %s", r.Solution, k.solution)
				}
			} else if !r.Solution.IsZero() {
				t.Fatalf("%v with a solution %s", r.Status, r.Solution)
			}
		})
	}
}

// TestSinglesUnsolvable also pins down that the grid is filled in place:
// in 4x4-row, r1c3 and r1c4 can both only hold 4; the sweep fills r1c3,
// so r1c4 is left with no value in the same sweep.
func TestSinglesUnsolvable(t *testing.T) {
	tests := []struct {
		name   string
		calls  uint64
		filled int
	}{
		{"4x4-row", 1, 1},
		{"9x9-empty-cell", 1, 0},
		{"9x9-wrong-given", 2, 12},
	}
	lines := map[string]string{}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		lines[f[0]] = f[1]
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := MustParse(lines[tt.name])
			r := singles{}.Solve(context.Background(), p, Limits{})
			if r.Status != StatusUnsolvable || r.Calls != tt.calls || r.Filled != tt.filled || !r.Solution.IsZero() {
				t.Fatalf("status %v calls %d filled %d solution %q, want unsolvable after %d sweeps, %d filled",
					r.Status, r.Calls, r.Filled, r.Solution, tt.calls, tt.filled)
			}
		})
	}
}

func TestSinglesLimits(t *testing.T) {
	p := knownByName(t, "norvig-grid1").puzzle
	for max := uint64(1); max < 8; max++ {
		r := singles{}.Solve(context.Background(), p, Limits{MaxCalls: max})
		if r.Status != StatusLimit || r.Calls != max || r.Err == nil {
			t.Fatalf("MaxCalls %d: status %v calls %d err %v, want limit after exactly %d sweeps", max, r.Status, r.Calls, r.Err, max)
		}
		// The seventh sweep fills the last cells, but complete stops only
		// after a sweep that changes nothing, so 7 calls still end in limit.
		if r.Filled <= 0 || r.Filled > p.Empty() || (max == 7) != (r.Filled == p.Empty()) {
			t.Errorf("MaxCalls %d: Filled = %d of the %d empty cells", max, r.Filled, p.Empty())
		}
	}
	if r := (singles{}).Solve(context.Background(), p, Limits{MaxCalls: 8}); r.Status != StatusSolved {
		t.Fatalf("MaxCalls 8: status %v, want solved", r.Status)
	}
	r := singles{}.Solve(context.Background(), p, Limits{Deadline: time.Now().Add(-time.Second)})
	if r.Status != StatusTimeout || r.Calls != 0 {
		t.Errorf("past deadline: status %v calls %d, want timeout before the first sweep", r.Status, r.Calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = singles{}.Solve(ctx, p, Limits{})
	if r.Status != StatusError || !errors.Is(r.Err, context.Canceled) {
		t.Errorf("canceled context: status %v err %v, want error wrapping context.Canceled", r.Status, r.Err)
	}
}
