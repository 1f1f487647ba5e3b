package pipeline

import (
	"math"
	"runtime"
	"runtime/metrics"
	"time"
)

// GCStats is the garbage collector's part of a run, read from
// runtime/metrics before and after it: a strategy that allocates makes
// the collector run, and its pauses and background work can fall in the
// timed window of any unit. The run records them so that their share is
// known (docs/TIMING.md measures it; it is small enough not to
// warrant keeping the collector out of the timed windows).
type GCStats struct {
	Cycles   uint64  `json:"cycles"`
	PauseNS  int64   `json:"pause_ns"`  // stop-the-world pauses, in total
	CPUShare float64 `json:"cpu_share"` // of the process's CPU time, the collector's
}

type gcReading struct {
	cycles       uint64
	pause        float64 // seconds
	gcCPU, total float64 // CPU seconds
}

var gcMetrics = []string{
	"/gc/cycles/total:gc-cycles",
	"/sched/pauses/total/gc:seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/total:cpu-seconds",
}

func readGC() gcReading {
	s := make([]metrics.Sample, len(gcMetrics))
	for i, name := range gcMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	var r gcReading
	if s[0].Value.Kind() == metrics.KindUint64 {
		r.cycles = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindFloat64Histogram {
		h := s[1].Value.Float64Histogram()
		for i, c := range h.Counts {
			// The middle of the bucket; an open bucket's finite edge.
			lo, hi := h.Buckets[i], h.Buckets[i+1]
			switch {
			case c == 0:
			case math.IsInf(lo, -1):
				r.pause += float64(c) * max(hi, 0)
			case math.IsInf(hi, 1):
				r.pause += float64(c) * lo
			default:
				r.pause += float64(c) * (lo + hi) / 2
			}
		}
	}
	if s[2].Value.Kind() == metrics.KindFloat64 {
		r.gcCPU = s[2].Value.Float64()
	}
	if s[3].Value.Kind() == metrics.KindFloat64 {
		r.total = s[3].Value.Float64()
	}
	return r
}

func (r gcReading) since(old gcReading) GCStats {
	g := GCStats{Cycles: r.cycles - old.cycles, PauseNS: int64((r.pause - old.pause) * float64(time.Second))}
	if d := r.total - old.total; d > 0 {
		g.CPUShare = (r.gcCPU - old.gcCPU) / d
	}
	return g
}

// allocated returns the bytes allocated on the heap so far.
func (rt *retimer) allocated() uint64 {
	metrics.Read(rt.heap[:])
	if rt.heap[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return rt.heap[0].Value.Uint64()
}

// collect runs the collector, and notes when.
func (rt *retimer) collect() {
	runtime.GC()
	rt.heapAt = rt.allocated()
}
