package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubatch/history"
	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// The detectors of trend, in process, over small histories: a few real
// nights swept on a slice, and nights made from them by fakeNight, whose
// changes are known exactly (one strategy's times scaled, one puzzle's
// calls changed). The heavy tests in trend_detect_e2e_test.go sweep
// builds with the slowdown and counterschange tags instead.

// fakeNight copies the run directory src to root/name as a night that
// started hours after src: a new run id, the times of solver ("*": of
// every strategy) scaled by
// factor, one call more on the puzzles bump (of solver), rows written
// plain, and its summary made again. Its revision is "fake-base", or for
// a night with a change, a build of its own ("fake-SOLVER-xFACTOR-[BUMP]").
func fakeNight(t *testing.T, root, src, name, solver string, factor float64, hours int, bump ...int) string {
	t.Helper()
	dst := filepath.Join(root, name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(src, rundir.ResultsFile)
	b, err := readRowsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	bumped := map[string]bool{}
	for _, id := range bump {
		bumped[strconv.Itoa(id)] = true
	}
	for _, r := range rows[1:] {
		if solver != "*" && r[col["solver"]] != solver {
			continue
		}
		for _, c := range []string{"ns", "ns_min", "ns_median"} {
			if v, err := strconv.ParseInt(r[col[c]], 10, 64); err == nil {
				r[col[c]] = strconv.FormatInt(int64(float64(v)*factor), 10)
			}
		}
		if bumped[r[col["id"]]] {
			calls, _ := strconv.ParseUint(r[col["calls"]], 10, 64)
			r[col["calls"]] = strconv.FormatUint(calls+1, 10)
		}
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dst, rundir.ResultsFile+".gz"))
	writeFile(t, filepath.Join(dst, rundir.ResultsFile), out.String())
	editManifest(t, dst, func(m map[string]any) {
		m["run_id"] = fmt.Sprintf("%s-%s", m["run_id"], name)
		// The copy was not swept: how busy the machine was is not known
		// (the tests that want a busy night set it).
		for _, seg := range m["segments"].([]any) {
			delete(seg.(map[string]any), "other_cpu_ns")
			// A night whose times or counters changed ran another build (a
			// slowdown of the same build is the machine's, not an alarm).
			build := "fake-base" // whatever revision the sweep recorded ("unknown" outside a checkout)
			if factor != 1 || len(bump) > 0 {
				build = fmt.Sprintf("fake-%s-x%g-%v", solver, factor, bump)
			}
			seg.(map[string]any)["machine"].(map[string]any)["tool_version"] = build
			seg.(map[string]any)["machine"].(map[string]any)["binary"] = "sha256:" + fmt.Sprintf("%x", sha256.Sum256([]byte(build)))
		}
		for _, k := range []string{"start", "end"} {
			at, err := time.Parse(time.RFC3339Nano, m[k].(string))
			if err != nil {
				t.Fatal(err)
			}
			m[k] = at.Add(time.Duration(hours) * time.Hour).Format(time.RFC3339Nano)
		}
	})
	resummarize(t, dst)
	return dst
}

// resummarize writes the summary of the run in dir again from its rows:
// the summary only, as batch report writes it (the history reads no
// chart or page, and drawing them would take most of a test's time).
func resummarize(t *testing.T, dir string) {
	t.Helper()
	run, err := report.LoadRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := report.SummarizeContext(context.Background(), run.Results, report.SummaryOptions{Manifest: run.Manifest})
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteSummaryFiles(dir, sum); err != nil {
		t.Fatal(err)
	}
}

// sweepNights sweeps n nights of norvig, dlx and bitboard over a slice
// into root/n1 ... root/nN.
func sweepNights(t *testing.T, root string, n int) {
	t.Helper()
	for k := 1; k <= n; k++ {
		r := batchMain(t, "", "-solvers", "norvig,dlx,bitboard", "-range", "0:120", "-timeout", "0", "-quiet",
			"-out", filepath.Join(root, fmt.Sprintf("n%d", k)))
		if r.code != 0 {
			t.Fatalf("night %d: exit %d\n%s", k, r.code, r.stderr)
		}
	}
}

// trendOver runs trend over root (or the runs named) and returns its
// exit code and output.
func trendOver(t *testing.T, root string, args ...string) result {
	t.Helper()
	return batchMain(t, "", append([]string{"trend", "-root", root}, args...)...)
}

// verdictLine returns the line of strategy solver in trend's verdict
// table.
func verdictLine(out, solver string) string {
	_, table, _ := strings.Cut(out, "against the baseline")
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == solver {
			return strings.Join(f, " ")
		}
	}
	return ""
}

