package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// External solvers as an adversary writes them (issue: "external solvers
// that cannot cheat, stall or blur"): testdata/extfault cheats on
// repeated requests, caches, changes its counters, answers twice, exits
// after an answer, leaves a setsid grandchild holding its output, stops
// answering under -timeout 0, fails wholesale, hides behind sh -c, writes
// bytes that are not UTF-8, declares few counters, or closes its output.
// Each test checks what batch records and says, and that no process is
// left.

// extSweep runs batch on ids [0, n) with bitboard and flt (extfault with
// the marker and faults) into out, and returns the result and the rows
// by strategy.
func extSweep(t *testing.T, out string, n int, flags []string, marker string, faults ...string) (result, map[string]map[int]rundir.Row) {
	t.Helper()
	root := repoRoot(t)
	args := append([]string{"-solvers", "bitboard,flt", "-ext", extCommand(t, marker, faults...),
		"-ids", idList(0, n), "-out", out, "-quiet"}, flags...)
	r := batch(t, root, args...)
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	by := map[string]map[int]rundir.Row{"bitboard": {}, "flt": {}}
	for _, row := range readRows(t, filepath.Join(out, rundir.ResultsFile)) { // or results.csv.gz
		by[row.Solver][row.ID] = row
	}
	return r, by
}

// TestExtRepeatsAreChecked (defect 1): a solver that takes 20 ms the
// first time it sees a puzzle and answers every later request at once
// with 81 ones is caught (wrong, exit 1); one that answers later
// requests at once and right (a cache) keeps the times of its first
// requests, and the report says why; one whose counters change from
// request to request is unstable.
func TestExtRepeatsAreChecked(t *testing.T) {
	testenv.Heavy(t, "three 20-unit sweeps of a 20 ms solver, re-timed: 6 s")
	const n, delay = 20, 20 * time.Millisecond
	t.Run("cheat", func(t *testing.T) {
		t.Parallel() // a process of its own, mostly waiting on its solver
		marker := newMarker(t)
		r, by := extSweep(t, filepath.Join(t.TempDir(), "run"), n, []string{"-report=false"},
			marker, "-solutions", knownSolutions(t, repoRoot(t)), "-cheat", "-delay", delay.String())
		if r.code != exitWrong || !strings.Contains(r.stderr, "wrong answer") {
			t.Errorf("exit %d, want %d with the wrong answers named", r.code, exitWrong)
		}
		wrong := 0
		for id := range n {
			row := by["flt"][id]
			switch row.Status {
			case solvers.StatusWrong:
				wrong++
			case solvers.StatusSolved:
				if row.NS < int64(delay) {
					t.Errorf("flt #%d: solved in %s (retimed %q): a repeat's time for a 20 ms answer", id, time.Duration(row.NS), row.Retimed)
				}
			default:
				t.Errorf("flt #%d: %s (%q)", id, row.Status, row.Error)
			}
		}
		if wrong == 0 {
			t.Errorf("no unit wrong: the repeats' answers (81 ones) were not checked")
		}
		noMarkerLeft(t, marker)
	})
	t.Run("cache", func(t *testing.T) {
		t.Parallel() // a process of its own, mostly waiting on its solver
		marker := newMarker(t)
		out := filepath.Join(t.TempDir(), "run")
		r, by := extSweep(t, out, n, []string{"-gzip=false"},
			marker, "-solutions", knownSolutions(t, repoRoot(t)), "-cache", "-delay", delay.String())
		mustOK(t, r)
		cached := 0
		for id := range n {
			row := by["flt"][id]
			if row.Status != solvers.StatusSolved {
				t.Errorf("flt #%d: %s (%q)", id, row.Status, row.Error)
			}
			if row.NS < int64(delay) {
				t.Errorf("flt #%d: %s (retimed %q): a cached answer's time, not the first request's", id, time.Duration(row.NS), row.Retimed)
			}
			if row.Retimed == rundir.RetimedCache {
				cached++
			}
		}
		if cached == 0 {
			t.Errorf("no row says retimed=%s", rundir.RetimedCache)
		}
		for _, where := range []string{r.stdout, readFile(t, filepath.Join(out, "summary.md"))} {
			if !strings.Contains(where, "answered repeated requests") {
				t.Errorf("the report does not say why flt's repeats were not taken:\n%s", where)
			}
		}
		noMarkerLeft(t, marker)
	})
	t.Run("drift", func(t *testing.T) {
		t.Parallel() // a process of its own, mostly waiting on its solver
		marker := newMarker(t)
		r, by := extSweep(t, filepath.Join(t.TempDir(), "run"), n, []string{"-report=false"},
			marker, "-solutions", knownSolutions(t, repoRoot(t)), "-drift", "-delay", "2ms")
		mustOK(t, r)
		unstable := 0
		for id := range n {
			if by["flt"][id].Unstable {
				unstable++
			}
		}
		if unstable == 0 {
			t.Errorf("no unit unstable though every request counts other calls")
		}
		if !strings.Contains(r.stdout, "whose runs disagreed (unstable)") {
			t.Errorf("stdout does not count the unstable units")
		}
		noMarkerLeft(t, marker)
	})
}

