package external

import (
	"fmt"

	"sudokubatch/solvers"
)

// A line that comes after an answer is a protocol error of the unit whose
// answer it follows, never an answer to a later request, and never a
// later unit's fault:
//   - found in the same read as the answer (the program wrote both at
//     once), it makes that unit an error at once (Solve);
//   - found later, when the process's next request reads a line that
//     answers an earlier request (each request has its number), or when
//     the pipeline asks for LateFaults at the end of the run, it is
//     recorded against the unit of that request (each process remembers
//     its last few), the process is ended, and the request being sent
//     goes to a new one: the pipeline makes the earlier unit's row an
//     error (solvers.LateFaulter).

// recent is how many of its last requests a process remembers.
const recent = 8

// remember notes the unit of request rq on pr.
func (pr *proc) remember(rq request, lim solvers.Limits) {
	pr.last[rq.n%recent] = lastRequest{n: rq.n, corpus: lim.Corpus, id: lim.ID}
}

// blame records a late fault against the unit of request n of pr, when
// pr remembers it: msg says what came.
func (s *Solver) blame(pr *proc, n uint64, msg string) {
	u := pr.last[n%recent]
	if u.n != n || n == 0 {
		s.mu.Lock()
		s.strays++ // a line for a request too old to name its unit
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	s.late = append(s.late, solvers.LateFault{Corpus: u.corpus, ID: u.id,
		Err: fmt.Errorf("protocol: %s: the unit's answer does not stand", msg)})
	s.mu.Unlock()
}

// LateFaults returns the faults found after their units' Solve returned,
// each once (solvers.LateFaulter). It first reads what the idle
// processes wrote after their last answer.
func (s *Solver) LateFaults() []solvers.LateFault {
	var idle []*proc
	for {
		select {
		case pr := <-s.idle:
			idle = append(idle, pr)
			continue
		default:
		}
		break
	}
	for _, pr := range idle {
		if line, ok := pr.extra(); ok {
			s.blame(pr, pr.requests, fmt.Sprintf("the line %s came after its answer", quote(line)))
			s.fault(pr)
			continue
		}
		s.idle <- pr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	late := s.late
	s.late = nil
	return late
}

// extra reads, without waiting, what pr wrote after its last answer: the
// start of it, and whether there was any (an end of file is none: the
// process ended after its answer).
func (pr *proc) extra() ([]byte, bool) {
	if !pr.pending() {
		pr.fill()
	}
	if !pr.pending() {
		return nil, false
	}
	return pr.rbuf[pr.rstart:min(pr.rend, pr.rstart+80)], true
}
