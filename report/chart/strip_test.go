package chart

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// testAnalysis returns an analysis of puzzle id by solver over n
// variants whose calls spread over two decades from base, the original
// at orig calls; the first `stopped` variants were stopped by a limit
// (at the largest value), and with seeds the original orientation under
// that many seeds.
func testAnalysis(solver string, id, n int, base, orig float64, stopped, seeds int) rundir.VariantAnalysis {
	a := rundir.VariantAnalysis{Corpus: "data/sudoku17.txt", ID: id, Solver: solver, Measure: "calls",
		Grid: strings.Repeat("0", 81), CorpusMedian: base / 3, CorpusFrom: "run results/x",
		Original: rundir.VariantUnit{Transform: "id", Status: "solved", Calls: uint64(orig), NS: int64(orig * 50)}}
	var calls []float64
	for i := range n {
		c := base * math.Pow(10, 2*float64((i*37)%n)/float64(n))
		u := rundir.VariantUnit{Transform: "t", Seed: uint64(i), Status: "solved", Calls: uint64(c), NS: int64(c * 50)}
		if i < stopped {
			u.Status, u.Calls = "limit", uint64(base*100)
		}
		a.Variants = append(a.Variants, u)
		calls = append(calls, float64(u.Calls))
	}
	slices.Sort(calls)
	q := func(p float64) float64 { return calls[int(p*float64(len(calls)-1))] }
	a.Calls = rundir.Dist{N: n, Censored: stopped, Median: q(0.5), Q1: q(0.25), Q3: q(0.75), P90: q(0.9), Max: calls[len(calls)-1]}
	a.NS = rundir.Dist{N: n, Median: q(0.5) * 50, Q1: q(0.25) * 50, Q3: q(0.75) * 50, P90: q(0.9) * 50, Max: calls[len(calls)-1] * 50}
	below := 0
	for _, c := range calls {
		if c <= orig {
			below++
		}
	}
	a.Pct, a.Ratio = 100*float64(below)/float64(n), orig/a.Calls.Median
	a.Verdict = rundir.VerdictTypical
	if a.Pct > 90 && a.Ratio >= 4 {
		a.Verdict = rundir.VerdictUnlucky
	}
	if seeds > 0 {
		a.Seeds = &rundir.SeedLuck{}
		for s := range seeds {
			c := orig * (1 + float64(s))
			a.Seeds.Original = append(a.Seeds.Original, rundir.VariantUnit{Transform: "id", Seed: uint64(s), Status: "solved", Calls: uint64(c)})
		}
	}
	return a
}

func testVariants() *rundir.Variants {
	return &rundir.Variants{
		Settings: rundir.VariantSettings{N: 100, Seeds: 5, HardFactor: 10, UnluckyPct: 90, UnluckyFactor: 4},
		Units:    606,
		Analyses: []rundir.VariantAnalysis{
			testAnalysis("backtrack", 39949, 100, 5e5, 6.9e7, 0, 0),
			testAnalysis("randmrv", 39949, 100, 200, 300, 7, 5),
			testAnalysis("norvig", 12, 100, 0, 0, 0, 0), // every count 0: drawn at the floor
		},
	}
}