// TestExtExtraLineIsItsUnitsError (defect 2): a solver that answers #5
// twice makes #5 an error, never #7 (which it did not answer wrongly),
// and the second line never answers a later request of #5; a solver that
// exits, or dies of SIGSEGV, right after answering #5 costs #7 nothing.
func TestExtExtraLineIsItsUnitsError(t *testing.T) {
	testenv.Heavy(t, "five two-puzzle sweeps of a 20 ms solver: 3 s")
	for _, tc := range []struct {
		name   string
		faults []string
		want5  solvers.Status
	}{
		{"twice-at-once", []string{"-twice", "5"}, solvers.StatusError},
		{"twice-later", []string{"-twice", "5", "-twice-gap", "5ms"}, solvers.StatusError},
		{"exit-after", []string{"-exit-after", "5"}, solvers.StatusSolved},
		{"segv-after", []string{"-exit-after", "5", "-exit-signal", "SEGV"}, solvers.StatusSolved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // a process of its own, mostly waiting on its solver
			marker := newMarker(t)
			root := repoRoot(t)
			out := filepath.Join(t.TempDir(), "run")
			faults := append([]string{"-solutions", knownSolutions(t, root), "-delay", "20ms"}, tc.faults...)
			r := batch(t, root, "-solvers", "flt", "-ext", extCommand(t, marker, faults...), "-ids", "5,7", "-workers", "1",
				"-out", out, "-quiet", "-report=false")
			t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			if r.code != exitOK {
				t.Errorf("exit %d", r.code)
			}
			by := sweepRows(t, out, []string{"flt"}, []int{5, 7})
			if row := by["flt"][5]; row.Status != tc.want5 {
				t.Errorf("flt #5: %s (%q), want %s", row.Status, row.Error, tc.want5)
			} else if tc.want5 == solvers.StatusError && !strings.Contains(row.Error, "after its answer") {
				t.Errorf("flt #5: error %q does not say a line came after its answer", row.Error)
			}
			if row := by["flt"][7]; row.Status != solvers.StatusSolved {
				t.Errorf("flt #7: %s (%q): blamed for #5's output", row.Status, row.Error)
			}
			for _, id := range []int{5, 7} {
				if row := by["flt"][id]; row.Status == solvers.StatusSolved && (row.NS < int64(20*time.Millisecond) || row.NSMin < int64(20*time.Millisecond)) {
					t.Errorf("flt #%d: ns %d, ns_min %d: under the 20 ms an answer takes (a stray line taken for an answer?)", id, row.NS, row.NSMin)
				}
			}
			noMarkerLeft(t, marker)
		})
	}
}

// TestExtSetsidGrandchildEnds (defect 3): a solver that leaves a
// grandchild in a session of its own holding its standard output, and
// then hangs or exits, costs its unit a timeout or an error: the sweep
// goes on (bitboard's rows too), and the grandchild ends with the unit.
func TestExtSetsidGrandchildEnds(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want solvers.Status
	}{
		{"setsid", solvers.StatusTimeout},
		{"setsid-exit", solvers.StatusError},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel() // a process of its own, mostly waiting on its solver
			marker := newMarker(t)
			root := repoRoot(t)
			tmp := t.TempDir()
			out := filepath.Join(tmp, "run")
			const n, hang = 10, 2
			ext := extCommand(t, marker, "-solutions", knownSolutions(t, root), "-hang", strconv.Itoa(hang), "-hang-mode", tc.mode, "-state", tmp)
			p := start(t, root, false, "-solvers", "bitboard,flt", "-ext", ext, "-timeout", "300ms", "-workers", "2",
				"-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
			r := p.wait(t, 30*time.Second)
			t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			if r.code != exitOK {
				t.Errorf("exit %d", r.code)
			}
			by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, n))
			for id := range n {
				checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
				if id == hang {
					checkUnit(t, by["flt"][id], tc.want)
				} else {
					checkSolvedAsBitboard(t, by["flt"][id], by)
				}
			}
			noMarkerLeft(t, marker)
		})
	}
}

