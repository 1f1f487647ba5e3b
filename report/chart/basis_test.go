package chart

import (
	"context"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// TestTimeCaptionsSayOwnTime: the time charts that draw a strategy
// ranked by its own time (self_ns) say so in their caption; its calls
// histogram and the charts of the other strategies do not.
func TestTimeCaptionsSayOwnTime(t *testing.T) {
	res := &report.Results{Corpora: []string{"c.txt"}}
	for id := range int32(8) {
		e := report.Entry{ID: id, Line: id + 1, Status: solvers.StatusSolved, Calls: uint64(id + 1)}
		e.NS = int64(1000 * (id + 1))
		res.Add("bitboard", e)
		e.NS, e.SelfNS = int64(90_000*(id+1)), int64(50_000*(8-id))
		res.Add("ext", e)
	}
	cs, err := newChartSet(context.Background(), res, Options{Baseline: "bitboard"})
	if err != nil {
		t.Fatal(err)
	}
	const note = "The times of ext are its own (self_ns), not the round trip."
	seen := 0
	for _, j := range cs.jobs() {
		c := j.chart
		want := c.Kind != KindHistCalls && c.Solver != "bitboard"
		if got := strings.Contains(c.Caption, note); got != want {
			t.Errorf("%s (%s): caption says own time %t, want %t:\n%s", c.File, c.Solver, got, want, c.Caption)
		}
		if want {
			seen++
		}
	}
	if seen != 4 { // the ECDF, the box plot, ext's time histogram and its scatter against bitboard
		t.Errorf("%d captions say own time, want 4", seen)
	}
}
