package chart

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// twoSeries returns results of two strategies over n puzzles.
func twoSeries(n int) *report.Results {
	res := &report.Results{Corpora: []string{"c.txt"}}
	for _, s := range []string{"dlx", "bitboard"} {
		for i := range n {
			res.Add(s, report.Entry{ID: int32(i), Line: int32(i + 1), Status: solvers.StatusSolved, NS: int64(1000 + i%97), Calls: uint64(1 + i%13)})
		}
	}
	return res
}

// TestWriteStopsWhenCanceled: Write starts no chart once ctx is canceled
// and says so.
func TestWriteStopsWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	charts, err := Write(ctx, dir, twoSeries(100), Options{Baseline: "bitboard"})
	if !errors.Is(err, context.Canceled) || len(charts) != 0 {
		t.Errorf("%d charts, %v; want none and context.Canceled", len(charts), err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files written after the cancel", len(files))
	}
}

// TestLargeScatterPNGOnlyWithNote: with SVG, a scatter of more than svgMaxPoints
// puzzles is PNG only and its Chart says so; the others get their SVG.
func TestLargeScatterPNGOnlyWithNote(t *testing.T) {
	if raceEnabled {
		t.Skip("draws charts of 5001 points")
	}
	dir := t.TempDir()
	charts, err := Write(context.Background(), dir, twoSeries(svgMaxPoints+1), Options{Baseline: "bitboard", SVG: true})
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, c := range charts {
		switch {
		case c.Kind == KindScatterTime:
			want := "scatter dlx vs bitboard: 5001 points, written as PNG only (SVG over 5000 points)"
			if c.SVG != "" || c.Note != want {
				t.Errorf("scatter: SVG %q, note %q; want none and %q", c.SVG, c.Note, want)
			}
			notes++
		case c.Kind == KindECDFTime && !strings.Contains(c.Caption, "drawn through 300 of its quantiles"):
			t.Errorf("the ECDF caption does not say its curves are thinned: %s", c.Caption)
		case c.SVG == "" || c.Note != "":
			t.Errorf("%s: SVG %q, note %q", c.File, c.SVG, c.Note)
		default:
			if _, err := os.Stat(filepath.Join(dir, c.SVG)); err != nil {
				t.Error(err)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d scatters", notes)
	}
	// Without -svg, no note: nothing asked was left out.
	charts, err = Write(context.Background(), t.TempDir(), twoSeries(svgMaxPoints+1), Options{Baseline: "bitboard"})
	for _, c := range charts {
		if c.Note != "" || strings.HasSuffix(c.SVG, ".svg") {
			t.Errorf("%s without SVG: note %q, SVG %q (%v)", c.File, c.Note, c.SVG, err)
		}
	}
}
