package chart

import (
	"io"
	"testing"
)

// BenchmarkRender builds the four charts of a run of one strategy over
// 49,151 puzzles (the ECDF, the box plot, the histograms of time and of
// calls) and renders each as the report does, its PNG, then its small
// PNG (Shrink), or as SVG: ms a chart, each built again.
func BenchmarkRender(b *testing.B) {
	res := testResults(map[string][]testEntry{"bitboard": spread(49151, 2_000)}, "bitboard")
	cs, err := newChartSet(b.Context(), res, Options{})
	if err != nil {
		b.Fatal(err)
	}
	jobs := cs.jobs()
	if len(jobs) != 4 {
		b.Fatalf("%d charts, want 4", len(jobs))
	}
	for _, kind := range []string{"png", "small", "svg"} {
		b.Run(kind, func(b *testing.B) {
			format := kind
			if kind == "small" {
				format = "png"
			}
			for b.Loop() {
				for _, j := range jobs {
					f, err := j.build()
					if err != nil {
						b.Fatal(err)
					}
					if kind == "small" {
						f.Shrink()
					}
					if _, err := f.Render(format); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(jobs)), "ms/chart")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkEncodePNG encodes the ECDF of a run of one strategy over
// 49,151 puzzles, drawn once, as the report encodes each chart: its
// colors counted, its palette chosen, its pixels mapped, compressed.
func BenchmarkEncodePNG(b *testing.B) {
	img := firstChart(b, 49151, 2_000).raster()
	for b.Loop() {
		if err := encodePNG(io.Discard, img); err != nil {
			b.Fatal(err)
		}
	}
}
