package chart

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// testEntry is a compact way to write an Entry in a test table.
type testEntry struct {
	id     int
	status solvers.Status
	ns     int64
	calls  uint64
}

// testResults builds Results from per-solver entries, in the given
// order, all in one corpus unless corpora says otherwise.
func testResults(series map[string][]testEntry, order ...string) *report.Results {
	res := &report.Results{Corpora: []string{"test.txt"}}
	for _, name := range order {
		res.AddSeries(name) // even with no row
		for _, ce := range series[name] {
			res.Add(name, report.Entry{ID: int32(ce.id), Line: int32(ce.id + 1), Status: ce.status,
				NS: ce.ns, Calls: ce.calls})
		}
	}
	return res
}

// spread returns n solved entries with times spread over a few
// decades from base ns, and calls growing with them.
func spread(n int, base int64) []testEntry {
	out := make([]testEntry, n)
	for i := range out {
		f := math.Pow(10, 3*float64((i*7919)%n)/float64(n))
		out[i] = testEntry{id: i, status: solvers.StatusSolved, ns: int64(float64(base) * f), calls: uint64(f)}
	}
	return out
}

func TestWrite(t *testing.T) {
	solved := solvers.StatusSolved
	timeout := solvers.StatusTimeout
	withTimeouts := spread(200, 20_000)
	for i := 0; i < len(withTimeouts); i += 3 {
		withTimeouts[i].status, withTimeouts[i].ns = timeout, 100_000_000+int64(i)
	}
	onlyTimeouts := make([]testEntry, 50)
	for i := range onlyTimeouts {
		onlyTimeouts[i] = testEntry{id: i, status: timeout, ns: 100_000_000 + int64(i)*1000, calls: 1e7}
	}
	limits := spread(50, 5_000)
	for i := range 10 {
		limits[i].status, limits[i].calls = solvers.StatusLimit, 1000
	}

	tests := []struct {
		name    string
		res     *report.Results
		opt     Options
		kinds   map[string]int // expected count per kind
		caption []string       // substrings some caption must hold
		race    bool           // run under the race detector too
	}{
		{
			name: "three strategies with timeouts",
			race: true,
			res: testResults(map[string][]testEntry{
				"backtrack": withTimeouts,
				"norvig":    spread(200, 10_000),
				"bitboard":  spread(200, 3_000),
			}, "backtrack", "norvig", "bitboard"),
			opt:     Options{Highlight: []int{77, 39949}, SVG: true, Title: "test.txt, run 1"},
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 3, KindHistCalls: 3, KindScatterTime: 2},
			caption: []string{"67 timeouts", "#39949 is not plotted", "highlighted puzzles are marked in magenta"},
		},
		{
			name: "zero times and zero calls",
			res: testResults(map[string][]testEntry{
				"a": {{0, solved, 0, 0}, {1, solved, 0, 0}, {2, solved, 1500, 3}, {3, solved, 2_000_000, 40}},
				"b": {{0, solved, 10, 0}, {1, solved, 0, 1}, {2, solved, 900, 2}, {3, solved, 30_000, 0}},
			}, "a", "b"),
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 2, KindHistCalls: 2, KindScatterTime: 1},
			caption: []string{"2 times of 0 ns are drawn at 1ns", "2 counts of 0 calls are drawn at 1"},
		},
		{
			name: "a strategy with only timeouts",
			res: testResults(map[string][]testEntry{
				"backtrack": onlyTimeouts,
				"bitboard":  spread(50, 3_000),
			}, "backtrack", "bitboard"),
			// backtrack finished nothing: no chart of its own.
			opt:     Options{Highlight: []int{7}},
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 1, KindHistCalls: 1},
			caption: []string{"50 timeouts"},
		},
		{
			name: "limits",
			res: testResults(map[string][]testEntry{
				"randmrv": limits, "dlx": spread(50, 8_000),
			}, "randmrv", "dlx"),
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 2, KindHistCalls: 2, KindScatterTime: 1},
			caption: []string{"10 limits"},
		},
		{
			name: "a single puzzle",
			res: testResults(map[string][]testEntry{
				"norvig": {{5, solved, 12_345, 1}}, "bitboard": {{5, solved, 4_321, 1}},
			}, "norvig", "bitboard"),
			opt:   Options{Highlight: []int{5}},
			kinds: map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 2, KindHistCalls: 2, KindScatterTime: 1},
		},
		{
			name:  "a single strategy: no scatter",
			res:   testResults(map[string][]testEntry{"norvig": spread(30, 10_000)}, "norvig"),
			kinds: map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 1, KindHistCalls: 1},
		},
		{
			name: "absent highlights and baseline",
			res: testResults(map[string][]testEntry{
				"norvig": spread(30, 10_000), "dlx": spread(30, 20_000),
			}, "norvig", "dlx"),
			opt:     Options{Highlight: []int{39949, 2018}, Baseline: "nosuch"},
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 2, KindHistCalls: 2, KindScatterTime: 1},
			caption: []string{"#39949, #2018 are not plotted", "against norvig's"},
		},
		{
			name: "rows with nothing to plot",
			res: testResults(map[string][]testEntry{
				"singles": {{0, solvers.StatusInvalid, 0, 0}, {1, solvers.StatusError, 5, 0}},
				"bitboard": {{0, solvers.StatusInvalid, 0, 0}, {1, solvers.StatusUnsupported, 0, 0},
					{2, solved, 5000, 1}},
			}, "singles", "bitboard"),
			kinds:   map[string]int{KindECDFTime: 1, KindBoxTime: 1, KindHistTime: 1, KindHistCalls: 1},
			caption: []string{"2 rows not plotted (invalid, unsupported or error)", "singles has no row to plot"},
		},
		{
			name:  "no rows",
			res:   &report.Results{},
			kinds: map[string]int{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if raceEnabled && !tt.race {
				// Drawing is about thirty times slower under the race
				// detector; one case covers the concurrency.
				t.Skip("covered by the tests without -race")
			}
			dir := t.TempDir()
			charts, err := Write(context.Background(), dir, tt.res, tt.opt)
			if err != nil {
				t.Fatalf("Write: %v", err)
			}
			got := map[string]int{}
			var captions []string
			for _, c := range charts {
				got[c.Kind]++
				captions = append(captions, c.Caption)
				checkChartPNG(t, dir, c)
				if c.Title == "" || !strings.HasSuffix(c.Caption, ".") {
					t.Errorf("%s: title %q, caption %q", c.File, c.Title, c.Caption)
				}
				if (c.Solver == "") != (c.Kind == KindECDFTime || c.Kind == KindBoxTime) {
					t.Errorf("%s: solver %q for kind %s", c.File, c.Solver, c.Kind)
				}
				if tt.opt.SVG != (c.SVG != "") {
					t.Errorf("%s: SVG %q with SVG option %v", c.File, c.SVG, tt.opt.SVG)
				}
				if c.SVG != "" {
					b, err := os.ReadFile(filepath.Join(dir, c.SVG))
					if err != nil || !bytes.Contains(b, []byte("<svg")) {
						t.Errorf("%s: not an SVG file (err %v)", c.SVG, err)
					}
				}
			}
			if len(got) != len(tt.kinds) {
				t.Errorf("kinds = %v, want %v", got, tt.kinds)
			}
			for k, n := range tt.kinds {
				if got[k] != n {
					t.Errorf("%d charts of kind %s, want %d (all: %v)", got[k], k, n, got)
				}
			}
			all := strings.Join(captions, "\n")
			for _, want := range tt.caption {
				if !strings.Contains(all, want) {
					t.Errorf("no caption holds %q; captions:\n%s", want, all)
				}
			}
		})
	}
}

