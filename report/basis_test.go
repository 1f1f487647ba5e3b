package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// basisRow is a row of the synthetic runs of the time basis tests.
type basisRow struct {
	id       int
	solver   string
	status   solvers.Status
	ns, self int64
}

// basisRows are six puzzles of three strategies: bitboard (built in);
// ext, with a time of its own on every answer (and none on its timeout),
// whose own times run opposite to its round trips (#0 the slowest by
// its own time, #4 by the round trip); ext2, with its own time on every
// answer but #3's.
func basisRows() []basisRow {
	var rows []basisRow
	for id := range 6 {
		rows = append(rows, basisRow{id, "bitboard", solvers.StatusSolved, int64(1000 * (id + 1)), 0})
		switch {
		case id < 5:
			rows = append(rows, basisRow{id, "ext", solvers.StatusSolved, int64(100_000 * (id + 1)), int64(50_000 * (6 - id))})
		default:
			rows = append(rows, basisRow{id, "ext", solvers.StatusTimeout, 9_000_000, 0})
		}
		self := int64(40_000 * (6 - id))
		if id == 3 {
			self = 0
		}
		rows = append(rows, basisRow{id, "ext2", solvers.StatusSolved, int64(200_000 * (id + 1)), self})
	}
	return rows
}

// writeBasisRun writes a run directory of rows, with a run.json that
// records ext and ext2 as external solvers.
func writeBasisRun(t *testing.T, rows []basisRow) string {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	w := rundir.NewWriter(&b)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		row := rundir.Row{ID: r.id, Line: r.id + 1, Solver: r.solver, Status: r.status, NS: r.ns, Calls: uint64(10 * (r.id + 1)),
			Filled: 64, Clues: 17, Solutions: -1, Seed: 1, Corpus: "c.txt", Runs: 3, NSMin: r.ns, NSMedian: r.ns, SelfNS: r.self}
		if err := w.Write(&row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.ResultsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := rundir.ReadManifest(filepath.Join("testdata", "mini"))
	if err != nil {
		t.Fatal(err)
	}
	m.Settings.Solvers = []string{"bitboard", "ext", "ext2"}
	m.Settings.Corpora = []string{"c.txt"}
	m.Corpora[0].Path, m.Corpora[0].Puzzles, m.Corpora[0].Invalid = "c.txt", 6, 0
	m.Rows = len(rows)
	for i, name := range []string{"ext", "ext2"} {
		m.Settings.External = append(m.Settings.External, rundir.External{Name: name, Command: "./" + name + " -q",
			Args: []string{"./" + name, "-q"}, Executable: "/tmp/" + name, SHA256: strings.Repeat(string(rune('a'+i)), 64),
			Reported: name + "solver", Version: "1.2", Caps: []string{"ns"}, NullNS: 21_000 + int64(i), NullP99NS: 48_000})
	}
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadBasisRun(t *testing.T, rows []basisRow) *Run {
	t.Helper()
	run, err := LoadRun(context.Background(), writeBasisRun(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func TestTimeBasisPerStrategy(t *testing.T) {
	run := loadBasisRun(t, basisRows())
	for _, tt := range []struct {
		solver string
		want   TimeBasis
	}{{"bitboard", BasisRoundTrip}, {"ext", BasisSelf}, {"ext2", BasisRoundTrip}} {
		ser := run.Results.Solver(tt.solver)
		if got := ser.Basis(); got != tt.want {
			t.Errorf("%s: basis %q, want %q", tt.solver, got, tt.want)
		}
	}
	// ext's times are its own where it has one, the round trip on its
	// timeout; ext2's are the round trips.
	want := map[string]func(r basisRow) int64{
		"bitboard": func(r basisRow) int64 { return r.ns },
		"ext": func(r basisRow) int64 {
			if r.self > 0 {
				return r.self
			}
			return r.ns
		},
		"ext2": func(r basisRow) int64 { return r.ns },
	}
	for _, r := range basisRows() {
		ser := run.Results.Solver(r.solver)
		i := int(r.id)
		if got, w := ser.NS(i), want[r.solver](r); got != w {
			t.Errorf("%s #%d: NS %d, want %d", r.solver, r.id, got, w)
		}
		if e := ser.At(i); e.NS != ser.NS(i) || e.SelfNS != r.self {
			t.Errorf("%s #%d: At gives NS %d SelfNS %d, want %d and %d", r.solver, r.id, e.NS, e.SelfNS, ser.NS(i), r.self)
		}
		if got := ser.RoundTripNS(i); got != r.ns {
			t.Errorf("%s #%d: round trip %d, want %d", r.solver, r.id, got, r.ns)
		}
		if got := ser.RoundTrip().NS(i); got != r.ns {
			t.Errorf("%s #%d: RoundTrip().NS %d, want %d", r.solver, r.id, got, r.ns)
		}
	}
}

// TestTimeBasisNeedsEveryAnswer: a strategy is ranked by its own time
// only when every answered unit (solved, unsolvable, stuck, wrong) has
// one; units that did not answer (timeout, error) do not count.
func TestTimeBasisNeedsEveryAnswer(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status solvers.Status // of the unit with no time of its own
		want   TimeBasis
	}{
		{"unsolvable", solvers.StatusUnsolvable, BasisRoundTrip},
		{"stuck", solvers.StatusStuck, BasisRoundTrip},
		{"wrong", solvers.StatusWrong, BasisRoundTrip},
		{"timeout", solvers.StatusTimeout, BasisSelf},
		{"error", solvers.StatusError, BasisSelf},
		{"unsupported", solvers.StatusUnsupported, BasisSelf},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := &Results{Corpora: []string{"c.txt"}}
			res.Add("x", Entry{ID: 0, Line: 1, Status: tt.status, NS: 500}) // first: before any self time
			res.Add("x", Entry{ID: 1, Line: 2, Status: solvers.StatusSolved, NS: 700, SelfNS: 300})
			if got := res.Solver("x").Basis(); got != tt.want {
				t.Errorf("basis %q, want %q", got, tt.want)
			}
		})
	}
	res := &Results{Corpora: []string{"c.txt"}}
	res.Add("x", Entry{ID: 0, Line: 1, Status: solvers.StatusTimeout, NS: 500, SelfNS: 200})
	if got := res.Solver("x").Basis(); got != BasisRoundTrip {
		t.Errorf("no answer at all: basis %q, want the round trip", got)
	}
}

// TestRankingFollowsSelfTime: ext's own times run opposite to its round
// trips; its ranking, statistics and hard list follow its own times.
func TestRankingFollowsSelfTime(t *testing.T) {
	run := loadBasisRun(t, basisRows())
	s := Summarize(run.Results, SummaryOptions{Manifest: run.Manifest})
	byName := map[string]*StrategySummary{}
	for _, st := range s.Strategies {
		byName[st.Solver] = st
	}
	ext := byName["ext"]
	// The timeout (9ms round trip) ranks first, then #0, the slowest by
	// its own time (300µs), then #1.
	var got []int
	for _, u := range ext.ByTime {
		got = append(got, u.Puzzle.ID)
	}
	if want := []int{5, 0, 1, 2, 3, 4}; !equalInts(got, want) {
		t.Errorf("ext ranked by time %v, want %v", got, want)
	}
	// Its own times, 100µs to 300µs, and the timeout's 9ms round trip:
	// the median of the 6 is the lower middle one, 200µs (by the round
	// trips, 100µs to 500µs and 9ms, it would be 300µs).
	if v := ext.TimeNS.Median.Value; v != 200_000 {
		t.Errorf("ext median %v, want 200000 (its own times)", v)
	}
	if ext.TotalNS != 100_000+150_000+200_000+250_000+300_000+9_000_000 {
		t.Errorf("ext total %d, want the sum of its own times and the timeout's round trip", ext.TotalNS)
	}
	// ext2 follows its round trips: #5 first.
	if u := byName["ext2"].ByTime[0]; u.Puzzle.ID != 5 || u.NS != 1_200_000 {
		t.Errorf("ext2's slowest is #%d at %d ns, want #5 at 1200000 (the round trip)", u.Puzzle.ID, u.NS)
	}
	if u := byName["bitboard"].ByTime[0]; u.Puzzle.ID != 5 {
		t.Errorf("bitboard's slowest is #%d, want #5", u.Puzzle.ID)
	}
	// show's ranks agree with the summary's.
	for _, r := range RankPuzzle(run.Results, "c.txt", 0) {
		if r.Solver == "ext" && r.Unit.RankTime != 2 {
			t.Errorf("show ranks ext's #0 %d by time, want 2", r.Unit.RankTime)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSummaryStatesTimeBasis: summary.json has each strategy's basis
// and, for an external one, its program and null round trip;
// summary.md, the terminal text, summary.bench and the page say which
// time ranks each external strategy.
func TestSummaryStatesTimeBasis(t *testing.T) {
	run := loadBasisRun(t, basisRows())
	s := Summarize(run.Results, SummaryOptions{Manifest: run.Manifest})
	var js bytes.Buffer
	if err := s.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Strategies []struct {
			Solver    string           `json:"solver"`
			TimeBasis string           `json:"time_basis"`
			External  *ExternalSummary `json:"external"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"bitboard": "round trip", "ext": "self", "ext2": "round trip"}
	for _, st := range decoded.Strategies {
		if st.TimeBasis != want[st.Solver] {
			t.Errorf("summary.json: %s time_basis %q, want %q", st.Solver, st.TimeBasis, want[st.Solver])
		}
		switch {
		case st.Solver == "bitboard" && st.External != nil:
			t.Errorf("summary.json: bitboard has an external program")
		case st.Solver != "bitboard" && st.External == nil:
			t.Errorf("summary.json: %s has no external program", st.Solver)
		case st.Solver == "ext":
			x := st.External
			if x.NullNS != 21_000 || x.NullP99NS != 48_000 || x.Reported != "extsolver" || x.Version != "1.2" ||
				x.Short != strings.Repeat("a", 12) || x.Command != "./ext -q" {
				t.Errorf("summary.json: ext's program %+v", *x)
			}
		}
	}

	var md, txt, bench bytes.Buffer
	for _, w := range []func() error{func() error { return s.WriteMarkdown(&md) }, func() error { return s.WriteText(&txt, 1000) },
		func() error { return s.WriteBench(&bench) }} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ where, text, want string }{
		{"summary.md", md.String(), "### Time basis"},
		{"summary.md", md.String(), "- `ext`: ranked by its own time (self\\_ns): each of its 5 answers reported one. Program `extsolver`, version `1.2`, SHA-256 `aaaaaaaaaaaa`…, command `./ext -q`; null round trip 21.0µs median, 48.0µs p99."},
		{"summary.md", md.String(), "- `ext2`: ranked by the round trip less the null round trip: 1 of its 6 answers reported no time of its own. Program"},
		{"summary.md", md.String(), "- `bitboard`: the tool's time of each Solve."},
		{"terminal", txt.String(), "ext: ranked by its own time (self_ns): each of its 5 answers reported one. Program extsolver 1.2 (sha256 aaaaaaaaaaaa), null round trip 21.0µs median, 48.0µs p99.\n"},
		{"terminal", txt.String(), "ext2: ranked by the round trip less the null round trip: 1 of its 6 answers reported no time of its own. Program ext2solver 1.2 (sha256 bbbbbbbbbbbb)"},
		{"summary.bench", bench.String(), "# ext: ranked by its own time (self_ns)"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("%s lacks %q:\n%s", c.where, c.want, c.text)
		}
	}
	if strings.Contains(txt.String(), "bitboard: ranked") {
		t.Errorf("the terminal text names bitboard's basis:\n%s", txt.String())
	}

	dir := t.TempDir()
	if err := WritePage(context.Background(), dir, run.Results, s, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<p class="meta" id="time-basis"><b>Time basis.</b> <b>ext</b>: ranked by its own time (self_ns)`,
		`<b>ext2</b>: ranked by the round trip less the null round trip`,
		`<b>ext</b><small>own time</small>`,
		`<b>ext2</b><small>round trip</small>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "<b>bitboard</b><small>") {
		t.Errorf("the page tags bitboard's basis")
	}
}

// TestSummaryOfBuiltinsHasNoBasisNote: a run of built-in strategies
// says nothing of time bases but the field of summary.json.
func TestSummaryOfBuiltinsHasNoBasisNote(t *testing.T) {
	s := loadMini(t, miniOptions(t))
	var md, txt bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFullText(&txt, 1000); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{md.String(), txt.String()} {
		if strings.Contains(out, "Time basis") || strings.Contains(out, "ranked by") {
			t.Errorf("a run of built-in strategies names time bases:\n%s", out)
		}
	}
	for _, st := range s.Strategies {
		if st.TimeBasis != BasisRoundTrip {
			t.Errorf("%s: basis %q", st.Solver, st.TimeBasis)
		}
	}
}

// TestCompareDifferentBasesComparesRoundTrips: ext is ranked by its own
// time in OLD and by the round trip in NEW (one answer without a time of
// its own): compare says so and compares the round trips of both.
func TestCompareDifferentBasesComparesRoundTrips(t *testing.T) {
	oldRows := basisRows()
	newRows := basisRows()
	for i := range newRows {
		if newRows[i].solver == "ext" && newRows[i].id == 2 {
			newRows[i].self = 0
		}
	}
	oldRun, newRun := loadBasisRun(t, oldRows), loadBasisRun(t, newRows)
	if oldRun.Results.Solver("ext").Basis() != BasisSelf || newRun.Results.Solver("ext").Basis() != BasisRoundTrip {
		t.Fatal("the runs do not differ in ext's basis")
	}
	c, err := Compare(context.Background(), oldRun, newRun, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ext *StrategyDiff
	for _, d := range c.Strategies {
		if d.Solver == "ext" {
			ext = d
		}
	}
	if ext.TimeBasis != BasisRoundTrip || ext.TimeBasisOld != BasisSelf || ext.TimeBasisNew != BasisRoundTrip {
		t.Errorf("ext compared by %q (OLD %q, NEW %q), want the round trip (OLD self, NEW round trip)",
			ext.TimeBasis, ext.TimeBasisOld, ext.TimeBasisNew)
	}
	// The same rows on both sides: by the round trip, every ratio is 1
	// (by OLD's own times against NEW's round trips, it would not be).
	if ext.MedianRatio.Value != 1 || ext.MedianOldNS.Value != ext.MedianNewNS.Value || ext.MedianOldNS.Value != 300_000 {
		t.Errorf("ext: medians %v and %v, ratio %v: want the round trips' 300µs on both sides",
			ext.MedianOldNS.Value, ext.MedianNewNS.Value, ext.MedianRatio.Value)
	}
	warned := false
	for _, w := range c.Warnings {
		warned = warned || strings.Contains(w, "ext is ranked by its own time in OLD and by the round trip in NEW")
	}
	if !warned {
		t.Errorf("no warning of ext's bases: %q", c.Warnings)
	}
	var txt bytes.Buffer
	if err := c.WriteText(&txt, 1000); err != nil {
		t.Fatal(err)
	}
	if want := "Times of ext: the round trip in both runs (one run ranks it by its own time, the other by the round trip).\n"; !strings.Contains(txt.String(), want) {
		t.Errorf("compare's text lacks %q:\n%s", want, txt.String())
	}
	pairs, err := c.Pairs(context.Background(), oldRun, newRun, "ext")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if p.Old.NS != p.New.NS {
			t.Errorf("pair #%d: OLD %d ns, NEW %d ns: not the round trips of both", p.Old.ID, p.Old.NS, p.New.NS)
		}
	}
	// Same bases: ext compared by its own time, no warning about it.
	c, err = Compare(context.Background(), oldRun, loadBasisRun(t, oldRows), CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Strategies {
		if d.Solver == "ext" && (d.TimeBasis != BasisSelf || d.MedianOldNS.Value != 200_000) {
			t.Errorf("same bases: ext compared by %q, median %v; want its own, 200µs", d.TimeBasis, d.MedianOldNS.Value)
		}
	}
	txt.Reset()
	if err := c.WriteText(&txt, 1000); err != nil {
		t.Fatal(err)
	}
	if want := "Times of ext: its own (self_ns) in both runs.\n"; !strings.Contains(txt.String(), want) {
		t.Errorf("compare's text lacks %q:\n%s", want, txt.String())
	}
	for _, w := range c.Warnings {
		if strings.Contains(w, "ranked by") {
			t.Errorf("same bases, warning %q", w)
		}
	}
}

// writeNullRun writes a run of one external solver x whose six units
// have the round trips rts, with the null round trip of its sweep and
// the capabilities caps in run.json; units cached are re-timed, not taken
// (retimed=cache).
func writeNullRun(t *testing.T, rts []int64, null rundir.NullRoundTrip, caps []string, cached int) *Run {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	w := rundir.NewWriter(&b)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	for id, ns := range rts {
		row := rundir.Row{ID: id, Line: id + 1, Solver: "x", Status: solvers.StatusSolved, NS: ns, Calls: uint64(id + 1),
			Filled: 64, Clues: 17, Solutions: -1, Seed: 1, Corpus: "c.txt", Runs: 1, NSMin: ns, NSMedian: ns}
		if id < cached {
			row.Retimed = rundir.RetimedCache
		}
		if err := w.Write(&row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.ResultsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := rundir.ReadManifest(filepath.Join("testdata", "mini"))
	if err != nil {
		t.Fatal(err)
	}
	m.Settings.Solvers, m.Settings.Corpora = []string{"x"}, []string{"c.txt"}
	m.Corpora[0].Path, m.Corpora[0].Puzzles, m.Corpora[0].Invalid = "c.txt", len(rts), 0
	m.Rows = len(rts)
	m.Settings.External = []rundir.External{{Name: "x", Command: "./x", Args: []string{"./x"}, Executable: "/tmp/x",
		SHA256: strings.Repeat("c", 64), Reported: "xsolver", Version: "1", Caps: caps}}
	null.Name = "x"
	m.Segments[0].Timing = &rundir.Timing{Null: []rundir.NullRoundTrip{null}}
	if err := rundir.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	run, err := LoadRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestNullRoundTripBasis: an external solver that reports no time of its
// own is ranked by its round trip less the null round trip measured
// during the sweep when its round trips are far above the null, and by
// the round trip itself, the null beside, when they are near it (never a
// median of 0 ns).
func TestNullRoundTripBasis(t *testing.T) {
	null := rundir.NullRoundTrip{Samples: 500, MedianNS: 20_000, P10NS: 12_000, P90NS: 40_000, P99NS: 90_000}
	for _, tt := range []struct {
		name   string
		rts    []int64
		want   TimeBasis
		median int64
		note   string
	}{
		{"far above", []int64{900_000, 1_000_000, 1_100_000, 1_200_000, 1_300_000, 1_400_000}, BasisLessNull, 1_100_000 - 20_000,
			"x is ranked by the round trip less the null round trip (20.0µs median during the sweep)"},
		{"near", []int64{15_000, 18_000, 21_000, 24_000, 27_000, 30_000}, BasisRoundTrip, 21_000,
			"x is ranked by the round trip, the null round trip beside (20.0µs median during the sweep, p10 12.0µs, p90 40.0µs)"},
		{"within the spread", []int64{41_000, 43_000, 45_000, 47_000, 49_000, 51_000}, BasisRoundTrip, 45_000,
			"its median round trip (45.0µs) is too near the null"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := writeNullRun(t, tt.rts, null, []string{"calls", "guesses"}, 0)
			ser := run.Results.Solver("x")
			if got := ser.Basis(); got != tt.want {
				t.Errorf("basis %q, want %q", got, tt.want)
			}
			if note := ser.BasisNote(); !strings.Contains(note, tt.note) {
				t.Errorf("note %q lacks %q", note, tt.note)
			}
			s := Summarize(run.Results, SummaryOptions{Manifest: run.Manifest})
			if v := s.Strategies[0].TimeNS.Median.Value; int64(v) != tt.median {
				t.Errorf("median %v, want %d", v, tt.median)
			}
			if x := s.Strategies[0].External; x == nil || x.NullNS != 20_000 || x.NullSamples != 500 {
				t.Errorf("the summary's program: %+v, want the null of the sweep", x)
			}
		})
	}
}

// TestUndeclaredCountersAbsent: an external solver that declares calls
// only has no guess figures (absent, "–"), not a no-guess share of 100%
// and 0 guesses a puzzle; one that declares none has no call figures.
func TestUndeclaredCountersAbsent(t *testing.T) {
	null := rundir.NullRoundTrip{Samples: 10, MedianNS: 1000, P10NS: 900, P90NS: 1100, P99NS: 1200}
	rts := []int64{10_000, 20_000, 30_000, 40_000, 50_000, 60_000}
	s := Summarize(writeNullRun(t, rts, null, []string{"calls", "ns"}, 0).Results, SummaryOptions{})
	st := s.Strategies[0]
	if st.NoGuessPct.Bound != BoundAbsent || st.GuessesPerPuzzle.Bound != BoundAbsent || st.Calls.Median.Bound == BoundAbsent {
		t.Errorf("calls declared, guesses not: no guess %+v, guesses %+v, calls %+v", st.NoGuessPct, st.GuessesPerPuzzle, st.Calls.Median)
	}
	var txt bytes.Buffer
	if err := s.WriteFullText(&txt, 1000); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(txt.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "no" || strings.HasPrefix(line, "  guesses/puzzle")) && !strings.HasSuffix(line, "–") {
			t.Errorf("an undeclared counter's figure: %q", line)
		}
	}
	s = Summarize(writeNullRun(t, rts, null, nil, 0).Results, SummaryOptions{})
	if st := s.Strategies[0]; st.Calls.Median.Bound != BoundAbsent || len(st.ByCalls) != 0 {
		t.Errorf("no counter declared: calls %+v, %d ranked by calls", st.Calls.Median, len(st.ByCalls))
	}
}

// TestCachedRowsSayWhy: rows whose re-timing was not taken because the
// strategy caches are not confirmed, and the basis note says why.
func TestCachedRowsSayWhy(t *testing.T) {
	null := rundir.NullRoundTrip{Samples: 10, MedianNS: 1000, P10NS: 900, P90NS: 1100, P99NS: 1200}
	run := writeNullRun(t, []int64{20e6, 21e6, 22e6, 23e6, 24e6, 25e6}, null, []string{"calls"}, 4)
	ser := run.Results.Solver("x")
	if note := ser.BasisNote(); !strings.Contains(note, "answered repeated requests at least 4 times faster than first ones, as a cache does") ||
		!strings.Contains(note, "the re-timing of 4 units not taken") {
		t.Errorf("note %q does not say why", note)
	}
	for i := range 4 {
		if ser.Timing(i)&Confirmed != 0 {
			t.Errorf("row %d: a cached row's time counts as confirmed", i)
		}
	}
}
