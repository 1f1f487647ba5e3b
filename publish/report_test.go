package publish

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// night is the start of the test's first night.
var night = time.Date(2026, 11, 21, 23, 5, 1, 0, time.UTC)

// noted is a Trace that keeps the notes it is told.
func noted(notes *[]string) *Trace {
	return &Trace{Note: func(s string) { *notes = append(*notes, s) }}
}

// TestReportWritesTheRun: the report of a run alone writes the summary
// files, the charts and the page, highlights #39949 on the default
// corpus, and compares with no previous night; the next night of the
// root is compared with it, and its page links the comparison; a night
// whose previous night's rows are gone says so, and an earlier
// comparison is removed.
func TestReportWritesTheRun(t *testing.T) {
	testenv.SkipUnderRace(t, "3 reports with their charts: 2 s, 39 s under -race (load average 10); history.TestPuzzleHistory and report/chart run their concurrency under it")
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	sweepRun(t, a, night, "39940:39960", "norvig", "dlx")
	var notes []string
	res, err := Report(context.Background(), a, Options{Trace: noted(&notes)})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{rundir.PageFile, rundir.SummaryJSON, "summary.md", "summary.bench", "hard.csv"} {
		if _, err := os.Stat(filepath.Join(a, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	if res.Page != filepath.Join(a, rundir.PageFile) || res.Charts == 0 || res.Previous != nil || len(notes) != 0 {
		t.Errorf("a run alone: %+v, notes %q; want its page, charts, no comparison, no note", res, notes)
	}
	if h := res.Summary.Highlights; len(h) != 1 || h[0].ID != ClassicID {
		t.Errorf("highlighted %v, want the default #%d", h, ClassicID)
	}

	sweepRun(t, b, night.Add(24*time.Hour), "39940:39960", "norvig", "dlx")
	res, err = Report(context.Background(), b, Options{Trace: noted(&notes)})
	if err != nil {
		t.Fatal(err)
	}
	prev := res.Previous
	if prev == nil || prev.Href != rundir.ComparePreviousDir+"/"+rundir.PageFile || !strings.HasPrefix(prev.Text, "against a: ") || len(notes) != 0 {
		t.Fatalf("the second night: %+v, notes %q; want compared with a", prev, notes)
	}
	var text bytes.Buffer
	if err := res.WriteText(&text, b, 1000, false, " in 1s"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"previous night: against a: ", filepath.Join(b, rundir.ComparePreviousDir, rundir.PageFile),
		"report: " + res.Page + " (summary.md, hard.csv, " + strconv.Itoa(res.Charts) + " charts) in 1s\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	page, err := os.ReadFile(filepath.Join(b, rundir.PageFile))
	if err != nil || !strings.Contains(string(page), `href="`+prev.Href+`"`) {
		t.Errorf("b's page does not link its comparison (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(b, rundir.ComparePreviousDir, rundir.PageFile)); err != nil {
		t.Errorf("no comparison page: %v", err)
	}

	if err := os.Rename(filepath.Join(a, rundir.ResultsFile), filepath.Join(a, "moved.csv")); err != nil {
		t.Fatal(err)
	}
	res, err = Report(context.Background(), b, Options{Trace: noted(&notes)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Previous != nil || len(notes) != 1 || !strings.Contains(notes[0], "no earlier night of its series has its rows") {
		t.Errorf("a's rows gone: %+v, notes %q; want a note and no comparison", res.Previous, notes)
	}
	if _, err := os.Stat(filepath.Join(b, rundir.ComparePreviousDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the earlier comparison is still there: %v", err)
	}
}

// TestReportRefusesABadRun: rows that are not a run are an *InputError
// naming the file and its line, and nothing is written.
func TestReportRefusesABadRun(t *testing.T) {
	dir := t.TempDir()
	rows := strings.Join(rundir.Header, ",") + "\nnot,a,row\n"
	if err := os.WriteFile(filepath.Join(dir, rundir.ResultsFile), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Report(context.Background(), dir, Options{})
	if _, ok := errors.AsType[*InputError](err); !ok || res != nil || !strings.Contains(err.Error(), rundir.ResultsFile+":2") {
		t.Fatalf("a bad row: %+v, %v; want an *InputError naming line 2", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.PageFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a page was written: %v", err)
	}
}

// TestReportStopsWhenCanceled: a canceled report returns ctx.Err().
func TestReportStopsWhenCanceled(t *testing.T) {
	dir := t.TempDir()
	sweepRun(t, dir, night, "0:5", "norvig")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Report(ctx, dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v, want context.Canceled", err)
	}
}

// TestHighlighted: the first that says wins: the command line, the
// run's own, the default on the default corpus (by its SHA-256).
func TestHighlighted(t *testing.T) {
	dir := t.TempDir()
	sweepRun(t, dir, night, "39948:39950", "norvig")
	run, err := report.LoadRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	m := *run.Manifest
	other := m
	other.Corpora = append([]rundir.CorpusInfo(nil), m.Corpora...)
	other.Corpora[0].SHA256 = strings.Repeat("0", 64)
	own := m
	own.Highlight = []int{39948}
	none := m
	none.NoHighlight = true
	for _, tt := range []struct {
		name        string
		opt         Options
		m           *rundir.Manifest
		want        []int
		wantDefault bool
	}{
		{"default", Options{}, &m, []int{ClassicID}, true},
		{"given", Options{Highlight: []int{39948}, HighlightGiven: true}, &m, []int{39948}, false},
		{"given none", Options{HighlightGiven: true}, &own, nil, false},
		{"the run's own", Options{}, &own, []int{39948}, false},
		{"the run's none", Options{}, &none, nil, false},
		{"another corpus of the same name", Options{}, &other, nil, false},
		{"no run.json: by name", Options{}, nil, []int{ClassicID}, true},
	} {
		ids, def := highlighted(tt.opt, tt.m, run.Results)
		if !slices.Equal(ids, tt.want) || def != tt.wantDefault {
			t.Errorf("%s: %v %v, want %v %v", tt.name, ids, def, tt.want, tt.wantDefault)
		}
	}
}
