package external

import (
	"context"
	"slices"
	"sync"
	"time"

	"sudokubatch/internal/quantile"
	"sudokubatch/solvers"
)

// The null round trip: a request to the built-in echo peer (the batch
// binary again, behind the same guard and pipes, answering at once),
// timed as a unit's request is. A unit's time (its ns) is the round trip
// of its request, the null round trip included: how fast a process wakes
// when its pipe is written depends on how busy the machine is, so the
// null is measured during the sweep, beside the units, by the workers
// that send them: after a unit's answer, the worker sends two echo
// requests and times the second (sample) when its process has not
// sampled the null for nullEvery. The echo's round trips are not in the
// unit's time (Result.HarnessNS). The report compares a strategy's round
// trips with it.
const (
	nullEvery   = 2 * time.Millisecond
	nullSamples = 1 << 14 // kept: a reservoir sample beyond
	nullWarm    = 2       // untimed round trips before the one timed
)

// NullStats is the null round trip measured during a sweep: the number
// of samples and their quantiles, by the tool's one estimator
// (internal/quantile), as the summary's.
type NullStats struct {
	Samples                       int
	MedianNS, P10NS, P90NS, P99NS int64
}

// reservoir keeps up to nullSamples values, a uniform sample of all.
type reservoir struct {
	vals []int64
	seen int
	rng  uint64
}

func (r *reservoir) add(v int64) {
	r.seen++
	if len(r.vals) < nullSamples {
		r.vals = append(r.vals, v)
		return
	}
	r.rng ^= r.rng << 13 // xorshift64: a sample, not a secret
	r.rng ^= r.rng >> 7
	r.rng ^= r.rng << 17
	if i := r.rng % uint64(r.seen); i < nullSamples {
		r.vals[i] = v
	}
}

// nullMeter samples the null round trip with the echo peer's processes,
// one per worker. Safe for concurrent use.
type nullMeter struct {
	echo    *Solver
	puzzle  solvers.Puzzle // the echo's request
	epoch   time.Time
	mu      sync.Mutex
	samples reservoir
}

// sample times a round trip with an idle echo process, if one is idle,
// after one untimed: the echo process has then just run, as a solver's
// process that answers request after request has (a process woken after
// a millisecond asleep wakes slower). It returns the time both took.
func (m *nullMeter) sample(ctx context.Context) int64 {
	var pr *proc
	select {
	case pr = <-m.echo.idle:
	default:
		return 0
	}
	var res solvers.Result
	t0 := time.Since(m.epoch)
	var err error
	for range nullWarm {
		if err = m.echo.ask(ctx, pr, &m.puzzle, solvers.Limits{}, time.Time{}, &res); err != nil {
			break
		}
	}
	t1 := time.Since(m.epoch)
	if err == nil {
		err = m.echo.ask(ctx, pr, &m.puzzle, solvers.Limits{}, time.Time{}, &res)
	}
	t2 := time.Since(m.epoch)
	if err != nil {
		m.echo.fault(pr) // not replaced: the meter samples with the others
		return (t2 - t0).Nanoseconds()
	}
	m.echo.idle <- pr
	m.mu.Lock()
	m.samples.add((t2 - t1).Nanoseconds())
	m.mu.Unlock()
	return (t2 - t0).Nanoseconds()
}

// due reports whether pr's worker samples the null now, and notes it.
func (m *nullMeter) due(pr *proc) bool {
	now := time.Since(m.epoch)
	if pr.sampled != 0 && now-pr.sampled < nullEvery {
		return false
	}
	pr.sampled = now
	return true
}

// stats returns the figures of the samples so far.
func (m *nullMeter) stats() NullStats {
	m.mu.Lock()
	vals := slices.Clone(m.samples.vals)
	st := NullStats{Samples: m.samples.seen}
	m.mu.Unlock()
	slices.Sort(vals)
	if len(vals) > 0 {
		st.MedianNS, st.P10NS, st.P90NS, st.P99NS = quantile.Median(vals), quantile.Of(vals, 0.1), quantile.Of(vals, 0.9), quantile.Of(vals, 0.99)
	}
	return st
}

// calibrationPuzzle is the echo's request (puzzle #0 of the 17-clue list).
const calibrationPuzzle = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
