package history

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// TestTrendOfRun: a run's page gets its night's verdicts when its root
// keeps a history, the same whether the run is named by its path,
// through latest or from inside; none without history.json, and none
// for the first night of its series. An older night's verdicts are its
// own night's.
func TestTrendOfRun(t *testing.T) {
	testenv.SkipUnderRace(t, "6 evaluations of a 5-night series: 0.3 s, 7 s under -race; the detectors' tests run Evaluate under it")
	root := filepath.Join(t.TempDir(), rundir.DefaultRoot)
	for d := 1; d <= 4; d++ {
		synthSweep(t, root, sweep{name: "n" + string(rune('0'+d)), day: d})
	}
	synthSweep(t, root, sweep{name: "n5", day: 5, slow: map[string]float64{"dlx": 1.25}, binary: "sha256:" + strings.Repeat("c1", 32)})
	if err := os.Symlink("n5", filepath.Join(root, rundir.LatestLink)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if tr, err := TrendOfRun(ctx, filepath.Join(root, "n5")); tr != nil || err != nil {
		t.Fatalf("a root without %s: %+v, %v; want nil", IndexFile, tr, err)
	}
	if _, _, err := Update(root); err != nil {
		t.Fatal(err)
	}
	named, err := TrendOfRun(ctx, filepath.Join(root, "n5"))
	if err != nil || named == nil {
		t.Fatalf("n5: %+v, %v", named, err)
	}
	if c := named.Cells["dlx"]; c.Verdict != VerdictSlower || !c.Alarm || !strings.HasPrefix(c.Change, "×1.2") || c.Ratio < 1.2 {
		t.Errorf("dlx on n5: %+v, want slower ×1.25 with an alarm", c)
	}
	if c := named.Cells["norvig"]; c.Verdict != VerdictNoChange || c.Alarm ||
		!strings.Contains(c.Baseline, "the per-puzzle median of 4 nights before it") {
		t.Errorf("norvig on n5: %+v, want no change against 4 nights", c)
	}
	want := "Night 5 of its series in " + filepath.Join(rundir.DefaultRoot, IndexFile) + " (batch trend): each strategy against its baseline of earlier nights, an alarm beyond 5%; new alarm: dlx (time)."
	if named.Line != want || named.Href != "" {
		t.Errorf("n5's line %q, href %q; want %q and none (no history page)", named.Line, named.Href, want)
	}
	latest, err := TrendOfRun(ctx, filepath.Join(root, rundir.LatestLink))
	if err != nil || !reflect.DeepEqual(latest, named) {
		t.Errorf("through latest: %+v, %v; want n5's %+v", latest, err, named)
	}
	t.Chdir(filepath.Join(root, "n5"))
	if inside, err := TrendOfRun(ctx, "."); err != nil || !reflect.DeepEqual(inside, named) {
		t.Errorf("from inside the run: %+v, %v; want n5's %+v", inside, err, named)
	}
	n4, err := TrendOfRun(ctx, filepath.Join(root, "n4"))
	if err != nil || n4 == nil || n4.Cells["dlx"].Verdict != VerdictNoChange || !strings.HasSuffix(n4.Line, "no new alarm.") {
		t.Errorf("n4: %+v, %v; want its own night's verdicts", n4, err)
	}
	if first, err := TrendOfRun(ctx, filepath.Join(root, "n1")); first != nil || err != nil {
		t.Errorf("the first night: %+v, %v; want nil", first, err)
	}
	if err := os.WriteFile(filepath.Join(root, PageFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if tr, _ := TrendOfRun(ctx, filepath.Join(root, "n5")); tr == nil || tr.Href != "../"+PageFile {
		t.Errorf("with a history page: %+v, want its link", tr)
	}
}

// TestPuzzleHistory: a named puzzle's units on the earlier nights of the
// run's series, through latest too; a night whose rows are gone is shown
// with a note; none without an index.
func TestPuzzleHistory(t *testing.T) {
	root := filepath.Join(t.TempDir(), rundir.DefaultRoot)
	for d := 1; d <= 3; d++ {
		synthSweep(t, root, sweep{name: "n" + string(rune('0'+d)), day: d})
	}
	run, err := report.LoadRun(context.Background(), filepath.Join(root, "n3"))
	if err != nil {
		t.Fatal(err)
	}
	sum := report.Summarize(run.Results, report.SummaryOptions{Manifest: run.Manifest, Highlight: []int{7}})
	ctx := context.Background()
	if h, notes := PuzzleHistory(ctx, filepath.Join(root, "n3"), run.Manifest, sum); h != nil || notes != nil {
		t.Fatalf("no index: %+v, %q; want nil", h, notes)
	}
	if _, _, err := Update(root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "n1", rundir.PageFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("n3", filepath.Join(root, rundir.LatestLink)); err != nil {
		t.Fatal(err)
	}
	h, notes := PuzzleHistory(ctx, filepath.Join(root, rundir.LatestLink), run.Manifest, sum)
	if h == nil || len(h.Nights) != 2 || len(notes) != 0 {
		t.Fatalf("n3: %+v, notes %q; want nights n1 and n2", h, notes)
	}
	if h.Nights[0].RunID != "n1" || h.Nights[0].Href != "../n1/"+rundir.PageFile || h.Nights[1].Href != "" || h.Nights[0].Date != "03-02 23:00" {
		t.Errorf("nights %+v: want n1 (its page linked, 03-02 23:00) then n2 (no page)", h.Nights)
	}
	seven := 0
	for _, u := range h.Units {
		if u.ID == 7 {
			seven++
			if u.Corpus != "data/sudoku17.txt" || u.Calls != 17 || u.NS <= 0 {
				t.Errorf("#7 on night %d: %+v", u.Night, u)
			}
		}
	}
	if seven != 2*len(synthSolvers) {
		t.Errorf("%d units of #7, want one per strategy and night (%d)", seven, 2*len(synthSolvers))
	}
	if err := os.Remove(filepath.Join(root, "n2", rundir.ResultsFile)); err != nil {
		t.Fatal(err)
	}
	h, notes = PuzzleHistory(ctx, filepath.Join(root, "n3"), run.Manifest, sum)
	if h == nil || h.Nights[1].Note != "rows not read" || len(notes) != 1 || !strings.HasPrefix(notes[0], "night n2: ") {
		t.Errorf("n2's rows gone: %+v, notes %q; want the night noted", h, notes)
	}
}

// TestSameCorpus: a night's corpus is the run's at the same place, found
// by name, then by base name, or the night's only one.
func TestSameCorpus(t *testing.T) {
	m := func(corpora ...string) *rundir.Manifest {
		return &rundir.Manifest{Settings: rundir.Settings{Corpora: corpora}}
	}
	run := m("a.txt", "/x/b.txt")
	for _, tt := range []struct {
		name  string
		night *rundir.Manifest
		want  string
	}{
		{"b.txt", m("/old/a.txt", "b.txt"), "/x/b.txt"},
		{"/old/b.txt", m("a.txt", "/elsewhere/b.txt"), "/x/b.txt"},
		{"renamed.txt", m("renamed.txt"), "a.txt"},
		{"c.txt", m("a.txt", "b.txt"), ""},
		{"c.txt", m("a.txt", "b.txt", "c.txt"), ""},
	} {
		if got := sameCorpus(tt.name, tt.night, run); got != tt.want {
			t.Errorf("sameCorpus(%q, %v) = %q, want %q", tt.name, tt.night.Settings.Corpora, got, tt.want)
		}
	}
}
