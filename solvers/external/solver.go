package external

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Options are the limits of an external strategy (the -ext-* flags).
type Options struct {
	Workers      int           // processes at most: one per worker of the sweep
	StartTimeout time.Duration // the time a process has to answer the handshake (-ext-start)
	Grace        time.Duration // TERM to KILL (-ext-grace)
	MaxRestarts  int           // restarts in the run at most (-ext-restarts); 0: none
	Count        bool          // -unique: send count requests to a program that can count
	// Timeout is the sweep's -timeout: the null round trip is measured
	// with a deadline set when the units have one, as they are.
	Timeout time.Duration
	// Calibrate is the number of null round trips per worker (0: 2000).
	Calibrate int
}

// Defaults of Options.
const (
	DefaultStartTimeout = 10 * time.Second
	DefaultGrace        = time.Second
	DefaultMaxRestarts  = 100
	defaultCalibrate    = 2000
	protocolLine        = "sudokubatch 1\n"
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
	if o.MaxRestarts < 0 {
		o.MaxRestarts = 0
	}
	if o.Calibrate <= 0 {
		o.Calibrate = defaultCalibrate
	}
	return o
}

// hello is what a program said in its handshake.
type hello struct {
	name, version string
	caps          []string
	count, ns     bool
	sizes         [17]bool // by side
}

// Solver is an external program swept as a strategy: a solvers.Solver
// whose units are requests to one of its processes, one per worker
// (docs/PROTOCOL.md). It is safe for concurrent use by Options.Workers
// goroutines at once. Close ends every process.
type Solver struct {
	spec  Spec
	opt   Options
	exe   string // the program run, absolute
	sum   string // SHA-256 of exe
	files []rundir.FileSum
	extra []string // environment of the processes beyond the tool's
	hello hello

	// The null round trip: with every worker at once (the sweep) and
	// alone (a unit re-timed alone at the end of a run): the load of the
	// machine sets how fast a process wakes when its pipe is written.
	nullNS, nullP99, nullAlone int64
	inflight                   atomic.Int32

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
	watch    *watchdog // nil without Options.Timeout
}

// Start resolves the program of spec, starts its processes (one per
// worker, each must answer the handshake within opt.StartTimeout), and
// measures the null round trip with the built-in echo peer. An error says
// what the program did instead, with the end of its standard error.
func Start(ctx context.Context, spec Spec, opt Options) (*Solver, error) {
	id, err := Identify(spec)
	if err != nil {
		return nil, err
	}
	s, err := launch(ctx, spec, opt, id.Executable, nil)
	if err != nil {
		return nil, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	s.sum, s.files = id.SHA256, id.Files
	if err := s.calibrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("-ext %s: measuring the null round trip: %w", spec.Name, err)
	}
	return s, nil
}

