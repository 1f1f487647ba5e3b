package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/data"
	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
)

// The end-to-end tests run the built binary, as a user would: the one
// built from this package, or the one BATCH_BIN names (to check another
// build against the golden files, e.g. one from before a change). Under
// go test -race they skip (needsBinary), and no binary is built: the
// tests in process (batchMain) check the command's logic with the race
// detector, and a race binary made the race pass of the processes'
// tests take 7 minutes on two loaded cores, too long for .ci/run.

var batchBin string

// needsBinary skips t under the race detector (see TestMain).
func needsBinary(t *testing.T) {
	t.Helper()
	if testenv.Race() {
		t.Skip("runs the binary: not under -race, where the tests in process check the command")
	}
}

func TestMain(m *testing.M) {
	if code, played := external.Role(); played {
		os.Exit(code) // the guard or the echo peer of an external solver of a test in process
	}
	if bin := os.Getenv("BATCH_BIN"); bin != "" {
		batchBin = bin
		code := m.Run()
		removeExtfault()
		os.Exit(code)
	}
	if testenv.Race() {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "batch-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	batchBin = filepath.Join(dir, "batch")
	out, err := exec.Command("go", "build", "-o", batchBin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building batch: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	removeExtfault()
	os.Exit(code)
}

// repoRoot is where data/sudoku17.txt is found.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "data/sudoku17.txt")); err != nil {
		t.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt is committed in the repository, "+
			"Gordon Royle's list of 49151 17-clue puzzles; see data/README.md", err)
	}
	return root
}

type result struct {
	code           int
	stdout, stderr string
	maxRSS         int64         // peak resident set size of the process, bytes
	cpu            time.Duration // the process's CPU time, user and system (batch only)
}

// batch runs the binary in dir with args.
func batch(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return batchIn(t, dir, "", args...)
}

// testColumns is the width the tests' outputs are fitted to ($COLUMNS of
// the binary, env.cols in process): wide enough that no sentence is
// folded, so that a test of what a line says does not depend on where
// it is folded. The tests of the width (width_e2e_test.go, the golden
// sweep) set theirs.
const testColumns = 1000

// batchIn runs the binary in dir with args and stdin as its standard
// input ("": none), its output fitted to testColumns.
func batchIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	return batchCols(t, dir, stdin, testColumns, args...)
}

// batchCols is batchIn with $COLUMNS set to cols (0: unset: a pipe is 80
// columns wide).
func batchCols(t *testing.T, dir, stdin string, cols int, args ...string) result {
	t.Helper()
	needsBinary(t)
	cmd := exec.Command(batchBin, args...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "COLUMNS=") })
	if cols > 0 {
		cmd.Env = append(cmd.Env, "COLUMNS="+strconv.Itoa(cols))
	}
	cmd.Dir = dir
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, stdout.String(), stderr.String(), maxRSS(cmd), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
}

// maxRSS returns the peak resident set size of cmd's finished process.
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // Linux reports kilobytes
	}
	return 0
}

func mustOK(t *testing.T, r result) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// readRows reads a results.csv.
func readRows(t *testing.T, path string) []rundir.Row {
	t.Helper()
	b, err := readRowsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := rundir.NewReader(bytes.NewReader(b), path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []rundir.Row
	for rd.Scan() {
		r, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, *r)
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// counters is what must not depend on timing, workers or sharding.
func counters(r rundir.Row) string {
	return fmt.Sprintf("%s|%d|%s|%s|%d|%d|%d|%d|%d|%d|%s|%s", r.Corpus, r.ID, r.Solver, r.Status, r.Calls, r.Guesses,
		r.Backtracks, r.Filled, r.Clues, r.Seed, r.Solution, r.Error)
}

// sameRows fails unless a and b hold the same units in the same order
// with the same counters.
func sameRows(t *testing.T, a, b []rundir.Row) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d rows vs %d rows", len(a), len(b))
	}
	for i := range a {
		if ca, cb := counters(a[i]), counters(b[i]); ca != cb {
			t.Fatalf("row %d differs:\n%s\n%s", i, ca, cb)
		}
	}
}

