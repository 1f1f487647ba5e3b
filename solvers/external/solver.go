package external

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"sudokubatch/solvers"
)

// Options are the limits of an external strategy (the -ext-* flags).
type Options struct {
	Workers      int           // processes at most: one per worker of the sweep
	StartTimeout time.Duration // the time a process has to answer the handshake (-ext-start)
	Grace        time.Duration // TERM to KILL (-ext-grace)
	MaxRestarts  int           // restarts in the run at most (-ext-restarts); 0: none
	Count        bool          // -unique: send count requests to a program that can count
	// Limit is the longest a unit waits for its answer when it has no
	// deadline (the sweep's -timeout 0): -ext-timeout; 0 for none.
	Limit time.Duration
	// NoNull: the null round trip is not measured (no echo peer).
	NoNull bool
}

// Defaults of Options.
const (
	DefaultStartTimeout = 10 * time.Second
	DefaultGrace        = time.Second
	DefaultMaxRestarts  = 100
	DefaultLimit        = time.Minute
)

func (o Options) withDefaults() Options {
	if o.Workers < 1 {
		o.Workers = 1
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	o.MaxRestarts = max(o.MaxRestarts, 0)
	o.Limit = max(o.Limit, 0)
	return o
}

// Solver is an external program swept as a strategy: a solvers.Solver
// whose units are requests to one of its processes, one per worker
// (docs/PROTOCOL.md). It is safe for concurrent use by Options.Workers
// goroutines at once. Close ends every process.
type Solver struct {
	spec  Spec
	opt   Options
	prog  Program
	exe   string   // the program run, absolute
	extra []string // environment of the processes beyond the tool's
	hello hello
	null  *nullMeter // nil: not measured (Options.NoNull)

	idle     chan *proc
	mu       sync.Mutex
	live     int // processes started and not faulted
	pending  int // faulted processes not replaced yet
	restarts int
	refused  int // requests not sent past the restart cap
	capped   bool
	closed   bool
	all      map[*proc]bool // every process not yet released
	reaping  sync.WaitGroup
	late     []solvers.LateFault // found after their Solve returned (late.go)
	strays   int                 // lines after an answer whose unit was too old to name
}

// Start resolves the program of spec, starts its processes (one per
// worker, each must answer the handshake within opt.StartTimeout), and
// the echo peer's, which measure the null round trip during the sweep.
// An error says what the program did instead, with the end of its
// standard error.
func Start(ctx context.Context, spec Spec, opt Options) (*Solver, error) {
	prog, err := Identify(spec)
	if err != nil {
		return nil, err
	}
	s, err := launch(ctx, spec, opt, prog.Executable, nil)
	if err != nil {
		return nil, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	prog.Reported, prog.Version, prog.Caps = s.hello.name, s.hello.version, s.hello.caps
	s.prog = prog
	if !s.opt.NoNull {
		self, err := os.Executable()
		if err == nil {
			var echo *Solver
			echoOpt := Options{Workers: s.opt.Workers, StartTimeout: s.opt.StartTimeout, Grace: s.opt.Grace, NoNull: true}
			if echo, err = launch(ctx, Spec{Name: "echo", Args: []string{self}}, echoOpt, self, []string{nextVar + "=" + roleEcho}); err == nil {
				p, _ := solvers.ParsePuzzle(calibrationPuzzle)
				s.null = &nullMeter{echo: echo, puzzle: p, epoch: time.Now()}
			}
		}
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("-ext %s: starting the echo peer that measures the null round trip: %w", spec.Name, err)
		}
	}
	return s, nil
}

// launch starts opt.Workers processes of exe with spec's arguments and
// checks their handshakes.
func launch(ctx context.Context, spec Spec, opt Options, exe string, extra []string) (*Solver, error) {
	opt = opt.withDefaults()
	s := &Solver{spec: spec, opt: opt, exe: exe, extra: extra,
		idle: make(chan *proc, opt.Workers), all: map[*proc]bool{}}
	type started struct {
		p   *proc
		h   hello
		err error
	}
	ch := make(chan started, opt.Workers)
	for range opt.Workers {
		go func() {
			p, h, err := s.startOne(ctx)
			ch <- started{p, h, err}
		}()
	}
	var errs []error
	for range opt.Workers {
		st := <-ch
		if st.err != nil {
			errs = append(errs, st.err)
			continue
		}
		switch {
		case s.hello.name == "":
			s.hello = st.h
		case st.h.name != s.hello.name || st.h.version != s.hello.version || !slices.Equal(st.h.caps, s.hello.caps):
			errs = append(errs, fmt.Errorf("two processes of one command gave different handshakes: %s %s and %s %s",
				s.hello.name, s.hello.version, st.h.name, st.h.version))
		}
		s.live++
		s.idle <- st.p
	}
	if len(errs) > 0 {
		s.Close()
		return nil, errs[0]
	}
	return s, nil
}

// startOne starts a process and reads its handshake.
func (s *Solver) startOne(ctx context.Context) (*proc, hello, error) {
	args := append([]string{s.exe}, s.spec.Args[1:]...)
	p, err := startProc(args, s.extra, s.opt.Grace)
	if err != nil {
		return nil, hello{}, fmt.Errorf("starting %s: %w", s.spec.Args[0], err)
	}
	s.mu.Lock()
	s.all[p] = true
	s.mu.Unlock()
	h, err := handshake(ctx, p, s.opt.StartTimeout)
	if err != nil {
		s.end(p, true)
		return nil, hello{}, err
	}
	return p, h, nil
}

// handshake sends the protocol line and reads the solver line.
func handshake(ctx context.Context, p *proc, limit time.Duration) (hello, error) {
	stop := context.AfterFunc(ctx, p.wake)
	defer stop()
	p.buf = append(p.buf[:0], protocolLine...)
	line, err := p.exchange(time.Now().Add(limit))
	if err != nil {
		var f *fault
		if errors.As(err, &f) && f.kind == faultCanceled {
			return hello{}, context.Canceled
		}
		if errors.As(err, &f) && f.kind == faultTimeout {
			return hello{}, fmt.Errorf("no handshake within %s (-ext-start)%s", limit, p.tail.quote())
		}
		return hello{}, fmt.Errorf("no handshake: %w", err)
	}
	return parseHello(line)
}

// Name is the strategy's name (-ext NAME=...).
func (s *Solver) Name() string { return s.spec.Name }

// Describe says what the strategy runs.
func (s *Solver) Describe() string {
	return fmt.Sprintf("external: %s (%s %s, says it reports: %s)", s.spec.Command, s.hello.name, s.hello.version, strings.Join(s.hello.caps, " "))
}

// Strategy returns the strategy of s for the pipeline and the report.
func (s *Solver) Strategy() solvers.Strategy {
	var boxes []int
	for _, n := range []int{2, 3, 4} {
		if s.hello.sizes[n*n] {
			boxes = append(boxes, n)
		}
	}
	return solvers.Strategy{Solver: s, Boxes: boxes}
}

// Program returns what identifies the program, with its handshake.
func (s *Solver) Program() Program { return s.prog }

// Workers returns the number of processes it runs at most: one per
// worker of the sweep.
func (s *Solver) Workers() int { return s.opt.Workers }

// Null returns the null round trip measured so far.
func (s *Solver) Null() NullStats {
	if s.null == nil {
		return NullStats{}
	}
	return s.null.stats()
}

// Restarts returns the number of processes started in place of ended ones.
func (s *Solver) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Refused returns the number of requests not sent because the restart
// cap was reached (their status is error, "restart cap reached"): the
// sweep's, and its warm-up's and re-timing's.
func (s *Solver) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Strays returns the number of lines that came after an answer whose
// unit could not be named any more (too many requests later).
func (s *Solver) Strays() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.strays
}