// TestExtNoTimeoutHasALimit (defect 4): under -timeout 0 an external
// solver that stops answering is ended at -ext-timeout, its unit a
// timeout that says so; -max-calls is sent to a solver that counts calls,
// which stops there (status limit).
func TestExtNoTimeoutHasALimit(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const n, hang = 12, 3
	r, by := extSweep(t, out, n, []string{"-timeout", "0", "-ext-timeout", "500ms", "-max-calls", "20", "-report=false"},
		marker, "-hang", strconv.Itoa(hang), "-state", tmp)
	if r.code != exitOK {
		t.Errorf("exit %d", r.code)
	}
	limited := 0
	for id := range n {
		row := by["flt"][id]
		switch {
		case id == hang:
			checkUnit(t, row, solvers.StatusTimeout, "-ext-timeout 500ms")
		case row.Status == solvers.StatusLimit:
			limited++
			if row.Calls > 20 {
				t.Errorf("flt #%d: limit after %d calls under -max-calls 20", id, row.Calls)
			}
		case row.Status != solvers.StatusSolved:
			t.Errorf("flt #%d: %s (%q)", id, row.Status, row.Error)
		}
	}
	if limited == 0 {
		t.Errorf("no unit stopped at -max-calls 20: it was not sent")
	}
	if help := batch(t, repoRoot(t), "help", "run"); !strings.Contains(help.stdout+help.stderr, "-ext-timeout") {
		t.Errorf("batch help run does not document -ext-timeout")
	}
	noMarkerLeft(t, marker)
}

