package external

import (
	"context"
	"os"
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
				s, err := launch(context.Background(), Spec{Name: "echo", Args: args}, Options{Workers: workers, Timeout: timeout}, args[0], extra)
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