func TestRunSlice(t *testing.T) {
	root := repoRoot(t)
	out := filepath.Join(t.TempDir(), "run")
	r := batchMain(t, root, "-range", "100:110", "-out", out, "-quiet")
	mustOK(t, r)
	rows := readRows(t, filepath.Join(out, "results.csv"))
	names := []string{"backtrack", "singles", "randmrv", "norvig", "dlx", "bitboard"}
	if len(rows) != 10*len(names) {
		t.Fatalf("%d rows, want %d", len(rows), 10*len(names))
	}
	for i, row := range rows {
		id, solver := 100+i/len(names), names[i%len(names)]
		if row.ID != id || row.Line != id+1 || row.Solver != solver || row.Corpus != "data/sudoku17.txt" || row.Clues != 17 {
			t.Fatalf("row %d: %+v, want id %d solver %s", i, row, id, solver)
		}
		// The default timeout is wall time: on a loaded machine the slow
		// strategies may reach it.
		want := map[string][]solvers.Status{
			"backtrack": {solvers.StatusSolved, solvers.StatusTimeout},
			"randmrv":   {solvers.StatusSolved, solvers.StatusTimeout},
			"singles":   {solvers.StatusStuck},
		}[solver]
		if want == nil {
			want = []solvers.Status{solvers.StatusSolved}
		}
		if !containsStatus(want, row.Status) {
			t.Fatalf("row %d (%s #%d): status %s, want one of %v", i, solver, id, row.Status, want)
		}
		if row.Status == solvers.StatusSolved && len(row.Solution) != 81 {
			t.Fatalf("row %d: solution %q", i, row.Solution)
		}
	}
	for _, want := range []string{"results: " + out, "took ", "bitboard", "solved"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	var info rundir.Manifest
	b, err := os.ReadFile(filepath.Join(out, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	c := info.Corpora[0]
	seg := info.Segments[0]
	switch {
	case info.Status != "finished" || info.Rows != len(rows):
		t.Errorf("run.json status %q rows %d", info.Status, info.Rows)
	case c.SHA256 != data.SHA256 || c.Puzzles != 49151 || c.Size != 4030382:
		t.Errorf("run.json corpus %+v", c)
	case info.Settings.Range != "100:110" || info.Settings.TimeoutNS != int64(100*time.Millisecond) || len(info.Settings.Solvers) != 6:
		t.Errorf("run.json settings %+v", info.Settings)
	case seg.Machine.GoVersion == "" || seg.Machine.NumCPU < 1 || seg.Machine.CPU == "" || seg.Machine.Version == "" || seg.Workers < 1:
		t.Errorf("run.json machine %+v", seg)
	case info.End.Before(info.Start) || info.DurationNS <= 0 || len(seg.Command) < 2:
		t.Errorf("run.json times %v %v %d", info.Start, info.End, info.DurationNS)
	}
}

func containsStatus(list []solvers.Status, s solvers.Status) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// deterministic are flags whose rows do not depend on timing.
var deterministic = []string{"-timeout", "0", "-max-calls", "20000", "-quiet"}

func TestWorkersDoNotChangeCounters(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "all", "-range", "0:40", "-report=false"}, deterministic...)
	mustOK(t, batchMain(t, root, append(args, "-workers", "1", "-out", tmp+"/w1")...))
	mustOK(t, batchMain(t, root, append(args, "-workers", "4", "-out", tmp+"/w4")...))
	a := readRows(t, tmp+"/w1/results.csv")
	sameRows(t, a, readRows(t, tmp+"/w4/results.csv"))
	limited := 0
	for _, r := range a {
		if r.Status == solvers.StatusLimit {
			limited++
		}
	}
	if limited == 0 {
		t.Error("no unit reached -max-calls: the limit path is not exercised")
	}
}

func TestShardsMergeToOneRun(t *testing.T) {
	testenv.Heavy(t, "four sweeps and three merges: 3 s, 44 s under -race; rundir's merge tests and TestMergeAtomic* cover merge in the plain run")
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx,randmrv,backtrack", "-limit", "60", "-seed", "7"}, deterministic...)
	mustOK(t, batchMain(t, root, append(args, "-out", tmp+"/one")...))
	var shards []string
	for k := 0; k < 3; k++ {
		dir := fmt.Sprintf("%s/shard-%d", tmp, k)
		mustOK(t, batchMain(t, root, append(args, "-shard", fmt.Sprintf("%d/3", k), "-out", dir)...))
		shards = append(shards, dir)
	}
	r := batchMain(t, root, append([]string{"merge", "-o", tmp + "/merged"}, shards[2], shards[0], shards[1])...)
	mustOK(t, r)
	sameRows(t, readRows(t, tmp+"/one/results.csv"), readRows(t, tmp+"/merged/results.csv"))
	info, err := rundir.ReadManifest(tmp + "/merged")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Segments) != 3 || info.Settings.Shard != "" || info.Rows != 240 || info.Shards != 3 {
		t.Errorf("merged run.json: %d segments, shard %q, %d rows, %d shards", len(info.Segments), info.Settings.Shard, info.Rows, info.Shards)
	}
	// A missing shard and a shard given twice are refused.
	if r := batchMain(t, root, "merge", "-o", tmp+"/m2", shards[0], shards[1]); r.code != 2 || !strings.Contains(r.stderr, "missing shard 2/3") {
		t.Errorf("merge without shard 2: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, root, "merge", "-o", tmp+"/m3", shards[0], shards[0], shards[1]); r.code != 2 || !strings.Contains(r.stderr, "shard "+shards[0]+" is given twice") {
		t.Errorf("merge with shard 0 twice: exit %d, %s", r.code, r.stderr)
	}
}

// bigCorpus writes n copies of the first 2000 puzzles of the corpus.
func bigCorpus(t *testing.T, root string, copies int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")[:2000]
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat(strings.Join(lines, ""), copies)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startAndSignal starts a run writing to out, waits until it has written
// some rows, and sends sig.
func startAndSignal(t *testing.T, dir, out string, sig syscall.Signal, args ...string) result {
	return startAndSignalAt(t, dir, out, 200_000, sig, args...)
}

// startAndSignalAt is startAndSignal once results.csv holds size bytes.
func startAndSignalAt(t *testing.T, dir, out string, size int64, sig syscall.Signal, args ...string) result {
	t.Helper()
	needsBinary(t)
	cmd := exec.Command(batchBin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	ended := false
	testenv.Await(t, fmt.Sprintf("%s past %d bytes", filepath.Join(out, "results.csv"), size), func() bool {
		select {
		case err = <-exited: // finished first: nothing to signal
			ended = true
			return true
		default:
		}
		st, serr := os.Stat(filepath.Join(out, "results.csv"))
		return serr == nil && st.Size() > size
	})
	if !ended {
		cmd.Process.Signal(sig)
		err = <-exited
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String(), maxRSS: maxRSS(cmd)}
}

func TestInterruptAndResume(t *testing.T) {
	testenv.Heavy(t, "interrupts sweeps of 60,000 units and resumes them 9 times")
	root := repoRoot(t)
	corpus := bigCorpus(t, root, 10)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx,singles", "-workers", "2"}, deterministic...)
	mustOK(t, batch(t, root, append(args, "-out", tmp+"/whole", corpus)...))
	want := readRows(t, tmp+"/whole/results.csv")

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(tmp, strings.ReplaceAll(sig.String(), " ", "-"))
			r := startAndSignal(t, root, out, sig, append(args, "-out", out, corpus)...)
			partial := readRowsTolerant(t, filepath.Join(out, "results.csv"))
			switch sig {
			case syscall.SIGKILL:
				if r.code != -1 {
					t.Fatalf("exit %d after SIGKILL", r.code)
				}
			default:
				if r.code != 130 {
					t.Fatalf("exit %d after %v, want 130\n%s", r.code, sig, r.stderr)
				}
				if !strings.Contains(r.stderr, "-resume -out "+out) {
					t.Errorf("no resume hint on stderr:\n%s", r.stderr)
				}
				info, err := rundir.ReadManifest(out)
				if err != nil || info.Status != "interrupted" {
					t.Fatalf("run.json after %v: %v %+v", sig, err, info)
				}
			}
			if partial == 0 || partial >= len(want) {
				t.Fatalf("%d rows after %v: the signal did not interrupt the run", partial, sig)
			}
			mustOK(t, batch(t, root, "-resume", "-out", out, "-quiet"))
			sameRows(t, want, readRows(t, filepath.Join(out, "results.csv")))
		})
	}
	// Signals at random moments, twice each time: interrupt, resume and
	// interrupt again, then finish.
	for i := range 3 {
		t.Run(fmt.Sprintf("random-%d", i), func(t *testing.T) {
			out := filepath.Join(tmp, fmt.Sprintf("random-%d", i))
			sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}
			first := startAndSignalAt(t, root, out, 1000+rand.Int64N(1_500_000), sigs[rand.IntN(3)], append(args, "-out", out, corpus)...)
			second := startAndSignalAt(t, root, out, 1000+rand.Int64N(3_000_000), sigs[rand.IntN(3)], "-resume", "-quiet", "-out", out)
			t.Logf("exits %d then %d", first.code, second.code)
			mustOK(t, batch(t, root, "-resume", "-out", out, "-quiet"))
			sameRows(t, want, readRows(t, filepath.Join(out, "results.csv")))
		})
	}
}

