package publish

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// TestCompare: two runs named by their directory or their rows file are
// compared; the page goes by default into NEW as compare-<OLD's run id>
// and links both runs' pages; runs that share nothing, or a path that
// is no run, are an *InputError.
func TestCompare(t *testing.T) {
	testenv.SkipUnderRace(t, "a report and a comparison page, with their charts: 0.7 s, 19 s under -race (load average 10); report/chart runs its concurrency under it")
	root := t.TempDir()
	a, b, c := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	sweepRun(t, a, night, "0:20", "norvig", "dlx")
	sweepRun(t, b, night.Add(time.Hour), "0:20", "norvig", "dlx")
	sweepRun(t, c, night.Add(2*time.Hour), "0:20", "bitboard")
	if _, err := Report(context.Background(), a, Options{}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cmp, err := Compare(ctx, filepath.Join(a, rundir.ResultsFile), b, report.CompareOptions{Threshold: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Strategies) != 2 || cmp.SlowerText() != "" || len(cmp.Slower) != 0 {
		t.Errorf("a and b: %d strategies, slower %q; want 2, none slower than ×100", len(cmp.Strategies), cmp.SlowerText())
	}
	dir := cmp.PageDir()
	if dir != filepath.Join(b, ComparePrefix+"a") {
		t.Errorf("page dir %s, want b/%sa", dir, ComparePrefix)
	}
	charts, chartsErr, err := cmp.WritePage(ctx, dir)
	if err != nil || chartsErr != nil || len(charts) == 0 {
		t.Fatalf("writing the page: %d charts, %v, %v", len(charts), chartsErr, err)
	}
	page, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `href="../../a/index.html"`) {
		t.Errorf("the page does not link OLD's page ../../a/index.html")
	}
	if runPageFrom(dir, b) != "" {
		t.Errorf("a link to b's page, which it has not")
	}
	line, warnings, err := cmp.WritePageIn(ctx, "")
	if want := "compare: page " + filepath.Join(dir, rundir.PageFile) + " (" + strconv.Itoa(len(charts)) + " charts)"; line != want || len(warnings) != 0 || err != nil {
		t.Errorf("WritePageIn: %q, %q, %v; want %q", line, warnings, err, want)
	}
	blocked := filepath.Join(root, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if line, warnings, err := cmp.WritePageIn(ctx, filepath.Join(blocked, "page")); line != "" || len(warnings) == 0 || err != nil {
		t.Errorf("a page that cannot be written: %q, %q, %v; want a warning", line, warnings, err)
	}

	if _, err := Compare(ctx, a, c, report.CompareOptions{}); !isInput(err, "") || !strings.Contains(err.Error(), report.ErrNothingToCompare.Error()) {
		t.Errorf("runs that share no strategy: %v, want an *InputError", err)
	}
	if _, err := Compare(ctx, filepath.Join(root, "nope"), b, report.CompareOptions{}); !isInput(err, "nope") {
		t.Errorf("no run: %v, want an *InputError naming it", err)
	}
}
