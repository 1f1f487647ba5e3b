package chart

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sudokubatch/report"
)

// TestHistogramLabelsFollowReportRanking: a histogram labels the units
// that the report's ranking lists first (summary.md, hard.csv and the
// page use the same), timeouts included, at their limit and named as
// such, highlighted puzzles left out; the caption says where the labels
// come from.
func TestHistogramLabelsFollowReportRanking(t *testing.T) {
	res := unfinishedResults()
	sum := report.Summarize(res, report.SummaryOptions{Top: 20})
	cs, err := newChartSet(context.Background(), res, Options{Highlight: []int{1, 2, 4}, Summary: sum})
	if err != nil {
		t.Fatal(err)
	}
	backtrack := cs.time[1]
	var got []string
	for _, l := range cs.hardest(backtrack) {
		got = append(got, l.text)
	}
	// backtrack's timeouts are its slowest: #37, #32, ... (#2 is highlighted).
	want := []string{"#37 (timeout)", "#32 (timeout)", "#27 (timeout)", "#22 (timeout)", "#17 (timeout)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	var list []string
	for _, u := range sum.Strategies[1].ByTime {
		if u.Puzzle.ID != 2 && len(list) < len(want) {
			list = append(list, u.Puzzle.Label+" ("+u.Status.String()+")")
		}
	}
	if !reflect.DeepEqual(list, want) {
		t.Errorf("the summary lists %v first, the chart labels %v", list, want)
	}
	if c := cs.histCaption(backtrack, 1); !strings.Contains(c, "the slowest 5 puzzles (first in the summary's list) are labelled #id") {
		t.Errorf("caption: %s", c)
	}
	// Without a summary, Write's own is the same ranking.
	cs, err = newChartSet(context.Background(), res, Options{Highlight: []int{1, 2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	var again []string
	for _, l := range cs.hardest(cs.time[1]) {
		again = append(again, l.text)
	}
	if !reflect.DeepEqual(again, want) {
		t.Errorf("labels without a summary %v, want %v", again, want)
	}
}