// Failure says why the strategy failed wholesale in a sweep whose units
// of it ended with statuses (by status name): it was stopped by the
// restart cap, or it answered none of the units it was sent (solved,
// unsolvable, stuck, or limit at max_calls: a timeout, an error or a
// wrong answer is no answer); "" when it did not fail.
func (s *Solver) Failure(statuses map[string]int) string {
	sent, answered := 0, statuses["solved"]+statuses["unsolvable"]+statuses["stuck"]+statuses["limit"]
	var counts []string
	for _, st := range solvers.Statuses() {
		n := statuses[st.String()]
		if st == solvers.StatusUnsupported || st == solvers.StatusInvalid || n == 0 {
			continue
		}
		sent += n
		counts = append(counts, fmt.Sprintf("%d %s", n, st))
	}
	switch {
	case s.Refused() > 0:
		return fmt.Sprintf("external %s was stopped by the restart cap (-ext-restarts %d): its units after it were not sent (error: restart cap reached)",
			s.spec.Name, s.opt.MaxRestarts)
	case sent > 0 && answered == 0:
		return fmt.Sprintf("external %s answered none of its %d units (%s): see their error column", s.spec.Name, sent, strings.Join(counts, ", "))
	}
	return ""
}

// capError is the error of the units not sent past the cap.
type capError struct{ n int }

func (e capError) Error() string {
	return fmt.Sprintf("restart cap reached (%d restarts, -ext-restarts): the unit was not sent", e.n)
}

// errStopped is the error of a unit cut short because the run was
// stopped (the first Ctrl-C): it wraps context.Canceled, so that the
// pipeline leaves the unit without a row, for -resume.
var errStopped = fmt.Errorf("the run was stopped before the answer: %w", context.Canceled)