// readRowsTolerant counts the complete lines of a results.csv (the last
// one may be torn) less the header.
func readRowsTolerant(t *testing.T, path string) int {
	t.Helper()
	b, err := readRowsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n")) - 1
}

func TestResumeCutsTornLine(t *testing.T) {
	testenv.SkipUnderRace(t, "two sweeps of 100 units with their reports: 1.4 s, 17 s under -race")
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "norvig,bitboard", "-limit", "50"}, deterministic...)
	mustOK(t, batchMain(t, root, append(args, "-out", tmp+"/whole")...))
	want := readRows(t, tmp+"/whole/results.csv")
	// Make a run that died mid-write: 20 rows and half of the 21st.
	b, _ := readRowsFile(tmp + "/whole/results.csv")
	lines := strings.SplitAfter(string(b), "\n")
	torn := strings.Join(lines[:21], "") + lines[21][:30]
	os.MkdirAll(tmp+"/torn", 0o755)
	os.WriteFile(tmp+"/torn/results.csv", []byte(torn), 0o644)
	info, _ := rundir.ReadManifest(tmp + "/whole")
	info.Status = "running"
	rundir.WriteManifest(tmp+"/torn", info)
	r := batchMain(t, root, "-resume", "-out", tmp+"/torn", "-quiet")
	mustOK(t, r)
	if !strings.Contains(r.stderr, "20 rows already done") {
		t.Errorf("stderr: %s", r.stderr)
	}
	sameRows(t, want, readRows(t, tmp+"/torn/results.csv"))
}