// Identify finds the program of spec without starting it: the fields of
// its provenance that name the program (Name, Command, Args, Executable,
// SHA256, Files).
func Identify(spec Spec) (rundir.External, error) {
	exe, err := lookPath(spec.Args[0])
	if err != nil {
		return rundir.External{}, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	sum, err := fileSHA256(exe)
	if err != nil {
		return rundir.External{}, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	return rundir.External{Name: spec.Name, Command: spec.Command, Args: spec.Args, Executable: exe, SHA256: sum,
		Files: argFiles(spec.Args[1:])}, nil
}

// launch starts opt.Workers processes of exe with spec's arguments and
// checks their handshakes.
func launch(ctx context.Context, spec Spec, opt Options, exe string, extra []string) (*Solver, error) {
	opt = opt.withDefaults()
	s := &Solver{spec: spec, opt: opt, exe: exe, extra: extra,
		idle: make(chan *proc, opt.Workers), all: map[*proc]bool{}}
	if opt.Timeout > 0 {
		s.watch = newWatchdog(opt.Timeout, s.procs)
	}
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
	p.watch = s.watch
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
	stop := context.AfterFunc(ctx, p.expire)
	defer stop()
	p.buf = append(p.buf[:0], protocolLine...)
	line, err := p.exchange(time.Now().Add(limit))
	if err != nil {
		var f *fault
		if errors.As(err, &f) && f.kind == faultTimeout {
			if ctx.Err() != nil {
				return hello{}, ctx.Err()
			}
			return hello{}, fmt.Errorf("no handshake within %s (-ext-start)%s", limit, p.tail.quote())
		}
		return hello{}, fmt.Errorf("no handshake: %w", err)
	}
	return parseHello(line)
}

// parseHello parses "solver NAME VERSION [CAPABILITY ...]".
func parseHello(line []byte) (hello, error) {
	f := strings.Fields(string(line))
	if len(f) < 3 || f[0] != "solver" {
		return hello{}, fmt.Errorf("the handshake is %s, want \"solver NAME VERSION [CAPABILITY ...]\" (docs/PROTOCOL.md)", quote(line))
	}
	h := hello{name: f[1], version: f[2], caps: f[3:]}
	h.sizes[9] = true
	for _, c := range h.caps {
		switch {
		case c == "count":
			h.count = true
		case c == "ns":
			h.ns = true
		case strings.HasPrefix(c, "sizes="):
			h.sizes = [17]bool{}
			for _, v := range strings.Split(strings.TrimPrefix(c, "sizes="), ",") {
				switch v {
				case "4", "9", "16":
					n, _ := strconv.Atoi(v)
					h.sizes[n] = true
				default:
					return hello{}, fmt.Errorf("the handshake's %s: want sides 4, 9 or 16, e.g. sizes=9 or sizes=4,9,16", c)
				}
			}
		}
	}
	return h, nil
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

// Info is the provenance of s recorded in run.json.
func (s *Solver) Info() rundir.External {
	return rundir.External{Name: s.spec.Name, Command: s.spec.Command, Args: s.spec.Args, Executable: s.exe,
		SHA256: s.sum, Files: s.files, Reported: s.hello.name, Version: s.hello.version, Caps: s.hello.caps,
		NullNS: s.nullNS, NullP99NS: s.nullP99, NullAloneNS: s.nullAlone}
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

// errRestartCap is the error of the units not sent past the cap.
type capError struct{ n int }

func (e capError) Error() string {
	return fmt.Sprintf("restart cap reached (%d restarts, -ext-restarts): the unit was not sent", e.n)
}

// Solve sends p to one of the processes and reads its answer (see
// docs/PROTOCOL.md). Result.HarnessNS holds the null round trip and any
// wait for a process to start: the pipeline takes it off the unit's time.
func (s *Solver) Solve(ctx context.Context, p solvers.Puzzle, lim solvers.Limits) solvers.Result {
	side := p.Box * p.Box
	if side >= len(s.hello.sizes) || !s.hello.sizes[side] {
		return solvers.Result{Status: solvers.StatusUnsupported,
			Err: fmt.Errorf("%s solves no %dx%d grid (its handshake's sizes)", s.spec.Name, side, side)}
	}
	pr, wait, err := s.take(ctx)
	if err != nil {
		return solvers.Result{Status: solvers.StatusError, Err: err, HarnessNS: wait}
	}
	if wait > 0 && !lim.Deadline.IsZero() {
		// A (re)start is not the unit's time: nor is it in its -timeout.
		lim.Deadline = lim.Deadline.Add(time.Duration(wait))
	}
	null := s.nullNS
	if s.inflight.Add(1) == 1 {
		null = s.nullAlone
	}
	var res solvers.Result
	err = s.ask(ctx, pr, &p, lim, &res)
	s.inflight.Add(-1)
	res.HarnessNS = wait + null
	if err == nil {
		s.idle <- pr
		return res
	}
	var f *fault
	if !errors.As(err, &f) {
		f = &fault{kind: faultProtocol, msg: err.Error()}
	}
	if ctx.Err() != nil {
		f = &fault{kind: faultCanceled, msg: ctx.Err().Error()}
	}
	s.fault(pr)
	switch f.kind {
	case faultTimeout:
		if over := time.Since(lim.Deadline); !lim.Deadline.IsZero() && over > 0 {
			// Ending a process that does not answer (TERM, then KILL
			// after -ext-grace) is not the unit's time: it stops at
			// the deadline, as a built-in strategy's does.
			res.HarnessNS += over.Nanoseconds()
		}
		res = solvers.Result{Status: solvers.StatusTimeout, HarnessNS: res.HarnessNS,
			Err: errors.New("no answer before the deadline (-timeout): its process was ended (the next unit starts another)")}
	case faultProtocol:
		res = solvers.Result{Status: solvers.StatusError, HarnessNS: res.HarnessNS, Err: errors.New("protocol: " + f.msg)}
	default:
		res = solvers.Result{Status: solvers.StatusError, HarnessNS: res.HarnessNS, Err: f}
	}
	return res
}

// ask writes the request of p and parses the answer into res.
func (s *Solver) ask(ctx context.Context, pr *proc, p *solvers.Puzzle, lim solvers.Limits, res *solvers.Result) error {
	count := s.opt.Count && s.hello.count
	b := pr.buf[:0]
	if count {
		b = append(b, "count "...)
	} else {
		b = append(b, "solve "...)
	}
	b = strconv.AppendInt(b, int64(lim.ID), 10)
	idEnd := len(b)
	b = append(b, ' ')
	for _, v := range p.Cells[:p.Len()] {
		b = append(b, solvers.Symbol(v))
	}
	b = append(b, '\n')
	pr.buf = b
	if lim.Deadline.IsZero() {
		stop := context.AfterFunc(ctx, pr.expire)
		defer stop()
	}
	line, err := pr.exchange(lim.Deadline)
	if err != nil {
		return err
	}
	return parseAnswer(line, b[6:idEnd], count, p, res)
}

// parseAnswer parses an answer line to the request of p with id.
func parseAnswer(line, id []byte, count bool, p *solvers.Puzzle, res *solvers.Result) error {
	f := bytes.Fields(line)
	if len(f) < 2 {
		return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s is not \"ID STATUS ...\"", quote(line))}
	}
	if _, err := strconv.ParseUint(string(f[0]), 10, 63); err != nil {
		return &fault{kind: faultProtocol, msg: fmt.Sprintf("the line %s is not an answer: an answer starts with the request's ID, %s (docs/PROTOCOL.md)", quote(line), id)}
	}
	if !bytes.Equal(f[0], id) {
		return &fault{kind: faultProtocol, msg: fmt.Sprintf("the line %s does not answer request %s (an answer starts with the request's ID)", quote(line), id)}
	}
	kv := f[2:]
	switch string(f[1]) {
	case "solved":
		if count || len(f) < 3 {
			return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: want %s", quote(line), want(count))}
		}
		res.Status = solvers.StatusSolved
		parseSolution(f[2], p, res)
		kv = f[3:]
	case "unsolvable":
		res.Status = solvers.StatusUnsolvable
	case "count":
		if !count || len(f) < 3 {
			return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: want %s", quote(line), want(count))}
		}
		n, err := strconv.Atoi(string(f[2]))
		if err != nil || n < 0 || n > 2 {
			return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: the count %q is not 0, 1 or 2", quote(line), f[2])}
		}
		res.Counted, res.Count = true, n
		kv = f[3:]
		if n == 0 {
			res.Status = solvers.StatusUnsolvable
			break
		}
		res.Status = solvers.StatusSolved
		if len(kv) == 0 || bytes.IndexByte(kv[0], '=') >= 0 {
			res.Status = solvers.StatusWrong
			res.Err = fmt.Errorf("counted %d solutions and gave none", n)
			break
		}
		parseSolution(kv[0], p, res)
		kv = kv[1:]
	case "unsupported":
		res.Status = solvers.StatusUnsupported
		res.Err = errors.New("the solver: unsupported " + string(bytes.Join(f[2:], []byte(" "))))
		return nil
	case "error":
		res.Status = solvers.StatusError
		res.Err = errors.New("the solver: " + string(bytes.Join(f[2:], []byte(" "))))
		return nil
	default:
		return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: unknown status %s", quote(line), quote(f[1]))}
	}
	for _, pair := range kv {
		k, v, ok := bytes.Cut(pair, []byte("="))
		if !ok {
			return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: %s is not KEY=VALUE", quote(line), quote(pair))}
		}
		var dst *uint64
		var ns uint64
		switch string(k) {
		case "calls":
			dst = &res.Calls
		case "guesses":
			dst = &res.Guesses
		case "backtracks":
			dst = &res.Backtracks
		case "ns":
			dst = &ns
		default:
			continue // a key of a later version
		}
		n, err := strconv.ParseUint(string(v), 10, 63)
		if err != nil {
			return &fault{kind: faultProtocol, msg: fmt.Sprintf("the answer %s: %s is not a non-negative integer", quote(line), quote(pair))}
		}
		*dst = n
		if dst == &ns {
			res.SelfNS = max(int64(n), 1) // 0 would read as none
		}
	}
	return nil
}

func want(count bool) string {
	if count {
		return "\"ID count N [SOLUTION]\" to a count request"
	}
	return "\"ID solved SOLUTION\" to a solve request"
}

// parseSolution reads a solution in the grid alphabet into res; one that
// is not a grid of p's size makes the answer wrong (the checker says why
// for the others).
func parseSolution(tok []byte, p *solvers.Puzzle, res *solvers.Result) {
	g := solvers.NewGrid(p.Box)
	if len(tok) != g.Len() {
		res.Status = solvers.StatusWrong
		res.Err = fmt.Errorf("wrong solution: %d characters, want %d", len(tok), g.Len())
		return
	}
	for i, c := range tok {
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'G':
			v = int(c-'A') + 10
		default:
			v = -1
		}
		if v < 0 || v > p.Box*p.Box {
			res.Status = solvers.StatusWrong
			res.Err = fmt.Errorf("wrong solution: character %q at cell %d", c, i)
			return
		}
		g.Cells[i] = uint8(v)
	}
	res.Solution = g
	res.Filled = p.Empty()
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
				return nil, time.Since(t0).Nanoseconds(), fmt.Errorf("starting the solver again: %w", err)
			}
			return p, time.Since(t0).Nanoseconds(), nil
		}
		s.mu.Unlock()
		select {
		case p := <-s.idle:
			return p, time.Since(t0).Nanoseconds(), nil
		case <-ctx.Done():
			return nil, time.Since(t0).Nanoseconds(), ctx.Err()
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
// to exit, then ends their groups, and waits until they have exited.
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
	if s.watch != nil {
		s.watch.close()
		s.watch = nil
	}
	return nil
}

