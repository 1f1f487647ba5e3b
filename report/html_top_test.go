package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// TestRerunCommand: the command line the page shows is one a reader can
// run again: the program as it is called, or go run ./cmd/batch for a
// binary go run built in a temporary directory (the page said
// "Command: /tmp/go-build3132285944/b001/exe/batch").
func TestRerunCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"/tmp/go-build3132285944/b001/exe/batch", "-range", "0:600"}, "go run ./cmd/batch -range 0:600"},
		{[]string{"/usr/local/bin/batch", "-solvers", "dlx,bitboard", "-out", "a b"}, "batch -solvers dlx,bitboard -out 'a b'"},
		{[]string{"./batch"}, "batch"},
		{[]string{"/tmp/go-build77/b001/batch.test", "-quiet"}, "go run ./cmd/batch -quiet"},
		{nil, ""},
	} {
		if got := RerunCommand(tc.args); got != tc.want {
			t.Errorf("RerunCommand(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestStrategyThatSolvesNothing: a strategy that solved none of its
// puzzles (singles, stuck on every 17-clue puzzle) gets a line saying
// so, no hardest lists and no hardest puzzle in the headline; the
// verdict's fastest strategy is one that solved puzzles, not it.
func TestStrategyThatSolvesNothing(t *testing.T) {
	csv := strings.Join([]string{
		strings.Join(rundir.Header[:15], ","),
		`0,1,singles,stuck,300,3,0,0,20,17,,1,,,c.txt`,
		`1,2,singles,stuck,310,4,0,0,21,17,,1,,,c.txt`,
		`0,1,dlx,solved,2000,3,1,0,64,17,,1,,,c.txt`,
		`1,2,dlx,solved,4000,8,3,0,64,17,,1,,,c.txt`,
	}, "\n") + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{})
	index, _ := renderPages(t, res, s, PageOptions{})
	for _, want := range []string{
		"singles solved none of its 2 puzzles: stuck on every one (it stopped by itself, without a solution); it has no charts of its own and no lists of hardest puzzles.",
		"Only dlx solved puzzles: median 2.00µs, 2 of 2 solved.",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(index, "<b>singles</b>:") {
		t.Error("the page lists singles' hardest puzzles")
	}
	head := index[strings.Index(index, `id="headline"`):]
	head = head[:strings.Index(head, "</table>")]
	row := head[strings.Index(head, "<b>singles</b>"):]
	row = row[:strings.Index(row, "</tr>")]
	if !strings.HasSuffix(row, "<td>–</td>") {
		t.Errorf("singles' hardest puzzle in the headline: %s", row)
	}
}

// TestNoStrategySolvedNoListsPromised: when no strategy finished a
// puzzle (every unit timed out, -timeout 1us), the page's section of the
// hardest puzzles says there are no lists; before, it said "open a
// strategy to see its lists" over none.
func TestNoStrategySolvedNoListsPromised(t *testing.T) {
	csv := strings.Join([]string{
		strings.Join(rundir.Header[:15], ","),
		`0,1,dlx,timeout,3000,3,1,0,20,17,,1,,,c.txt`,
		`1,2,dlx,timeout,4000,8,3,0,21,17,,1,,,c.txt`,
	}, "\n") + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	index, _ := renderPages(t, res, Summarize(res, SummaryOptions{}), PageOptions{})
	if strings.Contains(index, "open a strategy to see its lists") || !strings.Contains(index, "No strategy finished a puzzle (solved it, or proved it unsolvable): no lists of hardest puzzles.") {
		t.Errorf("the section of the hardest puzzles promises lists there are not:\n%s", index[strings.Index(index, `id="hardest"`):][:400])
	}
}

// TestRunFactsTookAsTheTerminalSays: the page says how long the run took
// with the one formatter of a duration, as the sweep's last line does
// ("took 6.52s with 2 workers"), not rounded to the second.
func TestRunFactsTookAsTheTerminalSays(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{6_523_000_000, ", took 6.52s"},
		{850_000_000, ", took 850ms"},
		{842_400_000_000, ", took 14m2s"},
	} {
		s := &Summary{Run: &RunSummary{RunID: "r", Status: rundir.Finished, DurationNS: c.ns}}
		facts, _ := s.runFacts(0.1)
		if !strings.Contains(facts, c.want) {
			t.Errorf("%d ns: %q lacks %q (FormatDuration: %s)", c.ns, facts, c.want, FormatDuration(time.Duration(c.ns)))
		}
	}
}