// Solve sends p to one of the processes and reads its answer (see
// docs/PROTOCOL.md). Result.HarnessNS holds what was not the unit's
// request: any wait for a process to start, an attempt on a process that
// failed before it read the request (it is sent again to a new one), the
// wait for a failed process's status, and the null round trip sampled
// after the answer; the pipeline takes it off the unit's time.
func (s *Solver) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	side := p.Box * p.Box
	if side >= len(s.hello.sizes) || !s.hello.sizes[side] {
		return solvers.Result{Status: solvers.StatusUnsupported,
			Err: fmt.Errorf("%s solves no %dx%d grid (its handshake's sizes)", s.spec.Name, side, side)}
	}
	if ctx.Err() != nil {
		return solvers.Result{Status: solvers.StatusError, Err: errStopped}
	}
	var harness int64
	for attempt := 0; ; attempt++ {
		t0 := time.Now()
		pr, wait, err := s.take(ctx)
		harness += wait
		if err != nil {
			return solvers.Result{Status: solvers.StatusError, Err: err, HarnessNS: harness}
		}
		deadline, own := lim.Deadline, false
		switch {
		case !deadline.IsZero():
			// A (re)start, a failed attempt, is not the unit's time:
			// nor is it in its -timeout.
			deadline = deadline.Add(time.Duration(harness))
		case s.opt.Limit > 0:
			deadline, own = time.Now().Add(s.opt.Limit), true
		}
		var res solvers.Result
		err = s.ask(ctx, pr, &p, lim, deadline, &res)
		if err == nil && pr.pending() {
			// Read with the answer: the program wrote it after the answer.
			err = &fault{kind: faultProtocol, msg: fmt.Sprintf("the line %s came after its answer", quote(pr.rbuf[pr.rstart:min(pr.rend, pr.rstart+80)]))}
		}
		if err == nil {
			if s.null != nil && s.null.due(pr) {
				harness += s.null.sample(ctx)
			}
			s.idle <- pr
			res.HarnessNS = harness
			return res
		}
		var f *fault
		if !errors.As(err, &f) {
			f = &fault{kind: faultProtocol, msg: err.Error()}
		}
		if ctx.Err() != nil {
			f = &fault{kind: faultCanceled, msg: ctx.Err().Error()}
		}
		harness += f.waited
		s.fault(pr)
		// A line for an earlier request is that unit's fault, and a
		// process that ended before it read this request did not fail on
		// it: the request goes to a new process, once.
		if f.kind == faultLate {
			s.blame(pr, f.n, f.msg)
		}
		if (f.kind == faultLate || f.kind == faultExit && f.unread) && attempt == 0 {
			harness += time.Since(t0).Nanoseconds() - wait - f.waited
			continue
		}
		return s.faultResult(f, deadline, own, harness)
	}
}

// faultResult is the result of a unit whose process failed.
func (s *Solver) faultResult(f *fault, deadline time.Time, own bool, harness int64) solvers.Result {
	res := solvers.Result{Status: solvers.StatusError, HarnessNS: harness}
	switch f.kind {
	case faultTimeout:
		if over := time.Since(deadline); over > 0 {
			// The unit's time stops at the deadline, as a built-in
			// strategy's does.
			res.HarnessNS += over.Nanoseconds()
		}
		res.Status = solvers.StatusTimeout
		if own {
			res.Err = fmt.Errorf("no answer within -ext-timeout %s (the sweep has no -timeout): its process was ended (the next unit starts another)", s.opt.Limit)
		} else {
			res.Err = errors.New("no answer before the deadline (-timeout): its process was ended (the next unit starts another)")
		}
	case faultProtocol, faultLate:
		res.Err = errors.New("protocol: " + f.msg)
	case faultCanceled:
		res.Err = errStopped
	default:
		res.Err = f
	}
	return res
}

// ask writes the request of p to pr and parses the answer into res.
func (s *Solver) ask(ctx context.Context, pr *proc, p *solvers.Puzzle, lim solvers.Limits, deadline time.Time, res *solvers.Result) error {
	pr.requests++
	rq := request{n: pr.requests, count: s.opt.Count && s.hello.count}
	if s.hello.calls {
		rq.maxCalls = lim.MaxCalls
	}
	pr.buf = appendRequest(pr.buf[:0], rq, lim.ID, p)
	pr.remember(rq, lim)
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, pr.wake)
		defer stop()
	}
	line, err := pr.exchange(deadline)
	if err != nil {
		return err
	}
	return parseAnswer(line, rq, p, res)
}

// CheckAnswer checks a claim of no solution, and a count, with the
// built-in counter (see solvers.AnswerChecker).
func (s *Solver) CheckAnswer(ctx context.Context, p solvers.Puzzle, res *solvers.Result) {
	switch {
	case res.Counted:
		n, err := solvers.CountSolutions(ctx, p, 2)
		if err == nil && n != res.Count {
			res.Status = solvers.StatusWrong
			res.Err = fmt.Errorf("wrong count: %d solutions, the built-in counter finds %d", res.Count, n)
		}
	case res.Status == solvers.StatusUnsolvable:
		n, err := solvers.CountSolutions(ctx, p, 1)
		if err == nil && n > 0 {
			res.Status = solvers.StatusWrong
			res.Err = errors.New("wrong: said unsolvable, the built-in counter finds a solution")
		}
	}
}