// TestExtFirstInterruptEndsAStuckUnit (defect 4): with no -timeout, the
// first Ctrl-C ends a unit that an external solver never answers: batch
// exits 130 at once, the rows done are kept, the stuck unit has no row,
// and -resume finishes the run (the solver hangs once only).
func TestExtFirstInterruptEndsAStuckUnit(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	root := repoRoot(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const n, hang = 10, 3
	ext := extCommand(t, marker, "-solutions", knownSolutions(t, root), "-hang", strconv.Itoa(hang), "-hang-once", "-state", tmp)
	p := start(t, root, false, "-solvers", "bitboard,flt", "-ext", ext, "-timeout", "0", "-workers", "2",
		"-ids", idList(0, n), "-out", out, "-quiet", "-report=false")
	awaitHang(t, p, tmp)
	sent := time.Now()
	p.cmd.Process.Signal(syscall.SIGINT)
	r := p.wait(t, 20*time.Second)
	took := time.Since(sent)
	t.Logf("ended %s after SIGINT: exit %d\nstderr:\n%s", took.Round(time.Millisecond), r.code, r.stderr)
	if r.code != exitInterrupted {
		t.Errorf("exit %d, want %d", r.code, exitInterrupted)
	}
	if took > 5*time.Second {
		t.Errorf("batch took %s to end after the first SIGINT", took)
	}
	if m := manifest(t, out); m.Status != rundir.Interrupted {
		t.Errorf("run.json status %s, want interrupted", m.Status)
	}
	for _, row := range readRows(t, filepath.Join(out, rundir.ResultsFile)) {
		if row.Solver == "flt" && row.ID == hang {
			t.Errorf("flt #%d has a row (%s, %q): a unit cut short by Ctrl-C is left for -resume", hang, row.Status, row.Error)
		}
	}
	r = batch(t, root, "-resume", "-out", out, "-quiet", "-report=false")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	by := sweepRows(t, out, []string{"bitboard", "flt"}, ids(0, n))
	for id := range n {
		checkSolvedAsBitboard(t, by["flt"][id], by)
	}
	noMarkerLeft(t, marker)
}

// TestExtWholesaleFailureExits1 (defect 5): a strategy with no unit
// solved (every answer names another request) exits 1 with a line that
// says so.
func TestExtWholesaleFailureExits1(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	// -timeout 10s: each unit's answer comes from a process started
	// again after the last fault, which a busy machine can make take
	// more than the default 100ms: a timeout, not the error tested.
	r, by := extSweep(t, filepath.Join(t.TempDir(), "run"), 10, []string{"-report=false", "-ext-restarts", "1000", "-timeout", "10s"},
		marker, "-wrong-id", "all")
	if r.code != exitWrong {
		t.Errorf("exit %d, want %d", r.code, exitWrong)
	}
	if !strings.Contains(r.stderr, "external flt answered none of its 10 units") {
		t.Errorf("stderr does not say that flt solved nothing")
	}
	for id := range 10 {
		checkUnit(t, by["flt"][id], solvers.StatusError, "protocol")
		checkUnit(t, by["bitboard"][id], solvers.StatusSolved)
	}
	noMarkerLeft(t, marker)
}

// TestExtFilesAreHashed (defect 6): a solver run by a script behind
// sh -c: batch warns that it can hash only the shell; with -ext-files
// naming the script (or its directory), run.json records its SHA-256 and
// -resume refuses a run whose script changed since.
func TestExtFilesAreHashed(t *testing.T) {
	testenv.Heavy(t, "two interrupted sweeps and their resumes: 4 s")
	root := repoRoot(t)
	for _, named := range []string{"file", "dir"} {
		t.Run(named, func(t *testing.T) {
			marker := newMarker(t)
			tmp := t.TempDir()
			dir := filepath.Join(tmp, "solver")
			os.Mkdir(dir, 0o755)
			script := filepath.Join(dir, "solver.sh")
			body := fmt.Sprintf("exec %s -marker %s -solutions %s -delay 20ms\n", extfaultBin(t), marker, knownSolutions(t, root))
			if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			ext := "flt=sh -c 'exec sh " + script + "'"
			// -timeout 10s: the default 100ms can stop the one unit on a
			// busy machine (its 20ms answer behind two shells), and a
			// sweep whose external solver answered nothing exits 1.
			r := batch(t, root, "-solvers", "flt", "-ext", ext, "-ids", "0", "-timeout", "10s", "-out", filepath.Join(tmp, "warned"), "-quiet", "-report=false")
			if r.code != exitOK || !strings.Contains(r.stderr, "-ext-files flt=") {
				t.Errorf("exit %d; stderr does not suggest -ext-files for a command run by a shell:\n%s", r.code, r.stderr)
			}
			files := script
			if named == "dir" {
				files = dir
			}
			out := filepath.Join(tmp, "run")
			p := start(t, root, false, "-solvers", "flt", "-ext", ext, "-ext-files", "flt="+files, "-ids", idList(0, 100),
				"-workers", "1", "-out", out, "-quiet", "-report=false")
			waitForRows(t, filepath.Join(out, rundir.ResultsFile), 3)
			p.cmd.Process.Signal(syscall.SIGINT)
			if r := p.wait(t, 20*time.Second); r.code != exitInterrupted {
				t.Fatalf("exit %d after SIGINT\nstderr:\n%s", r.code, r.stderr)
			}
			m := manifest(t, out)
			if len(m.Settings.External) != 1 || !strings.Contains(fmt.Sprint(m.Settings.External[0].Files), files) {
				t.Errorf("run.json does not record %s: %+v", files, m.Settings.External)
			}
			if err := os.WriteFile(script, []byte(strings.Replace(body, "-delay 20ms", "-delay 20ms -drift", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			r = batch(t, root, "-resume", "-out", out, "-quiet", "-report=false")
			if r.code != exitUsage || !strings.Contains(r.stderr, files) || !strings.Contains(r.stderr, "changed") {
				t.Errorf("resume after the script changed: exit %d, want %d naming %s\nstderr:\n%s", r.code, exitUsage, files, r.stderr)
			}
			noMarkerLeft(t, marker)
		})
	}
}

// TestExtTextStaysUTF8 (defect 7): a handshake and an error message with
// bytes that are not UTF-8 and terminal escapes: results.csv stays valid
// UTF-8 and agrees with run.json, and no escape reaches the terminal.
func TestExtTextStaysUTF8(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	out := filepath.Join(t.TempDir(), "run")
	r, by := extSweep(t, out, 5, []string{"-report=false"}, marker,
		"-hello", `solver ev\x1b[31mil 1\xff calls guesses`, "-error", "3", "-error-text", `bad\xff\x1b[2J`)
	if r.code != exitOK {
		t.Errorf("exit %d", r.code)
	}
	if bytes.ContainsRune([]byte(r.stdout+r.stderr), 0x1b) {
		t.Errorf("an escape character reached the terminal:\n%q", r.stderr)
	}
	b := readFile(t, filepath.Join(out, rundir.ResultsFile))
	if !utf8.ValidString(b) {
		t.Errorf("results.csv is not valid UTF-8")
	}
	checkUnit(t, by["flt"][3], solvers.StatusError, "bad\uFFFD")
	var m struct {
		Settings struct {
			External []struct {
				Reported, Version string
			}
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, rundir.ManifestFile))), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Settings.External) != 1 {
		t.Fatalf("run.json: %+v", m)
	}
	x := m.Settings.External[0]
	if strings.ContainsRune(x.Reported, 0x1b) || !strings.Contains(r.stderr, x.Reported) || x.Version != "1\uFFFD" {
		t.Errorf("run.json says %q %q; the terminal:\n%s", x.Reported, x.Version, r.stderr)
	}
	noMarkerLeft(t, marker)
}

// TestExtFiguresMeasured (defect 8): a solver that declares calls only
// shows no guess figures (absent, not 100% and 0); a fast one that
// reports no time of its own is ranked by its round trip with the null
// round trip beside, never a median of 0 ns, and run.json records the
// null round trip measured during the sweep.
func TestExtFiguresMeasured(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	out := filepath.Join(t.TempDir(), "run")
	r, by := extSweep(t, out, knownPuzzles, []string{"-gzip=false"}, marker,
		"-solutions", knownSolutions(t, repoRoot(t)), "-hello", "solver tab 1 calls")
	mustOK(t, r)
	for id := range knownPuzzles {
		checkSolvedAsBitboard(t, by["flt"][id], by)
	}
	var fltLine string
	for _, line := range strings.Split(r.stdout, "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "no" || f[0] == "time") {
			fltLine += line + "\n"
		}
	}
	if strings.Contains(fltLine, "100.0%") || strings.Contains(r.stdout, " 0ns") {
		t.Errorf("figures never measured are shown:\n%s", fltLine)
	}
	if !strings.Contains(r.stdout, "flt: ranked by the round trip, the null round trip beside") {
		t.Errorf("stdout does not say flt is ranked by the round trip with the null beside")
	}
	md := readFile(t, filepath.Join(out, "summary.md"))
	if !strings.Contains(md, "null round trip") {
		t.Errorf("summary.md lacks the null round trip")
	}
	m := manifest(t, out)
	if len(m.Segments) == 0 || m.Segments[0].Timing == nil || len(m.Segments[0].Timing.Null) != 1 || m.Segments[0].Timing.Null[0].Samples == 0 {
		t.Errorf("run.json has no null round trip measured during the sweep: %+v", m.Segments)
	}
	noMarkerLeft(t, marker)
}

// TestExtMessages (defect 9): an external solver that closes its output
// while alive is an error, not a timeout, and the wait for its exit is
// not in its unit's time; the wrong answers' message names the file that
// holds them (results.csv.gz once gzipped); -ext for a strategy that
// -solvers leaves out is warned about.
func TestExtMessages(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	const n, closes, wrong = 8, 2, 5
	r, by := extSweep(t, out, n, []string{"-timeout", "800ms"}, marker, "-hang", strconv.Itoa(closes), "-hang-mode", "close",
		"-state", tmp, "-wrong", strconv.Itoa(wrong))
	if r.code != exitWrong {
		t.Errorf("exit %d, want %d", r.code, exitWrong)
	}
	row := by["flt"][closes]
	checkUnit(t, row, solvers.StatusError, "closed its standard output")
	if row.NS > int64(400*time.Millisecond) {
		t.Errorf("flt #%d: %s: the wait for the process is in the unit's time", closes, time.Duration(row.NS))
	}
	if !strings.Contains(r.stderr, rundir.ResultsFile+".gz") {
		t.Errorf("the wrong answer's message does not name %s.gz:\n%s", rundir.ResultsFile, r.stderr)
	}
	r = batch(t, repoRoot(t), "-solvers", "bitboard", "-ext", extCommand(t, marker), "-ids", "0", "-out", filepath.Join(tmp, "left"), "-quiet", "-report=false")
	if r.code != exitOK || !strings.Contains(r.stderr, "-ext flt is not run") {
		t.Errorf("exit %d; no warning that -solvers leaves flt out:\n%s", r.code, r.stderr)
	}
	noMarkerLeft(t, marker)
}

// TestExtTimeoutNoteAtTenSeconds (defect 9): a unit stopped at -timeout
// 10s is not told to raise the limit to 10s.
func TestExtTimeoutNoteAtTenSeconds(t *testing.T) {
	testenv.Heavy(t, "a unit that times out at -timeout 10s: 11 s")
	t.Parallel() // a process of its own, mostly waiting on its solver
	marker := newMarker(t)
	tmp := t.TempDir()
	r, by := extSweep(t, filepath.Join(tmp, "run"), 2, []string{"-timeout", "10s", "-report=false"}, marker, "-hang", "1", "-state", tmp)
	if r.code != exitOK {
		t.Errorf("exit %d", r.code)
	}
	checkUnit(t, by["flt"][1], solvers.StatusTimeout)
	if strings.Contains(r.stdout, "(-timeout 10s)") || !strings.Contains(r.stdout, "-timeout 10s") {
		t.Errorf("the note suggests the limit the run had:\n%s", r.stdout)
	}
	noMarkerLeft(t, marker)
}
