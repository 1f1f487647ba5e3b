package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// The read side of the run: report, show, compare, merge and the command
// line itself, refusing what they cannot read and ending on a Ctrl-C.
// Each test here failed on the code before its fix (85732d3); those that
// run the binary show it with BATCH_BIN=<a build of 85732d3>.

// rsHard is the hard grid of Langer's article: backtrack writes 69 million
// values on it, bruteforce takes minutes.
const rsHard = "000000000000003085001020000000507000004000100090000000500000073002010000000040009"

// rsCorpus writes the first n puzzles of the 17-clue corpus to dir/name.
func rsCorpus(t *testing.T, dir, name string, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, bytes.Join(lines[:min(n, len(lines))], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rsWithin runs the binary in dir with args and fails the test if it
// has not ended within d (it is then killed).
func rsWithin(t *testing.T, d time.Duration, dir string, args ...string) result {
	t.Helper()
	return start(t, dir, false, args...).wait(t, d)
}

// rsInterrupt starts the binary in dir with args (its stderr on tty,
// unless nil), sends SIGINT once ready says the process is where the
// test wants it, and returns its result. It fails the test if the
// process is not gone a minute after the signal: a guard against the
// endless waits the tests look for, not a measurement.
func rsInterrupt(t *testing.T, dir string, tty *pty, what string, ready func(p *proc) bool, args ...string) result {
	t.Helper()
	p := startOn(t, dir, false, tty, args...)
	testenv.Await(t, what, func() bool {
		select {
		case <-p.done:
			t.Fatalf("ended before %s: exit %d\n%s", what, p.res.code, p.res.stderr)
		default:
		}
		return ready(p)
	})
	p.cmd.Process.Signal(syscall.SIGINT)
	return p.wait(t, time.Minute)
}

// rsInterruptAt starts the binary in dir with args, sends SIGINT delay
// after its start, and returns its result and how long it took to end
// after the signal. The instants are the test's: a signal at any of them
// must end the process soon, so none waits for a sign.
func rsInterruptAt(t *testing.T, delay time.Duration, dir string, args ...string) (result, time.Duration) {
	t.Helper()
	p := start(t, dir, false, args...)
	select {
	case <-p.done:
	case <-time.After(delay):
	}
	sent := time.Now()
	p.cmd.Process.Signal(syscall.SIGINT)
	r := p.wait(t, time.Minute)
	return r, time.Since(sent)
}

// rsBigRun sweeps copies copies of the 17-clue corpus (each a file of
// its own) with bitboard and dlx into dir/big, without a report:
// 2 x 49151 x copies rows.
func rsBigRun(t *testing.T, dir string, copies int) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "data/sudoku17.txt")
	args := []string{"-solvers", "bitboard,dlx", "-timeout", "0", "-quiet", "-report=false", "-out", "big"}
	for i := range copies {
		name := fmt.Sprintf("c%d.txt", i)
		if err := os.Symlink(src, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
	}
	mustOK(t, batch(t, dir, args...))
	return filepath.Join(dir, "big")
}

// TestReadCommandsRefuseFIFO: a results.csv or a run.json that is a FIFO
// is refused (exit 2) by report, compare and show, without being opened:
// before, report and compare blocked forever waiting for a writer.
func TestReadCommandsRefuseFIFO(t *testing.T) {
	dir := t.TempDir()
	corpus := rsCorpus(t, dir, "c.txt", 20)
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", "good", corpus))

	fifoCSV := filepath.Join(dir, "fifocsv")
	os.Mkdir(fifoCSV, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoCSV, rundir.ResultsFile), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	fifoJSON := filepath.Join(dir, "fifojson")
	os.Mkdir(fifoJSON, 0o755)
	b, _ := readRowsFile(filepath.Join(dir, "good", rundir.ResultsFile))
	os.WriteFile(filepath.Join(fifoJSON, rundir.ResultsFile), b, 0o644)
	if err := syscall.Mkfifo(filepath.Join(fifoJSON, rundir.ManifestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", fifoCSV}, "is not a regular file (a FIFO)"},
		{[]string{"report", fifoJSON}, "is not a regular file"},
		{[]string{"compare", "good", fifoCSV}, "is not a regular file (a FIFO)"},
		{[]string{"compare", filepath.Join(fifoCSV, rundir.ResultsFile), "good"}, "is not a regular file (a FIFO)"},
		{[]string{"compare", "good", fifoJSON}, "is not a regular file"},
		{[]string{"show", "3", "-corpus", corpus, "-run", fifoCSV, "-solvers", "bitboard"}, "is not a regular file (a FIFO)"},
	} {
		r := rsWithin(t, time.Minute, dir, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("batch %s: exit %d, want 2 and %q\n%s", strings.Join(tc.args, " "), r.code, tc.want, r.stderr)
		}
	}
}

// TestShowEndsOnInterrupt: show ends on the first Ctrl-C (exit 130)
// whatever it is doing: opening its corpus, a FIFO nobody writes; reading
// an endless /dev/zero for its puzzle; or solving. Before, SIGINT killed
// it (no 130) or, with a signal context but a solve under
// context.Background, waited for the strategy (bruteforce takes minutes
// on this puzzle). The Ctrl-C goes once the process is in that phase.
func TestShowEndsOnInterrupt(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	hard := filepath.Join(dir, "hard.txt")
	os.WriteFile(hard, []byte(rsHard+"\n"), 0o644)
	for _, tc := range []struct {
		name  string
		args  []string
		tty   bool   // stderr on a terminal, where show says it is solving
		what  string // the phase the Ctrl-C waits for
		ready func(p *proc) bool
	}{
		{"FIFO", []string{"show", "5", "-corpus", fifo, "-run", ""}, false, "show opening the FIFO",
			func(p *proc) bool { return testenv.WaitsIn(p.cmd.Process.Pid, testenv.FIFOOpen) }},
		{"dev-zero", []string{"show", "5", "-corpus", "/dev/zero", "-run", ""}, false, "show reading /dev/zero",
			func(p *proc) bool { return testenv.HoldsOpen(p.cmd.Process.Pid, "/dev/zero") }},
		{"solving", []string{"show", "0", "-corpus", hard, "-run", "", "-solvers", "bruteforce", "-timeout", "0"}, true, "show solving",
			func(p *proc) bool { return strings.Contains(p.stderr.String(), showRunning) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "FIFO" && !testenv.CanSeeWaits() {
				t.Skip("this kernel does not show where a thread sleeps: cannot tell when show waits on the FIFO")
			}
			var tty *pty
			if tc.tty {
				tty = openPTY(t)
			}
			r := rsInterrupt(t, dir, tty, tc.what, tc.ready, tc.args...)
			if r.code != 130 || !strings.Contains(r.stderr, "interrupted") {
				t.Errorf("exit %d after SIGINT, want 130 and \"interrupted\"\n%s", r.code, r.stderr)
			}
		})
	}
}

// TestReportAndCompareEndOnInterrupt: `batch report` on a run of 983,020 rows
// ends soon after SIGINT (exit 130) in every phase (reading the rows,
// summarising, drawing the charts, the page), and says that batch report
// DIR builds the report again. compare, which reads two such runs, too.
// Before, SIGINT killed report and compare (no 130, no message).
func TestReportAndCompareEndOnInterrupt(t *testing.T) {
	testenv.Heavy(t, "sweeps 491,510 puzzles, then reports on them and compares them ten times")
	dir := t.TempDir()
	big := rsBigRun(t, dir, 10)
	start := time.Now()
	full := batch(t, dir, "report", "big")
	whole := time.Since(start)
	mustOK(t, full)
	t.Logf("the whole report takes %v", whole)
	// It ends soon after the signal: within a tenth of the whole report's
	// time, measured beside it, and never less than half a second. Each
	// phase checks for the signal between steps; the longest step that
	// cannot stop is one chart's drawing and encoding (a scatter of
	// these 983,020 rows: about 0.3 s under CI's parallel tests), which
	// was a tenth of a 10 s report but is more than a tenth of today's
	// 2.6 s one (it took 337 ms at 65% in CI).
	soon := max(whole/10, 500*time.Millisecond)
	for _, frac := range []float64{0.05, 0.2, 0.35, 0.5, 0.65, 0.8} {
		delay := time.Duration(frac * float64(whole))
		r, took := rsInterruptAt(t, delay, dir, "report", "big")
		t.Logf("SIGINT at %v (%.0f%%): exit %d %v later", delay.Round(time.Millisecond), 100*frac, r.code, took.Round(time.Millisecond))
		if r.code == 0 && frac >= 0.5 && strings.Contains(r.stdout, "report: ") {
			continue // finished before the signal: a faster run than the first
		}
		if r.code != 130 || took > soon || !strings.Contains(r.stderr, "batch report big builds it again") {
			t.Errorf("SIGINT at %v: exit %d %v later, want 130 within %v (a tenth of the whole report, at least 0.5 s) and how to build it again\n%s",
				delay, r.code, took, soon, r.stderr)
		}
	}
	// compare reads both runs and compares them: a signal in either phase.
	start = time.Now()
	mustOK(t, batch(t, dir, "compare", big, big))
	whole = time.Since(start)
	soon = max(whole/10, 500*time.Millisecond)
	for _, frac := range []float64{0.1, 0.4, 0.7} {
		delay := time.Duration(frac * float64(whole))
		r, took := rsInterruptAt(t, delay, dir, "compare", big, big)
		t.Logf("compare: SIGINT at %v: exit %d %v later", delay.Round(time.Millisecond), r.code, took.Round(time.Millisecond))
		if r.code == 0 && frac >= 0.5 {
			continue
		}
		if r.code != 130 || took > soon {
			t.Errorf("compare: SIGINT at %v: exit %d %v later, want 130 within %v (a tenth of the whole compare, at least 0.5 s)\n%s", delay, r.code, took, soon, r.stderr)
		}
	}
}

// TestMergeRefusesFIFOShard: merge refuses a shard whose results.csv is a
// FIFO instead of blocking on it.
func TestMergeRefusesFIFOShard(t *testing.T) {
	dir := t.TempDir()
	corpus := rsCorpus(t, dir, "c.txt", 20)
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-shard", "0/2", "-out", "s0", corpus))
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-shard", "1/2", "-out", "s1", corpus))
	os.Remove(filepath.Join(dir, "s1", rundir.ResultsFile))
	if err := syscall.Mkfifo(filepath.Join(dir, "s1", rundir.ResultsFile), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	r := rsWithin(t, time.Minute, dir, "merge", "-o", "m", "s0", "s1")
	if r.code != 2 {
		t.Errorf("merge with a FIFO results.csv: exit %d, want 2\n%s", r.code, r.stderr)
	}
}

// TestReportAndCompareRefuseBadRows: report and compare refuse (exit 2) a
// results.csv with a unit on two rows, naming the file and both lines; an
// id beyond the corpus that run.json records as read whole; a second
// header (files concatenated). Before, report counted the unit twice and
// the id past the corpus as a puzzle (exit 0).
func TestReportAndCompareRefuseBadRows(t *testing.T) {
	dir := t.TempDir()
	corpus := rsCorpus(t, dir, "c.txt", 100)
	mustOK(t, batch(t, dir, "-solvers", "bitboard,dlx", "-quiet", "-report=false", "-out", "good", corpus))
	good, err := readRowsFile(filepath.Join(dir, "good", rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n") // lines[0] the header; lines[k] is line k+1
	copyRun := func(name, csv string) string {
		t.Helper()
		run := filepath.Join(dir, name)
		os.Mkdir(run, 0o755)
		m, _ := os.ReadFile(filepath.Join(dir, "good", rundir.ManifestFile))
		os.WriteFile(filepath.Join(run, rundir.ManifestFile), m, 0o644)
		os.WriteFile(filepath.Join(run, rundir.ResultsFile), []byte(csv), 0o644)
		return run
	}
	body := strings.Join(lines[:201], "") // header and 200 rows: lines 2 to 201
	tests := []struct {
		name, csv string
		want      []string
	}{
		{"duplicate", body + lines[31], []string{"results.csv:202:", "#15, bitboard) is also on line 32", "batch merge"}},
		{"duplicate at once", strings.Join(lines[:3], "") + lines[2], []string{"results.csv:4:", "#0, dlx) is also on line 3"}},
		{"concatenated", string(good) + string(good), []string{fmt.Sprintf("results.csv:%d:", len(lines)), "a header line in the middle of the file", "concatenated"}},
		{"id past the corpus", body + "100,101,bitboard,solved,1000,5,1,0,64,17,,1,,," + corpus + ",1,1000,1000,,0,\n",
			[]string{"results.csv:202:", "id 100 of corpus " + corpus + ": out of range: run.json records 100 puzzles"}},
		{"negative id", body + "-1,0,bitboard,solved,1000,5,1,0,64,17,,1,,," + corpus + ",1,1000,1000,,0,\n", []string{"results.csv:202:", "id -1"}},
		{"id beyond 32 bits", strings.Join(lines[:1], "") + "4294967296,5,bitboard,solved,1000,5,1,0,64,17,,1,,," + corpus + ",1,1000,1000,,0,\n",
			[]string{"results.csv:2:", "id 4294967296"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := copyRun(strings.ReplaceAll(tt.name, " ", "-"), tt.csv)
			for _, args := range [][]string{{"report", run}, {"compare", "good", run}, {"compare", run, "good"}} {
				r := rsWithin(t, time.Minute, dir, args...)
				ok := r.code == 2
				for _, w := range tt.want {
					ok = ok && strings.Contains(r.stderr, w)
				}
				if !ok {
					t.Errorf("batch %s: exit %d, want 2 and %q\n%s", strings.Join(args, " "), r.code, tt.want, r.stderr)
				}
			}
		})
	}
	// The same rows with no run.json: no count to check ids against.
	run := copyRun("no-manifest", body+"100,101,bitboard,solved,1000,5,1,0,64,17,,1,,,"+corpus+",1,1000,1000,,0,\n")
	os.Remove(filepath.Join(run, rundir.ManifestFile))
	mustOK(t, batch(t, dir, "report", run))
}

// TestCommandLineWordsAndHelp: an unknown command is not taken for a
// corpus file; -h lists the commands; help CMD and version work; a flag
// error is one line. Corpus operands still work: a file with no
// extension, -, a missing file with an extension.
func TestCommandLineWordsAndHelp(t *testing.T) {
	dir := t.TempDir()
	rsCorpus(t, dir, "puzzles", 3)

	r := batch(t, dir, "reprot")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown command "reprot"; did you mean report?`) {
		t.Errorf("batch reprot: exit %d\n%s", r.code, r.stderr)
	}
	if r := batch(t, dir, "shwo", "39949"); r.code != 2 || !strings.Contains(r.stderr, "did you mean show?") {
		t.Errorf("batch shwo: exit %d\n%s", r.code, r.stderr)
	}
	if r := batch(t, dir, "frobnicate"); r.code != 2 || !strings.Contains(r.stderr, `unknown command "frobnicate"; batch -h lists the commands`) {
		t.Errorf("batch frobnicate: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "results")); err == nil {
		t.Error("an unknown command made a run")
	}

	r = batch(t, dir, "-h")
	if r.code != 0 {
		t.Errorf("batch -h: exit %d\n%s", r.code, r.stderr)
	}
	for _, c := range []string{"run", "report", "show", "compare", "merge", "solvers", "version", "help"} {
		if !regexp.MustCompile(`(?m)^  batch ` + c + ` `).MatchString(r.stdout) {
			t.Errorf("batch -h does not list %s:\n%s", c, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "-solvers") {
		t.Errorf("batch -h does not give run's flags:\n%s", r.stdout)
	}

	for _, c := range []string{"report", "show", "compare", "merge", "solvers", "run", "version"} {
		r := batch(t, dir, "help", c)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: batch "+c) {
			t.Errorf("batch help %s: exit %d\nstdout: %s\nstderr: %s", c, r.code, r.stdout, r.stderr)
		}
	}
	if r := batch(t, dir, "help", "reprot"); r.code != 2 || !strings.Contains(r.stderr, "did you mean report?") {
		t.Errorf("batch help reprot: exit %d\n%s", r.code, r.stderr)
	}

	// Run in the checkout: a build without VCS stamping (-buildvcs=false)
	// asks git there.
	r = batch(t, repoRoot(t), "version")
	rev, err := exec.Command("git", "-C", repoRoot(t), "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git: %v", err)
	}
	if r.code != 0 || !strings.HasPrefix(r.stdout, "batch "+strings.TrimSpace(string(rev))) {
		t.Errorf("batch version: exit %d, want the revision %s\n%s%s", r.code, rev, r.stdout, r.stderr)
	}

	for _, args := range [][]string{{"run", "-x"}, {"-x"}, {"report", "-x", "run"}, {"run", "-limit", "many"}} {
		r := batch(t, dir, args...)
		name := "run"
		if args[0] != "-x" {
			name = args[0]
		}
		want := regexp.MustCompile(`^batch ` + name + `: [^\n]+; see batch ` + name + ` -h\n$`)
		if r.code != 2 || !want.MatchString(r.stderr) {
			t.Errorf("batch %s: exit %d, want 2 and one line\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if r := batch(t, dir, "run", "-x"); !strings.Contains(r.stderr, "flag provided but not defined: -x") {
		t.Errorf("batch run -x:\n%s", r.stderr)
	}

	// Corpus operands: a file with no extension, standard input, a
	// missing file with an extension.
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", "a", "puzzles"))
	if rows := readRows(t, filepath.Join(dir, "a", rundir.ResultsFile)); len(rows) != 3 || rows[0].Corpus != "puzzles" {
		t.Errorf("batch puzzles: %d rows", len(rows))
	}
	if r := batchIn(t, dir, rsHard+"\n", "-solvers", "bitboard", "-quiet", "-report=false", "-out", "b", "-"); r.code != 0 {
		t.Errorf("batch -: exit %d\n%s", r.code, r.stderr)
	}
	if r := batch(t, dir, "nope.txt"); r.code != 2 || !strings.Contains(r.stderr, "corpus nope.txt: no such file") {
		t.Errorf("batch nope.txt: exit %d\n%s", r.code, r.stderr)
	}
}

// TestReadCommandsDefaults: report and compare default to results/latest;
// show runs only -solvers, stops each at -timeout, and takes #ID. Before,
// report and compare wanted every run named, show had no -solvers and
// ran every strategy for up to 10 s each.
func TestReadCommandsDefaults(t *testing.T) {
	dir := t.TempDir()
	rsCorpus(t, dir, "c.txt", 30)
	mustOK(t, batch(t, dir, "-solvers", "bitboard,norvig", "-quiet", "-report=false", "-out", "old", "c.txt"))
	mustOK(t, batch(t, dir, "-solvers", "bitboard,norvig", "-quiet", "-report=false", "c.txt")) // results/latest

	t.Run("report", func(t *testing.T) {
		r := batch(t, dir, "report")
		mustOK(t, r)
		if _, err := os.Stat(filepath.Join(dir, "results", "latest", rundir.PageFile)); err != nil {
			t.Errorf("batch report did not report results/latest: %v\n%s", err, r.stdout)
		}
	})
	t.Run("compare OLD", func(t *testing.T) {
		r := batch(t, dir, "compare", "old")
		mustOK(t, r)
		if !strings.Contains(r.stdout, "OLD old:") || !strings.Contains(r.stdout, "NEW results/latest:") {
			t.Errorf("batch compare old:\n%s", r.stdout)
		}
	})
	t.Run("show #ID -solvers", func(t *testing.T) {
		r := batch(t, dir, "show", "#3", "-solvers", "norvig,bitboard")
		mustOK(t, r)
		table := regexp.MustCompile(`(?m)^  [a-z]+ +(solved|timeout|limit|stuck)`).FindAllString(r.stdout, -1)
		if !strings.Contains(r.stdout, "#3 of c.txt, line 4") || len(table) != 4 || // two strategies run, two ranked
			!strings.HasPrefix(table[0], "  norvig ") || !strings.HasPrefix(table[1], "  bitboard ") {
			t.Errorf("show #3 -solvers norvig,bitboard: %q\n%s", table, r.stdout)
		}
	})
	// bruteforce on the hard grid takes minutes: -timeout stops it.
	hard := filepath.Join(dir, "hard.txt")
	os.WriteFile(hard, []byte(rsHard+"\n"), 0o644)
	// (rsWithin's bound only turns the minutes of an unstopped bruteforce
	// into a failure; the status says the limit stopped it.)
	t.Run("show -timeout", func(t *testing.T) {
		r := rsWithin(t, time.Minute, dir, "show", "0", "-corpus", hard, "-run", "", "-solvers", "bruteforce", "-timeout", "200ms")
		mustOK(t, r)
		if !strings.Contains(r.stdout, "bruteforce  timeout") {
			t.Errorf("show -solvers bruteforce -timeout 200ms: not stopped by the limit\n%s", r.stdout)
		}
	})
	// With no flag, every strategy runs, each stopped at 1 s.
	t.Run("show default limits", func(t *testing.T) {
		r := rsWithin(t, time.Minute, dir, "show", "0", "-corpus", hard, "-run", "")
		mustOK(t, r)
		if !strings.Contains(r.stdout, "timeout 1s per strategy") || !strings.Contains(r.stdout, "bruteforce  timeout") {
			t.Errorf("show with the default limits: not each stopped at 1s\n%s", r.stdout)
		}
	})
}

// TestSVGLargeScatterNote: with -svg, a scatter of more than 5000 puzzles
// is written as PNG only, and the report says so on stderr and in the
// page; report -h says so too. Before, it was left out silently.
func TestSVGLargeScatterNote(t *testing.T) {
	dir := t.TempDir()
	corpus := rsCorpus(t, dir, "c.txt", 6000)
	mustOK(t, batchMain(t, dir, "-solvers", "bitboard,dlx", "-timeout", "0", "-quiet", "-report=false", "-out", "run", corpus))
	r := batchMain(t, dir, "report", "-svg", "run")
	mustOK(t, r)
	note := "scatter dlx vs bitboard: 6000 points, written as PNG only (SVG over 5000 points)"
	if !strings.Contains(r.stderr, note) {
		t.Errorf("stderr lacks %q:\n%s", note, r.stderr)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "run", rundir.PageFile))
	if !strings.Contains(string(page), note) {
		t.Error("index.html does not say the scatter has no SVG")
	}
	if _, err := os.Stat(filepath.Join(dir, "run", "charts", "ecdf-time.svg")); err != nil {
		t.Errorf("no SVG of the ECDF: %v", err)
	}
	r = batchMain(t, dir, "help", "report")
	if !strings.Contains(r.stdout, "a scatter of more than 5000 puzzles stays PNG only") {
		t.Errorf("report -h does not say which charts get no SVG:\n%s", r.stdout)
	}
}

// TestPageSkipsFIFOCorpus: the page reads the corpus for the grids
// of its puzzles: a corpus that is now a FIFO is skipped, not opened
// (before, the report blocked there for ever), and the corpus of a run
// read from a FIFO is read from the copy the run keeps.
func TestPageSkipsFIFOCorpus(t *testing.T) {
	dir := t.TempDir()
	corpus := rsCorpus(t, dir, "c.txt", 20)
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", "run", "c.txt"))
	os.Remove(corpus)
	if err := syscall.Mkfifo(corpus, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	mustOK(t, rsWithin(t, time.Minute, dir, "report", "run"))

	// A run over a FIFO, report included.
	fifo := filepath.Join(dir, "pz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(rsHard + "\n")
		f.Close()
	}()
	mustOK(t, rsWithin(t, time.Minute, dir, "-solvers", "norvig", "-quiet", "-highlight", "0", "-out", "stream", "pz"))
	page, err := os.ReadFile(filepath.Join(dir, "stream", rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `title="`+rsHard+`"`) || !strings.Contains(string(page), "<tr><td></td><td></td><td></td><td></td><td></td><td>3</td><td></td><td>8</td><td>5</td></tr>") {
		t.Errorf("the page has no grid of the stream's puzzle")
	}
}
