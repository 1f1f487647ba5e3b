package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sudokubatch/internal/testenv"
	"sync"
	"syscall"
	"testing"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// The faults of external solvers (docs/PROTOCOL.md, "Faults") as a user
// meets them: the binary sweeps testdata/extfault, a solver that crashes,
// hangs, answers wrong or garbage, starts slowly or never, on the puzzles
// its flags name, beside bitboard. Each test checks the affected units'
// status and error in results.csv, that every other unit is there and
// solved, the exit code, and that no process carrying the test's marker
// token is left running.

var extfault struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// extfaultBin builds testdata/extfault once per test binary and returns
// its path.
func extfaultBin(t *testing.T) string {
	t.Helper()
	needsBinary(t)
	extfault.once.Do(func() {
		extfault.dir, extfault.err = os.MkdirTemp("", "extfault")
		if extfault.err != nil {
			return
		}
		extfault.bin = filepath.Join(extfault.dir, "extfault")
		out, err := exec.Command("go", "build", "-o", extfault.bin, "./testdata/extfault").CombinedOutput()
		if err != nil {
			extfault.err = fmt.Errorf("building testdata/extfault: %v\n%s", err, out)
		}
	})
	if extfault.err != nil {
		t.Fatal(extfault.err)
	}
	return extfault.bin
}

// removeExtfault removes what extfaultBin built (called by TestMain).
func removeExtfault() {
	if extfault.dir != "" {
		os.RemoveAll(extfault.dir)
	}
}

// newMarker returns a token unique to this test, for the argv of every
// process extfault starts; a cleanup kills any still running.
func newMarker(t *testing.T) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	token := "xf" + hex.EncodeToString(b)
	t.Cleanup(func() {
		for _, p := range markerProcs(token) {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	})
	return token
}

type markerProc struct {
	pid     int
	cmdline string
}

// markerProcs lists the live processes whose command line holds token
// (zombies have an empty one).
func markerProcs(token string) []markerProc {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var procs []markerProc
	for _, path := range dirs {
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(b, []byte(token)) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if pid == os.Getpid() {
			continue
		}
		procs = append(procs, markerProc{pid, strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))})
	}
	return procs
}

// noMarkerLeft fails t when a process with token in its command line
// is still running: it waits for them to go (their killer and their
// parent's reaping take a moment; a process left behind stays for good,
// and testenv.Await's bound turns it into a failure).
func noMarkerLeft(t *testing.T, token string) {
	t.Helper()
	testenv.Await(t, "no solver process left", func() bool { return len(markerProcs(token)) == 0 })
}

// idList is "from,from+1,...,to-1", for -ids.
func idList(from, to int) string {
	var ids []string
	for id := from; id < to; id++ {
		ids = append(ids, strconv.Itoa(id))
	}
	return strings.Join(ids, ",")
}

