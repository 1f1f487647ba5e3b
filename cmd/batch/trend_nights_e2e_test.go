package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"sudokubatch/history"
	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// The defects of issue 35 ("nights that never go silent"), each through
// batch as a user meets it: histories of nights copied from one swept
// night (fakeNight: a strategy's times scaled, a few puzzles' calls
// changed, the build named), a CPU share of other work written into
// run.json as a busy night records it, nights deleted, pruned, killed.

// plainNight sweeps one night of norvig, dlx and bitboard over a slice and
// returns it: the source of the copied nights.
func plainNight(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	sweepNights(t, base, 1)
	return filepath.Join(base, "n1")
}

// plainNights returns a results root holding nights 1 to n, copies of
// the night n1 a day apart (fakeNight), of one build.
func plainNights(t *testing.T, n1 string, n int) string {
	t.Helper()
	root := t.TempDir()
	for k := 1; k <= n; k++ {
		fakeNight(t, root, n1, night(k), "*", 1, 24*k)
	}
	return root
}

// setShare records in the run.json of dir that other work took share of
// the workers' CPU time while it ran (a night with as many workers as
// CPUs: all of them were shared).
func setShare(t *testing.T, dir string, share float64) {
	t.Helper()
	editManifest(t, dir, func(m map[string]any) {
		seg := m["segments"].([]any)[0].(map[string]any)
		seg["other_cpu_ns"] = math.Round(seg["duration_ns"].(float64) * seg["machine"].(map[string]any)["num_cpu"].(float64) * share)
	})
}

// setBuild records in the run.json of dir that build ran it: its
// revision as the tool recorded it, and a binary of its own.
func setBuild(t *testing.T, dir, revision, build string) {
	t.Helper()
	editManifest(t, dir, func(m map[string]any) {
		mach := m["segments"].([]any)[0].(map[string]any)["machine"].(map[string]any)
		mach["tool_version"] = revision
		mach["binary"] = fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(build)))
	})
}

// night returns the name of night k.
func night(k int) string { return fmt.Sprintf("n%d", k) }

// trendJSON reads root's trend.json.
func trendJSON(t *testing.T, root string) *history.TrendFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, history.TrendJSON))
	if err != nil {
		t.Fatal(err)
	}
	var f history.TrendFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// TestTrendJudgesBusyNightsAgainstBusyNights (issue 35, defect 1):
// eight nights while other work took 66-80% of the CPUs, then six nights
// of a build whose bitboard is 1.28 times as slow, as busy: the gate
// judges each busy night against busy nights, so night 9 is the alarm
// (exit 1), and nights 10-14 are still slower since night 9 (exit 0),
// the excused nights never the baseline. Before, nights 9-12 were
// "slower on a busy machine" (exit 0), and nights 13-14 "no change": the
// slowdown had become the baseline, and nothing alarmed.
func TestTrendJudgesBusyNightsAgainstBusyNights(t *testing.T) {
	testenv.Heavy(t, "14 trends over a history of copied nights")
	n1 := plainNight(t)
	root := t.TempDir()
	for k := 1; k <= 14; k++ {
		var d string
		if k < 9 {
			d = fakeNight(t, root, n1, night(k), "*", 1, 24*k)
		} else {
			d = fakeNight(t, root, n1, night(k), "bitboard", 1.28, 24*k)
		}
		setShare(t, d, 0.66+0.02*float64(k%8))
		r := trendOver(t, root)
		line := verdictLine(r.stdout, "bitboard")
		switch {
		case k == 9:
			if r.code != 1 || !strings.Contains(r.stdout, "NEW ALARM [time]: bitboard slower") || !strings.Contains(r.stdout, "last good night: 8 n8") {
				t.Fatalf("night 9, busy, bitboard x1.28: exit %d, want 1, bitboard's time alarm, last good night n8\n%s%s", r.code, r.stdout, r.stderr)
			}
		case k > 9:
			if r.code != 0 || !strings.Contains(line, "still slower (since night 9)") {
				t.Fatalf("night %d: exit %d, bitboard %q, want 0 and still slower since night 9\n%s%s", k, r.code, line, r.stdout, r.stderr)
			}
		default:
			if r.code != 0 {
				t.Fatalf("night %d, same build: exit %d, want 0\n%s%s", k, r.code, r.stdout, r.stderr)
			}
		}
		if k >= 4 && strings.Contains(r.stdout, history.VerdictBusy) {
			t.Errorf("night %d: a verdict withheld, want every busy night judged against busy nights:\n%s", k, r.stdout)
		}
	}
}

