package history

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

const corpusSHA = "71755fa5646701ae543b1435012492ec5b99f3d42b08da847e6d48d8b87676d7"

// night describes a synthetic run for writeRun.
type night struct {
	name    string
	day     int // days after 2026-01-01
	timeout time.Duration
	cpu     string
	status  string // default finished
	median  float64
}

// writeRun writes root/n.name as a run would leave it: run.json and
// summary.json (no results.csv: the history never reads it), with two
// strategies.
func writeRun(t testing.TB, root string, n night) {
	t.Helper()
	dir := filepath.Join(root, n.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC).AddDate(0, 0, n.day)
	status := n.status
	if status == "" {
		status = rundir.Finished
	}
	cpu := n.cpu
	if cpu == "" {
		cpu = "AMD EPYC"
	}
	m := &rundir.Manifest{
		Tool: "sudokubatch", RunID: n.name, Status: status, Start: start, End: start.Add(time.Hour),
		Settings: rundir.Settings{Solvers: []string{"norvig", "bitboard"}, TimeoutNS: int64(n.timeout), Timeout: n.timeout.String(),
			Seed: 1, Range: "0:50", Corpora: []string{"data/sudoku17.txt"}, Runs: 5},
		Corpora: []rundir.CorpusInfo{{Path: "data/sudoku17.txt", Size: 4096, SHA256: corpusSHA, Complete: true, Lines: 50, Puzzles: 50}},
		Rows:    100,
		Segments: []rundir.Segment{{Start: start, End: start.Add(time.Hour), Workers: 2, Rows: 100, Status: status,
			Machine: rundir.Machine{CPU: cpu, NumCPU: 2, Version: "abc123"}}},
	}
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if status != rundir.Finished {
		return
	}
	est := func(v float64) report.Estimate { return report.Estimate{Value: v} }
	sum := &report.Summary{Run: &report.RunSummary{RunID: n.name, Status: status, Settings: m.Settings}, Timed: true}
	for i, name := range []string{"norvig", "bitboard"} {
		med := n.median * float64(i+1)
		sum.Strategies = append(sum.Strategies, &report.StrategySummary{
			Solver: name, Units: 50, Measured: 50,
			Statuses: report.StatusCounts{solvers.StatusSolved: 48, solvers.StatusTimeout: 2},
			TimeNS: report.Distribution{
				Median: est(med), MedianCI: report.Interval{Lo: est(med * 0.9), Hi: est(med * 1.1)},
				P90: est(3 * med), P99: est(10 * med), Mean: est(2 * med),
			},
			Calls:   report.Distribution{Mean: est(2.5)},
			NoGuess: 30, NoGuessPct: est(60), GuessesPerPuzzle: est(1.5),
		})
	}
	f, err := os.Create(filepath.Join(dir, rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := sum.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
}

func update(t *testing.T, root string) (*Index, *Refresh) {
	t.Helper()
	idx, r, err := Update(root)
	if err != nil {
		t.Fatal(err)
	}
	if r.WriteErr != nil {
		t.Fatal(r.WriteErr)
	}
	return idx, r
}

func TestNightHoldsTheSummaryFigures(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, night{name: "a", timeout: 100 * time.Millisecond, median: 1000})
	idx, _ := update(t, root)
	h := idx.All()
	if len(h.Series) != 1 || len(h.Series[0].Nights) != 1 {
		t.Fatalf("want one series of one night, got %+v", h)
	}
	n := h.Series[0].Nights[0]
	if n.Revision != "abc123" || n.Start.Day() != 1 || n.Signature.Workers != 2 {
		t.Errorf("night %+v: want revision abc123, 1 January, 2 workers", n)
	}
	bb := n.StrategyNamed("bitboard")
	want := Strategy{Solver: "bitboard", Units: 50, Measured: 50,
		Median: Quantile{2000, 1800, 2200, ""}, P90: Quantile{Value: 6000}, P99: Quantile{Value: 20000},
		Statuses: map[string]int{"solved": 48, "timeout": 2}, Solved: 48, TimedOut: 2,
		NoGuess: 30, NoGuessPct: 60, Calls: 125, Guesses: 75}
	if bb == nil || bb.Median != want.Median || bb.P90 != want.P90 || bb.P99 != want.P99 || bb.Solved != 48 || bb.TimedOut != 2 ||
		bb.NoGuessPct != 60 || bb.Calls != 125 || bb.Guesses != 75 || bb.Statuses["timeout"] != 2 {
		t.Errorf("bitboard: got %+v\nwant %+v", bb, want)
	}
}

func TestSeriesBySignature(t *testing.T) {
	root := t.TempDir()
	ms := 100 * time.Millisecond
	writeRun(t, root, night{name: "n1", day: 1, timeout: ms, median: 1000})
	writeRun(t, root, night{name: "n2", day: 2, timeout: ms, median: 1000})
	writeRun(t, root, night{name: "n3", day: 3, timeout: 2 * ms, median: 1000})        // other limits
	writeRun(t, root, night{name: "n4", day: 4, timeout: ms, cpu: "Intel", median: 1}) // other machine: newest
	writeRun(t, root, night{name: "n5", day: 5, timeout: ms, status: rundir.Interrupted})
	writeRun(t, root, night{name: "n6", day: 6, timeout: ms, median: 1000})
	os.Remove(filepath.Join(root, "n6", rundir.SummaryJSON))
	idx, _ := update(t, root)
	h := idx.All()
	var got []string
	for _, s := range h.Series {
		var runs []string
		for _, n := range s.Nights {
			runs = append(runs, n.Run)
		}
		got = append(got, strings.Join(runs, ","))
	}
	if strings.Join(got, " ") != "n4 n3 n1,n2" {
		t.Errorf("series %q, want [n4 n3 n1,n2] (the series of the newest night first)", got)
	}
	if len(h.Skipped) != 2 || h.Skipped[0].Run != "n5" || !strings.Contains(h.Skipped[0].Reason, "not finished") ||
		h.Skipped[1].Run != "n6" || !strings.Contains(h.Skipped[1].Reason, "no summary.json") {
		t.Errorf("skipped %+v, want n5 not finished, n6 no summary.json", h.Skipped)
	}
	if k := h.Series[2].Key; !strings.Contains(k, "sudoku17.txt@71755fa5") || !strings.Contains(k, "timeout=100ms") || !strings.Contains(k, `cpu="AMD EPYC" x2 workers=2`) {
		t.Errorf("key %q lacks the corpus, limits or machine", k)
	}

	sel, err := idx.Selected(root, []string{filepath.Join(root, "n1"), filepath.Join(root, "n3"), filepath.Join(root, "n2")})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Series) != 1 || sel.Series[0].Newest().Run != "n3" || len(sel.Skipped) != 2 ||
		!strings.Contains(sel.Skipped[0].Reason, "other signature") {
		t.Errorf("selected n1 n3 n2: want the series of n3 and n1, n2 skipped as other signature, got %+v", sel)
	}
}

