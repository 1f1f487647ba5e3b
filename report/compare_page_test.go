package report

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// TestComparePageSaysBusyAndEqualCalls: the comparison page gives each
// run's facts (when, which build, how busy its machine was), warns when
// other work took more than the threshold of the workers' CPU time, and
// its table of the puzzles that moved most says when a puzzle made the
// same calls in both runs (backtrack's #39983 moved ×178 with identical
// calls, and the page said nothing of the busy machine).
func TestComparePageSaysBusyAndEqualCalls(t *testing.T) {
	rows := func(slow int64) string {
		lines := []string{strings.Join(rundir.Header[:15], ",")}
		for id := range 40 {
			ns := int64(1000 + 10*id)
			if id == 7 {
				ns *= slow
			}
			lines = append(lines, fmt.Sprintf("%d,%d,backtrack,solved,%d,%d,0,0,64,17,,1,,,c.txt", id, id+1, ns, 50+id))
		}
		return strings.Join(lines, "\n") + "\n"
	}
	run := func(id string, slow int64, other time.Duration) *Run {
		res, err := ReadResults(context.Background(), strings.NewReader(rows(slow)), "results.csv")
		if err != nil {
			t.Fatal(err)
		}
		m := &rundir.Manifest{RunID: id, Status: rundir.Finished, Start: time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC), DurationNS: int64(time.Second),
			Segments: []rundir.Segment{{DurationNS: int64(time.Second), OtherCPUNS: int64(other), Workers: 2, Rows: 40,
				Machine: rundir.Machine{Host: "h", CPU: "cpu", NumCPU: 2, Version: "0123456789abcdef0123456789abcdef01234567"}}}}
		return &Run{Path: id, Results: res, Manifest: m}
	}
	oldRun, newRun := run("old", 1, 20*time.Millisecond), run("new", 178, 700*time.Millisecond)
	c, err := Compare(context.Background(), oldRun, newRun, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := renderComparePage(context.Background(), &b, c, oldRun, newRun, ComparePageOptions{Busy: 0.10}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"Run old, started 2026-11-27 23:00 UTC, took 1.00s · revision 0123456 · h: cpu, 2 CPUs, 2 workers · other work took 1% of the workers&#39; CPU time.",
		"other work took 35% of the workers&#39; CPU time.",
		`<p class="busy">NEW: The machine was busy: other work took 35% of the workers&#39; CPU time while the units were timed (more than 10%)`,
		`<td data-v="178">×178</td><td class="text">=</td>`,
		"Calls =: the same calls in both runs, the same search",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the comparison page lacks %q", want)
		}
	}
	if strings.Contains(page, "OLD: The machine was busy") {
		t.Error("OLD, 1% busy, is said busy")
	}
}