// TestTrendAlarmsUndeliveredAlarms (issue 35, defect 2): ten nights,
// bitboard 1.25 times as slow from night 7 and norvig's counters changed
// on night 8, and the first trend ever after night 10: it exits 1 on both
// (no trend had told them), the slowdown since night 7, the counters
// change of night 8, although the newest night compares the same as the
// night before. The next trend exits 0: both were told. Before, the first
// trend said "still slower (since night 7), alarmed then", exit 0, and
// the counters change was lost.
func TestTrendAlarmsUndeliveredAlarms(t *testing.T) {
	testenv.Heavy(t, "a history of ten copied nights, trended twice")
	n1 := plainNight(t)
	root, tmp := t.TempDir(), t.TempDir()
	slow := fakeNight(t, tmp, n1, "slow", "bitboard", 1.25, 0)
	for k := 1; k <= 10; k++ {
		switch {
		case k < 7:
			fakeNight(t, root, n1, night(k), "*", 1, 24*k)
		case k == 7:
			fakeNight(t, root, slow, night(k), "*", 1, 24*k)
			setBuild(t, filepath.Join(root, night(k)), "c7", "c7")
		default:
			fakeNight(t, root, slow, night(k), "norvig", 1, 24*k, 5, 17)
			setBuild(t, filepath.Join(root, night(k)), "c8", "c8")
		}
	}
	r := trendOver(t, root)
	if r.code != 1 || !strings.Contains(r.stdout, "NEW ALARM [time]: bitboard slower") || !hasText(r.stdout, "slower since night 7 (n7)") ||
		!hasText(r.stdout, "NEW ALARM [counters]: night 8 (n8): norvig's counters changed on 2 puzzles") || !strings.Contains(r.stdout, "last good night: 6 n6") {
		t.Fatalf("first trend after night 10: exit %d, want 1, bitboard slower since night 7 (last good n6), norvig's counters of night 8\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "2 new alarms: bitboard (time, night n10), norvig (counters, night n8)") {
		t.Errorf("exit note: %q, want both alarms", r.stderr)
	}
	if r = trendOver(t, root); r.code != 0 || strings.Contains(r.stdout, "NEW ALARM") || !strings.Contains(r.stdout, "known (told ") {
		t.Errorf("second trend: exit %d, want 0, the slowdown known (told)\n%s%s", r.code, r.stdout, r.stderr)
	}
	d, err := history.ReadDelivered(root)
	if err != nil || len(d.Series) != 1 {
		t.Fatalf("%s: %+v, %v", history.DeliveryFile, d, err)
	}
	m, err := rundir.ReadManifest(filepath.Join(root, "n10"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range d.Series {
		if rec.Trended != m.RunID || len(rec.Alarms) != 2 {
			t.Errorf("%s: %+v, want n10 trended and two alarms told", history.DeliveryFile, rec)
		}
	}
}

// TestTrendComparesCountersWithTheNewestNightWithRows (issue 35, defect
// 3): the previous night's directory removed by hand, or its rows
// pruned, and then a build whose norvig counts differently on 3 puzzles:
// trend compares with the newest earlier night that has its rows, says
// which, and exits 1; batch report compares the night with it too, on
// its page. Before, "counters: not compared" with no reason, exit 0, and
// the next night "same": the change was lost.
func TestTrendComparesCountersWithTheNewestNightWithRows(t *testing.T) {
	testenv.Heavy(t, "copied nights, a trend and a report")
	n1 := plainNight(t)
	for _, how := range []string{"removed", "pruned"} {
		t.Run(how, func(t *testing.T) {
			root := plainNights(t, n1, 4)
			if r := trendOver(t, root); r.code != 0 {
				t.Fatalf("4 nights: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			n4 := filepath.Join(root, "n4")
			if how == "removed" {
				os.RemoveAll(n4)
			} else {
				os.Remove(filepath.Join(n4, rundir.ResultsFile))
			}
			fakeNight(t, root, n1, "n5", "norvig", 1, 24*5, 7, 31, 88)
			r := trendOver(t, root)
			if r.code != 1 || !hasText(r.stdout, "norvig's counters changed on 3 puzzles of the 120 units compared with night 3 (n3): #7 #31 #88") {
				t.Fatalf("after n4 %s: exit %d, want 1 and norvig's counters changed against n3\n%s%s", how, r.code, r.stdout, r.stderr)
			}
			if how == "pruned" && !hasText(r.stdout, "(the newest earlier night with rows: those of n4 are gone)") {
				t.Errorf("the alarm does not say n4's rows are gone:\n%s", r.stdout)
			}
			rep := batchMain(t, "", "report", filepath.Join(root, "n5"))
			if rep.code != 0 {
				t.Fatalf("report n5: exit %d\n%s", rep.code, rep.stderr)
			}
			if _, err := os.Stat(filepath.Join(root, "n5", rundir.ComparePreviousDir, rundir.PageFile)); err != nil {
				t.Errorf("report n5 after n4 %s: no comparison with the previous night (%v)\n%s", how, err, rep.stderr)
			}
			if how == "pruned" && !strings.Contains(rep.stderr, "compared with night n1-n3, the newest earlier night of its series with rows: the rows of n1-n4 are gone") {
				t.Errorf("report n5: the note does not say n4's rows are gone:\n%s", rep.stderr)
			}
		})
	}
}

// TestTrendDropsANightRemovedByHand (issue 35, defect 5): a night whose
// directory is removed by hand is dropped from the history and said once;
// the night before it is the newest again, judged, and can be
// acknowledged. Before, the removed night stayed the newest, "no rows",
// and only removing history.json helped.
func TestTrendDropsANightRemovedByHand(t *testing.T) {
	testenv.Heavy(t, "copied nights and three trends")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	fakeNight(t, root, n1, "n5", "dlx", 1.25, 24*5)
	if r := trendOver(t, root); r.code != 1 {
		t.Fatalf("night 5, dlx slower: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	fakeNight(t, root, n1, "n6", "*", 1, 24*6)
	trendOver(t, root)
	os.RemoveAll(filepath.Join(root, "n6"))
	r := trendOver(t, root)
	if !hasText(r.stdout, "dropped 1 night whose directory is gone: n6") || !strings.Contains(r.stdout, "newest night n5") ||
		strings.Contains(r.stdout, history.VerdictNoRows) || r.code != 0 {
		t.Errorf("after removing n6: exit %d, want 0 (n5's alarm told), n6 dropped and said, n5 the newest, no \"no rows\"\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = trendOver(t, root); strings.Contains(r.stdout, "dropped") {
		t.Errorf("the next trend says n6 dropped again:\n%s", r.stdout)
	}
	if r = trendOver(t, root, "-ack", "n5", "dlx", "made slower on purpose"); r.code != 0 {
		t.Errorf("-ack n5 dlx: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTrendAlarmsAMissingStrategy (issue 35, defect 6): a night without
// one of the series' strategies is an alarm naming it, exit 1, that an
// acknowledgement silences; the nights after it do not alarm again.
// Before, the strategy vanished from the table, exit 0.
func TestTrendAlarmsAMissingStrategy(t *testing.T) {
	testenv.Heavy(t, "copied nights and four trends")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	trendOver(t, root)
	dropSolver(t, fakeNight(t, root, n1, "n5", "*", 1, 24*5), "bitboard")
	r := trendOver(t, root)
	if r.code != 1 || !hasText(r.stdout, "NEW ALARM [missing]: bitboard did not run on night 5 (n5): it ran on night 4 (n4)") ||
		!strings.Contains(verdictLine(r.stdout, "bitboard"), history.VerdictMissing) {
		t.Fatalf("night 5 without bitboard: exit %d, want 1, bitboard missing\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = trendOver(t, root, "-ack", "n5", "bitboard", "bitboard left out of the nightly"); r.code != 0 {
		t.Fatalf("-ack n5 bitboard: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dropSolver(t, fakeNight(t, root, n1, "n6", "*", 1, 24*6), "bitboard")
	if r = trendOver(t, root); r.code != 0 || strings.Contains(r.stdout, "NEW ALARM") {
		t.Errorf("night 6, bitboard still left out, acknowledged: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// dropSolver removes strategy solver from the run in dir: its rows, its
// place in run.json's strategies, and from the summary.
func dropSolver(t *testing.T, dir, solver string) {
	t.Helper()
	path := filepath.Join(dir, rundir.ResultsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "solver")
	kept := rows[:1]
	for _, r := range rows[1:] {
		if r[col] != solver {
			kept = append(kept, r)
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(kept); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, out.String())
	editManifest(t, dir, func(m map[string]any) {
		set := m["settings"].(map[string]any)
		var names []any
		for _, s := range set["solvers"].([]any) {
			if s != solver {
				names = append(names, s)
			}
		}
		set["solvers"] = names
		m["rows"] = len(kept) - 1
		m["segments"].([]any)[0].(map[string]any)["rows"] = len(kept) - 1
	})
	resummarize(t, dir)
}

// TestTrendExploratoryKeepsTheVerdicts (issue 35, defect 8): a trend of
// runs named with other settings (-busy none) does not rewrite the
// verdicts trend keeps in the index; a later trend's table of nights
// shows each night as the nightly trend judged it. Before, night 9's
// kept verdict was rewritten, and the table of every later trend (once
// night 9 was older than the nights the gate computes again) showed the
// exploratory verdict.
func TestTrendExploratoryKeepsTheVerdicts(t *testing.T) {
	testenv.Heavy(t, "copied nights and a dozen trends")
	n1 := plainNight(t)
	root := t.TempDir()
	var runs []string
	for k := 1; k <= 13; k++ {
		solver, factor := "*", 1.0
		if k == 9 {
			solver, factor = "dlx", 1.25
		}
		runs = append(runs, fakeNight(t, root, n1, night(k), solver, factor, 24*k))
		if k == 9 {
			setShare(t, runs[8], 0.6) // busy, its baseline quiet: not judged
		}
		if k >= 8 {
			r := trendOver(t, root)
			if k == 9 && !strings.Contains(verdictLine(r.stdout, "dlx"), history.VerdictBusy) {
				t.Fatalf("night 9: dlx %q, want %q\n%s", verdictLine(r.stdout, "dlx"), history.VerdictBusy, r.stdout)
			}
		}
	}
	if r := trendOver(t, root, append([]string{"-busy", "none"}, runs[:9]...)...); !strings.Contains(verdictLine(r.stdout, "dlx"), "slower") {
		t.Fatalf("-busy none: dlx %q, want slower\n%s", verdictLine(r.stdout, "dlx"), r.stdout)
	}
	fakeNight(t, root, n1, "n14", "*", 1, 24*14)
	trendOver(t, root)
	f := trendJSON(t, root)
	if got := f.Series[0].Nights[8].Verdicts["dlx"]; got != history.VerdictBusy {
		t.Errorf("the nights' table after night 14: night 9's dlx %q, want %q as the nightly trend judged it", got, history.VerdictBusy)
	}
}

// TestTrendAcknowledgementsAtOnceAllCount (issue 35, defect 9): fifteen
// batch trend -ack at once, each of another night and strategy with a
// counters alarm: every one is in annotations.json. Before, two at once
// could lose one (1 of 14 tries).
func TestTrendAcknowledgementsAtOnceAllCount(t *testing.T) {
	testenv.Heavy(t, "fifteen processes at once, three times")
	needsBinary(t)
	n1 := plainNight(t)
	for round := range 3 {
		root := plainNights(t, n1, 3)
		// Nights 4-8: every strategy's calls change on one more puzzle.
		var bumps []int
		for k := 4; k <= 8; k++ {
			bumps = append(bumps, k)
			d := fakeNight(t, root, n1, night(k), "*", 1, 24*k, bumps...)
			setBuild(t, d, night(k), night(k))
		}
		if r := trendOver(t, root); r.code != 1 {
			t.Fatalf("the history: exit %d, want its counters alarms\n%s%s", r.code, r.stdout, r.stderr)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failed []string
		for k := 4; k <= 8; k++ {
			for _, solver := range []string{"norvig", "dlx", "bitboard"} {
				wg.Go(func() {
					cmd := exec.Command(batchBin, "trend", "-root", root, "-ack", night(k), solver, "known: "+night(k)+" "+solver)
					if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() > 1 {
						mu.Lock()
						failed = append(failed, fmt.Sprintf("%s %s: %v\n%s", night(k), solver, err, out))
						mu.Unlock()
					}
				})
			}
		}
		wg.Wait()
		if len(failed) > 0 {
			t.Fatalf("round %d: %s", round, strings.Join(failed, "\n"))
		}
		acks, err := history.ReadAnnotations(root)
		if err != nil {
			t.Fatal(err)
		}
		if len(acks) != 15 {
			t.Errorf("round %d: %d acknowledgements recorded of the 15 made at once", round, len(acks))
		}
	}
}

// TestTrendExitsOneWhenNothingIsRecorded (issue 35, defect 11): a results
// root where no file trend writes can be written (each one's name taken
// by a directory: the test runs as root, for whom permissions do not
// stop a write) and no alarm: exit 1, saying that nothing was recorded.
// Before, exit 0.
func TestTrendExitsOneWhenNothingIsRecorded(t *testing.T) {
	testenv.Heavy(t, "copied nights and a trend")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	for _, name := range []string{history.IndexFile, history.DeliveryFile, history.TrendMD, history.TrendJSON, history.PageFile} {
		if err := os.MkdirAll(filepath.Join(root, name, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := trendOver(t, root)
	if r.code != 1 || !hasText(r.stderr, "what this trend found could not be recorded in "+root) {
		t.Errorf("no write possible: exit %d, want 1 and why\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTrendSaysANightWasKilled (issue 35, defect 11): a sweep killed with
// SIGKILL leaves run.json saying running, and no process holding its
// lock: trend says it was killed and how to finish it. Before, "not
// finished (status running)".
func TestTrendSaysANightWasKilled(t *testing.T) {
	testenv.Heavy(t, "starts a sweep and kills it")
	root := t.TempDir()
	out := filepath.Join(root, "killed")
	r := startAndSignalAt(t, t.TempDir(), out, 1000, syscall.SIGKILL, "-solvers", "backtrack", "-timeout", "0", "-quiet", "-out", out)
	if r.code != -1 {
		t.Fatalf("the sweep ended with %d before it was killed\n%s", r.code, r.stderr)
	}
	// Held by a process (this one, as a sweep holds it): running.
	l, err := rundir.LockDir(out)
	if err != nil {
		t.Fatal(err)
	}
	tr := trendOver(t, root)
	if !hasText(tr.stdout, "not finished (status running: a process holds its lock)") {
		t.Errorf("trend while a process holds the lock: want it running\n%s", tr.stdout)
	}
	l.Unlock()
	tr = trendOver(t, root)
	if !hasText(tr.stdout, "killed: its run.json says running, but no process holds its lock") || !hasText(tr.stdout, "batch -resume -out "+out+" finishes it") {
		t.Errorf("trend after the kill: want the night killed and the resume command\n%s", tr.stdout)
	}
}

// TestTrendRefusesAnAckWithoutAlarm (issue 35, defect 11): -ack of a
// night and strategy that raised no alarm is refused (exit 2), saying
// what it would have done; an alarm's is recorded. Before, it was
// accepted silently and restarted the strategy's baseline.
func TestTrendRefusesAnAckWithoutAlarm(t *testing.T) {
	testenv.Heavy(t, "copied nights and three trends")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	fakeNight(t, root, n1, "n5", "norvig", 1, 24*5, 7)
	r := trendOver(t, root, "-ack", "n5", "dlx", "why")
	if r.code != exitUsage || !hasText(r.stderr, "night n5 raised no alarm of dlx (its verdict there: no change)") {
		t.Errorf("-ack n5 dlx: exit %d, want %d and why\n%s%s", r.code, exitUsage, r.stdout, r.stderr)
	}
	if acks, _ := history.ReadAnnotations(root); len(acks) != 0 {
		t.Errorf("a refused acknowledgement was recorded: %+v", acks)
	}
	if r = trendOver(t, root, "-ack", "n5", "norvig", "counts differently on purpose"); r.code != 0 {
		t.Errorf("-ack n5 norvig: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestTrendNightsTableShowsCountersChanges (issue 35, defect 11): the
// table of nights (trend.json, trend.md, the page) shows a counters
// change on its night, then and on later trends. Before, "no change", the
// gate's verdict alone.
func TestTrendNightsTableShowsCountersChanges(t *testing.T) {
	testenv.Heavy(t, "copied nights and two trends")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	fakeNight(t, root, n1, "n5", "norvig", 1, 24*5, 7)
	for k := 5; k <= 6; k++ {
		if k == 6 {
			fakeNight(t, root, filepath.Join(root, "n5"), "n6", "*", 1, 24)
		}
		trendOver(t, root)
		if got := trendJSON(t, root).Series[0].Nights[4].Verdicts["norvig"]; got != history.VerdictCounters {
			t.Errorf("after night %d: night 5's norvig %q in the nights' table, want %q", k, got, history.VerdictCounters)
		}
	}
}

// TestTrendSameBuildIsTheBinary (issue 35, defect 4): one binary built
// without a VCS stamp records the same build, the SHA-256 of its
// executable, whichever directory it runs in (a checkout of the tool or
// not); and trend decides "same build" by the binary, not by the
// revision of the checkout it ran in: a slower night of another binary
// run from the same checkout is an alarm. Before, the binary recorded
// the checkout's commit, or unknown, and trend judged such a night
// "slower, same build", exit 0.
func TestTrendSameBuildIsTheBinary(t *testing.T) {
	testenv.Heavy(t, "builds the binary and sweeps twice")
	needsBinary(t)
	bin := filepath.Join(t.TempDir(), "batch")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("sha256:%x", sha256.Sum256(b))
	// A checkout of the tool: go.mod of module sudokubatch, a .git whose
	// HEAD is a commit.
	checkout := t.TempDir()
	writeFile(t, filepath.Join(checkout, "go.mod"), "module sudokubatch\n")
	if err := os.Mkdir(filepath.Join(checkout, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(checkout, ".git", "HEAD"), strings.Repeat("c0ffee12", 5)+"\n")
	for _, dir := range []string{t.TempDir(), checkout} {
		out := filepath.Join(t.TempDir(), "run")
		sweepNight(t, bin, dir, nil, "-solvers", "bitboard", "-range", "0:20", "-quiet", "-report=false", "-out", out)
		m, err := rundir.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Segments[0].Machine.Binary; got != want {
			t.Errorf("run from %s: binary %q, want %q (tool_version %q)", dir, got, want, m.Segments[0].Machine.Version)
		}
	}

	// Four nights of one binary, a fifth of another whose bitboard is
	// slower, all run in the same checkout.
	n1 := plainNight(t)
	root := t.TempDir()
	rev := strings.Repeat("c0ffee12", 5) + " (checkout)"
	for k := 1; k <= 5; k++ {
		var d string
		if k < 5 {
			d = fakeNight(t, root, n1, night(k), "*", 1, 24*k)
			setBuild(t, d, rev, "binary A")
		} else {
			d = fakeNight(t, root, n1, night(k), "bitboard", 1.25, 24*k)
			setBuild(t, d, rev, "binary B")
		}
	}
	r := trendOver(t, root)
	if r.code != 1 || !strings.Contains(verdictLine(r.stdout, "bitboard"), history.VerdictSlower) || strings.Contains(r.stdout, history.VerdictSameBuild) {
		t.Errorf("night 5 of another binary, same checkout: exit %d, bitboard %q, want 1 and slower, not the same build\n%s%s",
			r.code, verdictLine(r.stdout, "bitboard"), r.stdout, r.stderr)
	}
}

// TestTrendTakesACopiedNightOnce: a night copied by hand (cp -r n5
// n5.bak, a backup beside it) is the same run, its run id and its rows
// the same: trend keeps one night of it and lists the copy among the
// runs skipped, naming the night it copies. Before, the copy was a
// sixth night, the newest, whose baseline held the night it copies.
func TestTrendTakesACopiedNightOnce(t *testing.T) {
	testenv.Heavy(t, "copied nights and two trends")
	n1 := plainNight(t)
	root := plainNights(t, n1, 5)
	if r := trendOver(t, root); r.code != 0 {
		t.Fatalf("five nights of one build: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.CopyFS(filepath.Join(root, "n5.bak"), os.DirFS(filepath.Join(root, "n5"))); err != nil {
		t.Fatal(err)
	}
	r := trendOver(t, root)
	if r.code != 0 || !strings.Contains(r.stdout, "5 nights") || !strings.Contains(r.stdout, "newest night n5 ") ||
		!hasText(r.stdout, "n5.bak: a copy of n5 (the same run id") {
		t.Errorf("after cp -r n5 n5.bak: exit %d, want 0, five nights, n5 the newest, n5.bak skipped as its copy\n%s%s", r.code, r.stdout, r.stderr)
	}
	f := trendJSON(t, root)
	if len(f.Skipped) != 1 || f.Skipped[0].Run != "n5.bak" {
		t.Errorf("trend.json skipped %+v, want n5.bak", f.Skipped)
	}
}

// TestTrendSaysTheBaselinesRanOnAnotherMachine: nights 5-8 on a
// disturbed machine (every strategy x1.25), dlx x1.5 from night 5; night
// 9 quiet. norvig's and bitboard's baselines still hold nights 5-8, so
// the machine's factor of night 9 reads about x0.8 and dlx's slowdown is
// not judged: trend says the machine moved and names the baseline nights
// that ran on another machine. Before, night 9 read "slower on a busy
// machine" (no other work was recorded) and promised that the next
// steady night would tell, which four steady nights did not.
func TestTrendSaysTheBaselinesRanOnAnotherMachine(t *testing.T) {
	testenv.Heavy(t, "nine copied nights")
	n1 := plainNight(t)
	root := plainNights(t, n1, 4)
	tmp := t.TempDir()
	for k := 5; k <= 8; k++ {
		fakeNight(t, root, fakeNight(t, tmp, n1, fmt.Sprintf("machine%d", k), "*", 1.25, 24*k), night(k), "dlx", 1.5, 0)
	}
	fakeNight(t, root, n1, "n9", "dlx", 1.5, 24*9)
	r := trendOver(t, root)
	text := strings.Join(strings.Fields(r.stdout), " ")
	if l := verdictLine(r.stdout, "dlx"); !strings.HasSuffix(l, history.VerdictDisturbed) ||
		!strings.Contains(text, "4 nights of its baselines ran x1.2") || !strings.Contains(text, "(n5, n6, n7, n8)") ||
		strings.Contains(text, "the next night on a steady machine tells") {
		t.Errorf("night 9, quiet after four disturbed nights: dlx %q, want %q and nights 5-8 of the baselines named\n%s%s", l, history.VerdictDisturbed, r.stdout, r.stderr)
	}
}