func TestRefusesToOverwriteARun(t *testing.T) {
	root := repoRoot(t)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"-solvers", "bitboard", "-limit", "5", "-quiet", "-out", out}
	mustOK(t, batchMain(t, root, args...))
	before, _ := readRowsFile(filepath.Join(out, "results.csv"))
	r := batchMain(t, root, args...)
	if r.code != 2 || !strings.Contains(r.stderr, "already holds a run (status finished)") || !strings.Contains(r.stderr, "-resume") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	after, _ := readRowsFile(filepath.Join(out, "results.csv"))
	if !bytes.Equal(before, after) {
		t.Fatal("results.csv was changed")
	}
	// -resume with a different setting is refused too.
	if r := batchMain(t, root, "-resume", "-out", out, "-max-calls", "5"); r.code != 2 || !strings.Contains(r.stderr, "-max-calls differs") {
		t.Fatalf("resume with other settings: exit %d, %s", r.code, r.stderr)
	}
}

func TestInvalidLines(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	good := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	lines := []string{
		"# a comment",
		good,
		good[:80],                      // line 3: too short
		good + "0",                     // line 4: too long
		"X" + good[1:],                 // line 5: bad symbol
		"11" + strings.Repeat("0", 79), // line 6: conflicting givens
		"",                             // blank
		"4000300200040020",             // line 8: a 4x4
		"5000000000000000",             // line 9: bad symbol for 4x4
		"503020600900305001001806400008102900700000008006708200002609500800203009005010300", // line 10: no solution
		good,
	}
	path := filepath.Join(tmp, "mixed.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	r := batchMain(t, root, "-solvers", "norvig,dlx,bitboard", "-timeout", "0", "-out", tmp+"/run", "-quiet", path)
	mustOK(t, r)
	for _, want := range []string{
		path + ":3: puzzle has 80 symbols",
		path + ":4: puzzle has 82 symbols",
		path + `:5: bad symbol "X" at position 1`,
		path + ":6: conflicting givens: 1 twice in row 1",
		path + `:9: bad symbol "5"`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	rows := readRows(t, tmp+"/run/results.csv")
	if len(rows) != 9*3 {
		t.Fatalf("%d rows, want 27", len(rows))
	}
	want := map[int]string{0: "solved", 1: "invalid", 2: "invalid", 3: "invalid", 4: "invalid", 5: "solved", 6: "invalid", 7: "unsolvable", 8: "solved"}
	for _, row := range rows {
		st := want[row.ID]
		if row.ID == 5 && row.Solver == "bitboard" {
			st = "unsupported"
		}
		if row.Status.String() != st {
			t.Errorf("id %d (line %d) %s: %s, want %s (%s)", row.ID, row.Line, row.Solver, row.Status, st, row.Error)
		}
	}
}

func TestGzipStdinAndTwoCorpora(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(root, "data/sudoku17.txt"))
	head := strings.Join(strings.SplitAfter(string(b), "\n")[:30], "")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(head))
	zw.Close()
	os.WriteFile(tmp+"/a.txt.gz", gz.Bytes(), 0o644)
	os.WriteFile(tmp+"/b.txt", []byte("12\n"+head[:82*12]), 0o644) // a count header, 12 puzzles
	mustOK(t, batchMain(t, tmp, "-solvers", "bitboard", "-out", "run", "-quiet", "a.txt.gz", "b.txt"))
	rows := readRows(t, tmp+"/run/results.csv")
	if len(rows) != 42 || rows[29].Corpus != "a.txt.gz" || rows[30].Corpus != "b.txt" || rows[30].ID != 0 || rows[30].Line != 2 {
		t.Fatalf("%d rows; row 29 %+v; row 30 %+v", len(rows), rows[29], rows[30])
	}
	if rows[0].Solution != rows[30].Solution || rows[0].Status != solvers.StatusSolved {
		t.Fatal("the same puzzle in two corpora gave different answers")
	}
	// Standard input.
	mustOK(t, batchMainIn(t, tmp, head, "-solvers", "bitboard", "-out", "stdin", "-quiet", "-"))
	if rows := readRows(t, tmp+"/stdin/results.csv"); len(rows) != 30 || rows[0].Corpus != "-" {
		t.Fatalf("stdin: %d rows", len(rows))
	}
}

