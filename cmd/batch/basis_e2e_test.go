package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// externalRun sweeps the first six 17-clue puzzles with bitboard into
// dir/name, then adds the rows of two external solvers as a run with -ext
// would write them: ext with its own time on every answer (opposite in
// order to its round trips), ext2 with its own time on every answer but
// missingSelf's (-1: none missing). run.json records both as external.
// The run is not reported (batch report does it).
func externalRun(t *testing.T, dir, name string, missingSelf int) string {
	t.Helper()
	corpus := filepath.Join(dir, "c.txt")
	if _, err := os.Stat(corpus); err != nil {
		all, err := os.ReadFile(filepath.Join(repoRoot(t), "data", "sudoku17.txt"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(all), "\n")
		if err := os.WriteFile(corpus, []byte(strings.Join(lines[:6], "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", name, "c.txt"))
	run := filepath.Join(dir, name)
	rows := readRows(t, filepath.Join(run, rundir.ResultsFile))
	var out []rundir.Row
	for _, r := range rows {
		out = append(out, r)
		for k, ext := range []string{"ext", "ext2"} {
			x := r
			x.Solver = ext
			x.Calls, x.Guesses, x.Backtracks = 0, 0, 0
			x.NS = int64(100_000 * (k + 1) * (r.ID + 1))
			x.NSMin, x.NSMedian = x.NS, x.NS
			x.SelfNS = int64(50_000 * (6 - r.ID))
			if ext == "ext2" && r.ID == missingSelf {
				x.SelfNS = 0
			}
			out = append(out, x)
		}
	}
	var b bytes.Buffer
	w := rundir.NewWriter(&b)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if err := w.Write(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, rundir.ResultsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := rundir.ReadManifest(run)
	if err != nil {
		t.Fatal(err)
	}
	m.Settings.Solvers = []string{"bitboard", "ext", "ext2"}
	m.Rows = len(out)
	for k, ext := range []string{"ext", "ext2"} {
		m.Settings.External = append(m.Settings.External, rundir.External{Name: ext, Command: "python3 " + ext + ".py",
			Args: []string{"python3", ext + ".py"}, Executable: "/usr/bin/python3", SHA256: strings.Repeat("c", 63) + string(rune('0'+k)),
			Reported: "py" + ext, Version: "0.9", Caps: []string{"ns"}, NullNS: 30_000, NullP99NS: 70_000})
	}
	if err := rundir.WriteManifest(run, m); err != nil {
		t.Fatal(err)
	}
	return run
}

// TestReportOfExternalSolvers: batch report over a run with two
// external solvers, one ranked by its own time and one by the round
// trip, through the binary.
func TestReportOfExternalSolvers(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	externalRun(t, dir, "a", 3)

	r := batch(t, dir, "report", "a")
	mustOK(t, r)
	for _, want := range []string{
		"ext: ranked by its own time (self_ns): each of its 6 answers reported one. Program pyext 0.9 (sha256 cccccccccccc), null round trip 30.0µs median, 70.0µs p99.\n",
		"ext2: ranked by the round trip less the null round trip: 1 of its 6 answers reported no time of its own. Program pyext2",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("batch report's output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "bitboard: ranked") {
		t.Errorf("batch report names bitboard's basis:\n%s", r.stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, "a", rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Strategies []struct {
			Solver    string `json:"solver"`
			TimeBasis string `json:"time_basis"`
			TimeNS    struct {
				Median struct{ Value float64 } `json:"median"`
			} `json:"time_ns"`
			External *struct {
				Short string `json:"sha256_short"`
			} `json:"external"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	// ext's own times are 50µs to 300µs (median of 6: 150µs), its round
	// trips 100µs to 600µs (300µs); ext2's round trips 200µs to 1.2ms.
	want := map[string]struct {
		basis  string
		median float64
	}{"ext": {"self", 150_000}, "ext2": {"round trip", 600_000}}
	for _, st := range sum.Strategies {
		w, ok := want[st.Solver]
		if !ok {
			if st.TimeBasis != "round trip" || st.External != nil {
				t.Errorf("%s: basis %q, external %v", st.Solver, st.TimeBasis, st.External)
			}
			continue
		}
		if st.TimeBasis != w.basis || st.TimeNS.Median.Value != w.median || st.External == nil {
			t.Errorf("%s: basis %q, median %v, external %v; want %q, %v", st.Solver, st.TimeBasis, st.TimeNS.Median.Value,
				st.External, w.basis, w.median)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "a", rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `id="time-basis"`) || !strings.Contains(string(page), "<b>ext</b><small>own time</small>") {
		t.Errorf("the page has no time basis note")
	}

}

// TestShowOfExternalSolvers: batch show runs the built-in strategies and
// lists a run's external solvers from its rows (unless given with -ext);
// ext's #0 is its slowest by its own time.
func TestShowOfExternalSolvers(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	externalRun(t, dir, "a", 3)
	r := batch(t, dir, "show", "0", "-run", "a", "-solvers", "bitboard,ext")
	mustOK(t, r)
	for _, want := range []string{
		"Not run now: ext, ext2, external solvers of the run: show cannot start them without their command (-ext NAME=COMMAND); they are listed from the run's rows only.",
		"Time of ext: its own (self_ns), as the run's summary ranks it.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("batch show lacks %q:\n%s", want, r.stdout)
		}
	}
	var extRank string
	for _, l := range strings.Split(r.stdout, "\n") {
		if f := strings.Fields(l); len(f) > 7 && f[0] == "ext" {
			extRank = f[7]
		}
	}
	if extRank != "1/6" {
		t.Errorf("show ranks ext's #0 %q by time, want 1/6 (its own time):\n%s", extRank, r.stdout)
	}
	r = batch(t, dir, "show", "0", "-run", "a", "-solvers", "ext")
	mustOK(t, r)
	if !strings.Contains(r.stdout, "No strategy was run now.") || !strings.Contains(r.stdout, "Not run now: ext, ext2") {
		t.Errorf("show -solvers ext:\n%s", r.stdout)
	}
	// Given with -ext, ext runs now (a program that supports no puzzle);
	// ext2 is still listed from the rows only.
	script := filepath.Join(dir, "unsupported.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nread l\necho solver none 1\nwhile read n c id g; do echo \"$n unsupported\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = batch(t, dir, "show", "0", "-run", "a", "-solvers", "bitboard,ext", "-ext", "ext="+script)
	mustOK(t, r)
	if !strings.Contains(r.stdout, "  ext       unsupported") || !strings.Contains(r.stdout, "Not run now: ext2, an external solver of the run") {
		t.Errorf("show -ext ext=...: ext not run now, or ext2 not listed from the rows:\n%s", r.stdout)
	}
	if r = batch(t, dir, "show", "0", "-run", "a", "-solvers", "nosuch"); r.code != 2 {
		t.Errorf("show -solvers nosuch: exit %d, want 2", r.code)
	}

}

// TestCompareOfExternalSolversBases: ext2 has its own time on every
// answer in b, not in a: compare says the bases differ and compares its
// round trips (the same rows: ×1).
func TestCompareOfExternalSolversBases(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	externalRun(t, dir, "a", 3)
	externalRun(t, dir, "b", -1)
	r := batch(t, dir, "compare", "-page=false", "a", "b")
	if r.code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "ext2 is ranked by the round trip in OLD and by its own time in NEW: its times are compared by the round trip in both") {
		t.Errorf("compare does not warn of ext2's bases:\n%s", r.stderr)
	}
	r = batch(t, dir, "compare", "-json", "-page=false", "a", "b")
	var c struct {
		Strategies []struct {
			Solver      string
			TimeBasis   string                  `json:"time_basis"`
			MedianRatio struct{ Value float64 } `json:"median_ratio"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("compare -json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	for _, d := range c.Strategies {
		if d.Solver == "ext2" && (d.TimeBasis != "round trip" || d.MedianRatio.Value < 0.5 || d.MedianRatio.Value > 2) {
			t.Errorf("ext2 compared by %q, ratio %v", d.TimeBasis, d.MedianRatio.Value)
		}
	}
}

// TestPuzzleHistoryInTheRunsBasis: the page's earlier nights of a named
// puzzle give an external solver ranked by its own time its own time
// on those nights too (#0: 300µs own, 100µs round trip). The nights are
// swept by the binary; their summaries, the history and the puzzle
// history are made in process (no charts).
func TestPuzzleHistoryInTheRunsBasis(t *testing.T) {
	needsBinary(t)
	dir := t.TempDir()
	summarize := func(name string) (*report.Run, *report.Summary) {
		t.Helper()
		run, err := report.LoadRun(context.Background(), filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := report.Summarize(run.Results, report.SummaryOptions{Manifest: run.Manifest})
		if err := report.WriteSummaryFiles(filepath.Join(dir, name), sum); err != nil {
			t.Fatal(err)
		}
		return run, sum
	}
	externalRun(t, dir, "a", -1)
	summarize("a")
	if _, _, err := history.Update(dir); err != nil {
		t.Fatal(err)
	}
	externalRun(t, dir, "b", -1)
	run, sum := summarize("b")
	h, notes := history.PuzzleHistory(context.Background(), filepath.Join(dir, "b"), run.Manifest, sum)
	if h == nil || len(h.Nights) != 1 {
		t.Fatalf("no history of night a: %+v; %q", h, notes)
	}
	// Both ranked by their own time: 300µs on #0 (round trips 100µs and 200µs).
	want := map[string]int64{"ext": 300_000, "ext2": 300_000}
	seen := 0
	for _, u := range h.Units {
		if _, ok := want[u.Solver]; u.ID != 0 || !ok {
			continue
		}
		seen++
		if u.NS != want[u.Solver] {
			t.Errorf("%s #0 on night a: %d ns, want %d (its own time)", u.Solver, u.NS, want[u.Solver])
		}
	}
	if seen != 2 {
		t.Errorf("%d units of ext and ext2 for #0 on night a, want 2: %+v", seen, h.Units)
	}
}
