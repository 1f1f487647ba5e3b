package report

import (
	"testing"

	"sudokubatch/rundir"
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

// TestCompareShow: a moved puzzle's `batch show` command runs it in NEW
// with its strategy and NEW's limits, names the corpus when NEW has
// several, and is left out when NEW's directory is not known.
func TestCompareShow(t *testing.T) {
	one := &Run{Results: &Results{Corpora: []string{"a.txt"}}, Manifest: &rundir.Manifest{}}
	one.Manifest.Settings.MaxCalls = 3000
	two := &Run{Results: &Results{Corpora: []string{"a.txt", "b c.txt"}}}
	e := &Entry{Corpus: 1, ID: 42}
	for _, tc := range []struct {
		run  *Run
		dir  string
		want string
	}{
		{one, "results/n2", "batch show 42 -run results/n2 -solvers dlx -timeout 0 -max-calls 3000"},
		{two, "n2", "batch show 42 -run n2 -corpus 'b c.txt' -solvers dlx"},
		{one, "", ""},
	} {
		if got := compareShow(tc.run, e, "dlx", tc.dir); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
