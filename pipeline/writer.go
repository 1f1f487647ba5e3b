package pipeline

import (
	"context"
	"time"

	"sudokubatch/solvers"
)

// flushEvery is how often the writer flushes rows while the run goes on.
const flushEvery = 250 * time.Millisecond

// write receives finished batches and writes their rows in order,
// giving back a batch's window slot when its last row is written.
func write(ctx context.Context, cfg *Config, results <-chan *resultBatch, slots chan struct{}, window int, stats *Stats) error {
	ring := make([]*result, window)
	mask := uint64(window - 1) // window is a power of two
	var next uint64
	dirty := false
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case rb, ok := <-results:
			if !ok {
				return cfg.Sink.Flush()
			}
			rs := rb.s
			if cfg.Progress != nil {
				cfg.Progress.Add(len(rs))
			}
			for i := range rs {
				ring[rs[i].seq&mask] = &rs[i]
			}
			for {
				p := ring[next&mask]
				if p == nil || p.seq != next {
					break
				}
				ring[next&mask] = nil
				if !p.skip {
					if err := cfg.Sink.Write(&p.row); err != nil {
						return err // cancels the group: the run stops
					}
					account(stats, p)
					dirty = true
					if cfg.retime != nil {
						cfg.retime.observe(p)
					}
				}
				next++
				if p.last {
					<-slots // the block's last row: the block is written
				}
				if b := p.batch; b != nil {
					// The batch's last row: the batch is written.
					resultPool.put(b) // clears p too
				}
			}
		case <-tick.C:
			if dirty {
				if err := cfg.Sink.Flush(); err != nil {
					return err
				}
				dirty = false
			}
		case <-ctx.Done():
			cfg.Sink.Flush()
			return ctx.Err()
		}
	}
}

func account(stats *Stats, r *result) {
	stats.Units++
	s := stats.Solvers[r.solver]
	s.Units++
	s.byStatus[r.row.Status]++
	s.NS += r.row.NS
	if r.row.Status == solvers.StatusWrong {
		stats.Wrong++
	}
	if r.row.Unstable {
		stats.Unstable++
	}
}
