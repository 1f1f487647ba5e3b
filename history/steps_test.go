package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// seriesOf returns a series whose night k has, for each strategy, the
// median time medians[strategy][k] (ns).
func seriesOf(medians map[string][]float64) *Series {
	s := &Series{ID: "test"}
	n := 0
	for _, v := range medians {
		n = len(v)
	}
	t0 := time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC)
	for k := range n {
		night := &Night{Run: fmt.Sprintf("n%02d", k+1), RunID: fmt.Sprintf("id%02d", k+1), Start: t0.AddDate(0, 0, k)}
		for _, solver := range []string{"a", "b", "c", "d"} {
			if v, ok := medians[solver]; ok {
				night.Strategy = append(night.Strategy, Strategy{Solver: solver, Median: Quantile{Value: int64(math.Round(v[k]))}})
			}
		}
		s.Nights = append(s.Nights, night)
	}
	return s
}

// noisy returns n nightly medians around level, each off by up to
// spread (a share) at random, the machine's drift of the night (drift[k],
// a factor) applied.
func noisy(rng *rand.Rand, n int, level, spread float64, drift []float64) []float64 {
	v := make([]float64, n)
	for k := range v {
		v[k] = level * drift[k] * (1 + spread*(2*rng.Float64()-1))
	}
	return v
}

func drifts(rng *rand.Rand, n int, spread float64) []float64 {
	d := make([]float64, n)
	for k := range d {
		d[k] = 1 + spread*(2*rng.Float64()-1)
	}
	return d
}

func scale(v []float64, from int, f float64) []float64 {
	for k := from; k < len(v); k++ {
		v[k] *= f
	}
	return v
}

func TestStepsFindAStepOnceWhereItStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		d := drifts(rng, 12, 0.15) // the machine: up to 15% a night, every strategy alike
		s := seriesOf(map[string][]float64{
			"a": noisy(rng, 12, 10000, 0.01, d),
			"b": scale(noisy(rng, 12, 2000, 0.01, d), 7, 1.2), // slower from night 8
			"c": noisy(rng, 12, 50000, 0.01, d),
		})
		steps := findSteps(s, len(s.Nights), nil, Options{}.withDefaults())
		if len(steps) != 1 || steps[0].Solver != "b" || steps[0].Night.Index != 8 || math.Abs(steps[0].Ratio-1.2) > 0.05 {
			for _, st := range steps {
				t.Logf("step %s night %d x%.3f", st.Solver, st.Night.Index, st.Ratio)
			}
			t.Fatalf("trial %d: want one step of b at night 8, x1.2", trial)
		}
		// Not found with two nights after it; found with three.
		if got := findSteps(s, 9, nil, Options{}.withDefaults()); len(got) != 0 {
			t.Errorf("trial %d: a step found over 9 nights (2 after it): %+v", trial, got[0])
		}
		if got := findSteps(s, 10, nil, Options{}.withDefaults()); len(got) != 1 || got[0].Night.Index != 8 {
			t.Errorf("trial %d: over 10 nights (3 after it), %d steps, want the one at night 8", trial, len(got))
		}
	}
}

func TestStepsIgnoreSpikesAndTheMachine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		d := drifts(rng, 14, 0.2)
		d[9] *= 1.5 // a night when the machine was half as fast again
		s := seriesOf(map[string][]float64{
			"a": noisy(rng, 14, 10000, 0.01, d),
			"b": noisy(rng, 14, 2000, 0.01, d),
			"c": noisy(rng, 14, 50000, 0.01, d),
		})
		s.Nights[5].Strategy[1].Median.Value *= 2  // one slow night of b: a spike
		s.Nights[12].Strategy[0].Median.Value *= 3 // and of a, near the end
		if steps := findSteps(s, len(s.Nights), nil, Options{}.withDefaults()); len(steps) != 0 {
			t.Fatalf("trial %d: %d steps (%s night %d x%.3f), want none: spikes and the machine's drift", trial, len(steps), steps[0].Solver, steps[0].Night.Index, steps[0].Ratio)
		}
	}
}

func TestStepsBelowTheThresholdAreNone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := drifts(rng, 12, 0)
	s := seriesOf(map[string][]float64{
		"a": noisy(rng, 12, 10000, 0.001, d),
		"b": scale(noisy(rng, 12, 2000, 0.001, d), 6, 1.03), // 3%: real, but below 5%
		"c": noisy(rng, 12, 50000, 0.001, d),
	})
	if steps := findSteps(s, 12, nil, Options{}.withDefaults()); len(steps) != 0 {
		t.Errorf("a 3%% step found with the threshold at 5%%")
	}
	if steps := findSteps(s, 12, nil, Options{Threshold: 0.02}.withDefaults()); len(steps) != 1 || steps[0].Night.Index != 7 {
		t.Errorf("a 3%% step not found at night 7 with the threshold at 2%%: %d steps", len(steps))
	}
}

func TestStepsAcknowledgedNightCutsTheSeries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d := drifts(rng, 12, 0.05)
	s := seriesOf(map[string][]float64{
		"a": noisy(rng, 12, 10000, 0.01, d),
		"b": scale(noisy(rng, 12, 2000, 0.01, d), 6, 1.3),
		"c": noisy(rng, 12, 50000, 0.01, d),
	})
	acks := newAckSet([]Ack{{Run: "n07", RunID: "id07", Solver: "b", Why: "known"}})
	if steps := findSteps(s, 12, acks, Options{}.withDefaults()); len(steps) != 0 {
		t.Errorf("the step at the acknowledged night 7 found again: %+v", steps[0])
	}
}

func TestMedianOfEvenAndOdd(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median of 3 1 2 = %g", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 4 1 3 2 = %g", m)
	}
}