func TestIndexRefreshReadsOnlyNewOrChangedRuns(t *testing.T) {
	root := t.TempDir()
	for i, name := range []string{"n1", "n2", "n3"} {
		writeRun(t, root, night{name: name, day: i, timeout: time.Second, median: 1000})
	}
	_, r := update(t, root)
	if !strings.HasSuffix(r.Rebuilt, ": no index yet") || r.Runs != 3 || r.Read != 3 || !r.Wrote {
		t.Fatalf("first update: %+v, want 3 runs read, index written", r)
	}
	_, r = update(t, root)
	if r.Rebuilt != "" || r.Read != 0 || r.Wrote {
		t.Fatalf("second update: %+v, want nothing read or written", r)
	}

	// A summary rewritten (batch report) and a new night: those two only.
	later := time.Now().Add(time.Minute)
	writeRun(t, root, night{name: "n2", day: 1, timeout: time.Second, median: 5000})
	os.Chtimes(filepath.Join(root, "n2", rundir.SummaryJSON), later, later)
	writeRun(t, root, night{name: "n4", day: 3, timeout: time.Second, median: 1000})
	idx, r := update(t, root)
	if r.Read != 2 || r.Runs != 4 || !r.Wrote {
		t.Fatalf("after a change and a new run: %+v, want 2 read of 4", r)
	}
	if got := idx.Lookup("n2").Night.StrategyNamed("norvig").Median.Value; got != 5000 {
		t.Errorf("n2's median %d after its summary changed, want 5000", got)
	}

	// A removed run directory: its night is dropped, said once.
	if err := os.RemoveAll(filepath.Join(root, "n1")); err != nil {
		t.Fatal(err)
	}
	idx, r = update(t, root)
	if e := idx.Lookup("n1"); len(r.Dropped) != 1 || r.Dropped[0] != "n1" || e != nil || !strings.Contains(r.String(), "dropped 1 night whose directory is gone: n1") {
		t.Errorf("after removing n1: %+v (%s), entry %+v, want it dropped, said", r, r, e)
	}
	if len(idx.All().Series[0].Nights) != 3 {
		t.Errorf("the series kept the gone night")
	}
	if _, r = update(t, root); len(r.Dropped) != 0 || r.Wrote {
		t.Errorf("the next refresh: %+v, want nothing dropped again, nothing written", r)
	}

	// A damaged index is rebuilt from the directories, saying so.
	path := filepath.Join(root, IndexFile)
	if err := os.WriteFile(path, []byte(`{"version":1,"runs":[{"run":"n`), 0o644); err != nil {
		t.Fatal(err)
	}
	idx, r = update(t, root)
	if !strings.Contains(r.Rebuilt, "damaged: "+path+" line 1: unexpected end of JSON input") || r.Read != 3 || len(idx.Entries) != 3 || !strings.Contains(r.String(), "rebuilt from 3 run directories") {
		t.Errorf("damaged index: %+v (%s), want it rebuilt from the 3 directories", r, r)
	}
	if _, err := ReadIndex(path); err != nil {
		t.Errorf("the rebuilt index does not read: %v", err)
	}
	// Another version too.
	os.WriteFile(path, []byte(`{"version":99,"runs":[]}`), 0o644)
	if _, r = update(t, root); !strings.Contains(r.Rebuilt, "version 99") {
		t.Errorf("index of version 99: %+v, want it rebuilt, naming the version", r)
	}
}

