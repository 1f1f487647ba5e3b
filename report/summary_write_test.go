package report

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"sudokubatch/internal/golden"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// benchResult is one benchmark line of summary.bench, read as
// golang.org/x/perf/benchfmt reads it, with the configuration in force.
type benchResult struct {
	config map[string]string
	name   string
	iters  int
	values map[string]float64 // by unit
}

var benchKey = regexp.MustCompile(`^[a-z][^\sA-Z:]*$`)

// parseBench reads summary.bench by benchfmt's rules: a line "key:
// value" whose key begins with a lower-case letter and holds no space
// nor upper-case letter sets a configuration key; a line
// "Benchmark<name> <iterations> (<value> <unit>)..." is a result; a
// "Unit" line declares a unit's metadata; any other line is ignored
// (benchfmt skips it), and so must start with "#" here. A malformed
// benchmark line fails the test.
func parseBench(t *testing.T, text string) []benchResult {
	t.Helper()
	config := map[string]string{}
	var out []benchResult
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok && benchKey.MatchString(k) {
			config = maps.Clone(config)
			config[k] = v
			continue
		}
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "Benchmark"):
			if len(f) < 4 || len(f)%2 != 0 {
				t.Errorf("not a benchmark line: %q", l)
				continue
			}
			r := benchResult{config: config, name: strings.TrimPrefix(f[0], "Benchmark"), values: map[string]float64{}}
			var err error
			if r.iters, err = strconv.Atoi(f[1]); err != nil || r.iters <= 0 {
				t.Errorf("iterations %q in %q", f[1], l)
			}
			for i := 2; i < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Errorf("value %q in %q", f[i], l)
				}
				r.values[f[i+1]] = v
			}
			out = append(out, r)
		case strings.HasPrefix(l, "Unit "), strings.HasPrefix(l, "# "):
		default:
			t.Errorf("line %q is neither a benchmark, a configuration nor a comment", l)
		}
	}
	return out
}

// bench writes the summary.bench of s and reads it back.
func bench(t *testing.T, s *Summary) (string, []benchResult) {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteBench(&b); err != nil {
		t.Fatal(err)
	}
	return b.String(), parseBench(t, b.String())
}

func TestWriteBench(t *testing.T) {
	t.Run("mini", func(t *testing.T) {
		text, rs := bench(t, loadMini(t, miniOptions(t)))
		perSolver := map[string]int{}
		for _, r := range rs {
			perSolver[r.name]++
		}
		// One sample per group with a measured unit: ids 0..9 (5 invalid).
		if want := map[string]int{"Solve/backtrack": 9, "Solve/norvig": 9, "Solve/bruteforce": 1}; !reflect.DeepEqual(perSolver, want) {
			t.Errorf("samples %v, want %v:\n%s", perSolver, want, text)
		}
		wantConfig := map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Test CPU @ 1.00GHz", "pkg": "sudokubatch",
			"corpus": "testdata/mini.txt", "corpus-sha256": "000000000000", "revision": "0123456789ab (git)", "workers": "2"}
		if !reflect.DeepEqual(rs[0].config, wantConfig) {
			t.Errorf("configuration %v, want %v", rs[0].config, wantConfig)
		}
		for _, want := range []string{"# backtrack: 1 of 9 units stopped by a limit: its means are lower bounds\n",
			"BenchmarkSolve/bruteforce 1 100400000 ns/puzzle 104000 calls/puzzle 52000 guesses/puzzle\n"} {
			if !strings.Contains(text, want) {
				t.Errorf("summary.bench has no %q:\n%s", want, text)
			}
		}
	})
	// 100 puzzles, two strategies: 20 samples each of 5 puzzles, the
	// same groups whatever the order of the rows.
	var us []unit
	for _, solver := range []string{"a", "b"} {
		for id := range 100 {
			us = append(us, unit{solver, id, solvers.StatusSolved, int64(1000 + 10*id), uint64(id), uint64(id % 3)})
		}
	}
	s := Summarize(mkResults(us...), SummaryOptions{})
	text, rs := bench(t, s)
	if len(rs) != 2*BenchGroups {
		t.Fatalf("%d samples, want %d:\n%s", len(rs), 2*BenchGroups, text)
	}
	for i, r := range rs {
		k := i % BenchGroups
		// Group k: ids k, k+20, ..., k+80; mean id k+40.
		guesses := 0.0
		for id := k; id < 100; id += BenchGroups {
			guesses += float64(id%3) / 5
		}
		want := map[string]float64{"ns/puzzle": 1000 + 10*float64(k+40), "calls/puzzle": float64(k + 40), "guesses/puzzle": guesses}
		if r.iters != 5 || math.Abs(r.values["guesses/puzzle"]-guesses) > 1e-12 ||
			r.values["ns/puzzle"] != want["ns/puzzle"] || r.values["calls/puzzle"] != want["calls/puzzle"] {
			t.Errorf("sample %d: %d iterations, %v; want 5, %v", i, r.iters, r.values, want)
		}
	}
	if want := map[string]string{"pkg": "sudokubatch", "corpus": "c.txt"}; !reflect.DeepEqual(rs[0].config, want) {
		t.Errorf("configuration without run info %v, want %v", rs[0].config, want)
	}
	slices.Reverse(us[:100]) // each strategy's rows in reverse order
	slices.Reverse(us[100:])
	if again, _ := bench(t, Summarize(mkResults(us...), SummaryOptions{})); again != text {
		t.Errorf("the rows in another order give other samples:\n%s", golden.Diff(text, again))
	}

	t.Run("several corpora", func(t *testing.T) {
		m := &rundir.Manifest{Corpora: []rundir.CorpusInfo{{Path: "a.txt", SHA256: "aa"}, {Path: "b.txt", SHA256: "bb"}}}
		_, rs := bench(t, Summarize(mkResults(us...), SummaryOptions{Manifest: m}))
		sum := sha256.Sum256([]byte("aa\nbb\n"))
		if c := rs[0].config; c["corpus"] != "2 corpora" || c["corpus-sha256"] != hex.EncodeToString(sum[:])[:12] {
			t.Errorf("configuration %v", c)
		}
	})
}

