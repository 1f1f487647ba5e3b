package solvers

import (
	"context"
	"fmt"
	"time"
)

// budget applies Limits and ctx inside a search at the cost of one integer
// comparison per call: the strategy counts its calls and calls poll only
// when the count reaches next, which is the sooner of MaxCalls and the
// next clock check (every `every` calls). The clock and ctx are read only
// in poll.
//
// Usage, before starting call number calls+1:
//
//	if calls == b.next {
//		if st := b.poll(calls); st != StatusNone {
//			return b.stopped(st, ...)
//		}
//	}
//	calls++
//
// With MaxCalls = m a strategy makes exactly m calls and then stops with
// StatusLimit, so its counters are deterministic. A budget belongs to one
// Solve call.
type budget struct {
	done     <-chan struct{}
	ctx      context.Context
	deadline time.Time
	max      uint64
	every    uint64
	next     uint64
	err      error // why poll stopped the search, for Result.Err
}

func newBudget(ctx context.Context, lim Limits, every uint64) budget {
	if every == 0 {
		every = 1
	}
	return budget{done: ctx.Done(), ctx: ctx, deadline: lim.Deadline, max: lim.MaxCalls, every: every}
}

// poll checks the limits when calls calls have been made. It returns
// StatusNone to go on, or StatusLimit, StatusTimeout or StatusError (ctx
// canceled) to stop, with b.err saying why.
func (b *budget) poll(calls uint64) Status {
	if b.max != 0 && calls >= b.max {
		b.err = fmt.Errorf("stopped after %d %s (max-calls)", calls, callsWord(calls))
		return StatusLimit
	}
	select {
	case <-b.done:
		b.err = b.ctx.Err()
		if b.err == context.DeadlineExceeded {
			return StatusTimeout
		}
		return StatusError
	default:
	}
	if !b.deadline.IsZero() && !time.Now().Before(b.deadline) {
		b.err = fmt.Errorf("stopped after %d %s: deadline passed", calls, callsWord(calls))
		return StatusTimeout
	}
	b.next = calls + b.every
	if b.max != 0 && b.next > b.max {
		b.next = b.max
	}
	return StatusNone
}

// callsWord is "call" for 1 call and "calls" otherwise (solvers imports
// no report, where the other counts are worded).
func callsWord(n uint64) string {
	if n == 1 {
		return "call"
	}
	return "calls"
}