// checkChartPNG checks that c's PNG in dir is a PNG of the size c says:
// 800x500 pixels, or 650x650 for a scatter on equal axes, 800x400 for a
// strip.
func checkChartPNG(t *testing.T, dir string, c report.Chart) {
	t.Helper()
	path := filepath.Join(dir, c.File)
	want := [2]int{800, 500}
	switch c.Kind {
	case KindScatterTime, KindCompareScatter:
		want = [2]int{650, 650}
	case KindStrip:
		want = [2]int{800, 400}
	}
	if c.Width != want[0] || c.Height != want[1] {
		t.Errorf("%s: its chart says %dx%d pixels, want %dx%d", c.File, c.Width, c.Height, want[0], want[1])
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s: no PNG header", filepath.Base(path))
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	if r := img.Bounds(); r.Dx() != want[0] || r.Dy() != want[1] {
		t.Errorf("%s: %dx%d pixels, want %dx%d", filepath.Base(path), r.Dx(), r.Dy(), want[0], want[1])
	}
}

func TestWriteOrderAndBaseline(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	res := testResults(map[string][]testEntry{
		"norvig": spread(10, 10_000), "bitboard": spread(10, 3_000), "dlx": spread(10, 20_000),
	}, "norvig", "bitboard", "dlx")
	charts, err := Write(context.Background(), t.TempDir(), res, Options{Baseline: "bitboard"})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, c := range charts {
		files = append(files, c.File)
	}
	want := []string{"ecdf-time.png", "box-time.png",
		"hist-time-norvig.png", "hist-calls-norvig.png", "scatter-time-norvig-vs-bitboard.png",
		"hist-time-bitboard.png", "hist-calls-bitboard.png",
		"hist-time-dlx.png", "hist-calls-dlx.png", "scatter-time-dlx-vs-bitboard.png"}
	if !slices.Equal(files, want) {
		t.Errorf("files:\n got %q\nwant %q", files, want)
	}
	for _, tt := range []struct{ want, got string }{
		{"norvig", baselineOf(res, "")},
		{"dlx", baselineOf(res, "dlx")},
		{"norvig", baselineOf(res, "nosuch")},
		{"a", baselineOf(testResults(nil, "a", "b"), "")},
	} {
		if tt.got != tt.want {
			t.Errorf("baseline %q, want %q", tt.got, tt.want)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	t.Run("panic becomes an error", func(t *testing.T) {
		j := &job{chart: report.Chart{File: "x.png"}, build: func() (*Figure, error) { panic("boom") }}
		err := writeJob(context.Background(), t.TempDir(), j)
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("err = %v, want the panic", err)
		}
	})
	t.Run("build error", func(t *testing.T) {
		j := &job{chart: report.Chart{File: "x.png"}, build: func() (*Figure, error) { return nil, errors.New("bad") }}
		if err := writeJob(context.Background(), t.TempDir(), j); err == nil {
			t.Error("no error")
		}
	})
	t.Run("directory is a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		res := testResults(map[string][]testEntry{"a": spread(3, 100)}, "a")
		if _, err := Write(context.Background(), f, res, Options{}); err == nil {
			t.Error("no error")
		}
	})
	t.Run("nil results", func(t *testing.T) {
		if _, err := Write(context.Background(), t.TempDir(), nil, Options{}); err == nil {
			t.Error("no error")
		}
	})
}

func TestChartLogTicks(t *testing.T) {
	dur := logTicks{Format: report.FormatSecondsShort}
	calls := logTicks{Format: report.FormatCountTick}
	tests := []struct {
		name     string
		ticker   logTicks
		min, max float64
		want     []string // the labels, in order
	}{
		{"1µs to 10s", dur, 1e-6, 10, []string{"1µs", "10µs", "100µs", "1ms", "10ms", "100ms", "1s", "10s"}},
		{"1ns to 1µs", dur, 1e-9, 1e-6, []string{"1ns", "10ns", "100ns", "1µs"}},
		{"3µs to 120ms", dur, 3e-6, 0.12, []string{"10µs", "100µs", "1ms", "10ms", "100ms"}},
		{"two decades: 1-2-5", dur, 2e-5, 3e-3, []string{"20µs", "50µs", "100µs", "200µs", "500µs", "1ms", "2ms"}},
		{"within a decade: 1..9", dur, 1.5e-3, 9.5e-3, []string{"2ms", "3ms", "4ms", "5ms", "6ms", "7ms", "8ms", "9ms"}},
		{"seconds", dur, 0.5, 200, []string{"1s", "10s", "100s"}},
		{"calls 1 to 1e5", calls, 1, 1e5, []string{"1", "10", "100", "1k", "10k", "100k"}},
		{"calls 3 to 40", calls, 3, 40, []string{"5", "10", "20"}},
		{"calls 1e3 to 1e7", calls, 900, 2e7, []string{"1k", "10k", "100k", "1M", "10M"}},
		{"calls 2e4 to 6e5", calls, 2e4, 6e5, []string{"20k", "50k", "100k", "200k", "500k"}},
		{"calls 1e9 to 1e13", calls, 1e9, 1e13, []string{"1G", "10G", "100G", "1T", "10T"}},
		{"zero min", calls, 0, 10, nil},
		{"negative", dur, -1, 1, nil},
		{"NaN", dur, math.NaN(), 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			ticks := tt.ticker.Ticks(tt.min, tt.max)
			for _, tk := range ticks {
				if tk.Value < tt.min*(1-1e-9) || tk.Value > tt.max*(1+1e-9) {
					t.Errorf("tick %v outside [%v, %v]", tk.Value, tt.min, tt.max)
				}
				if tk.Label != "" {
					got = append(got, tk.Label)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("labels = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("narrow range", func(t *testing.T) {
		ticks := dur.Ticks(2.01e-3, 2.09e-3)
		n := 0
		for _, tk := range ticks {
			if tk.Label != "" {
				n++
				if !strings.HasSuffix(tk.Label, "ms") {
					t.Errorf("label %q, want ms", tk.Label)
				}
			}
		}
		if n < 2 {
			t.Errorf("%d labels in a narrow range: %v", n, ticks)
		}
	})
	t.Run("wide range", func(t *testing.T) {
		n := 0
		for _, tk := range calls.Ticks(1, 1e20) {
			if tk.Label != "" {
				n++
			}
		}
		if n < 5 || n > 12 {
			t.Errorf("%d labels from 1 to 1e20", n)
		}
	})
	t.Run("log10 axis", func(t *testing.T) {
		ticks := log10Ticks{dur}.Ticks(-6, -3)
		if len(ticks) == 0 || ticks[0].Value != -6 || ticks[0].Label != "1µs" {
			t.Errorf("ticks = %v", ticks)
		}
	})
}

func TestChartLabels(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{report.FormatSecondsShort(1e-9), "1ns"},
		{report.FormatSecondsShort(2.5e-7), "250ns"},
		{report.FormatSecondsShort(1e-5), "10µs"},
		{report.FormatSecondsShort(2.5e-3), "2.5ms"},
		{report.FormatSecondsShort(0.1), "100ms"},
		{report.FormatSecondsShort(1), "1s"},
		{report.FormatSecondsShort(12.3456), "12.3s"},
		{report.FormatCountTick(1), "1"},
		{report.FormatCountTick(500), "500"},
		{report.FormatCountTick(1000), "1k"},
		{report.FormatCountTick(2e4), "20k"},
		{report.FormatCountTick(2.5e6), "2.5M"},
		{report.FormatCountTick(4.906e7), "49.1M"},
		{report.FormatCountShort(12345), "12.3k"},
		{report.FormatCountShort(4.5e6), "4.5M"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestChartLogBins(t *testing.T) {
	for _, tt := range []struct {
		name    string
		lo, hi  float64
		integer bool
	}{
		{"time", 3e-6, 0.12, false},
		{"one value", 5e-3, 5e-3, false},
		{"calls", 1, 2e7, true},
		{"calls all one", 1, 1, true},
		{"calls small", 64, 900, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := logBins(tt.lo, tt.hi, tt.integer)
			if len(e) < 2 || len(e) > 62 {
				t.Fatalf("%d edges: %v", len(e), e)
			}
			if e[0] > tt.lo || e[len(e)-1] < tt.hi {
				t.Errorf("edges %v do not cover [%v, %v]", e, tt.lo, tt.hi)
			}
			for i := 1; i < len(e); i++ {
				if e[i] <= e[i-1] {
					t.Errorf("edges not increasing: %v", e)
				}
				if tt.integer && e[i] != math.Trunc(e[i]) {
					t.Errorf("edge %v is not an integer", e[i])
				}
			}
			for _, v := range []float64{tt.lo, tt.hi, math.Sqrt(tt.lo * tt.hi)} {
				b := binIndex(e, v)
				if v < e[b] || v > e[b+1] {
					t.Errorf("%v in bin %d [%v, %v]", v, b, e[b], e[b+1])
				}
			}
		})
	}
}

func TestChartECDFThin(t *testing.T) {
	vs := make([]float64, 10000)
	for i := range vs {
		vs[i] = float64(i / 10) // ties
	}
	xs, ys := thinECDF(vs, 12000, 300)
	if len(xs) > 302 || len(xs) < 100 {
		t.Errorf("%d points", len(xs))
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] || ys[i] <= ys[i-1] {
			t.Fatalf("not increasing at %d: (%v, %v) after (%v, %v)", i, xs[i], ys[i], xs[i-1], ys[i-1])
		}
	}
	if last := ys[len(ys)-1]; last != 10000.0/12000 {
		t.Errorf("ends at %v, want %v", last, 10000.0/12000)
	}
	if x, y := thinECDF(nil, 0, 300); x != nil || y != nil {
		t.Error("points from no values")
	}
}

func TestChartScatterJoin(t *testing.T) {
	// Two corpora with the same ids: the join is on (corpus, id).
	res := &report.Results{Corpora: []string{"a.txt", "b.txt"}}
	entry := func(c int32, id int32, st solvers.Status, ns int64) report.Entry {
		return report.Entry{Corpus: c, ID: id, Status: st, NS: ns, Calls: 1}
	}
	for _, e := range []report.Entry{
		entry(0, 0, solvers.StatusSolved, 100), entry(0, 1, solvers.StatusTimeout, 900),
		entry(1, 0, solvers.StatusSolved, 300), entry(1, 1, solvers.StatusSolved, 400),
	} {
		res.Add("norvig", e)
	}
	for _, e := range []report.Entry{
		entry(0, 0, solvers.StatusSolved, 10), entry(0, 1, solvers.StatusSolved, 20),
		entry(1, 0, solvers.StatusTimeout, 30), entry(1, 1, solvers.StatusInvalid, 0),
	} {
		res.Add("bitboard", e)
	}
	if res.Puzzles != 4 || res.Rows != 8 {
		t.Errorf("%d puzzles, %d rows; want 4, 8", res.Puzzles, res.Rows)
	}
	cs, _ := newChartSet(context.Background(), res, Options{Highlight: []int{0}, Baseline: "bitboard"})
	sc := cs.newScatter(res.Series[0], cs.time[0], cs.time[1], 0)
	if sc.n != 3 || sc.missing != 1 || sc.censY != 1 || sc.censX != 1 || sc.censXY != 0 {
		t.Errorf("pairs %d, missing %d, censored y/x/both %d/%d/%d; want 3, 1, 1/1/0",
			sc.n, sc.missing, sc.censY, sc.censX, sc.censXY)
	}
	var pairs [][2]float64
	sc.each(func(x, y float64, xo, yo ending) {
		pairs = append(pairs, [2]float64{math.Round(x * 1e9), math.Round(y * 1e9)})
	})
	if want := [][2]float64{{10, 100}, {20, 900}, {30, 300}}; !slices.Equal(pairs, want) {
		t.Errorf("pairs (x, y ns) %v, want %v", pairs, want)
	}
	if n := len(sc.highlighted()); n != 2 {
		t.Errorf("%d highlighted pairs, want 2 (id 0 in each corpus)", n)
	}
	if got := res.PuzzleLabel(sc.highlighted()[1].y.e); got != "b.txt#0" {
		t.Errorf("label %q, want b.txt#0", got)
	}
	if !raceEnabled {
		charts, err := Write(context.Background(), t.TempDir(), res, Options{Highlight: []int{0}})
		if err != nil || len(charts) != 7 {
			t.Errorf("%d charts, err %v", len(charts), err)
		}
	}
}

// TestChartScatterRaster checks the scatter's rasterised dots against
// the same chart drawn with a glyph per dot, that nothing is thinned
// (every pair, censored and highlighted one counted; the axes reach the
// extremes) and that the drawing is deterministic.
func TestChartScatterRaster(t *testing.T) {
	const n = 3000
	var a, b []testEntry
	for i := range n {
		f := math.Pow(10, 3*float64((i*7919)%n)/n)
		st := solvers.StatusSolved
		if i%500 == 7 {
			st = solvers.StatusTimeout // censored on y
		}
		a = append(a, testEntry{id: i, status: st, ns: int64(5000 * f * (1 + float64(i%13)/4)), calls: 1})
		b = append(b, testEntry{id: i, status: solvers.StatusSolved, ns: int64(2000 * f), calls: 1})
	}
	a[42].ns, b[42].ns = 1, 1                             // the smallest on both axes
	a[99].ns, b[99].ns = 9e9, 5e8                         // the largest
	b[123].status, b[123].ns = solvers.StatusTimeout, 1e8 // censored on x
	res := testResults(map[string][]testEntry{"norvig": a, "bitboard": b}, "norvig", "bitboard")
	cs, _ := newChartSet(context.Background(), res, Options{Highlight: []int{99, 2018}, Baseline: "bitboard"})
	sc := cs.newScatter(res.Series[0], cs.time[0], cs.time[1], 0)
	if sc.n != n || sc.censY != 6 || sc.censX != 1 || sc.censXY != 0 {
		t.Errorf("pairs %d, censored y/x/both %d/%d/%d; want %d, 6/1/0", sc.n, sc.censY, sc.censX, sc.censXY, n)
	}
	if sc.xlo != 1e-9 || sc.ylo != 1e-9 || sc.xhi != 0.5 || sc.yhi != 9 {
		t.Errorf("range x %g..%g, y %g..%g; want 1e-9..0.5, 1e-9..9", sc.xlo, sc.xhi, sc.ylo, sc.yhi)
	}
	if hs := sc.highlighted(); len(hs) != 2 || hs[0].y.e.ID != 2018 || hs[1].y.e.ID != 99 {
		t.Errorf("highlighted %v, want #2018 then #99", hs)
	}
	draw := func(raster bool) []byte {
		t.Helper()
		defer func(old bool) { rasterDots = old }(rasterDots)
		rasterDots = raster
		p, err := sc.plot()
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Render("png")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r1, r2, g := draw(true), draw(true), draw(false)
	if !bytes.Equal(r1, r2) {
		t.Error("two drawings differ")
	}
	ri, err := png.Decode(bytes.NewReader(r1))
	if err != nil {
		t.Fatal(err)
	}
	gi, err := png.Decode(bytes.NewReader(g))
	if err != nil {
		t.Fatal(err)
	}
	// Antialiasing differs a little at the edges of the dots; a missing
	// or misplaced dot would differ by far more.
	var sum, big float64
	bd := ri.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r0, g0, b0, _ := ri.At(x, y).RGBA()
			r1, g1, b1, _ := gi.At(x, y).RGBA()
			d := (math.Abs(float64(r0)-float64(r1)) + math.Abs(float64(g0)-float64(g1)) + math.Abs(float64(b0)-float64(b1))) / 3 / 257
			sum += d
			if d > 64 {
				big++
			}
		}
	}
	px := float64(bd.Dx() * bd.Dy())
	if mean := sum / px; mean > 1 || big/px > 0.002 {
		t.Errorf("raster and glyph drawings differ: mean %.2f/255 a pixel, %.0f pixels by more than 64", mean, big)
	}
}

// unfinishedResults returns three strategies over the same puzzles:
// singles stuck on all 40, backtrack with 20 solved, 12 stuck and 8
// timeouts (interleaved, the stuck ones the fastest rows and the
// timeouts the slowest), bitboard solving all 40.
func unfinishedResults() *report.Results {
	var singles, backtrack, bitboard []testEntry
	for i := range 40 {
		singles = append(singles, testEntry{id: i, status: solvers.StatusStuck, ns: int64(300 + 10*i), calls: 3})
		bitboard = append(bitboard, testEntry{id: i, status: solvers.StatusSolved, ns: int64(2000 + 50*i), calls: 10})
		e := testEntry{id: i, status: solvers.StatusSolved, ns: int64(100_000 + 10_000*i), calls: uint64(1000 + i)}
		switch i % 10 {
		case 1, 3, 5:
			// 12 stuck, fast: they must not pull the box or the curve
			// to the left.
			e.status, e.ns, e.calls = solvers.StatusStuck, int64(50+i), 1
		case 2, 7:
			// 8 timeouts, at 100 ms.
			e.status, e.ns = solvers.StatusTimeout, int64(100_000_000+i)
		}
		backtrack = append(backtrack, e)
	}
	return testResults(map[string][]testEntry{"singles": singles, "backtrack": backtrack, "bitboard": bitboard},
		"singles", "backtrack", "bitboard")
}

// TestChartUnfinishedECDF: a curve rises with finished rows alone and
// ends at the share finished; a strategy stuck on every puzzle draws no
// rising curve, ends at 0% and says it is stuck.
func TestChartUnfinishedECDF(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{Highlight: []int{1, 2, 4}})
	if err != nil {
		t.Fatal(err)
	}
	singles, backtrack, bitboard := cs.time[0], cs.time[1], cs.time[2]
	if singles.n != 40 || singles.fin != 0 || singles.stuck != 40 {
		t.Fatalf("singles: %d plotted, %d finished, %d stuck; want 40, 0, 40", singles.n, singles.fin, singles.stuck)
	}
	if backtrack.n != 40 || backtrack.fin != 20 || backtrack.stuck != 12 || backtrack.timeouts != 8 {
		t.Fatalf("backtrack: %d plotted, %d finished, %d stuck, %d timeouts; want 40, 20, 12, 8",
			backtrack.n, backtrack.fin, backtrack.stuck, backtrack.timeouts)
	}
	shares := cs.anyUnfinished()
	if !shares {
		t.Error("anyUnfinished = false with stuck and timeout rows")
	}
	maxY := func(cv ecdfCurve) float64 {
		m := 0.0
		for _, q := range cv.xys {
			m = math.Max(m, q.Y)
		}
		return m
	}

	cv := ecdfCurveOf(singles, shares)
	if len(cv.xys) != 0 || maxY(cv) != 0 || cv.endY != 0 {
		t.Errorf("singles (all stuck): curve %v ending at %v; want no curve, ending at 0%%", cv.xys, cv.endY)
	}
	if !cv.gave || cv.censored || math.Abs(cv.gaveX-math.Log10(490e-9)) > 1e-9 {
		t.Errorf("singles: cross %v at %v, triangle %v; want a cross at the median 490ns, no triangle", cv.gave, cv.gaveX, cv.censored)
	}
	if want := "singles (0% solved; 100% stuck)"; cv.name != want {
		t.Errorf("singles legend %q, want %q", cv.name, want)
	}

	cv = ecdfCurveOf(backtrack, shares)
	if cv.endY != 0.5 || maxY(cv) != 0.5 {
		t.Errorf("backtrack: curve ends at %v, rises to %v; want the 50%% solved", cv.endY, maxY(cv))
	}
	// The curve starts at the fastest solved row, not at a stuck one.
	if x0 := math.Pow(10, cv.xys[0].X); math.Abs(x0-100e-6) > 1e-12 {
		t.Errorf("backtrack: curve starts at %gs, want the fastest solved 100µs", x0)
	}
	for k := 1; k < len(cv.xys); k++ {
		if cv.xys[k].Y < cv.xys[k-1].Y || cv.xys[k].X < cv.xys[k-1].X {
			t.Fatalf("backtrack: curve not increasing at %d: %v", k, cv.xys)
		}
	}
	if !cv.gave || cv.gaveX != cv.endX || !cv.censored || math.Abs(math.Pow(10, cv.censorX)-0.100000002) > 1e-12 {
		t.Errorf("backtrack: cross %v at %v (end %v), triangle %v at %v; want both, the cross at the end, the triangle at 100ms",
			cv.gave, cv.gaveX, cv.endX, cv.censored, math.Pow(10, cv.censorX))
	}
	if last := cv.xys[len(cv.xys)-1]; last.X != cv.censorX || last.Y != 0.5 {
		t.Errorf("backtrack: line ends at %v, want flat to the triangle at (%v, 0.5)", last, cv.censorX)
	}
	if want := "backtrack (50% solved; 30% stuck, 20% timeout)"; cv.name != want {
		t.Errorf("backtrack legend %q, want %q", cv.name, want)
	}

	cv = ecdfCurveOf(bitboard, shares)
	if cv.endY != 1 || maxY(cv) != 1 || cv.gave || cv.censored || cv.name != "bitboard (100% solved)" {
		t.Errorf("bitboard: ends at %v, cross %v, triangle %v, legend %q", cv.endY, cv.gave, cv.censored, cv.name)
	}
	if cv := ecdfCurveOf(bitboard, false); cv.name != "bitboard" {
		t.Errorf("legend %q without shares", cv.name)
	}

	// The highlighted rows keep their outcome: #1 stuck, #2 a timeout,
	// #4 solved.
	for _, tt := range []struct {
		id  int
		out ending
	}{{1, endGaveUp}, {2, endCensored}, {4, endFinished}} {
		if ps := backtrack.find([]int{tt.id}); len(ps) != 1 || ps[0].out != tt.out {
			t.Errorf("highlighted #%d: %v, want ending %d", tt.id, ps, tt.out)
		}
	}

	// The captions state the rule.
	caption := cs.ecdfCaption()
	for _, want := range []string{"singles 40 stuck", "backtrack 12 stuck", "backtrack 8 timeouts",
		"a curve rises only with the puzzles its strategy finished", "stuck means it stopped by itself"} {
		if !strings.Contains(caption, want) {
			t.Errorf("ECDF caption lacks %q: %s", want, caption)
		}
	}
}

// TestChartUnfinishedBox: a box summarises every measured row at its
// value, those that did not finish included (a stopped one at the value
// where it was stopped), so its median is the summary table's; the rows
// that did not finish are also marked beside it; a strategy that
// finished nothing has no box.
func TestChartUnfinishedBox(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	singles, backtrack := cs.time[0], cs.time[1]
	if b := singles.box; !b.noBox || !b.hasGave || b.hasCensor {
		t.Errorf("singles: no box %v, cross %v, triangle %v; want no box and a cross", b.noBox, b.hasGave, b.hasCensor)
	}
	// backtrack's rows, solved, stuck and timeout, in log10 seconds,
	// make the box.
	var all, fin []float64
	for i := range 40 {
		v := math.Log10(float64(res.Series[1].NS(i)) / 1e9)
		all = append(all, v)
		if s := res.Series[1].Status(i); s == solvers.StatusSolved {
			fin = append(fin, v)
		}
	}
	slices.Sort(all)
	b := backtrack.box
	if b.noBox || b.minority || !b.hasGave || !b.hasCensor {
		t.Fatalf("backtrack: no box %v, minority %v, cross %v, triangle %v", b.noBox, b.minority, b.hasGave, b.hasCensor)
	}
	for _, q := range []struct {
		name      string
		got, want float64
	}{
		{"q1", b.q1, quantile(all, 0.25)}, {"median", b.median, quantile(all, 0.5)}, {"q3", b.q3, quantile(all, 0.75)},
	} {
		if math.Abs(q.got-q.want) > 1e-12 {
			t.Errorf("backtrack %s = %v, want %v (every measured row)", q.name, q.got, q.want)
		}
	}
	sum := report.Summarize(res, report.SummaryOptions{})
	for i, col := range cs.time {
		if col.box.noBox {
			continue
		}
		want := sum.Strategies[i].TimeNS.Median.Value / 1e9
		if got := math.Pow(10, col.box.median); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: box median %gs, the table's %gs", col.solver, got, want)
		}
	}
	for _, o := range b.outliers {
		if !slices.Contains(fin, o) {
			t.Errorf("outlier %v is no finished row: a stuck or timeout row drawn as a ring", o)
		}
	}
	if got := math.Pow(10, b.censorAt); math.Abs(got-0.100000002) > 1e-12 {
		t.Errorf("triangle at %gs, want the first timeout 100ms", got)
	}
	if got := math.Pow(10, b.gaveAt); got < 50e-9 || got > 90e-9 {
		t.Errorf("cross at %gs, want the median of the stuck rows (50-90ns)", got)
	}
	for _, tt := range []struct {
		col  *column
		want string
	}{
		{backtrack, "backtrack\n50% solved\n30% stuck\n20% timeout"},
		{singles, "singles\n0% solved\n100% stuck"},
		{cs.time[2], "bitboard\n100% solved"},
	} {
		if got := boxTickLabel(tt.col, true); got != tt.want {
			t.Errorf("axis label %q, want %q", got, tt.want)
		}
	}

	// Fewer than half finished: a hollow box.
	if b := computeBoxStats([]float64{1e-3, 2e-3}, []float64{1e-6, 2e-6}, []float64{1}); !b.minority || b.noBox ||
		b.median != math.Log10(1e-3) {
		t.Errorf("2 finished of 5: minority %v, no box %v, median %v", b.minority, b.noBox, b.median)
	}

	caption := cs.boxCaption()
	for _, want := range []string{"over every puzzle it measured (its median is the table's)", "are in its box at their value",
		"singles 40 stuck; backtrack 12 stuck", "backtrack 8 timeouts", "has no box"} {
		if !strings.Contains(caption, want) {
			t.Errorf("box caption lacks %q: %s", want, caption)
		}
	}
}

// TestChartUnfinishedHistScatter: histograms stack the rows that gave
// up as a segment of their own, and scatters never draw them as
// finished dots.
func TestChartUnfinishedHistScatter(t *testing.T) {
	res := unfinishedResults()
	cs, err := newChartSet(context.Background(), res, Options{Baseline: "bitboard"})
	if err != nil {
		t.Fatal(err)
	}
	sum := func(vs []float64) (n float64) {
		for _, v := range vs {
			n += v
		}
		return n
	}
	for _, cols := range [][]*column{cs.time, cs.calls} {
		bt := cols[1]
		if sum(bt.binFin) != 20 || sum(bt.binGave) != 12 || sum(bt.binCen) != 8 {
			t.Errorf("backtrack %s bins: %v finished, %v gave up, %v censored; want 20, 12, 8",
				bt.measure, sum(bt.binFin), sum(bt.binGave), sum(bt.binCen))
		}
		if sg := cols[0]; sum(sg.binFin) != 0 || sum(sg.binGave) != 40 {
			t.Errorf("singles %s bins: %v finished, %v gave up; want 0, 40", sg.measure, sum(sg.binFin), sum(sg.binGave))
		}
	}
	if c := cs.histCaption(cs.time[0], 0); !strings.Contains(c, "40 stuck") || !strings.Contains(c, "no puzzle") {
		t.Errorf("singles histogram caption: %s", c)
	}
	if c := cs.histCaption(cs.time[1], 1); !strings.Contains(c, "12 stuck") || !strings.Contains(c, "8 timeouts") ||
		!strings.Contains(c, "not counted as finished") {
		t.Errorf("backtrack histogram caption: %s", c)
	}

	sc := cs.newScatter(res.Series[0], cs.time[0], cs.time[2], 0)
	if sc.n != 40 || sc.finished() != 0 || sc.gaveY != 40 {
		t.Errorf("singles vs bitboard: %d pairs, %d finished, %d stuck on y; want 40, 0, 40", sc.n, sc.finished(), sc.gaveY)
	}
	if c := sc.caption(); !strings.Contains(c, "crosses are the 40 puzzles") {
		t.Errorf("scatter caption: %s", c)
	}
	sc = cs.newScatter(res.Series[1], cs.time[1], cs.time[2], 1)
	if sc.finished() != 20 || sc.gaveY != 12 || sc.censY != 8 {
		t.Errorf("backtrack vs bitboard: %d finished, %d stuck, %d censored; want 20, 12, 8", sc.finished(), sc.gaveY, sc.censY)
	}
	// As the baseline, a stuck side is marked on x; the pair is a
	// stop mark even when the other side is censored.
	set2, _ := newChartSet(context.Background(), res, Options{Baseline: "singles"})
	sc = set2.newScatter(res.Series[1], set2.time[1], set2.time[0], 1)
	if sc.finished() != 0 || sc.gaveXY != 12 || sc.gaveX != 28 || sc.censY != 0 || sc.censXY != 0 {
		t.Errorf("backtrack vs singles: %d finished, %d both stuck, %d x stuck, %d y censored; want 0, 12, 28, 0",
			sc.finished(), sc.gaveXY, sc.gaveX, sc.censY)
	}

	if !raceEnabled {
		// singles finished nothing: no histogram or scatter of its own.
		charts, err := Write(context.Background(), t.TempDir(), res, Options{Baseline: "bitboard", Highlight: []int{1, 2}})
		if err != nil || len(charts) != 7 {
			t.Errorf("%d charts, err %v; want 7", len(charts), err)
		}
		for _, c := range charts {
			if c.Solver == "singles" {
				t.Errorf("%s: a chart of its own for singles, which finished nothing", c.File)
			}
		}
	}
}

func TestChartPercent(t *testing.T) {
	for _, tt := range []struct {
		k, n int
		want string
	}{
		{0, 10, "0%"}, {10, 10, "100%"}, {1, 3, "33%"}, {1, 1000, "<1%"}, {999, 1000, ">99%"}, {0, 0, "0%"}, {1, 2, "50%"},
	} {
		if got := percent(tt.k, tt.n); got != tt.want {
			t.Errorf("percent(%d, %d) = %q, want %q", tt.k, tt.n, got, tt.want)
		}
	}
}
