package external

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// BenchmarkNullRoundTrip times round trips with the built-in echo peer,
// or with the program in $SUDOKUBATCH_ECHO (an echo of the same answers
// in another language), from one worker and from two at once.
func BenchmarkNullRoundTrip(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	args, extra := []string{self}, []string{nextVar + "=" + roleEcho}
	if e := os.Getenv("SUDOKUBATCH_ECHO"); e != "" {
		args, extra = []string{e}, nil
	}
	p, _ := solvers.ParsePuzzle(calibrationPuzzle)
	for _, workers := range []int{1, 2} {
		for _, timeout := range []time.Duration{0, 100 * time.Millisecond} {
			b.Run("workers="+string(rune('0'+workers))+"/timeout="+timeout.String(), func(b *testing.B) {
				s, err := launch(context.Background(), Spec{Name: "echo", Args: args}, Options{Workers: workers, NoNull: true}, args[0], extra)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				var wg sync.WaitGroup
				n := b.N / workers
				b.ResetTimer()
				for range workers {
					wg.Go(func() {
						for i := range n {
							lim := solvers.Limits{ID: i}
							if timeout > 0 {
								lim.Deadline = time.Now().Add(timeout)
							}
							if r := s.Solve(context.Background(), p, lim); r.Status != solvers.StatusSolved {
								b.Error(r.Err)
								return
							}
						}
					})
				}
				wg.Wait()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/roundtrip")
			})
		}
	}
}

// BenchmarkNullSampling sends the echo peer's requests as a strategy's
// units from two workers at once, and samples the null round trip
// beside them as a sweep does: with no bias, the units' median round
// trip (units-median-ns) and the null's (null-median-ns) agree. Run it
// with -benchtime 50000x on a quiet machine (docs/PERFORMANCE.md).
func BenchmarkNullSampling(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	extra := []string{nextVar + "=" + roleEcho}
	s, err := launch(context.Background(), Spec{Name: "echo", Args: []string{self}}, Options{Workers: 2, NoNull: true}, self, extra)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	echo, err := launch(context.Background(), Spec{Name: "echo", Args: []string{self}}, Options{Workers: 2, NoNull: true}, self, extra)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := solvers.ParsePuzzle(calibrationPuzzle)
	s.null = &nullMeter{echo: echo, puzzle: p, epoch: time.Now()}
	var mu sync.Mutex
	var units []int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 2 {
		wg.Go(func() {
			for i := range max(b.N/2, 1) {
				t0 := time.Now()
				r := s.Solve(context.Background(), p, solvers.Limits{ID: i})
				ns := time.Since(t0).Nanoseconds() - r.HarnessNS
				mu.Lock()
				units = append(units, ns)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(units)
	null := s.Null()
	b.ReportMetric(float64(units[len(units)/2]), "units-median-ns")
	b.ReportMetric(float64(null.MedianNS), "null-median-ns")
	b.ReportMetric(float64(null.Samples), "null-samples")
}
