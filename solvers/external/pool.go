package external

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The processes of a Solver: Options.Workers at most, each taken by one
// Solve at a time from the idle channel; a process that faults is ended
// and another started in its place by the next Solve, up to the restart
// cap.

// take returns an idle process, or starts one when fewer than Workers
// run (a restart after a fault), and the time it waited.
func (s *Solver) take(ctx context.Context) (*proc, int64, error) {
	select {
	case p := <-s.idle:
		return p, 0, nil
	default:
	}
	t0 := time.Now()
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, time.Since(t0).Nanoseconds(), errors.New("the strategy's processes were ended (Close)")
		}
		if s.capped {
			s.refused++
			s.mu.Unlock()
			return nil, time.Since(t0).Nanoseconds(), capError{s.opt.MaxRestarts}
		}
		if s.live < s.opt.Workers {
			s.live++
			if s.pending > 0 {
				s.pending--
				s.restarts++
				if s.restarts > s.opt.MaxRestarts {
					// Not started: Restarts counts the processes started.
					s.capped, s.live, s.restarts = true, s.live-1, s.restarts-1
					s.refused++
					s.mu.Unlock()
					return nil, time.Since(t0).Nanoseconds(), capError{s.opt.MaxRestarts}
				}
			}
			s.mu.Unlock()
			p, _, err := s.startOne(ctx)
			if err != nil {
				s.mu.Lock()
				s.live--
				s.pending++ // the next try is a restart too
				s.mu.Unlock()
				if ctx.Err() != nil {
					return nil, time.Since(t0).Nanoseconds(), errStopped
				}
				return nil, time.Since(t0).Nanoseconds(), fmt.Errorf("starting the solver again: %w", err)
			}
			return p, time.Since(t0).Nanoseconds(), nil
		}
		s.mu.Unlock()
		select {
		case p := <-s.idle:
			return p, time.Since(t0).Nanoseconds(), nil
		case <-ctx.Done():
			return nil, time.Since(t0).Nanoseconds(), errStopped
		case <-time.After(10 * time.Millisecond):
			// live may have dropped (a fault elsewhere): look again.
		}
	}
}

// fault ends a process that failed; the next Solve starts another.
func (s *Solver) fault(p *proc) {
	s.mu.Lock()
	s.live--
	s.pending++
	s.mu.Unlock()
	s.end(p, false)
}

// end ends p, at once (KILL) or with TERM then KILL, and releases it
// once it has exited, in the background.
func (s *Solver) end(p *proc, now bool) {
	if now {
		p.kill()
	} else {
		p.terminate()
	}
	s.reaping.Add(1)
	go func() {
		defer s.reaping.Done()
		select {
		case <-p.exited:
		case <-time.After(2*s.opt.Grace + time.Second):
			p.kill() // the guard did not end it: its life line's end does
			<-p.exited
		}
		p.release()
		s.mu.Lock()
		delete(s.all, p)
		s.mu.Unlock()
	}()
}

// Close ends every process: it closes their input, gives them the grace
// to exit, then ends them and their descendants, and waits until they
// have exited. The echo peer's too.
func (s *Solver) Close() error {
	s.mu.Lock()
	s.closed = true // no process starts after Close
	procs := make([]*proc, 0, len(s.all))
	for p := range s.all {
		procs = append(procs, p)
	}
	s.mu.Unlock()
	for _, p := range procs {
		p.in.Close()
	}
	deadline := time.After(s.opt.Grace)
	for _, p := range procs {
		select {
		case <-p.exited:
		case <-deadline:
		}
	}
	for _, p := range procs {
		select {
		case <-p.exited:
			p.release()
			s.mu.Lock()
			delete(s.all, p)
			s.mu.Unlock()
		default:
			s.end(p, false)
		}
	}
	s.reaping.Wait()
	if s.null != nil {
		s.null.echo.Close()
	}
	return nil
}