func TestFormat(t *testing.T) {
	tests := []struct {
		f    func(float64) string
		in   float64
		want string
	}{
		{fmtNS, 850, "850ns"},
		{fmtNS, 12.5, "12.5ns"},
		{fmtNS, 36675, "36.7µs"},
		{fmtNS, 999.6e3, "1.00ms"},
		{fmtNS, 1128458, "1.13ms"},
		{fmtNS, 101393387, "101ms"},
		{fmtNS, 12.34e9, "12.3s"},
		{fmtNS, 0, "0ns"},
		{fmtCount, 1, "1"},
		{fmtCount, 999, "999"},
		{fmtCount, 1000, "1.00k"},
		{fmtCount, 6.7, "6.70"},
		{fmtCount, 10739712, "10.7M"},
		{fmtCount, 69175316, "69.2M"},
		{fmtSig3, 0.5, "0.500"},
		{fmtSig3, 0.0892, "0.0892"},
		{fmtSig3, 530, "530"},
		{fmtSig3, 18436.2, "18.4k"},
		{fmtSig3, 999.95, "1.00k"},
		{fmtMultiple, 1, "×1.00"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.in); got != tt.want {
			t.Errorf("format(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := fmtEstimate(Estimate{2e6, BoundLower}, fmtNS); got != "≥2.00ms" {
		t.Errorf("lower bound: %q", got)
	}
}

func TestWriteSummaryFilesError(t *testing.T) {
	s := loadMini(t, SummaryOptions{})
	dir := filepath.Join(t.TempDir(), "missing")
	if err := WriteSummaryFiles(dir, s); err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	// A file that exists is replaced in full.
	dir = t.TempDir()
	path := filepath.Join(dir, rundir.SummaryMarkdown)
	if err := os.WriteFile(path, []byte(strings.Repeat("old\n", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummaryFiles(dir, s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "old\n") || !strings.HasPrefix(string(got), "# Summary of testdata/mini.txt") {
		t.Errorf("summary.md not replaced:\n%.200s", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("summary.md mode %v (%v), want 0644", fi.Mode(), err)
	}
}

// exampleRows are the rows of the examples: two puzzles, backtrack
// stopped by its timeout on the first.
const exampleRows = `id,line,solver,status,ns,calls,guesses,backtracks,filled,clues,solutions,seed,solution,error,corpus
0,1,backtrack,timeout,101393387,10739712,5369869,5369843,27,17,,1,,deadline passed,sudoku17.txt
0,1,norvig,solved,36675,1,0,0,64,17,,1,,,sudoku17.txt
1,2,backtrack,solved,2893000,301277,150650,150626,64,17,,1,,,sudoku17.txt
1,2,norvig,solved,61000,7,6,3,64,17,,1,,,sudoku17.txt
`

func ExampleSummary_WriteFullText() {
	res, err := ReadResults(context.Background(), strings.NewReader(exampleRows), "results.csv")
	if err != nil {
		panic(err)
	}
	Summarize(res, SummaryOptions{}).WriteFullText(os.Stdout, 0)
	// Output:
	// sudoku17.txt: 2 puzzles, 2 strategies, 4 rows
	//
	//                        backtrack        norvig
	//   puzzles                      2             2
	//   solved                       1             2
	//   timeout                      1             0
	//   puzzles/s/core           ≤19.2         20.5k
	//   time median          2.89ms ±?     36.7µs ±?
	//   time p90             ≥101ms ±?     61.0µs ±?
	//   time p99             ≥101ms ±?     61.0µs ±?
	//   time trimmed mean   ≥52.1ms ±?  48.8µs ±316%
	//   time mean           ≥52.1ms ±?  48.8µs ±316%
	//   time max                ≥101ms        61.0µs
	//   time max at                 #0            #1
	//   calls median              301k             1
	//   calls p90               ≥10.7M             7
	//   calls p99               ≥10.7M             7
	//   calls trimmed mean      ≥5.52M          4.00
	//   calls mean              ≥5.52M          4.00
	//   calls max               ≥10.7M             7
	//   calls max at                #0            #1
	//   no guess                  0.0%         50.0%
	//   guesses/puzzle          ≥2.76M          3.00
	//
	// ≥ lower, ≤ upper bound: 1 unit stopped by a limit enters at the value reached.
	// ±: 95% interval, its larger half over the figure (±?: unbounded).
	// trimmed mean: of the middle 80%.
	// times unconfirmed: results.csv has no timing columns (each measured once).
}

// TestTextSpreads: the spreads of the time figures go beside them while
// the table fits the width, on rows of their own under them when it
// would not (seven strategies in 100 columns); narrower, the table is
// split into blocks of strategies, and no line is wider than the width.
func TestTextSpreads(t *testing.T) {
	run := func(width int, names ...string) string {
		var us []unit
		for _, s := range names {
			for id := range 400 {
				us = append(us, unit{s, id, solvers.StatusSolved, int64(20000 + 37*id), uint64(1000 + id), 1})
			}
		}
		var b bytes.Buffer
		if err := Summarize(mkResults(us...), SummaryOptions{}).WriteFullText(&b, width); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	two := run(80, "norvig", "dlx")
	if !strings.Contains(two, "\n  time median         27.4µs ±2.8%  27.4µs ±2.8%\n") || strings.Contains(two, "time median ±") {
		t.Errorf("two strategies: spreads not beside the figures:\n%s", two)
	}
	all := []string{"backtrack", "bruteforce", "singles", "randmrv", "norvig", "dlx", "bitboard"}
	seven := run(100, all...)
	for _, label := range []string{"time median", "time p90", "time p99", "time trimmed mean", "time mean"} {
		if !regexp.MustCompile(`\n  ` + label + ` ±( +±[0-9.]+%){7}\n`).MatchString(seven) {
			t.Errorf("seven strategies: no row of spreads for %s:\n%s", label, seven)
		}
	}
	if strings.Contains(seven, "µs ±") {
		t.Errorf("seven strategies: a spread beside its figure:\n%s", seven)
	}
	for _, width := range []int{100, 80, 60, 40} {
		text := run(width, all...)
		for _, l := range strings.Split(text, "\n") {
			if utf8.RuneCountInString(l) > width {
				t.Errorf("width %d: a line of %d columns: %q", width, utf8.RuneCountInString(l), l)
			}
		}
		for _, name := range all {
			if !strings.Contains(text, name) {
				t.Errorf("width %d: %s missing:\n%s", width, name, text)
			}
		}
	}
}

func ExampleSummary_WriteText() {
	res, err := ReadResults(context.Background(), strings.NewReader(exampleRows), "results.csv")
	if err != nil {
		panic(err)
	}
	Summarize(res, SummaryOptions{}).WriteText(os.Stdout, 0)
	// Output:
	// sudoku17.txt: 2 puzzles, 2 strategies, 4 rows
	//
	//                    backtrack     norvig
	//   puzzles                  2          2
	//   solved                   1          2
	//   timeout                  1          0
	//   time median      2.89ms ±?  36.7µs ±?
	//   time p99         ≥101ms ±?  61.0µs ±?
	//   no guess              0.0%      50.0%
	//   hardest (calls)         #0         #1
	//
	// ≥ lower, ≤ upper bound: 1 unit stopped by a limit enters at the value reached.
	// ±: 95% interval, its larger half over the figure (±?: unbounded).
	// times unconfirmed: results.csv has no timing columns (each measured once).
	// the rest (p90, means, maxima, calls, guesses, re-timing): summary.md, the page.
}

// TestHeadlineKeepsTwelveRows: the terminal's table keeps at most
// HeadlineRows rows whatever the statuses, the figures last.
func TestHeadlineKeepsTwelveRows(t *testing.T) {
	var us []unit
	for i, st := range solvers.Statuses() { // every status: 9 status rows
		us = append(us, unit{"x", i, st, int64(1000 * (i + 1)), uint64(i + 1), 0})
	}
	s := Summarize(mkResults(us...), SummaryOptions{})
	_, rows := s.headlineTable()
	if len(rows) > HeadlineRows {
		t.Fatalf("%d rows, want at most %d", len(rows), HeadlineRows)
	}
	var labels []string
	for _, r := range rows {
		labels = append(labels, r.Label)
	}
	if got := strings.Join(labels[len(labels)-4:], ","); got != "time median,time p99,no guess,hardest (calls)" {
		t.Errorf("the last rows are %s", got)
	}
	var b strings.Builder
	if err := s.WriteText(&b, 1000); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "time p90") || !strings.Contains(b.String(), "summary.md") {
		t.Errorf("the terminal's table has the full table's rows, or does not say where it is:\n%s", b.String())
	}
}