// extCommand is the -ext value that runs extfault as the strategy flt
// with the marker and faults, each argument quoted when it holds a space.
func extCommand(t *testing.T, marker string, faults ...string) string {
	args := append([]string{extfaultBin(t), "-marker", marker}, faults...)
	for i, a := range args {
		if strings.ContainsAny(a, " \t\"'\\") {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return "flt=" + strings.Join(args, " ")
}

// sweepRows reads the rows of out's results.csv by strategy and id, and
// checks that each of ids has one row per strategy of names.
func sweepRows(t *testing.T, out string, names []string, ids []int) map[string]map[int]rundir.Row {
	t.Helper()
	rows := readRows(t, filepath.Join(out, "results.csv"))
	by := map[string]map[int]rundir.Row{}
	for _, n := range names {
		by[n] = map[int]rundir.Row{}
	}
	for _, r := range rows {
		if by[r.Solver] == nil {
			t.Fatalf("a row of strategy %q, not asked for", r.Solver)
		}
		if _, dup := by[r.Solver][r.ID]; dup {
			t.Fatalf("two rows for %s #%d", r.Solver, r.ID)
		}
		by[r.Solver][r.ID] = r
	}
	for _, n := range names {
		for _, id := range ids {
			if _, ok := by[n][id]; !ok {
				t.Errorf("no row for %s #%d", n, id)
			}
		}
	}
	if len(rows) != len(names)*len(ids) {
		t.Fatalf("%d rows, want %d", len(rows), len(names)*len(ids))
	}
	return by
}

// checkUnit fails unless row has status st and an error holding every
// one of want.
func checkUnit(t *testing.T, row rundir.Row, st solvers.Status, want ...string) {
	t.Helper()
	if row.Status != st {
		t.Errorf("%s #%d: status %s (%q), want %s", row.Solver, row.ID, row.Status, row.Error, st)
		return
	}
	for _, w := range want {
		if !strings.Contains(row.Error, w) {
			t.Errorf("%s #%d (%s): error %q lacks %q", row.Solver, row.ID, row.Status, row.Error, w)
		}
	}
}

// checkSolvedAsBitboard fails unless row is solved with bitboard's
// solution of the same puzzle.
func checkSolvedAsBitboard(t *testing.T, row rundir.Row, by map[string]map[int]rundir.Row) {
	t.Helper()
	bb := by["bitboard"][row.ID]
	switch {
	case row.Status != solvers.StatusSolved:
		t.Errorf("%s #%d: status %s (%q), want solved", row.Solver, row.ID, row.Status, row.Error)
	case bb.Status != solvers.StatusSolved || row.Solution != bb.Solution:
		t.Errorf("%s #%d: solution %q, bitboard's (%s) %q", row.Solver, row.ID, row.Solution, bb.Status, bb.Solution)
	}
}

func ids(from, to int) []int {
	var list []int
	for id := from; id < to; id++ {
		list = append(list, id)
	}
	return list
}

// TestExtFaultsInOneSweep is the demonstration: over 30 puzzles,
// a solver that starts in a second, crashes on two puzzles, hangs on one,
// answers a wrong grid on one, garbage once and another id once. Each
// affected unit gets its status, the other 26 units and bitboard's 30 are
// solved, the start-ups are in no unit's time, batch exits 1 (a wrong
// answer) and no solver process is left.
func TestExtFaultsInOneSweep(t *testing.T) {
	testenv.Heavy(t, "every fault in one sweep through the binary, with a 1 s slow start: 5 s")
	root := repoRoot(t)
	marker := newMarker(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const (
		crashA, crashB, hang, wrong, garbage, otherID = 3, 17, 8, 12, 21, 26
	)
	ext := extCommand(t, marker, "-solutions", knownSolutions(t, root), "-slow-start", "1s", "-state", tmp,
		"-crash", fmt.Sprintf("%d,%d", crashA, crashB), "-hang", strconv.Itoa(hang), "-wrong", strconv.Itoa(wrong),
		"-garbage", strconv.Itoa(garbage), "-wrong-id", strconv.Itoa(otherID))
	start := time.Now()
	r := batch(t, root, "-solvers", "bitboard,flt", "-ext", ext, "-ext-start", "5s", "-timeout", "300ms",
		"-workers", "2", "-ids", idList(0, 30), "-out", out, "-quiet", "-report=false")
	took := time.Since(start)
	t.Logf("took %s; exit %d; stderr:\n%s", took.Round(time.Millisecond), r.code, r.stderr)
	if r.code != exitWrong || !strings.Contains(r.stderr, "batch: 1 wrong answer (status wrong in ") {
		t.Errorf("exit %d, want %d with \"1 wrong answer\"\nstdout:\n%s\nstderr:\n%s", r.code, exitWrong, r.stdout, r.stderr)
	}
	by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, 30))
	for id := range 30 {
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
		row := by["flt"][id]
		switch id {
		case crashA, crashB:
			checkUnit(t, row, solvers.StatusError, fmt.Sprintf("crashing on puzzle %d, as asked", id), "exit status 3")
		case hang:
			checkUnit(t, row, solvers.StatusTimeout)
		case wrong:
			checkUnit(t, row, solvers.StatusWrong, "given")
		case garbage:
			checkUnit(t, row, solvers.StatusError, "protocol", "this is not an answer")
		case otherID:
			checkUnit(t, row, solvers.StatusError, "protocol", "000, not ")
		default:
			checkSolvedAsBitboard(t, row, by)
		}
		// Every start (2 workers) and restart (5 faults) sleeps a second
		// before its handshake: none of it is in a unit's time.
		if limit := int64(500 * time.Millisecond); row.NS > limit || row.NSMedian > limit {
			t.Errorf("flt #%d (%s): ns %d, median %d: over %d, a start-up in the unit's time?", id, row.Status, row.NS, row.NSMedian, limit)
		}
	}
	noMarkerLeft(t, marker)
}

// TestExtStartFails: a solver that never answers the handshake, exits
// before it, or answers something else fails its strategy before the
// sweep, within -ext-start: exit 2, a message that names the strategy,
// says why and quotes the solver's stderr, and no run written.
func TestExtStartFails(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	for _, tc := range []struct {
		name   string
		faults []string
		want   []string
	}{
		{"never-answers", []string{"-no-handshake"}, []string{"no handshake within 1s (-ext-start)", "not answering the handshake, as asked"}},
		{"exits", []string{"-crash", "x"}, []string{"exit status 2", `invalid value \"x\" for flag -crash`}},
		{"answers-else", []string{"-hello", "hello"}, []string{`"hello"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := newMarker(t)
			out := filepath.Join(t.TempDir(), "run")
			// 1s: a loaded machine took over 500ms to start the solver
			// and have its stderr read. (The bound of the wait only turns
			// a start that never fails into a failure; the message says
			// which limit ended it.)
			r := start(t, root, false, "-solvers", "bitboard,flt", "-ext", extCommand(t, marker, tc.faults...), "-ext-start", "1s",
				"-ids", idList(0, 10), "-out", out, "-quiet", "-report=false").wait(t, time.Minute)
			t.Logf("exit %d; stderr:\n%s", r.code, r.stderr)
			if r.code != exitUsage {
				t.Errorf("exit %d, want %d", r.code, exitUsage)
			}
			for _, want := range append([]string{"-ext flt: "}, tc.want...) {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if _, err := os.Stat(out); err == nil {
				entries, _ := os.ReadDir(out)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("%s was written (%s): the protocol says nothing is", out, strings.Join(names, ", "))
			}
			noMarkerLeft(t, marker)
		})
	}
}

// TestExtRestartCap: a solver that crashes on every puzzle is restarted
// -ext-restarts times; its remaining units are errors without being sent,
// bitboard's are all solved, and batch exits 1 saying that the cap
// stopped the strategy.
func TestExtRestartCap(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	marker := newMarker(t)
	out := filepath.Join(t.TempDir(), "run")
	const workers, restarts, n = 2, 3, 20
	r := batch(t, root, "-solvers", "bitboard,flt", "-ext", extCommand(t, marker, "-crash", "all"),
		"-ext-restarts", strconv.Itoa(restarts), "-workers", strconv.Itoa(workers),
		"-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
	t.Logf("exit %d; stderr:\n%s", r.code, r.stderr)
	if r.code != exitWrong || !strings.Contains(r.stderr, "external flt was stopped by the restart cap (-ext-restarts 3)") {
		t.Errorf("exit %d, want %d saying the restart cap stopped flt\nstderr:\n%s", r.code, exitWrong, r.stderr)
	}
	by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, n))
	crashed, capped := 0, 0
	for id := range n {
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
		row := by["flt"][id]
		switch {
		case row.Status != solvers.StatusError:
			t.Errorf("flt #%d: status %s, want error", id, row.Status)
		case strings.Contains(row.Error, fmt.Sprintf("crashing on puzzle %d", id)):
			crashed++
		case strings.Contains(row.Error, "restart cap reached"):
			capped++
		default:
			t.Errorf("flt #%d: error %q, neither its crash nor the restart cap", id, row.Error)
		}
	}
	// Each worker's first process and each restart crash on one puzzle.
	if crashed > workers+restarts || crashed < 1+restarts || crashed+capped != n {
		t.Errorf("%d units crashed, %d capped: want %d to %d crashes (workers + restarts), the rest capped",
			crashed, capped, 1+restarts, workers+restarts)
	}
	for _, want := range []string{
		fmt.Sprintf("note: external flt: %d processes started again", restarts),
		"note: external flt: the restart cap was reached: its units after it were not sent",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	noMarkerLeft(t, marker)
}

// TestExtLongLineKeepsMemoryBounded: an answer line of 64 MiB without a
// newline is a protocol error, read without holding it: batch's peak RSS
// stays within 16 MiB of the same sweep's without it, and the sweep goes
// on.
func TestExtLongLineKeepsMemoryBounded(t *testing.T) {
	testenv.Heavy(t, "a 64 MiB answer line through the binary: 1.2 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	marker := newMarker(t)
	tmp := t.TempDir()
	const long, n, size = 5, 12, 64 << 20
	sweep := func(name string, faults ...string) result {
		r := batch(t, root, "-solvers", "bitboard,flt", "-ext", extCommand(t, marker, faults...), "-workers", "1",
			"-timeout", "5s", "-ids", idList(0, n), "-out", filepath.Join(tmp, name), "-quiet", "-report=false")
		t.Logf("%s: exit %d, peak RSS %.1f MiB", name, r.code, float64(r.maxRSS)/(1<<20))
		if r.code != exitOK {
			t.Fatalf("%s: exit %d\nstderr:\n%s", name, r.code, r.stderr)
		}
		return r
	}
	base := sweep("base")
	r := sweep("long", "-long", strconv.Itoa(long), "-long-bytes", strconv.Itoa(size))
	by := sweepRows(t, filepath.Join(tmp, "long"), []string{"bitboard", "flt"}, ids(0, n))
	for id := range n {
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
		if id == long {
			checkUnit(t, by["flt"][id], solvers.StatusError, "protocol")
		} else {
			checkSolvedAsBitboard(t, by["flt"][id], by)
		}
	}
	if base.maxRSS == 0 {
		t.Skip("no peak RSS on this system")
	}
	if grew := r.maxRSS - base.maxRSS; grew > 16<<20 {
		t.Errorf("peak RSS %.1f MiB with a %d MiB line, %.1f MiB without: the line was held", float64(r.maxRSS)/(1<<20), size>>20, float64(base.maxRSS)/(1<<20))
	}
	noMarkerLeft(t, marker)
}

// hungGone waits until the hung solver (pid) and its grandchild
// (sleep[marker]) have ended, and returns how long that took; it fails t
// if they have not after d, or if batch (p) ended first: then batch's
// exit, not the harness, may have ended them.
func hungGone(t *testing.T, p *proc, pid int, marker string, d time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	hung := func() []string {
		var left []string
		for _, q := range markerProcs(marker) {
			if q.pid == pid || strings.HasPrefix(q.cmdline, "sleep["+marker+"]") {
				left = append(left, fmt.Sprintf("  pid %d: %s", q.pid, q.cmdline))
			}
		}
		return left
	}
	for left := hung(); len(left) > 0; left = hung() {
		if time.Since(start) > d {
			t.Fatalf("still running %s after the solver hung:\n%s", d, strings.Join(left, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(start)
	select {
	case <-p.done:
		t.Fatal("batch ended before the hung solver was seen gone: the sweep is too short to tell who ended it")
	default:
	}
	return took
}

// TestExtHangs: a solver that hangs on a puzzle is ended at the timeout
// while the sweep goes on: one that ignores TERM by KILL after
// -ext-grace, one that started a grandchild with its process group at
// once (TERM), and a new process solves the next puzzles.
func TestExtHangs(t *testing.T) {
	testenv.Heavy(t, "two hung solvers ended at the timeout and after the grace: 10 s")
	root := repoRoot(t)
	const timeout = 400 * time.Millisecond
	for _, tc := range []struct {
		mode     string
		grace    time.Duration
		min, max time.Duration // from the hang to the end of its processes
	}{
		{"noterm", 500 * time.Millisecond, timeout + 500*time.Millisecond, timeout + 500*time.Millisecond + 2*time.Second},
		{"grandchild", 5 * time.Second, timeout, timeout + 2*time.Second}, // well before the grace
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel() // each waits on its own hung solver (timeout, grace): side by side
			marker := newMarker(t)
			tmp := t.TempDir()
			out := filepath.Join(tmp, "run")
			const hang, n = 1, 16
			// 150 ms an answer keeps batch running for seconds after the
			// hang: its processes must be gone before batch ends.
			ext := extCommand(t, marker, "-solutions", knownSolutions(t, root), "-hang", strconv.Itoa(hang), "-hang-mode", tc.mode,
				"-state", tmp, "-delay", "150ms")
			p := start(t, root, false, "-solvers", "flt", "-ext", ext, "-ext-grace", tc.grace.String(),
				"-timeout", timeout.String(), "-workers", "1", "-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
			pid := awaitHang(t, p, tmp)
			if tc.mode == "grandchild" && !slices.ContainsFunc(markerProcs(marker), func(q markerProc) bool {
				return strings.HasPrefix(q.cmdline, "sleep["+marker+"]")
			}) {
				t.Fatal("the grandchild is not running")
			}
			took := hungGone(t, p, pid, marker, tc.max)
			t.Logf("the hung solver's processes ended %s after it hung (-timeout %s, -ext-grace %s)", took.Round(time.Millisecond), timeout, tc.grace)
			// The hang is seen up to a poll (20 ms) after it began, and began
			// after the request (and the grandchild's start).
			if took < tc.min-150*time.Millisecond {
				t.Errorf("ended %s after the hang, want %s at least", took, tc.min)
			}
			r := p.wait(t, time.Minute)
			if r.code != exitOK {
				t.Errorf("exit %d\nstderr:\n%s", r.code, r.stderr)
			}
			by := sweepRows(t, out, []string{"flt"}, ids(0, n))
			for id := range n {
				if id == hang {
					checkUnit(t, by["flt"][id], solvers.StatusTimeout)
					// Its time stops at the deadline, as a built-in's: the
					// ending of its process (the grace) is not in it.
					if ns := by["flt"][id].NS; ns > int64(timeout*3/2) {
						t.Errorf("flt #%d: timeout in %s under -timeout %s", id, time.Duration(ns), timeout)
					}
				} else if by["flt"][id].Status != solvers.StatusSolved {
					t.Errorf("flt #%d: %s (%q), want solved", id, by["flt"][id].Status, by["flt"][id].Error)
				}
			}
			noMarkerLeft(t, marker)
		})
	}
}

// TestExtInterruptWhileHung: Ctrl-C (SIGINT) while a unit hangs ends
// batch at once with 130, run.json interrupted, with a -timeout or
// without; and kill -9 of batch: in each case no solver process is left
// (the guard ends the solver and its descendants).
func TestExtInterruptWhileHung(t *testing.T) {
	testenv.Heavy(t, "Ctrl-C and kill -9 of batch while a unit hangs: 4 s")
	root := repoRoot(t)
	for _, tc := range []struct {
		name    string
		timeout string
		sigs    []syscall.Signal
	}{
		{"interrupt", "2s", []syscall.Signal{syscall.SIGINT}},
		{"interrupt-no-timeout", "0", []syscall.Signal{syscall.SIGINT}},
		{"kill", "0", []syscall.Signal{syscall.SIGKILL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := newMarker(t)
			tmp := t.TempDir()
			out := filepath.Join(tmp, "run")
			ext := extCommand(t, marker, "-hang", "3", "-hang-mode", "grandchild", "-state", tmp)
			p := start(t, root, false, "-solvers", "bitboard,flt", "-ext", ext, "-timeout", tc.timeout, "-workers", "2",
				"-ids", idList(0, 10), "-out", out, "-quiet", "-report=false")
			awaitHang(t, p, tmp)
			var sent time.Time
			for i, sig := range tc.sigs {
				if i > 0 {
					p.awaitStderr(t, "batch: interrupted: ") // the first is seen
				}
				sent = time.Now()
				p.cmd.Process.Signal(sig)
			}
			r := p.wait(t, time.Minute)
			took := time.Since(sent)
			t.Logf("batch ended %s after the last %v: exit %d; stderr:\n%s", took.Round(time.Millisecond), tc.sigs[len(tc.sigs)-1], r.code, r.stderr)
			if tc.sigs[0] == syscall.SIGINT {
				// The first Ctrl-C ends the hung unit at once, with or
				// without a -timeout; the unit is left for -resume.
				if r.code != exitInterrupted || !strings.Contains(r.stderr, "-resume -out "+out) {
					t.Errorf("exit %d after SIGINT, want %d with the resume hint", r.code, exitInterrupted)
				}
				// The hung unit ends at its timeout, its process after the
				// grace (-ext-grace, 1s): batch ends within twice that.
				if limit := 2 * (mustDuration(t, tc.timeout) + time.Second); took > limit {
					t.Errorf("batch took %s to end after SIGINT under -timeout %s, over %s (twice the timeout and the grace)", took, tc.timeout, limit)
				}
				if m := manifest(t, out); m.Status != rundir.Interrupted {
					t.Errorf("run.json status %s, want interrupted", m.Status)
				}
			}
			noMarkerLeft(t, marker)
		})
	}
}

// awaitHang waits until extfault says, in its -state directory dir,
// that it hangs, and returns its pid.
func awaitHang(t *testing.T, p *proc, dir string) int {
	t.Helper()
	pid := 0
	testenv.Await(t, "the solver's hang", func() bool {
		if m, _ := filepath.Glob(filepath.Join(dir, "hanging-*")); len(m) > 0 {
			var err error
			if pid, err = strconv.Atoi(strings.TrimPrefix(filepath.Base(m[0]), "hanging-")); err != nil {
				t.Fatal(err)
			}
			return true
		}
		select {
		case <-p.done:
			t.Fatalf("batch ended (exit %d) before the solver hung\nstderr:\n%s", p.res.code, p.res.stderr)
		default:
		}
		return false
	})
	return pid
}

// TestExtRetimeIgnoresFailedRuns: the re-timing at the end of a run
// times the slowest units again; past the restart cap an external
// solver's re-runs fail at once (error, restart cap reached), and must
// not stand for the time of the units that solved: before, flt's solved
// units read 90 ns ("noise") for answers that take milliseconds.
func TestExtRetimeIgnoresFailedRuns(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	marker := newMarker(t)
	out := filepath.Join(t.TempDir(), "run")
	const crash, n, delay = 2, 7, 2 * time.Millisecond
	r := batch(t, root, "-solvers", "flt", "-ext", extCommand(t, marker, "-solutions", knownSolutions(t, root), "-crash", strconv.Itoa(crash), "-delay", delay.String()),
		"-ext-restarts", "0", "-workers", "1", "-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
	if r.code != exitWrong { // the restart cap stopped flt
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	by := sweepRows(t, out, []string{"flt"}, ids(0, n))
	for id := range n {
		row := by["flt"][id]
		switch {
		case id < crash:
			checkUnit(t, row, solvers.StatusSolved)
			// Each answer waits 2 ms: no time of a solved unit is less.
			if row.NS < int64(delay) || row.NSMin < int64(delay) {
				t.Errorf("flt #%d: ns %d, ns_min %d (retimed %q), under the %s every answer takes", id, row.NS, row.NSMin, row.Retimed, delay)
			}
		case id == crash:
			checkUnit(t, row, solvers.StatusError, "crashing on puzzle")
		default:
			checkUnit(t, row, solvers.StatusError, "restart cap reached")
		}
	}
	noMarkerLeft(t, marker)
}

// TestExtRestartNeverAnswers: a process started again after a crash that
// does not answer the handshake within -ext-start makes its unit an
// error and counts as a restart; past the cap the units are not sent.
func TestExtRestartNeverAnswers(t *testing.T) {
	testenv.Heavy(t, "a restart that never answers, through the binary: 1.4 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	marker := newMarker(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const crash, n = 2, 7
	start := time.Now()
	r := batch(t, root, "-solvers", "bitboard,flt", "-ext", extCommand(t, marker, "-crash", strconv.Itoa(crash), "-slow-restart", "1m", "-state", tmp),
		"-ext-start", "500ms", "-ext-restarts", "2", "-workers", "1", "-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
	t.Logf("took %s, exit %d; stdout:\n%s", time.Since(start).Round(time.Millisecond), r.code, r.stdout)
	if r.code != exitWrong { // the restart cap stopped flt
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, n))
	for id := range n {
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
		switch row := by["flt"][id]; {
		case id < crash:
			checkSolvedAsBitboard(t, row, by)
		case id == crash:
			checkUnit(t, row, solvers.StatusError, "crashing on puzzle")
		case id <= crash+2: // the two restarts
			checkUnit(t, row, solvers.StatusError, "no handshake within 500ms (-ext-start)")
		default:
			checkUnit(t, row, solvers.StatusError, "restart cap reached")
		}
	}
	for _, want := range []string{"note: external flt: 2 processes started again", "note: external flt: the restart cap was reached"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	noMarkerLeft(t, marker)
}

// knownPuzzles is how many puzzles of the default corpus, from id 0,
// knownSolutions lists.
const knownPuzzles = 300

var known struct {
	once sync.Once
	path string
	err  error
}

// knownSolutions returns extfault's -solutions file for ids [0,
// knownPuzzles) of the default corpus, "GRID SOLUTION" lines from a
// bitboard sweep, made once per test binary: with it extfault answers in
// microseconds, however loaded the machine.
func knownSolutions(t *testing.T, root string) string {
	t.Helper()
	extfaultBin(t) // its directory holds the file
	known.once.Do(func() {
		known.err = errors.New("the known solutions were not made") // until they are
		out := filepath.Join(extfault.dir, "known")
		r := batch(t, root, "-solvers", "bitboard", "-ids", idList(0, knownPuzzles), "-out", out, "-quiet", "-report=false")
		if r.code != exitOK {
			known.err = fmt.Errorf("sweeping bitboard for the known solutions: exit %d\n%s", r.code, r.stderr)
			return
		}
		lines := strings.Split(firstLines(t, root, 0, knownPuzzles), "\n")
		var b strings.Builder
		for _, row := range readRows(t, filepath.Join(out, "results.csv")) {
			fmt.Fprintf(&b, "%s %s\n", strings.TrimSpace(lines[row.ID]), row.Solution)
		}
		known.path = filepath.Join(extfault.dir, "solutions.txt")
		known.err = os.WriteFile(known.path, []byte(b.String()), 0o644)
	})
	if known.err != nil {
		t.Fatal(known.err)
	}
	return known.path
}

// TestExtFaultsInALargeBatch: a solver that answers in microseconds (a
// lookup of known solutions) is swept in batches of a block (256
// puzzles), its cheap units repeated and solved again between the passes
// of the re-timing (about 47 requests a unit); faults among them, near
// the end of the first block, are recorded all the same.
func TestExtFaultsInALargeBatch(t *testing.T) {
	testenv.Heavy(t, "300 units of a fast solver with faults among them, through the binary: 2 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	root := repoRoot(t)
	marker := newMarker(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const n, hang, garbage, crash, wrong = knownPuzzles, 249, 250, 252, 254 // the first block's last 8: 248 to 255
	ext := extCommand(t, marker, "-solutions", knownSolutions(t, root), "-state", tmp, "-hang", strconv.Itoa(hang),
		"-garbage", strconv.Itoa(garbage), "-crash", strconv.Itoa(crash), "-wrong", strconv.Itoa(wrong),
		"-log", filepath.Join(tmp, "requests"))
	r := batch(t, root, "-solvers", "bitboard,flt", "-ext", ext, "-timeout", "300ms", "-workers", "2",
		"-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
	if b, err := os.ReadFile(filepath.Join(tmp, "requests")); err != nil || bytes.Count(b, []byte("\n")) < 2*n {
		t.Errorf("%d requests for %d units (%v): the sweep did not repeat units, this test checks less than it says",
			bytes.Count(b, []byte("\n")), n, err)
	}
	if r.code != exitWrong {
		t.Errorf("exit %d, want %d (a wrong answer)\nstderr:\n%s", r.code, exitWrong, r.stderr)
	}
	by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, n))
	for id := range n {
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
		switch row := by["flt"][id]; id {
		case hang:
			checkUnit(t, row, solvers.StatusTimeout)
		case garbage:
			checkUnit(t, row, solvers.StatusError, "protocol")
		case crash:
			checkUnit(t, row, solvers.StatusError, "crashing on puzzle")
		case wrong:
			checkUnit(t, row, solvers.StatusWrong, "given")
		default:
			checkSolvedAsBitboard(t, row, by)
		}
	}
	noMarkerLeft(t, marker)
}

func mustDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