func TestMissingCorpusAndUsage(t *testing.T) {
	tmp := t.TempDir()
	if r := batchMain(t, tmp, "nope.txt"); r.code != 2 || !strings.Contains(r.stderr, "corpus nope.txt: no such file") {
		t.Errorf("missing corpus: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, tmp, tmp); r.code != 2 || !strings.Contains(r.stderr, "is a directory") {
		t.Errorf("directory corpus: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, tmp, "-solvers", "nope"); r.code != 2 || !strings.Contains(r.stderr, `unknown strategy "nope"`) {
		t.Errorf("unknown solver: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, tmp, "-shard", "3/3"); r.code != 2 || !strings.Contains(r.stderr, "0 <= k < n") {
		t.Errorf("bad shard: exit %d, %s", r.code, r.stderr)
	}
	if r := batchMain(t, tmp, "-bogus"); r.code != 2 {
		t.Errorf("unknown flag: exit %d", r.code)
	}
	r := batchMain(t, tmp, "solvers")
	mustOK(t, r)
	for _, s := range solvers.Names() {
		if !strings.Contains(r.stdout, s+" ") {
			t.Errorf("batch solvers lacks %s:\n%s", s, r.stdout)
		}
	}
}

func TestDefaultOutputAndLatest(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	os.Symlink(filepath.Join(root, "data"), filepath.Join(tmp, "data"))
	mustOK(t, batchMain(t, tmp, "-solvers", "bitboard", "-limit", "3", "-quiet"))
	link, err := os.Readlink(filepath.Join(tmp, "results/latest"))
	if err != nil {
		t.Fatal(err)
	}
	if len(link) != len("20261121-230501") || strings.Contains(link, "/") {
		t.Fatalf("latest -> %q, want a run id", link)
	}
	if rows := readRows(t, filepath.Join(tmp, "results", link, "results.csv")); len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
}

func TestUnique(t *testing.T) {
	tmp := t.TempDir()
	// Puzzle #0, the same with its first given removed (16 clues: several
	// solutions?), and a puzzle with no solution.
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	p16 := "000000000400000000020000000000050407008000300001090000300400200050100000000806000"
	none := "503020600900305001001806400008102900700000008006708200002609500800203009005010300"
	os.WriteFile(tmp+"/u.txt", []byte(p0+"\n"+p16+"\n"+none+"\n"), 0o644)
	mustOK(t, batchMain(t, tmp, "-solvers", "norvig,dlx", "-unique", "-out", "run", "-quiet", "u.txt"))
	rows := readRows(t, tmp+"/run/results.csv")
	want := []int{1, 1, 2, 2, 0, 0}
	for i, row := range rows {
		if row.Solutions != want[i] {
			t.Errorf("row %d (id %d %s): solutions %d, want %d", i, row.ID, row.Solver, row.Solutions, want[i])
		}
	}
	b, _ := readRowsFile(tmp + "/run/results.csv")
	r := csv.NewReader(bytes.NewReader(b))
	recs, _ := r.ReadAll()
	if recs[1][10] != "1" || recs[5][10] != "0" {
		t.Errorf("solutions column: %q %q", recs[1][10], recs[5][10])
	}
}

// readRowsFile is os.ReadFile for a run's results.csv: when path is not
// there but path.gz is (a finished run gzips its rows), the gzip's
// content.
func readRowsFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	r, gerr := rundir.OpenRows(path + ".gz")
	if gerr != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
