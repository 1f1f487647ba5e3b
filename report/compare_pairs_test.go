package report

import (
	"testing"

	"sudokubatch/solvers"
)

// TestMostMoved: the units finished in both runs whose time moved most,
// either way, the largest first, ties in the order given; a stopped
// unit and one within ×1.01 are not listed.
func TestMostMoved(t *testing.T) {
	pair := func(id int32, oldNS, newNS int64, st solvers.Status) TimePair {
		return TimePair{Old: Entry{ID: id, NS: oldNS, Status: solvers.StatusSolved}, New: Entry{ID: id, NS: newNS, Status: st}}
	}
	ok := solvers.StatusSolved
	pairs := []TimePair{
		pair(0, 100, 200, ok),                     // ×2
		pair(1, 100, 100, ok),                     // ×1: not listed
		pair(2, 100, 1000, solvers.StatusTimeout), // stopped: not listed
		pair(3, 100, 25, ok),                      // ×0.25: |log| of ×4
		pair(4, 100, 400, ok),                     // ×4, after #3
		pair(5, 0, 3, ok),                         // 0 ns taken as 1: ×3
		pair(6, 1000, 1005, ok),                   // within ×1.01
		pair(7, 50, 100, ok),                      // ×2, after #0
	}
	for _, tc := range []struct {
		k    int
		want []int32
	}{{0, nil}, {1, []int32{3}}, {3, []int32{3, 4, 5}}, {10, []int32{3, 4, 5, 0, 7}}} {
		var got []int32
		for _, p := range MostMoved(pairs, tc.k) {
			got = append(got, p.Old.ID)
		}
		if len(got) != len(tc.want) {
			t.Errorf("k=%d: %v, want %v", tc.k, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("k=%d: %v, want %v", tc.k, got, tc.want)
				break
			}
		}
	}
}
