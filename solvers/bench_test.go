package solvers

import (
	"context"
	"testing"
	"time"
)

// benchSample is the fixed set of puzzles a strategy is benchmarked on,
// with a per-puzzle call budget for the naive strategies that cannot
// finish every 17-clue puzzle in a benchmark.
type benchSample struct {
	every    int    // take corpus puzzles with id % every == 0
	maxCalls uint64 // 0: none
}

var benchSamples = map[string]benchSample{
	"bitboard":   {every: 49}, // 1004 puzzles
	"dlx":        {every: 49},
	"norvig":     {every: 49},
	"singles":    {every: 49},
	"randmrv":    {every: 983}, // 51 puzzles
	"backtrack":  {every: 983, maxCalls: 2_000_000},
	"bruteforce": {every: 983, maxCalls: 100_000},
}

func loadSample(b *testing.B, every int) []Puzzle {
	b.Helper()
	var out []Puzzle
	eachCorpus(b, func(e Entry) bool {
		if e.ID%every == 0 {
			out = append(out, e.Puzzle)
		}
		return true
	})
	return out
}

// BenchmarkSolve runs every strategy over its fixed sample of the 17-clue
// corpus and reports ns/puzzle, calls/puzzle and, for the strategies
// limited by a call budget, ns/call. Answers are checked outside the
// timed loop once.
func BenchmarkSolve(b *testing.B) {
	for _, s := range All() {
		cfg, ok := benchSamples[s.Name()]
		if !ok {
			b.Fatalf("no benchmark sample for %s", s.Name())
		}
		b.Run(s.Name(), func(b *testing.B) {
			sample := loadSample(b, cfg.every)
			lim := Limits{MaxCalls: cfg.maxCalls, Seed: 1}
			for _, p := range sample {
				if r := s.Solve(context.Background(), p, lim); r.Status == StatusSolved {
					if err := Check(p, r.Solution); err != nil {
						b.Fatalf("%s: wrong answer: %v", s.Name(), err)
					}
				}
			}
			ctx := context.Background()
			var calls uint64
			b.ResetTimer()
			start := time.Now()
			for b.Loop() {
				for i, p := range sample {
					lim.Seed = uint64(i)
					calls += s.Solve(ctx, p, lim).Calls
				}
			}
			elapsed := time.Since(start)
			n := float64(b.N * len(sample))
			b.ReportMetric(float64(elapsed.Nanoseconds())/n, "ns/puzzle")
			b.ReportMetric(float64(calls)/n, "calls/puzzle")
			if cfg.maxCalls != 0 {
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(calls), "ns/call")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkCorpus solves the whole 17-clue corpus in a tight loop, one
// thread, with each fast strategy: one op is 49151 puzzles. It is the
// yardstick for the whole-process time of `batch` and for peers such as
// tdoku (docs/PERFORMANCE.md). Run it with -benchtime 1x -count 5.
func BenchmarkCorpus(b *testing.B) {
	var all []Puzzle
	eachCorpus(b, func(e Entry) bool { all = append(all, e.Puzzle); return true })
	for _, name := range []string{"bitboard", "norvig", "dlx", "singles"} {
		s, _ := Lookup(name)
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			var calls uint64
			for b.Loop() {
				for _, p := range all {
					calls += s.Solve(ctx, p, Limits{}).Calls
				}
			}
			n := float64(b.N * len(all))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/puzzle")
			b.ReportMetric(float64(calls)/n, "calls/puzzle")
			b.ReportMetric(0, "ns/op")
		})
	}
}