// TestStripCharts draws a strip per analysis, each file a PNG of the
// chart size named by report.StripFile, and captions that say what is
// drawn.
func TestStripCharts(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	dir := t.TempDir()
	v := testVariants()
	charts, err := StripCharts(context.Background(), dir, v, StripOptions{SVG: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) != len(v.Analyses) {
		t.Fatalf("%d charts for %d analyses", len(charts), len(v.Analyses))
	}
	for i, c := range charts {
		if want := report.StripFile(&v.Analyses[i]); c.File != want {
			t.Errorf("chart %d: file %q, want %q", i, c.File, want)
		}
		if c.Kind != KindStrip || c.Solver != v.Analyses[i].Solver {
			t.Errorf("%s: kind %q solver %q", c.File, c.Kind, c.Solver)
		}
		checkChartPNG(t, dir, c)
		b, err := os.ReadFile(filepath.Join(dir, c.SVG))
		if err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%s: not an SVG (err %v)", c.SVG, err)
		}
	}
	for _, tt := range []struct {
		chart int
		want  []string
	}{
		{0, []string{"verdict: unlucky", "p90", "median over the corpus (run results/x)"}},
		{1, []string{"randomized", "5 seeds", "7 units stopped by a limit"}},
		{2, []string{"values of 0 drawn at 1"}},
	} {
		for _, w := range tt.want {
			if !strings.Contains(charts[tt.chart].Caption, w) {
				t.Errorf("%s: caption lacks %q:\n%s", charts[tt.chart].File, w, charts[tt.chart].Caption)
			}
		}
	}
	if strings.Contains(charts[0].Caption, "randomized") {
		t.Errorf("a deterministic strategy's caption speaks of seeds: %s", charts[0].Caption)
	}

	// WriteStrips names the files it wrote.
	files, err := WriteStrips(filepath.Join(dir, "w"), v, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || files[0] != report.StripFile(&v.Analyses[0]) {
		t.Errorf("WriteStrips wrote %q", files)
	}
}

// TestStripDrawsTheMarks checks the pixels: the original's magenta
// diamond is right of every dot of an unlucky original, hollow rings
// (dark) appear only with stopped units, and a time strip is a file of
// its own.
func TestStripDrawsTheMarks(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	v := testVariants()
	v.Analyses = v.Analyses[:1]
	dir := t.TempDir()
	charts, err := StripCharts(context.Background(), dir, v, StripOptions{})
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, filepath.Join(dir, charts[0].File))
	magenta := func(r, g, b uint32) bool { return r>>8 > 0xc0 && g>>8 < 0x40 && b>>8 > 0x60 && b>>8 < 0xc0 }
	// A variant's dot: the strategy's color, faded over white.
	sr, sg, sb, _ := StrategyColor(v.Analyses[0].Solver).RGBA()
	near := func(a, b uint32) bool { return a>>8 <= b>>8+0x70 && a>>8+0x10 >= b>>8 }
	blue := func(r, g, b uint32) bool {
		return near(r, sr) && near(g, sg) && near(b, sb) && !(r>>8 > 0xe0 && g>>8 > 0xe0 && b>>8 > 0xe0)
	}
	magX, blueX := -1, -1
	b := img.Bounds()
	for y := b.Min.Y + 60; y < b.Max.Y-90; y++ { // below the title, above the axis and the legend
		for x := b.Min.X + 60; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if magenta(r, g, bb) {
				magX = max(magX, x)
			}
			if blue(r, g, bb) {
				blueX = max(blueX, x)
			}
		}
	}
	if magX < 0 || blueX < 0 {
		t.Fatalf("no original (%d) or no variant (%d) found on the chart", magX, blueX)
	}
	if magX <= blueX {
		t.Errorf("the original (x %d) is not right of every variant (x %d), though it is ×%.0f their median", magX, blueX, v.Analyses[0].Ratio)
	}

	times, err := StripCharts(context.Background(), dir, v, StripOptions{Measure: "ns"})
	if err != nil {
		t.Fatal(err)
	}
	if times[0].File == charts[0].File || !strings.Contains(times[0].Title, "time") {
		t.Errorf("time strip: file %q title %q", times[0].File, times[0].Title)
	}
	if strings.Contains(times[0].Caption, "median over the corpus") {
		t.Errorf("a time strip of an analysis by calls draws a corpus median: %s", times[0].Caption)
	}
	if _, err := StripCharts(context.Background(), dir, v, StripOptions{Measure: "guesses"}); err == nil {
		t.Error("an unknown measure is accepted")
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestStripChartsKeepsDrawn: with Since, a strip drawn at or after it is
// returned and not drawn again; one drawn before it, or whose SVG is
// missing, is drawn again.
func TestStripChartsKeepsDrawn(t *testing.T) {
	if raceEnabled {
		t.Skip("drawing is slow under the race detector; covered by the tests without -race")
	}
	dir := t.TempDir()
	v := testVariants()
	v.Analyses = v.Analyses[:2]
	first, err := StripCharts(context.Background(), dir, v, StripOptions{})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, first[1].File), old, old); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Minute)
	again, err := StripCharts(context.Background(), dir, v, StripOptions{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 2 || again[0].File != first[0].File || again[1].File != first[1].File {
		t.Fatalf("charts %v, want %v", again, first)
	}
	mod := func(f string) time.Time {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return st.ModTime()
	}
	if !mod(first[1].File).After(since) {
		t.Error("a strip older than Since was not drawn again")
	}
	kept := mod(first[0].File)
	if _, err := StripCharts(context.Background(), dir, v, StripOptions{Since: since, SVG: true}); err != nil {
		t.Fatal(err)
	}
	if mod(first[0].File).Equal(kept) {
		t.Error("a strip without its SVG was not drawn again with SVG asked")
	}
	if _, err := StripCharts(context.Background(), dir, v, StripOptions{Since: since, SVG: true}); err != nil {
		t.Fatal(err)
	}
	kept = mod(first[0].File)
	if _, err := StripCharts(context.Background(), dir, v, StripOptions{Since: since, SVG: true}); err != nil {
		t.Fatal(err)
	}
	if !mod(first[0].File).Equal(kept) {
		t.Error("a strip drawn after Since was drawn again")
	}
}