// procs returns the processes not yet released.
func (s *Solver) procs() []*proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := make([]*proc, 0, len(s.all))
	for p := range s.all {
		ps = append(ps, p)
	}
	return ps
}

// calibrate measures the null round trip: Calibrate round trips per
// worker, all workers at once, then one worker alone, with the built-in
// echo peer behind the same guard and pipes, timed as the pipeline times
// a unit.
func (s *Solver) calibrate(ctx context.Context) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	echo, err := launch(ctx, Spec{Name: "echo", Args: []string{self}}, s.opt, self, []string{nextVar + "=" + roleEcho})
	if err != nil {
		return err
	}
	defer echo.Close()
	all, err := s.nullTimes(ctx, echo, s.opt.Workers)
	if err != nil {
		return err
	}
	s.nullNS, s.nullP99 = all[(len(all)-1)/2], all[min(len(all)*99/100, len(all)-1)]
	s.nullAlone = s.nullNS
	if s.opt.Workers > 1 {
		alone, err := s.nullTimes(ctx, echo, 1)
		if err != nil {
			return err
		}
		s.nullAlone = alone[(len(alone)-1)/2]
	}
	return nil
}

// nullTimes times Calibrate round trips with echo from each of workers
// goroutines at once, after a tenth as many untimed, and returns the
// times sorted.
func (s *Solver) nullTimes(ctx context.Context, echo *Solver, workers int) ([]int64, error) {
	p, err := solvers.ParsePuzzle(calibrationPuzzle)
	if err != nil {
		return nil, err
	}
	epoch := time.Now()
	times := make([][]int64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range times {
		wg.Go(func() {
			d := make([]int64, 0, s.opt.Calibrate)
			for i := range s.opt.Calibrate + s.opt.Calibrate/10 {
				lim := solvers.Limits{ID: i}
				t0 := time.Since(epoch)
				if s.opt.Timeout > 0 {
					lim.Deadline = epoch.Add(t0 + s.opt.Timeout)
				}
				res := echo.Solve(ctx, p, lim)
				// The clock's own cost (about 30 ns, which the pipeline
				// also takes off each unit) stays in: within the null's
				// spread of microseconds.
				ns := (time.Since(epoch) - t0).Nanoseconds()
				if res.Status != solvers.StatusSolved {
					errs[w] = fmt.Errorf("the echo peer: %v", res.Err)
					return
				}
				if i >= s.opt.Calibrate/10 {
					d = append(d, max(ns-res.HarnessNS, 0))
				}
			}
			times[w] = d
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	all := slices.Concat(times...)
	slices.Sort(all)
	return all, nil
}

// calibrationPuzzle is the echo's request (puzzle #0 of the 17-clue list).
const calibrationPuzzle = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

// lookPath finds the program: in PATH when its name has no slash. The
// path returned is absolute, so that run.json names the file hashed.
func lookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	if p, err = filepath.Abs(p); err != nil {
		return "", err
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", p)
	}
	return p, nil
}

// fileSHA256 returns the SHA-256 of the file's contents in hex.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// argFiles returns the arguments that name regular files (a script the
// interpreter runs, a data file), with their SHA-256: a changed script is
// a changed solver as much as a changed interpreter.
func argFiles(args []string) []rundir.FileSum {
	var out []rundir.FileSum
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if sum, err := fileSHA256(a); err == nil {
			out = append(out, rundir.FileSum{Path: a, SHA256: sum})
		}
	}
	return out
}

// Changed compares the program of a recorded run with this one: the
// executable and the files among the arguments. It returns what changed,
// or "".
func Changed(was, now rundir.External) string {
	if was.SHA256 != now.SHA256 {
		return fmt.Sprintf("%s changed: SHA-256 %s, the run's was %s", now.Executable, short(now.SHA256), short(was.SHA256))
	}
	for _, w := range was.Files {
		i := slices.IndexFunc(now.Files, func(f rundir.FileSum) bool { return f.Path == w.Path })
		switch {
		case i < 0:
			return fmt.Sprintf("%s is gone", w.Path)
		case now.Files[i].SHA256 != w.SHA256:
			return fmt.Sprintf("%s changed: SHA-256 %s, the run's was %s", w.Path, short(now.Files[i].SHA256), short(w.SHA256))
		}
	}
	return ""
}

func short(sum string) string { return sum[:min(12, len(sum))] }
