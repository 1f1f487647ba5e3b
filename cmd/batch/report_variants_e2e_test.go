package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// TestReportVariants: batch report -variants 5 over a small run analyses
// each strategy's 10 hardest by calls (the report's own list), prints the
// bound before and the time after, writes variants.json, and the report
// shows the verdicts: summary.md's column and section, summary.json, the
// page's lists and the puzzles' entries with their strip charts.
func TestReportVariants(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	mustOK(t, batch(t, dir, "-limit", "15", "-solvers", "norvig,dlx,bitboard", "-quiet", "-report=false", "-out", run))
	r := batch(t, dir, "report", "-variants", "5", run)
	mustOK(t, r)
	if !regexp.MustCompile(`variants: 30 units x 6 solves = 180 solves, each at most 100ms: at most 18.0s\n`).MatchString(r.stderr) {
		t.Errorf("no bound printed before the analysis:\n%s", r.stderr)
	}
	if !regexp.MustCompile(`variants: 180 solves in [0-9.]+m?s`).MatchString(r.stderr) {
		t.Errorf("no time printed after the analysis:\n%s", r.stderr)
	}
	v, err := rundir.ReadVariants(filepath.Join(run, rundir.VariantsFile))
	if err != nil || v == nil {
		t.Fatalf("variants.json: %v, %v", v, err)
	}
	var sum report.Summary
	b, err := os.ReadFile(filepath.Join(run, rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	// Each strategy's analysed puzzles are the first 10 of its list by
	// calls, each with 5 variants, and the list carries their verdicts.
	for _, st := range sum.Strategies {
		var want, got []int
		for i, u := range st.ByCalls {
			if i < publish.VariantsTop {
				want = append(want, u.Puzzle.ID)
				if u.Variants == "" {
					t.Errorf("%s: #%d, 10 hardest, has no verdict in summary.json", st.Solver, u.Puzzle.ID)
				}
			} else if u.Variants != "" {
				t.Errorf("%s: #%d, not analysed, has the verdict %q", st.Solver, u.Puzzle.ID, u.Variants)
			}
		}
		for _, a := range v.Analyses {
			if a.Solver == st.Solver {
				got = append(got, a.ID)
				if len(a.Variants) != 5 || a.CorpusMedian != st.Calls.Median.Value {
					t.Errorf("%s #%d: %d variants, corpus median %g (summary: %g)", a.Solver, a.ID, len(a.Variants), a.CorpusMedian, st.Calls.Median.Value)
				}
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: analysed %v, want its 10 hardest by calls %v", st.Solver, got, want)
		}
	}
	if sum.Variants == nil || len(sum.Variants.Verdicts) != 3 {
		t.Errorf("summary.json's variants: %+v", sum.Variants)
	}

	md := readFile(t, filepath.Join(run, rundir.SummaryMarkdown))
	a := v.Analyses[0]
	cell := "[" + a.Verdict + "](puzzles.html#p-" + strconv.Itoa(a.ID) + ")" // the verdict, linked to the entry
	if !strings.Contains(md, "| status | variants |") || !strings.Contains(md, "## Hard or unlucky") || !strings.Contains(md, cell) {
		t.Errorf("summary.md has no column or section of variants (want %q)", cell)
	}
	page := readFile(t, filepath.Join(run, rundir.PageFile)) + readFile(t, filepath.Join(run, report.PuzzlesPageFile))
	strip := report.StripFile(&a)
	if !strings.Contains(page, `<th class="text">variants</th>`) || !strings.Contains(page, `src="charts/`+strip+`"`) {
		t.Errorf("the page has no column of variants or no strip chart %s", strip)
	}
	if _, err := os.Stat(filepath.Join(run, rundir.ChartsDir, strip)); err != nil {
		t.Errorf("strip chart: %v", err)
	}
	if !strings.Contains(r.stdout, "variants (variants.json)") {
		t.Errorf("the terminal summary does not name the analysis:\n%s", r.stdout)
	}

}

// TestSweepVariants: the sweep's -variants runs the analysis before its
// report, which shows it.
func TestSweepVariants(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	r := batch(t, dir, "-limit", "12", "-solvers", "norvig,dlx", "-quiet", "-gzip=false", "-variants", "2", "-out", run)
	mustOK(t, r)
	if !strings.Contains(r.stderr, "variants: 20 units x 3 solves = 60 solves") {
		t.Errorf("no bound printed:\n%s", r.stderr)
	}
	v, err := rundir.ReadVariants(filepath.Join(run, rundir.VariantsFile))
	if err != nil || v == nil || len(v.Analyses) != 20 {
		t.Fatalf("variants.json: %v (%v)", v, err)
	}
	if md := readFile(t, filepath.Join(run, rundir.SummaryMarkdown)); !strings.Contains(md, "## Hard or unlucky") {
		t.Error("the sweep's summary.md has no section of variants")
	}
}

// TestReportVariantsInterrupted: Ctrl-C during the analysis exits 130
// and writes nothing: no variants.json, no report files (the run had
// none).
func TestReportVariantsInterrupted(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	mustOK(t, batch(t, dir, "-limit", "12", "-solvers", "backtrack,norvig", "-max-calls", "3000000", "-timeout", "0", "-quiet", "-report=false", "-out", run))
	p := start(t, dir, false, "report", "-variants", "100", run)
	p.awaitStderr(t, " solves = ") // the cost bound, printed as the analysis starts
	p.cmd.Process.Signal(syscall.SIGINT)
	r := p.wait(t, time.Minute)
	if r.code != exitInterrupted || !strings.Contains(r.stderr, "nothing written") {
		t.Fatalf("exit %d after Ctrl-C, want 130 and \"nothing written\":\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(run, rundir.VariantsFile)); !os.IsNotExist(err) {
		t.Errorf("variants.json after an interrupted analysis: %v", err)
	}
	for _, f := range []string{rundir.SummaryMarkdown, rundir.PageFile} {
		if _, err := os.Stat(filepath.Join(run, f)); !os.IsNotExist(err) {
			t.Errorf("%s written by an interrupted analysis (err %v)", f, err)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
