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

// firstChart builds the first chart of the report of one strategy,
// bitboard, over n puzzles whose times spread up from base ns.
func firstChart(tb testing.TB, n int, base int64) *Figure {
	tb.Helper()
	res := testResults(map[string][]testEntry{"bitboard": spread(n, base)}, "bitboard")
	cs, err := newChartSet(tb.Context(), res, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	f, err := cs.jobs()[0].build()
	if err != nil {
		tb.Fatal(err)
	}
	return f
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
