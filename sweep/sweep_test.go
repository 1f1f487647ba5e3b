package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
)

// refBin is solvers/external's test solver (norvig behind the protocol),
// built once.
var refBin string

func TestMain(m *testing.M) {
	if code, played := external.Role(); played {
		os.Exit(code) // the guard or the echo peer of an external solver a test started
	}
	dir, err := os.MkdirTemp("", "sweep")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	refBin = filepath.Join(dir, "refsolver")
	if out, err := exec.Command("go", "build", "-o", refBin, "../solvers/external/testdata/refsolver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building refsolver: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Puzzles #0, #2018 and #8145 of the 17-clue corpus.
const puzzles = "000000010400000000020000000000050407008000300001090000300400200050100000000806000\n" +
	"000002910320080000000000000019000500000300000000070000704600003000001000600000000\n" +
	"000300010070090000200000000040000607005100000000800000103000000000070500860000000\n"

// options returns the Options of a sweep of the corpus c.txt (written in
// the current directory) with the strategies names and what it says
// kept in said.
func options(t *testing.T, said *[]string, names ...string) Options {
	t.Helper()
	if err := os.WriteFile("c.txt", []byte(puzzles), 0o644); err != nil {
		t.Fatal(err)
	}
	r := rundir.Request{Solvers: strings.Join(names, ","), SolversGiven: true, Seed: 1, Runs: 1, Corpora: []string{"c.txt"}}
	var ext external.Specs
	for _, n := range names {
		if _, ok := solvers.Lookup(n); !ok {
			if err := ext.Set(n + "=" + refBin); err != nil {
				t.Fatal(err)
			}
			r.External = append(r.External, n)
		}
	}
	s, err := r.Settings(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Settings: s, Given: func(string) bool { return false }, Workers: 2, Ext: ext, Start: time.Now(),
		Command: []string{"batch"}, Say: func(l string) { *said = append(*said, l) }, Started: func(*external.Solver, time.Duration) {}}
}

// TestSweepNewRun: a new sweep without -out is made under results/, its
// rows written and checked, its status finished, results/latest pointing
// at it.
func TestSweepNewRun(t *testing.T) {
	t.Chdir(t.TempDir())
	var said []string
	sw, err := Open(context.Background(), options(t, &said, "norvig", "dlx"))
	if err != nil {
		t.Fatal(err)
	}
	defer sw.Close()
	if n, err := sw.CountUnits(context.Background()); n != 6 || err != nil {
		t.Errorf("CountUnits: %d, %v; want 6", n, err)
	}
	res := sw.Run()
	if res.Err != nil || res.Empty || res.Status != rundir.Finished || res.Stats.Units != 6 {
		t.Fatalf("sweep: %+v", res)
	}
	end := sw.End(res, true)
	if end.Dir != sw.Dir.Path || end.Rows != 6 || end.Units != 6 || !end.Table || len(end.Solvers) != 2 || end.Solvers[1].Name != "dlx" {
		t.Errorf("the end of the sweep: %+v", end)
	}
	if filepath.Dir(sw.Dir.Path) != rundir.DefaultRoot || rundir.Latest(rundir.DefaultRoot) != sw.Dir.Path {
		t.Errorf("run %s, latest %s", sw.Dir.Path, rundir.Latest(rundir.DefaultRoot))
	}
	m, err := rundir.ReadManifest(sw.Dir.Path)
	if err != nil || m.Status != rundir.Finished || m.Rows != 6 || len(m.Segments) != 1 {
		t.Errorf("run.json: %+v, %v", m, err)
	}
}

// TestSweepSelectingNothingLeavesNothing: a new sweep whose selection
// matches no puzzle leaves no directory and no results/latest.
func TestSweepSelectingNothingLeavesNothing(t *testing.T) {
	t.Chdir(t.TempDir())
	var said []string
	opt := options(t, &said, "dlx")
	opt.Settings.IDs = []int{99}
	sw, err := Open(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer sw.Close()
	if res := sw.Run(); !res.Empty {
		t.Fatalf("an empty selection: %+v", res)
	}
	if _, err := os.Stat(sw.Dir.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run directory is left: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(rundir.DefaultRoot, rundir.LatestLink)); err == nil {
		t.Error("results/latest points at a run that is gone")
	}
}

// TestSweepResumesWithAnExternalSolver: a sweep with an external solver
// records its program in run.json; stopped at once, it is resumed with
// the run's settings (what the flags give again must agree), its program
// started again, and finished; a changed program is refused.
func TestSweepResumesWithAnExternalSolver(t *testing.T) {
	t.Chdir(t.TempDir())
	var said []string
	opt := options(t, &said, "dlx", "ref")
	opt.Out = "run"
	sw, err := Open(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop)
	sw.Config.Stop = stop
	if res := sw.Run(); res.Status != rundir.Interrupted {
		t.Fatalf("a sweep stopped at once: %+v", res)
	}
	sw.Close()
	m, err := rundir.ReadManifest("run")
	if err != nil || len(m.Settings.External) != 1 || m.Settings.External[0].Name != "ref" || m.Settings.External[0].SHA256 == "" {
		t.Fatalf("run.json's external solvers: %+v, %v", m.Settings.External, err)
	}

	again := opt
	again.Resume = true
	again.Settings.Seed = 2
	again.Given = func(f string) bool { return f == "seed" }
	if _, err := Open(context.Background(), again); !isUsage(err, "-seed differs") {
		t.Fatalf("-resume -seed 2: %v, want a usage error", err)
	}
	again.Settings.Seed, said = 1, nil
	sw, err = Open(context.Background(), again)
	if err != nil {
		t.Fatal(err)
	}
	if len(said) == 0 || !strings.HasPrefix(said[len(said)-1], "resuming run: ") {
		t.Errorf("said %q, want the run resumed", said)
	}
	if !slices.Equal(sw.Settings.Solvers, []string{"dlx", "ref"}) || len(sw.Externals) != 1 {
		t.Errorf("resumed with %q and %d external solvers", sw.Settings.Solvers, len(sw.Externals))
	}
	if res := sw.Run(); res.Status != rundir.Finished || res.Stats.Units+res.Stats.Skipped != 6 || res.Err != nil {
		t.Errorf("the resumed sweep: %+v", res)
	}
	sw.Close()

	// The program changed since the run (another SHA-256 recorded):
	// refused before it starts.
	m, _ = rundir.ReadManifest("run")
	m.Status = rundir.Interrupted
	m.Settings.External[0].SHA256 = strings.Repeat("0", 64)
	if err := rundir.WriteManifest("run", m); err != nil {
		t.Fatal(err)
	}
	again.Given = func(string) bool { return false }
	if _, err := Open(context.Background(), again); !isUsage(err, "is not the program run/run.json recorded") {
		t.Errorf("a changed program: %v, want a usage error", err)
	}
}

// TestOpenRefuses: a corpus that is not there and a run directory that
// holds other files are usage errors, and leave nothing behind.
func TestOpenRefuses(t *testing.T) {
	t.Chdir(t.TempDir())
	var said []string
	opt := options(t, &said, "dlx")
	opt.Settings.Corpora = []string{"none.txt"}
	if _, err := Open(context.Background(), opt); !isUsage(err, "none.txt") {
		t.Errorf("a missing corpus: %v", err)
	}
	opt = options(t, &said, "dlx")
	os.Mkdir("full", 0o755)
	os.WriteFile(filepath.Join("full", "x"), nil, 0o644)
	opt.Out = "full"
	if _, err := Open(context.Background(), opt); !isUsage(err, "full") {
		t.Errorf("-out a directory with files: %v", err)
	}
	if _, err := os.Stat(rundir.DefaultRoot); err == nil {
		t.Error("results/ was made for a sweep that did not start")
	}
}

func isUsage(err error, want string) bool {
	_, ok := errors.AsType[*UsageError](err)
	return ok && strings.Contains(err.Error(), want)
}

// TestVerdictMostSeriousFirst: how a sweep ends, the most serious of
// what went wrong first, each message naming the rows and how to go on.
func TestVerdictMostSeriousFirst(t *testing.T) {
	t.Chdir(t.TempDir())
	var said []string
	opt := options(t, &said, "dlx")
	opt.Out = "run"
	sw, err := Open(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer sw.Close()
	res := sw.Run()
	if _, interrupted, err := sw.Verdict(res, nil); err != nil || interrupted {
		t.Fatalf("a sweep that went well: %v, interrupted %v", err, interrupted)
	}
	reportErr := errors.New("the report")
	for _, tc := range []struct {
		name        string
		change      func(r *Result)
		notes       int
		interrupted bool
		want        string
	}{
		{"write error", func(r *Result) { r.Err = errors.New("disk full"); r.Stats.Interrupted = true },
			0, false, "disk full (the rows done so far are in run; finish with: batch -resume -out run)"},
		{"interrupted", func(r *Result) { r.Stats.Interrupted, r.Stats.Wrong = true, 2 },
			1, true, "interrupted: 3 rows in " + filepath.Join("run", rundir.ResultsFile) + "; finish with: batch -resume -out run"},
		{"corpora", func(r *Result) {
			r.Stats.Wrong = 1
			r.Stats.Corpora = []rundir.CorpusInfo{{Error: "a.txt: line 3: read error"}, {Error: "b.txt: gone"}}
		}, 1, false, "b.txt: gone (the rows of the puzzles read before it are in"},
		{"wrong", func(r *Result) { r.Stats.Wrong = 1 }, 0, false, "1 wrong answer (status wrong in"},
		{"report", func(r *Result) { r.Stats.Retime.Error = "x" }, 0, false, "the report"},
		{"retime", func(r *Result) { r.Stats.Retime.Error = "disk full" }, 0, false, "disk full (every row is in"},
	} {
		r := *res
		st := *res.Stats
		r.Stats = &st
		tc.change(&r)
		re := reportErr
		if tc.name != "report" {
			re = nil
		}
		notes, interrupted, err := sw.Verdict(&r, re)
		if err == nil || !strings.Contains(err.Error(), tc.want) || interrupted != tc.interrupted || len(notes) != tc.notes {
			t.Errorf("%s: %v (interrupted %v, notes %q); want %q, interrupted %v, %d notes", tc.name, err, interrupted, notes, tc.want, tc.interrupted, tc.notes)
		}
	}
}

// TestFitProcs: a sweep of fewer workers than processors runs on as many
// processors as workers, unless GOMAXPROCS is set in the environment.
func TestFitProcs(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
	runtime.GOMAXPROCS(4)
	none := func(string) string { return "" }
	FitProcs(8, none)
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("8 workers: GOMAXPROCS %d, want 4", got)
	}
	FitProcs(2, func(k string) string {
		if k == "GOMAXPROCS" {
			return "4"
		}
		return ""
	})
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("2 workers, GOMAXPROCS=4 in the environment: GOMAXPROCS %d, want 4", got)
	}
	if was := FitProcs(2, none); was != 4 {
		t.Errorf("2 workers: FitProcs returned %d, want the 4 there were", was)
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("2 workers: GOMAXPROCS %d, want 2", got)
	}
	// A sweep's Close gives the processors back: a process that sweeps
	// again (the command's tests do, in process) starts from them.
	runtime.GOMAXPROCS(4)
	s := &Sweep{procs: FitProcs(1, none)}
	s.Close()
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("after Close: GOMAXPROCS %d, want 4", got)
	}
	// A GOMAXPROCS the runtime does not take (not a count above 0) is
	// not set: the process has the processors it would have without it.
	for _, v := range []string{"0", "-1", "abc", " "} {
		runtime.GOMAXPROCS(4)
		FitProcs(1, func(k string) string {
			if k == "GOMAXPROCS" {
				return v
			}
			return ""
		})
		if got := runtime.GOMAXPROCS(0); got != 1 {
			t.Errorf("1 worker, GOMAXPROCS=%q in the environment (the runtime ignores it): GOMAXPROCS %d, want 1", v, got)
		}
	}
}