// TestTrendDetectors: the alarm of a slowdown of one strategy is raised
// once, on its first night, then "still slower" with exit 0; its step is
// found and reported once; an acknowledgement silences it and starts the
// baseline afresh. A counters change names exactly its puzzles. A change
// every strategy shares is the machine's and no alarm. Too few nights is
// "not enough history"; a baseline night whose rows are gone is said.
func TestTrendDetectors(t *testing.T) {
	testenv.Heavy(t, "a few dozen sequential trends over small histories: 2.6 s, 21 s under -race; TestTrendWritesItsFiles walks trend's concurrent paths")
	// One night swept; the others are copies of it, a day apart, so that
	// a strategy left as it was has the same times every night and the
	// test does not depend on how the machine's speed drifts between two
	// sweeps (scripts/trend-false-alarms.sh measures that).
	base := t.TempDir()
	sweepNights(t, base, 1)
	n1 := filepath.Join(base, "n1")
	// copyRoot returns a results root holding nights 1 to n, copies of n1.
	copyRoot := func(t *testing.T, n int) string {
		root := t.TempDir()
		for k := 1; k <= n; k++ {
			fakeNight(t, root, n1, fmt.Sprintf("n%d", k), "*", 1, 24*k)
		}
		return root
	}

	t.Run("not enough history", func(t *testing.T) {
		root := copyRoot(t, 3)
		r := trendOver(t, root)
		if r.code != 0 || !strings.Contains(verdictLine(r.stdout, "dlx"), history.VerdictNotEnough) {
			t.Errorf("3 nights: exit %d, dlx's line %q, want exit 0 and %q\n%s%s", r.code, verdictLine(r.stdout, "dlx"), history.VerdictNotEnough, r.stdout, r.stderr)
		}
	})

	t.Run("slowdown", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Nights 5 to 7: dlx 1.25 times as slow, the others as they were.
		for k := 5; k <= 7; k++ {
			fakeNight(t, root, n1, fmt.Sprintf("n%d", k), "dlx", 1.25, 24*k)
		}
		var runs []string
		for k := 1; k <= 7; k++ {
			runs = append(runs, filepath.Join(root, fmt.Sprintf("n%d", k)))
		}
		wantCode := map[int]int{5: 1, 6: 0, 7: 0}
		for k := 5; k <= 7; k++ {
			r := trendOver(t, root, runs[:k]...)
			line := verdictLine(r.stdout, "dlx")
			if r.code != wantCode[k] {
				t.Errorf("night %d: exit %d, want %d; dlx: %q\n%s%s", k, r.code, wantCode[k], line, r.stdout, r.stderr)
			}
			want := map[int]string{5: "slower", 6: "still slower (since night 5", 7: "still slower (since night 5"}[k]
			if !strings.Contains(line, want) {
				t.Errorf("night %d: dlx's line %q, want %q", k, line, want)
			}
			for _, other := range []string{"norvig", "bitboard"} {
				if l := verdictLine(r.stdout, other); !strings.Contains(l, "no change") {
					t.Errorf("night %d: %s's line %q, want no change (the machine's factor is the median of the three)", k, other, l)
				}
			}
			if k == 5 && !strings.Contains(r.stdout, "NEW ALARM [time]: dlx slower") {
				t.Errorf("night 5: no new alarm for dlx:\n%s", r.stdout)
			}
			if k == 7 && !strings.Contains(r.stdout, "step: dlx x1.2") {
				t.Errorf("night 7: no step of dlx found (nights 5-7 after 1-4):\n%s", r.stdout)
			}
		}
		// Acknowledged on night 5: trend over nights 1-5 exits 0.
		r := trendOver(t, root, "-ack", "n5", "dlx", "dlx made slower on purpose")
		if r.code != 0 {
			t.Errorf("-ack: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if r = trendOver(t, root, runs[:5]...); r.code != 0 || !strings.Contains(r.stdout, "acknowledged (dlx made slower on purpose)") {
			t.Errorf("night 5 acknowledged: exit %d, want 0 and the acknowledgement\n%s%s", r.code, r.stdout, r.stderr)
		}
		// The baseline of night 7 starts at night 5: nights 5 and 6, too few.
		if l := verdictLine(trendOver(t, root).stdout, "dlx"); !strings.Contains(l, history.VerdictNotEnough) {
			t.Errorf("night 7 after the acknowledgement: dlx %q, want %q (its baseline starts afresh at night 5)", l, history.VerdictNotEnough)
		}
		acks, err := history.ReadAnnotations(root)
		if err != nil || len(acks) != 1 || acks[0].Run != "n5" || acks[0].Solver != "dlx" {
			t.Errorf("annotations: %+v, %v", acks, err)
		}
		// Bad acknowledgements are usage errors.
		for _, args := range [][]string{{"-ack", "n9", "dlx", "why"}, {"-ack", "n5", "nosuch", "why"}, {"-ack", "n5", "dlx"}, {"-ack", "n5", "dlx", " "}} {
			if r := trendOver(t, root, args...); r.code != exitUsage {
				t.Errorf("trend %v: exit %d, want %d\n%s", args, r.code, exitUsage, r.stderr)
			}
		}
	})

	t.Run("busy machine", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Night 5: dlx 1.25 times as slow while other work took half the
		// machine: not an alarm. Night 6, as slow on a quiet machine: the
		// alarm, new (night 5 raised none).
		n5 := fakeNight(t, root, n1, "n5", "dlx", 1.25, 24*5)
		editManifest(t, n5, func(m map[string]any) {
			seg := m["segments"].([]any)[0].(map[string]any)
			seg["other_cpu_ns"] = seg["duration_ns"].(float64) * seg["machine"].(map[string]any)["num_cpu"].(float64) / 2
		})
		r := trendOver(t, root)
		if l := verdictLine(r.stdout, "dlx"); r.code != 0 || !strings.Contains(l, history.VerdictBusy) {
			t.Errorf("night 5, busy: exit %d, dlx %q, want exit 0 and %q\n%s%s", r.code, l, history.VerdictBusy, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n6", "dlx", 1.25, 24*6)
		r = trendOver(t, root)
		if l := verdictLine(r.stdout, "dlx"); r.code != 1 || !strings.Contains(l, "slower") || !strings.Contains(r.stdout, "NEW ALARM [time]: dlx slower") {
			t.Errorf("night 6, quiet: exit %d, dlx %q, want exit 1 and a new alarm\n%s%s", r.code, l, r.stdout, r.stderr)
		}
	})

	t.Run("disturbed until the step", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Night 5: every strategy 1.2 times as slow (the machine), dlx
		// 1.5 times more; night 6: the machine x1.44, dlx 1.8 times more
		// (beyond the spread that night 5 gives its baseline): the gate
		// finds dlx slower on both and judges neither night (the machine
		// disturbed). Night 7, dlx 1.8 times as slow on a steady
		// machine: the first night the gate judges, so its alarm is new,
		// although the change point already dates the slowdown from night
		// 5 (CI met this: the gate called it "still slower" and the step
		// deferred to the gate's first judged night, so nothing alarmed).
		// One alarm, not two. Night 8: still slower, no new alarm.
		tmp := t.TempDir()
		fakeNight(t, root, fakeNight(t, tmp, n1, "machine5", "*", 1.2, 24*5), "n5", "dlx", 1.5, 0)
		fakeNight(t, root, fakeNight(t, tmp, n1, "machine6", "*", 1.44, 24*6), "n6", "dlx", 1.8, 0)
		r := trendOver(t, root)
		if l := verdictLine(r.stdout, "dlx"); r.code != 0 || !strings.Contains(l, history.VerdictDisturbed) {
			t.Errorf("night 6, disturbed: exit %d, dlx %q, want exit 0 and %q\n%s%s", r.code, l, history.VerdictDisturbed, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n7", "dlx", 1.8, 24*7)
		r = trendOver(t, root)
		if r.code != 1 || strings.Count(r.stdout, "NEW ALARM") != 1 || !strings.Contains(r.stdout, "NEW ALARM [time]: dlx slower") ||
			!strings.Contains(r.stdout, "last good night: 4 n4") {
			t.Errorf("night 7, steady: exit %d, want 1, one new alarm (dlx's time), last good night n4\n%s%s", r.code, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n8", "dlx", 1.8, 24*8)
		if r = trendOver(t, root); r.code != 0 || !strings.Contains(verdictLine(r.stdout, "dlx"), "still slower (since night 5") {
			t.Errorf("night 8: exit %d, dlx %q, want 0 and still slower since night 5\n%s%s", r.code, verdictLine(r.stdout, "dlx"), r.stdout, r.stderr)
		}
	})

	t.Run("disturbed machine", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Night 5: every strategy 1.2 times as slow (the machine), dlx
		// 1.25 times more (its slowdown): the gate cannot judge it. Nights
		// 6 and 7: dlx 1.25 times as slow on a steady machine. Night 5 is
		// in no later baseline or spread of dlx (a night the gate did not
		// judge is not the level the next is held to), so night 6 is the
		// alarm, from night 4's level; night 7 is still slower, since the
		// night the change point dates, 5 (the same alarm, not a second).
		tmp := t.TempDir()
		fakeNight(t, root, fakeNight(t, tmp, n1, "machine", "*", 1.2, 24*5), "n5", "dlx", 1.25, 0)
		r := trendOver(t, root)
		if l := verdictLine(r.stdout, "dlx"); r.code != 0 || !strings.Contains(l, history.VerdictDisturbed) || !hasText(r.stdout, "beyond twice the threshold") {
			t.Errorf("night 5, disturbed: exit %d, dlx %q, want exit 0, %q and the note\n%s%s", r.code, l, history.VerdictDisturbed, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n6", "dlx", 1.25, 24*6)
		r = trendOver(t, root)
		if r.code != 1 || strings.Count(r.stdout, "NEW ALARM") != 1 || !strings.Contains(r.stdout, "NEW ALARM [time]: dlx slower") ||
			!strings.Contains(r.stdout, "last good night: 4 n4") {
			t.Errorf("night 6: exit %d, want 1 and one new alarm, dlx's time, last good night n4 (night 5 withheld, in no baseline)\n%s%s", r.code, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n7", "dlx", 1.25, 24*7)
		if r = trendOver(t, root); r.code != 0 || strings.Contains(r.stdout, "NEW ALARM") {
			t.Errorf("night 7: exit %d, want 0 and no new alarm (dlx's step from night 5 is the alarm told on night 6)\n%s%s", r.code, r.stdout, r.stderr)
		}
		fakeNight(t, root, n1, "n8", "dlx", 1.25, 24*8)
		if r = trendOver(t, root); r.code != 0 || !strings.Contains(verdictLine(r.stdout, "dlx"), "still slower (since night 5") {
			t.Errorf("night 8: exit %d, dlx %q, want 0 and still slower since night 5\n%s%s", r.code, verdictLine(r.stdout, "dlx"), r.stdout, r.stderr)
		}
	})

	t.Run("same build", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Night 5: dlx 1.25 times as slow, and the build of nights 1-4.
		n5 := fakeNight(t, root, n1, "n5", "dlx", 1.25, 24*5)
		editManifest(t, n5, func(m map[string]any) {
			seg := m["segments"].([]any)[0].(map[string]any)
			seg["machine"].(map[string]any)["tool_version"] = "fake-base"
			seg["machine"].(map[string]any)["binary"] = "sha256:" + fmt.Sprintf("%x", sha256.Sum256([]byte("fake-base")))
		})
		r := trendOver(t, root)
		if l := verdictLine(r.stdout, "dlx"); r.code != 0 || !strings.Contains(l, history.VerdictSameBuild) {
			t.Errorf("same build: exit %d, dlx %q, want exit 0 and %q\n%s%s", r.code, l, history.VerdictSameBuild, r.stdout, r.stderr)
		}
		if r = trendOver(t, root, "-same-build"); r.code != 1 {
			t.Errorf("same build, -same-build: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("counters", func(t *testing.T) {
		root := copyRoot(t, 4)
		fakeNight(t, root, n1, "n5", "norvig", 1, 24*5, 7, 31, 88)
		r := trendOver(t, root)
		if r.code != 1 || !hasText(r.stdout, "norvig's counters changed on 3 puzzles of the 120 units compared with night 4 (n4): #7 #31 #88 puzzles:") {
			t.Errorf("exit %d, want 1 and norvig's counters changed on #7 #31 #88:\n%s%s", r.code, r.stdout, r.stderr)
		}
		for _, other := range []string{"dlx", "bitboard"} {
			if l := verdictLine(r.stdout, other); !strings.Contains(l, "same 120") {
				t.Errorf("%s: %q, want its counters the same on the 120 units", other, l)
			}
		}
	})

	t.Run("machine", func(t *testing.T) {
		root := copyRoot(t, 4)
		// Every strategy 1.3 times as slow: the machine's change.
		fakeNight(t, root, n1, "n5", "*", 1.3, 24*5)
		r := trendOver(t, root)
		if r.code != 0 || !strings.Contains(r.stdout, "moved together, x1.3") {
			t.Errorf("exit %d, want 0 and the machine's change noted:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("rows gone", func(t *testing.T) {
		root := copyRoot(t, 5)
		for _, k := range []int{1, 2} {
			os.Remove(filepath.Join(root, fmt.Sprintf("n%d", k), rundir.ResultsFile))
		}
		r := trendOver(t, root)
		if r.code != 0 || !strings.Contains(verdictLine(r.stdout, "dlx"), history.VerdictNoRows) || !strings.Contains(r.stdout, "are gone") {
			t.Errorf("two baseline nights without rows: exit %d, dlx %q, want %q and a note\n%s%s", r.code, verdictLine(r.stdout, "dlx"), history.VerdictNoRows, r.stdout, r.stderr)
		}
	})

	t.Run("verdicts kept", func(t *testing.T) {
		root := copyRoot(t, 5)
		trendOver(t, root)
		idx, err := history.ReadIndex(filepath.Join(root, history.IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		e := idx.Lookup("n5")
		if e == nil || len(e.Verdicts) == 0 || e.Verdicts[0].Verdicts["dlx"] != history.VerdictNoChange {
			b, _ := json.Marshal(e)
			t.Errorf("the index keeps no verdict of n5: %s", b)
		}
	})
}
