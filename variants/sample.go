package variants

import (
	"context"
	"fmt"
	"slices"

	"sudokubatch/internal/quantile"
	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// SampleMedians gives the corpus medians of the strategies of
// cfg.Solvers named in names when no run gives them: it solves k puzzles
// spread evenly over the corpus file (of count puzzles) under cfg's
// limits, workers and run seed, and returns each strategy's median calls
// and time over its measured units: the summary's median (the tool's one
// estimator, internal/quantile), so that the medians of a sample are
// those a sweep of the same puzzles reports.
func SampleMedians(ctx context.Context, cfg Config, file string, count, k int, names []string) (map[string]CorpusMedian, error) {
	out := map[string]CorpusMedian{}
	k = min(k, count)
	if k == 0 {
		return out, nil
	}
	ids := make([]int, k)
	for i := range ids {
		ids[i] = i * count / k
	}
	var sub []solvers.Solver
	for _, s := range cfg.Solvers {
		if slices.Contains(names, s.Name()) {
			sub = append(sub, s)
		}
	}
	sink := &sampleSink{calls: map[string][]float64{}, ns: map[string][]float64{}}
	_, err := pipeline.Run(ctx, pipeline.Config{Corpora: []string{file}, Solvers: sub, Workers: cfg.Workers,
		Timeout: cfg.Timeout, MaxCalls: cfg.MaxCalls, Seed: cfg.RunSeed, Select: pipeline.Selection{IDs: ids}, Sink: sink})
	if err != nil {
		return nil, err
	}
	for _, s := range sub {
		c, t := sink.calls[s.Name()], sink.ns[s.Name()]
		if len(c) == 0 {
			continue
		}
		slices.Sort(c)
		slices.Sort(t)
		out[s.Name()] = CorpusMedian{Calls: quantile.Median(c), NS: quantile.Median(t),
			From: fmt.Sprintf("a sample of %d puzzles of %s", len(c), file)}
	}
	return out, nil
}

// sampleSink keeps the calls and times of the measured units, by strategy.
type sampleSink struct {
	calls, ns map[string][]float64
}

func (s *sampleSink) Write(r *rundir.Row) error {
	if r.Status.Measured() {
		s.calls[r.Solver] = append(s.calls[r.Solver], float64(r.Calls))
		s.ns[r.Solver] = append(s.ns[r.Solver], float64(r.NS))
	}
	return nil
}

func (s *sampleSink) Flush() error { return nil }
