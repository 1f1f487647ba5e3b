package solvers

import "testing"

// The per-puzzle costs that the pipeline pays around a strategy besides
// reading a line (corpus.BenchmarkScan): validating a puzzle
// (BenchmarkValidate) and checking an answer (BenchmarkCheck). They run
// for every puzzle of a sweep, so they bound
// how cheap a unit can be.

// BenchmarkCheck checks the solutions of every 49th corpus puzzle and
// reports ns/check.
func BenchmarkCheck(b *testing.B) {
	var ps []Puzzle
	var gs []Grid
	for _, p := range loadSample(b, 49) {
		s, _ := Lookup("bitboard")
		r := s.Solve(b.Context(), p, Limits{})
		ps, gs = append(ps, p), append(gs, r.Solution)
	}
	checks := 0
	for b.Loop() {
		for i := range ps {
			if err := Check(ps[i], gs[i]); err != nil {
				b.Fatal(err)
			}
			checks++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(checks), "ns/check")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkValidate validates every corpus puzzle (givens only, as parsed)
// and reports ns/puzzle: every line read and every Solve but bitboard's
// pay for it.
func BenchmarkValidate(b *testing.B) {
	var ps []Puzzle
	eachCorpus(b, func(e corpusEntry) bool { ps = append(ps, e.Puzzle); return true })
	for b.Loop() {
		for i := range ps {
			if err := ps[i].validate(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/puzzle")
	b.ReportMetric(0, "ns/op")
}
