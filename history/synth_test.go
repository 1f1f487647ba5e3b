package history

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// sweep describes a synthetic night with rows, for synthSweep: what a
// sweep of synthPuzzles puzzles by the strategies would leave, with
// known changes.
type sweep struct {
	name    string
	day     int                // days after 2026-03-01 23:00 UTC
	solvers []string           // default norvig, dlx, bitboard
	slow    map[string]float64 // per strategy, a factor on its times
	machine float64            // a factor on every strategy's times (0: 1)
	bump    map[string][]int   // per strategy, the puzzles whose calls are one more
	share   float64            // the other work's share of the CPUs (0: not recorded)
	binary  string             // Machine.Binary ("": "sha256:" and the name's hash of the default build)
	noise   float64            // the standard deviation of a time's log noise (0: 0.02)
}

// synthPuzzles is how many puzzles a synthetic night has.
const synthPuzzles = 300

var synthSolvers = []string{"norvig", "dlx", "bitboard"}

// synthSweep writes root/sw.name as a finished sweep leaves it: run.json,
// results.csv (plain) and summary.json. Puzzle i of strategy j takes
// about (1000 + 37*(i%50)) << j ns, times the factors, times a noise of
// its own drawn from the night's name; its calls are 10+i (one more when
// bumped).
func synthSweep(t testing.TB, root string, sw sweep) string {
	t.Helper()
	dir := filepath.Join(root, sw.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := sw.solvers
	if names == nil {
		names = synthSolvers
	}
	noise := sw.noise
	if noise == 0 {
		noise = 0.02
	}
	machine := sw.machine
	if machine == 0 {
		machine = 1
	}
	binary := sw.binary
	if binary == "" {
		binary = "sha256:" + strings.Repeat("b0", 32)
	}
	start := time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC).AddDate(0, 0, sw.day)
	dur := 10 * time.Second
	seg := rundir.Segment{Start: start, End: start.Add(dur), DurationNS: int64(dur), Workers: 2, Rows: synthPuzzles * len(names),
		Status: rundir.Finished, Command: []string{"batch"},
		Machine: rundir.Machine{CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2, GoVersion: "go1.26", Version: "unknown", Binary: binary}}
	if sw.share > 0 {
		seg.OtherCPUNS = int64(sw.share * 2 * float64(dur))
	}
	m := &rundir.Manifest{Tool: "sudokubatch", RunID: sw.name, Status: rundir.Finished, Start: start, End: start.Add(dur), DurationNS: int64(dur),
		Settings: rundir.Settings{Solvers: names, Seed: 1, Range: fmt.Sprintf("0:%d", synthPuzzles), Corpora: []string{"data/sudoku17.txt"}, Runs: 3},
		Corpora:  []rundir.CorpusInfo{{Path: "data/sudoku17.txt", Size: 4030382, SHA256: corpusSHA, Complete: true, Lines: 49151, Puzzles: 49151}},
		Rows:     synthPuzzles * len(names), Segments: []rundir.Segment{seg}}
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	w := rundir.NewWriter(f)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	var seed uint64
	for _, c := range sw.name {
		seed = seed*131 + uint64(c)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range synthPuzzles {
		for j, name := range names {
			f := machine
			if s, ok := sw.slow[name]; ok {
				f *= s
			}
			ns := int64(float64(int64(1000+37*(i%50))<<j) * f * math.Exp(noise*rng.NormFloat64()))
			calls := uint64(10 + i)
			for _, id := range sw.bump[name] {
				if id == i {
					calls++
				}
			}
			r := &rundir.Row{ID: i, Line: i + 1, Solver: name, Status: solvers.StatusSolved, NS: ns, Calls: calls, Guesses: calls - 1,
				Filled: 64, Clues: 17, Solutions: -1, Seed: 1, Corpus: "data/sudoku17.txt", Runs: 3, NSMin: ns, NSMedian: ns}
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
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
	return dir
}

// evaluateRoot refreshes the index of root and evaluates its series of
// the newest night as trend does (the verdicts kept in the index), and
// returns the report.
func evaluateRoot(t testing.TB, root string, opt Options) *Report {
	t.Helper()
	idx, _, err := Update(root)
	if err != nil {
		t.Fatal(err)
	}
	acks, err := ReadAnnotations(root)
	if err != nil {
		t.Fatal(err)
	}
	h := idx.All()
	if len(h.Series) == 0 {
		t.Fatalf("no series in %s", root)
	}
	opt.Memo = idx.Memo()
	r, err := Evaluate(context.Background(), root, h.Series[0], acks, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.SaveMemo(filepath.Join(root, IndexFile), opt.Memo); err != nil {
		t.Fatal(err)
	}
	return r
}

// trendOf returns the trend of strategy solver in r, or nil.
func trendOf(r *Report, solver string) *StrategyTrend {
	for _, st := range r.Strategies {
		if st.Solver == solver {
			return st
		}
	}
	return nil
}
