package show

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/variants"
)

// Puzzles #0, #2018 and #8145 of the 17-clue corpus, and a line that is
// not a puzzle.
const lines = "000000010400000000020000000000050407008000300001090000300400200050100000000806000\n" +
	"000002910320080000000000000019000500000300000000070000704600003000001000600000000\n" +
	"000300010070090000200000000040000607005100000000800000103000000000070500860000000\n" +
	"12345\n"

// foreign is a strategy of another program (an external solver of a
// run): unknown to the registry.
type foreign struct{}

func (foreign) Name() string { return "py" }
func (foreign) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	return solvers.Result{Status: solvers.StatusUnsolvable}
}

// sweep writes the corpus lines into dir/c.txt and sweeps it with
// strategies ss into the run directory dir/run under seed 7; it returns
// the corpus and the run's directory.
func sweep(t *testing.T, dir string, ss ...solvers.Solver) (string, string) {
	t.Helper()
	path := filepath.Join(dir, "c.txt")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	infos, err := corpus.Identify(ctx, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ss {
		names = append(names, s.Name())
	}
	m := &rundir.Manifest{Tool: "sudokubatch", RunID: "run", Start: time.Now().UTC(), Corpora: infos,
		Settings: rundir.Settings{Solvers: names, Corpora: []string{path}, Seed: 7, Runs: 1}}
	if names[len(names)-1] == "py" {
		m.Settings.External = []rundir.External{{Name: "py", Args: []string{"py"}, SHA256: strings.Repeat("0", 64)}}
	}
	out := filepath.Join(dir, "run")
	d, err := rundir.Create(out, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Begin(rundir.Segment{Start: time.Now().UTC(), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	st, runErr := pipeline.Run(ctx, pipeline.Config{Corpora: []string{path}, Solvers: ss, Workers: 1, Seed: 7, Runs: 1,
		Sink: d, Known: infos})
	status, why := st.Status(runErr)
	if err := d.Close(status, why); err != nil || runErr != nil {
		t.Fatal(err, runErr)
	}
	return path, out
}

func strategies(t *testing.T, names ...string) []solvers.Solver {
	t.Helper()
	ss, err := solvers.Resolve(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestFindAndSolveInARun: the puzzle of a run's corpus is found there,
// placed in the run, solved under the run's seed with every answer
// checked, its solutions counted, and ranked among the run's units.
func TestFindAndSolveInARun(t *testing.T) {
	ctx := context.Background()
	path, out := sweep(t, t.TempDir(), strategies(t, "dlx", "bitboard")...)
	run, runDir, err := LoadRun(ctx, out, true)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Find(ctx, Request{ID: 2018, Run: run, RunDir: runDir, RunNamed: true})
	if err == nil || !strings.Contains(err.Error(), "corpus c.txt has 4 puzzles") && !strings.Contains(err.Error(), "no puzzle #2018") {
		t.Fatalf("#2018 of a corpus of 4: %v, want no such puzzle", err)
	}
	p, warns, err := Find(ctx, Request{ID: 1, Run: run, RunDir: runDir, RunNamed: true})
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	if p.Show.Corpus != path || p.Index != 0 || p.Run == nil || p.Seed() != 7 || p.Show.Entry.ID != 1 {
		t.Errorf("found %+v in the run, seed %d", p, p.Seed())
	}
	warn, err := p.Solve(ctx, strategies(t, "norvig", "dlx"), time.Second, 0, p.Seed())
	if err != nil || warn != "" {
		t.Fatal(err, warn)
	}
	if len(p.Show.Units) != 2 || p.Show.Solutions != 1 {
		t.Fatalf("%d units, %d solutions", len(p.Show.Units), p.Show.Solutions)
	}
	for _, u := range p.Show.Units {
		sol, err := solvers.ParsePuzzle(u.Solution)
		if u.Status != solvers.StatusSolved || err != nil || solvers.Check(p.Show.Entry.Puzzle, sol.Grid) != nil {
			t.Errorf("%s: %s, a solution that fails the check: %q", u.Solver, u.Status, u.Solution)
		}
		if want := pipeline.PuzzleSeed(7, 0, 1); u.Seed != want {
			t.Errorf("%s: seed %d, want the run's %d", u.Solver, u.Seed, want)
		}
	}
	if len(p.Show.Ranks) != 2 || !p.Show.Ranks[0].Found || p.Show.RunSize != 4 {
		t.Errorf("ranks %+v in a run of %d puzzles", p.Show.Ranks, p.Show.RunSize)
	}
}

// TestFindRefuses: a puzzle beyond the corpus, a line that is not a
// puzzle and a corpus not in a run that was named are refused, saying
// why; without a run the show says so instead of ranks.
func TestFindRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, out := sweep(t, dir, strategies(t, "dlx")...)
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte(lines[:82]), 0o644)
	run, runDir, err := LoadRun(ctx, out, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{Request{ID: 9, Corpus: path}, "corpus " + path + " has 4 puzzles (ids 0 to 3): no puzzle #9"},
		{Request{ID: 3, Corpus: path}, "puzzle #3 is not a puzzle"},
		{Request{ID: 0, Corpus: other, Run: run, RunDir: runDir, RunNamed: true}, "corpus " + other + " is not a corpus of run " + out},
		{Request{ID: 0, Corpus: filepath.Join(dir, "none.txt")}, "looking for puzzle #0"},
	} {
		if _, _, err := Find(ctx, tc.r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.r, err, tc.want)
		}
	}
	p, _, err := Find(ctx, Request{ID: 0, Corpus: other, Run: run, RunDir: runDir})
	if err != nil || p.Run != nil || p.Seed() != 1 || !strings.HasPrefix(p.Show.RunNote, "No ranks: "+out+" is a run over") {
		t.Errorf("a corpus not in results/latest's run: %v, %+v", err, p)
	}
	p, _, err = Find(ctx, Request{ID: 0, Corpus: path})
	if err != nil || p.Show.RunNote != "No ranks: no run in results/latest (rank in a run with -run DIR)." {
		t.Errorf("no run: %v, note %q", err, p.Show.RunNote)
	}
	if err := p.Transform("R876543210C876543210"); err != nil || p.Show.Transform == "" || p.Show.Entry.Puzzle.Grid == solvers.MustParse(lines[:81]).Grid {
		t.Errorf("the 180-degree turn: %v, %q", err, p.Show.Transform)
	}
}

// TestSolversOfARunWithAnExternalOne: the external solver of a run that
// -ext does not give is listed from the run's rows only, and a list
// naming it alone runs nothing now; given with -ext, it runs.
func TestSolversOfARunWithAnExternalOne(t *testing.T) {
	_, out := sweep(t, t.TempDir(), append(strategies(t, "dlx"), foreign{})...)
	run, err := report.LoadRun(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		list          string
		ext           []string
		names, fromRn []string
	}{
		{"all", nil, solvers.Names(), []string{"py"}},
		{"py,dlx", nil, []string{"dlx"}, []string{"py"}},
		{"py", nil, nil, []string{"py"}},
		{"py,dlx", []string{"py"}, []string{"py", "dlx"}, nil},
	} {
		names, fromRun, err := Solvers(tc.list, run, tc.ext)
		if err != nil || !slices.Equal(names, tc.names) || !slices.Equal(fromRun, tc.fromRn) {
			t.Errorf("Solvers(%q, ext %q) = %q, %q, %v; want %q, %q", tc.list, tc.ext, names, fromRun, err, tc.names, tc.fromRn)
		}
	}
	if _, _, err := Solvers("nope", run, nil); err == nil {
		t.Error("an unknown strategy is taken")
	}
	if got := NotRunNote([]string{"py"}); got != "Not run now: py, an external solver of the run: show cannot start it without its command (-ext NAME=COMMAND); it is listed from the run's rows only." {
		t.Errorf("NotRunNote: %q", got)
	}
}

// TestRunMedians: the corpus medians come from the run's summary.json
// when it is the run's, and why not otherwise.
func TestRunMedians(t *testing.T) {
	ctx := context.Background()
	_, out := sweep(t, t.TempDir(), strategies(t, "dlx")...)
	run, runDir, err := LoadRun(ctx, out, true)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := Find(ctx, Request{ID: 0, Run: run, RunDir: runDir, RunNamed: true})
	if err != nil {
		t.Fatal(err)
	}
	if m, why := p.RunMedians(); len(m) != 0 || !strings.HasPrefix(why, "no summary.json in "+out) {
		t.Errorf("no summary.json: %v, %q", m, why)
	}
	sum := report.Summarize(run.Results, report.SummaryOptions{Manifest: run.Manifest})
	if err := report.WriteSummaryFiles(out, sum); err != nil {
		t.Fatal(err)
	}
	m, why := p.RunMedians()
	if why != "" || m["dlx"].Calls <= 0 || m["dlx"].From != "run "+out+" (3 puzzles)" {
		t.Errorf("medians %+v, %q", m, why)
	}
	p.Run.Manifest.RunID = "another"
	if _, why := p.RunMedians(); !strings.Contains(why, "is not the run's") {
		t.Errorf("a summary of another run: %q", why)
	}
}

// TestCorpusMediansFromASample: without a run, the medians come from a
// sample of the corpus (here the default one: the puzzle's has fewer
// than variants.MinSampleCorpus puzzles), and it says so; -sample 0
// gives none, silently.
func TestCorpusMediansFromASample(t *testing.T) {
	ctx := context.Background()
	path, _ := sweep(t, t.TempDir(), strategies(t, "dlx")...)
	p, _, err := Find(ctx, Request{ID: 0, Corpus: path})
	if err != nil {
		t.Fatal(err)
	}
	cfg := variants.Config{Solvers: strategies(t, "dlx", "bitboard"), Workers: 1, Timeout: time.Second, RunSeed: 1}
	var said []string
	say := func(s string) { said = append(said, s) }
	m, err := p.CorpusMedians(ctx, cfg, []string{"dlx"}, 2, path, say)
	if err != nil {
		t.Fatal(err)
	}
	if m["dlx"].Calls <= 0 || m["dlx"].From != "a sample of 2 puzzles of "+path || len(m) != 1 {
		t.Errorf("medians %+v", m)
	}
	if want := "corpus medians of dlx from a sample of 2 puzzles of " + path + " (timeout 1s)…"; len(said) != 1 || said[0] != want {
		t.Errorf("said %q, want %q", said, want)
	}
	said = nil
	if m, err := p.CorpusMedians(ctx, cfg, []string{"dlx"}, 0, path, say); err != nil || len(m) != 0 || len(said) != 0 {
		t.Errorf("-sample 0: %v, %v, said %q", m, err, said)
	}
}
