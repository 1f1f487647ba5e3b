package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// rewriteRun copies the run in src to dst, changing each row with edit.
func rewriteRun(t *testing.T, src, dst string, edit func(r *rundir.Row)) {
	t.Helper()
	in, err := rundir.OpenRows(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := rundir.NewReader(in, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(dst, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := rundir.NewWriter(out)
	w.WriteHeader()
	for rd.Scan() {
		row, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		edit(row)
		w.Write(row)
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	info, err := rundir.ReadManifest(src)
	if err != nil {
		t.Fatal(err)
	}
	info.RunID = filepath.Base(dst)
	if err := rundir.WriteManifest(dst, info); err != nil {
		t.Fatal(err)
	}
}

func TestCompare(t *testing.T) {
	testenv.SkipUnderRace(t, "four sweeps and a dozen compares: 1.8 s, 19 s under -race")
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx,bitboard", "-limit", "30"}, deterministic...)
	mustOK(t, batchMain(t, root, append(args, "-out", tmp+"/a")...))
	mustOK(t, batchMain(t, root, append(args, "-out", tmp+"/b")...))

	// Two runs of the same code: no counter changes; times are the
	// machine's, so no -threshold here.
	r := batchMain(t, root, "compare", tmp+"/a", tmp+"/b")
	mustOK(t, r)
	for _, want := range []string{"OLD " + tmp + "/a: run a (finished), 30 puzzles of data/sudoku17.txt, 90 rows",
		"No counter changed", "norvig", "dlx", "bitboard"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}

	// A copy of a where dlx takes 3 times as long and norvig's #7 makes
	// 5 times its calls: exit 1 past -threshold, naming dlx on stderr.
	rewriteRun(t, tmp+"/a", tmp+"/c", func(row *rundir.Row) {
		switch {
		case row.Solver == "dlx":
			row.NS *= 3
		case row.Solver == "norvig" && row.ID == 7:
			row.Calls *= 5
		}
	})
	r = batchMain(t, root, "compare", "-page=false", "-threshold", "1.5", tmp+"/a", tmp+"/c")
	if r.code != 1 || !strings.Contains(r.stderr, "slower than -threshold 1.5") || !strings.Contains(r.stderr, "dlx (median time ×3") ||
		strings.Contains(r.stderr, "norvig") {
		t.Fatalf("slower dlx: exit %d\nstderr: %s", r.code, r.stderr)
	}
	for _, want := range []string{"Slower than ×1.5 (the 95% interval of the median time NEW/OLD lies above it): dlx ×3.000 [3.000, 3.000].",
		"norvig    #7"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !regexp.MustCompile(`\n  dlx +\S+ +\S+ +\+200% +\[\+200%, \+200%\] +p<0\.001\n`).MatchString(r.stdout) {
		t.Errorf("stdout lacks dlx's change as benchstat prints it (+200%%, its interval, p):\n%s", r.stdout)
	}
	// Under the threshold: exit 0. Without one: no check.
	mustOK(t, batchMain(t, root, "compare", "-page=false", "-threshold", "3.5", tmp+"/a", tmp+"/c"))
	mustOK(t, batchMain(t, root, "compare", "-page=false", tmp+"/a", tmp+"/c"))

	// -json, with results.csv files for arguments.
	r = batchMain(t, root, "compare", "-page=false", tmp+"/a/results.csv", tmp+"/c/results.csv", "-json", "-threshold", "1.5")
	if r.code != 1 {
		t.Fatalf("-json: exit %d\n%s", r.code, r.stderr)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("-json output: %v\n%s", err, r.stdout)
	}
	if len(c.Strategies) != 3 || len(c.Slower) != 1 || c.Slower[0] != "dlx" || c.Strategies[0].Changed.Calls != 1 ||
		c.Strategies[0].Largest[0].Puzzle.ID != 7 || c.Strategies[1].MedianRatio.Value != 3 ||
		c.Strategies[1].TimeCI != (report.RatioCI{Lo: 3, Hi: 3}) || c.Strategies[1].Verdict != report.VerdictSlower ||
		c.Strategies[0].CallsVerdict != report.VerdictChanged || c.Noise != report.DefaultNoise {
		t.Errorf("-json: %+v", c)
	}

	// Runs that cannot be compared, and usage errors: exit 2.
	os.WriteFile(tmp+"/other.txt", []byte("4000300200040020\n"), 0o644)
	mustOK(t, batchMain(t, root, "-solvers", "dlx", "-out", tmp+"/other", "-quiet", tmp+"/other.txt"))
	mustOK(t, batchMain(t, root, "-solvers", "singles", "-out", tmp+"/single", "-quiet", tmp+"/other.txt"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{tmp + "/a", tmp + "/other"}, "no puzzle in both (OLD is over data/sudoku17.txt; NEW over " + tmp + "/other.txt)"},
		{[]string{tmp + "/other", tmp + "/single"}, "no strategy in both (OLD has dlx; NEW has singles)"},
		{[]string{tmp + "/a", tmp + "/nope"}, "reading run " + tmp + "/nope"},
		{[]string{tmp + "/a", tmp}, "no results.csv or results.csv.gz"},
		{[]string{"-threshold", "0.9", tmp + "/a", tmp + "/b"}, "-threshold 0.9: want a ratio >= 1"},
		{[]string{"-noise", "0.5", tmp + "/a", tmp + "/b"}, "-noise 0.5: want a ratio >= 1"},
	} {
		r := batchMain(t, root, append([]string{"compare"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("compare %v: exit %d, stderr %s", tc.args, r.code, r.stderr)
		}
	}
	// One run: NEW is results/latest, and there is none in an empty directory.
	if r := batchMain(t, t.TempDir(), "compare", tmp+"/a"); r.code != 2 || !strings.Contains(r.stderr, "compare needs two runs") {
		t.Errorf("compare with one run and no results/latest: exit %d, stderr %s", r.code, r.stderr)
	}
	rewriteRun(t, tmp+"/other", tmp+"/other2", func(row *rundir.Row) { row.Corpus = "elsewhere.txt" })
	os.Remove(tmp + "/other2/run.json") // no checksum to join the corpora by
	if r := batchMain(t, root, "compare", tmp+"/other", tmp+"/other2"); r.code != 2 ||
		!strings.Contains(r.stderr, "no puzzle in both") || !strings.Contains(r.stderr, "warning: corpus "+tmp+"/other.txt is only in OLD") {
		t.Errorf("other corpora: exit %d, stderr %s", r.code, r.stderr)
	}
}

// TestCompareSameCommit: two real runs of the same code compare as "no
// change" for every strategy (and pass -threshold 1.1), and a copy of
// one with every dlx time ×1.2 is slower, its interval at ×1.2 (up to
// the rounding of the times to whole nanoseconds), failing -threshold
// 1.1.
//
// Why "no change" holds: counters are deterministic (-max-calls, no
// timeout), so calls never change and their test gives p = 1. Times are
// not: the interval of the ratio of medians is over the puzzles, and is
// narrow (±1% at 500 puzzles), but the machine's speed differs between
// two runs by a few percent (measured on a busy 2-core machine: ×0.95 to
// ×1.06 in most pairs), which the verdicts allow for up to -noise
// (×1.10 by default). A run that shares its cores with another heavy
// process can be slowed more than that (×1.1 to ×1.5 in about one pair
// in ten there; in CI, while the other packages' tests run beside this
// one, three pairs in a row), so the test makes up to five pairs of runs,
// waiting longer after each (2, 5, 10, 20 s: the other packages' tests
// end within seconds), and fails only if every pair differs beyond the
// noise: a change of the code, or a machine too busy to time anything on
// for most of a minute.
func TestCompareSameCommit(t *testing.T) {
	testenv.Heavy(t, "sweeps 1,000 units twice, up to five times, waiting up to 37 s between")
	root := repoRoot(t)
	args := append([]string{"-solvers", "dlx,bitboard", "-limit", "500", "-report=false"}, deterministic...)
	var a string
	pauses := []time.Duration{2 * time.Second, 5 * time.Second, 10 * time.Second, 20 * time.Second}
	// Passes when any pair agrees: a busy machine slows one run of a pair
	// beyond -noise (see above), and only waiting lets it calm down.
	for attempt := 1; ; attempt++ {
		tmp := t.TempDir()
		a = tmp + "/a"
		mustOK(t, batch(t, root, append(args, "-out", a)...))
		mustOK(t, batch(t, root, append(args, "-out", tmp+"/b")...))
		r := batch(t, root, "compare", "-json", "-threshold", "1.1", a, tmp+"/b")
		var c report.Comparison
		if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
			t.Fatalf("-json output: %v\n%s\n%s", err, r.stdout, r.stderr)
		}
		same := r.code == 0 && len(c.Strategies) == 2
		var got []string
		for _, d := range c.Strategies {
			if d.Changed.Any != 0 || d.CallsVerdict != report.VerdictSame || d.CallsTest.P != 1 || d.Timed != 500 {
				t.Fatalf("%s: counters changed between two runs of the same code: %+v", d.Solver, d)
			}
			same = same && d.Verdict == report.VerdictSame
			got = append(got, fmt.Sprintf("%s ×%.3f [%.3f, %.3f] p=%.2g %s", d.Solver, d.MedianRatio.Value, d.TimeCI.Lo, d.TimeCI.Hi,
				d.TimeTest.P, d.Verdict))
		}
		t.Logf("pair %d: %s", attempt, strings.Join(got, "; "))
		if same {
			text := batch(t, root, "compare", a, tmp+"/b")
			mustOK(t, text)
			for _, s := range []string{"dlx", "bitboard"} {
				// "~": no change, as benchstat prints it.
				if !regexp.MustCompile(`(?m)^  ` + s + ` +[0-9.]+[nµm]?s +[0-9.]+[nµm]?s +~ +\[[-+][0-9.]+%, [-+][0-9.]+%\] +p[=<][0-9.e-]+$`).MatchString(text.stdout) {
					t.Errorf("%s: no \"no change\" line (~) in the text:\n%s", s, text.stdout)
				}
			}
			break
		}
		if attempt == len(pauses)+1 {
			t.Fatalf("%d pairs of runs of the same code, each with a strategy slower or faster than -noise ×1.1: %s\n%s",
				attempt, strings.Join(got, "; "), r.stderr)
		}
		time.Sleep(pauses[attempt-1])
	}

	// A deliberate 20% slowdown of dlx.
	slow := filepath.Join(filepath.Dir(a), "slow")
	rewriteRun(t, a, slow, func(row *rundir.Row) {
		if row.Solver == "dlx" {
			row.NS = int64(math.Round(1.2 * float64(row.NS)))
		}
	})
	r := batch(t, root, "compare", "-json", "-threshold", "1.1", a, slow)
	var c report.Comparison
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil || r.code != 1 || len(c.Strategies) != 2 {
		t.Fatalf("×1.2: exit %d, %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	dlx, bitboard := c.Strategies[0], c.Strategies[1]
	if dlx.Verdict != report.VerdictSlower || !dlx.Slower || math.Abs(dlx.TimeCI.Lo-1.2) > 1e-3 || math.Abs(dlx.TimeCI.Hi-1.2) > 1e-3 ||
		dlx.TimeTest.P >= 0.001 || bitboard.Verdict != report.VerdictSame || bitboard.TimeCI != (report.RatioCI{Lo: 1, Hi: 1}) {
		t.Errorf("×1.2: dlx %+v %q; bitboard %+v %q", dlx.TimeCI, dlx.Verdict, bitboard.TimeCI, bitboard.Verdict)
	}
	if !strings.Contains(r.stderr, "slower than -threshold 1.1") || !strings.Contains(r.stderr, "dlx (median time ×1.2") {
		t.Errorf("×1.2: stderr %s", r.stderr)
	}
}

// TestCompareWorkersProcessors: a sweep of fewer workers than processors
// runs on as many (sweep.FitProcs), so run.json's GOMAXPROCS follows
// -workers. Runs of one machine with different workers are of one machine
// (compare said "different machines (AMD EPYC, 2 CPUs vs AMD EPYC, 2
// CPUs)" of -workers 1 against -workers 2); runs of the same workers on
// different processors (GOMAXPROCS set, or a run from before FitProcs)
// are told apart by their processors, not as machines.
func TestCompareWorkersProcessors(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 || os.Getenv("GOMAXPROCS") != "" {
		t.Skip("a -workers 1 sweep keeps the processors: one CPU, or GOMAXPROCS set")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "bitboard", "-limit", "30", "-report=false"}, deterministic...)
	mustOK(t, batchMain(t, root, append(args, "-workers", "1", "-out", tmp+"/w1")...))
	mustOK(t, batchMain(t, root, append(args, "-workers", "2", "-out", tmp+"/w2")...))
	r := batchMain(t, root, "compare", "-page=false", tmp+"/w1", tmp+"/w2")
	mustOK(t, r)
	if strings.Contains(r.stderr, "different machines") || strings.Contains(r.stderr, "processors") {
		t.Errorf("-workers 1 against -workers 2 on one machine: a warning of machines or processors:\n%s", r.stderr)
	}

	// The same workers on all the processors: GOMAXPROCS set in the
	// environment keeps them (FitProcs leaves it be).
	t.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	mustOK(t, batchMain(t, root, append(args, "-workers", "1", "-out", tmp+"/all")...))
	r = batchMain(t, root, "compare", "-page=false", tmp+"/w1", tmp+"/all")
	mustOK(t, r)
	want := fmt.Sprintf("both runs had 1 worker, on 1 processor in OLD and %d in NEW (GOMAXPROCS)", runtime.GOMAXPROCS(0))
	if strings.Contains(r.stderr, "different machines") || !strings.Contains(r.stderr, want) {
		t.Errorf("-workers 1 on 1 processor against all of them: stderr lacks %q, or says machines:\n%s", want, r.stderr)
	}
}

// TestCompareWarnsOfABusyMachine: batch compare warns on stderr, as its
// page does beside the run, that a run's machine was busy while its
// units were timed (other work over history.DefaultBusy of the workers'
// CPU time, from run.json), folded to an 80-column terminal; so does the
// report's output (batch report, the end of a sweep), as the run's page
// does at its top, and summary.md gives the share of other work. Before, only the pages said so: the terminal's
// verdicts and summary came with no warning.
func TestCompareWarnsOfABusyMachine(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, 40))
	for _, run := range []string{"old", "new"} {
		mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", run, corpus))
	}
	// OLD's machine busy, NEW's idle, whatever this machine's load was.
	for run, share := range map[string]float64{"old": 4, "new": 0} {
		editManifest(t, filepath.Join(dir, run), func(m map[string]any) {
			seg := m["segments"].([]any)[0].(map[string]any)
			seg["other_cpu_ns"] = share * seg["duration_ns"].(float64) // 4: every CPU taken by other work
		})
	}
	r := batch(t, dir, "compare", "-page=false", "old", "new")
	mustOK(t, r)
	if want := "batch: warning: OLD old: the machine was busy: other work took 100% of the workers' CPU time"; !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "NEW new: the machine was busy") {
		t.Errorf("stderr lacks %q for OLD alone:\n%s", want, r.stderr)
	}
	// The report's output warns too, as the run's page does at its top.
	for run, busy := range map[string]bool{"old": true, "new": false} {
		r := batch(t, dir, "report", run)
		mustOK(t, r)
		if got := strings.Contains(r.stdout, "warning: the machine was busy: other work took 100% of the workers' CPU time"); got != busy {
			t.Errorf("batch report %s: warns of a busy machine %v, want %v:\n%s", run, got, busy, r.stdout)
		}
		// summary.md gives the figure, as the page's facts do.
		if md := readFile(t, filepath.Join(dir, run, rundir.SummaryMarkdown)); strings.Contains(md, "Other work took 100% of the workers' CPU time") != busy {
			t.Errorf("%s's summary.md: the share of other work shown %v, want %v", run, !busy, busy)
		}
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is missing (Debian package bsdutils)")
	}
	if out := inTerminal(t, dir, 80, "compare", "-page=false", "old", "new"); len(overWidth(out, 80)) > 0 || !strings.Contains(out, "machine was busy") {
		t.Errorf("batch compare in 80 columns: lines wider, or no warning:\n%s\n\nall of it:\n%s", strings.Join(overWidth(out, 80), "\n"), out)
	}
}

// TestComparePageSaysWhatIsNotCompared: the page of a partial comparison
// (a strategy and puzzles in OLD only) says under its verdicts what was
// not compared, as the terminal's output does at its end; before, the
// page said it only inside its collapsed copy of that output.
func TestComparePageSaysWhatIsNotCompared(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, 40))
	mustOK(t, batch(t, dir, "-solvers", "bitboard,norvig", "-quiet", "-report=false", "-out", "old", corpus))
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-range", "0:20", "-quiet", "-report=false", "-out", "new", corpus))
	r := batch(t, dir, "compare", "old", "new")
	if r.code != 0 && r.code != exitWrong { // exit 1: slower, on a busy machine
		t.Fatalf("compare: exit %d\n%s", r.code, r.stderr)
	}
	page := readFile(t, filepath.Join(dir, "new", "compare-old", "index.html"))
	if want := `<p class="lead" id="partial">Not compared: norvig (only in OLD); bitboard&#39;s 20 puzzles only in OLD.</p>`; !strings.Contains(page, want) {
		t.Errorf("the page lacks %s", want)
	}
}