func TestDamagedRunIsSkippedWithItsFile(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, night{name: "good", timeout: time.Second, median: 1000})
	writeRun(t, root, night{name: "bad", timeout: time.Second, median: 1000})
	os.WriteFile(filepath.Join(root, "bad", rundir.SummaryJSON), []byte("{\n\"strategies\": [}"), 0o644)
	idx, _ := update(t, root)
	h := idx.All()
	if len(h.Series) != 1 || len(h.Skipped) != 1 || h.Skipped[0].Run != "bad" ||
		!strings.Contains(h.Skipped[0].Reason, filepath.Join(root, "bad", rundir.SummaryJSON)+" line 2: invalid character '}'") {
		t.Errorf("want good in a series and bad skipped naming its summary.json, got %+v", h)
	}
}

func TestSignatureIgnoresTheCorpusPath(t *testing.T) {
	a := Signature{Corpora: []CorpusKey{{Name: "sudoku17.txt", SHA256: corpusSHA}}, Runs: 5, CPU: "x", NumCPU: 2, Workers: 2}
	b := a
	b.Corpora = []CorpusKey{{Name: "copy.txt", SHA256: corpusSHA}}
	if !a.Equal(&b) {
		t.Errorf("one corpus under two names is two signatures")
	}
	for name, edit := range map[string]func(*Signature){
		"workers":   func(s *Signature) { s.Workers = 4 },
		"cpu count": func(s *Signature) { s.NumCPU = 8 },
		"max-calls": func(s *Signature) { s.MaxCalls = 1000 },
		"unique":    func(s *Signature) { s.Unique = true },
		"runs":      func(s *Signature) { s.Runs = 1 },
		"range":     func(s *Signature) { s.Range = "0:10" },
		"corpus":    func(s *Signature) { s.Corpora = []CorpusKey{{Name: "sudoku17.txt", SHA256: strings.Repeat("0", 64)}} },
	} {
		c := a
		edit(&c)
		if a.Equal(&c) {
			t.Errorf("another %s, same signature", name)
		}
	}
}

// TestCopiedRunIsOneNight: a run directory copied by hand holds the same
// run (its run id): the index's history has it once, the directory
// named as its run id kept however the copy sorts, and the copy skipped
// naming it.
func TestCopiedRunIsOneNight(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 3; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%d", k), day: k})
	}
	if err := os.CopyFS(filepath.Join(root, "a-copy"), os.DirFS(filepath.Join(root, "n3"))); err != nil {
		t.Fatal(err)
	}
	idx, _, err := Update(root)
	if err != nil {
		t.Fatal(err)
	}
	h := idx.All()
	var runs []string
	for _, n := range h.Series[0].Nights {
		runs = append(runs, n.Run)
	}
	if !slices.Equal(runs, []string{"n1", "n2", "n3"}) || len(h.Skipped) != 1 || h.Skipped[0].Run != "a-copy" ||
		!strings.Contains(h.Skipped[0].Reason, "a copy of n3") {
		t.Errorf("n1-n3 and a-copy of n3: nights %v, skipped %+v: want n1-n3, a-copy skipped as n3's copy", runs, h.Skipped)
	}
	if _, earlier := idx.EarlierNights(manifestOf(t, filepath.Join(root, "n3")), 7); len(earlier) != 2 {
		t.Errorf("the nights before n3: %d, want 2 (n1, n2; n3's copy is n3)", len(earlier))
	}
}

func manifestOf(t *testing.T, dir string) *rundir.Manifest {
	t.Helper()
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
