package external

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// maxLine is the longest line the tool reads from a solver: a longer one
// is a protocol error, read in pieces of its buffer, never whole.
const maxLine = 64 << 10

// tailSize is how much of a solver's standard error is kept, to quote
// when it fails.
const tailSize = 4 << 10

// proc is one running solver behind its guard, as the tool sees it.
type proc struct {
	cmd                   *exec.Cmd
	in                    *os.File      // the solver's standard input
	out                   *os.File      // its standard output
	rbuf                  []byte        // what was read of out: maxLine bytes
	rstart, rend, scanned int           // the unread bytes are rbuf[rstart:rend], of which scanned hold no \n
	expired               atomic.Bool   // the deadline of the exchange passed (expire)
	life                  *os.File      // the guard's life line (see runGuard)
	tail                  *tail         // the end of its standard error
	exited                chan struct{} // closed once the guard is waited for
	status                string        // how it ended ("exit status 3"), once exited is closed
	buf                   []byte        // the request being written
	// deadline is the exchange's deadline as a duration since watch.base,
	// 0 when none (read by the watchdog).
	deadline atomic.Int64
	watch    *watchdog
}

// startProc starts args behind a guard (the running binary in the guard
// role), with extra variables in its environment.
func startProc(args, extra []string, grace time.Duration) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the batch binary to start the guard: %w", err)
	}
	var pipes [8]*os.File // child and parent ends: stdin r,w; stdout r,w; stderr r,w; life r,w
	for i := 0; i < len(pipes); i += 2 {
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			closeAll(pipes[:i])
			return nil, err
		}
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(append(childEnv(os.Environ()), roleVar+"="+roleGuard, graceVar+"="+grace.String()), extra...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	cmd.ExtraFiles = []*os.File{pipes[6]}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		closeAll(pipes[:])
		return nil, err
	}
	closeAll([]*os.File{pipes[0], pipes[3], pipes[5], pipes[6]})
	p := &proc{cmd: cmd, in: pipes[1], out: pipes[2], life: pipes[7], tail: &tail{},
		exited: make(chan struct{}), buf: make([]byte, 0, 320)}
	p.rbuf = make([]byte, maxLine)
	// Blocking reads and writes (Fd sets the mode): see exchange.
	p.in.Fd()
	p.out.Fd()
	tailDone := make(chan struct{})
	go func() {
		p.tail.readFrom(pipes[4])
		pipes[4].Close()
		close(tailDone)
	}()
	go func() {
		err := cmd.Wait()
		// The guard's stderr is the solver's: wait a little for the last
		// of it (a grandchild may hold it open: not for long).
		select {
		case <-tailDone:
		case <-time.After(100 * time.Millisecond):
		}
		p.status = exitStatus(cmd, err)
		close(p.exited)
	}()
	return p, nil
}

// exitStatus says how the guard, and so its solver, ended.
func exitStatus(cmd *exec.Cmd, err error) string {
	if cmd.ProcessState == nil {
		return fmt.Sprint(err)
	}
	code := cmd.ProcessState.ExitCode()
	if code > 128 && code < 128+65 {
		return fmt.Sprintf("killed by signal %d (%v)", code-128, syscall.Signal(code-128))
	}
	if code == 127 {
		return "could not be started (exit status 127)"
	}
	return fmt.Sprintf("exit status %d", code)
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// exchange writes p.buf (a whole line) and reads the answer line, without
// its line end; the line is valid until the next exchange. A deadline
// that passes ends the process (expire), whose output then ends. The
// pipes are read and written blocking, not through the runtime's poller,
// so that the answer wakes the waiting thread at once, and the deadline
// is watched by the Solver's watchdog when it has one, else by a timer:
// a timer per exchange made the null round trip longer (the runtime
// watches each timer with another thread while the exchange blocks; see
// docs/PERFORMANCE.md).
func (p *proc) exchange(deadline time.Time) ([]byte, error) {
	if deadline.IsZero() {
		return p.writeRead()
	}
	d := time.Until(deadline)
	if d <= 0 {
		return nil, &fault{kind: faultTimeout, msg: "no answer in time"}
	}
	if p.watch != nil {
		p.deadline.Store(int64(deadline.Sub(p.watch.base)))
		line, err := p.writeRead()
		p.deadline.Store(0)
		if p.expired.Load() {
			return nil, &fault{kind: faultTimeout, msg: "no answer in time"}
		}
		return line, err
	}
	timer := time.AfterFunc(d, p.expire)
	line, err := p.writeRead()
	if !timer.Stop() {
		return nil, &fault{kind: faultTimeout, msg: "no answer in time"}
	}
	return line, err
}

func (p *proc) writeRead() ([]byte, error) {
	if _, err := p.in.Write(p.buf); err != nil {
		return nil, p.readErr(err)
	}
	return p.readLine()
}

// expire ends the process of an exchange past its deadline.
func (p *proc) expire() {
	p.expired.Store(true)
	p.terminate()
}

// readLine reads a line, without its \n and a \r before it, into p.rbuf:
// a line longer than the buffer is a protocol error.
func (p *proc) readLine() ([]byte, error) {
	for {
		if i := bytes.IndexByte(p.rbuf[p.rstart+p.scanned:p.rend], '\n'); i >= 0 {
			end := p.rstart + p.scanned + i
			line := p.rbuf[p.rstart:end]
			p.rstart, p.scanned = end+1, 0
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, nil
		}
		p.scanned = p.rend - p.rstart
		if p.rstart > 0 {
			copy(p.rbuf, p.rbuf[p.rstart:p.rend])
			p.rend -= p.rstart
			p.rstart = 0
		}
		if p.rend == len(p.rbuf) {
			return nil, &fault{kind: faultProtocol, msg: fmt.Sprintf("an answer line longer than %d bytes (it starts %s)", maxLine, quote(p.rbuf[:80]))}
		}
		n, err := p.out.Read(p.rbuf[p.rend:])
		p.rend += n
		if err != nil && n == 0 {
			return nil, p.readErr(err)
		}
	}
}

// readErr turns an error of the pipes into the fault it means.
func (p *proc) readErr(err error) error {
	if p.expired.Load() {
		return &fault{kind: faultTimeout, msg: "no answer in time"}
	}
	// The solver closed its output or died: wait a little for its status.
	select {
	case <-p.exited:
		return &fault{kind: faultExit, msg: fmt.Sprintf("the solver ended (%s)%s", p.status, p.tail.quote())}
	case <-time.After(time.Second):
		return &fault{kind: faultExit, msg: fmt.Sprintf("the solver closed its output (%v)%s", err, p.tail.quote())}
	}
}

// terminate asks the guard to end the group: TERM now, KILL after the
// grace.
func (p *proc) terminate() { p.life.Write([]byte{'t'}) }

// kill ends the group at once (the guard KILLs it when its life line
// closes).
func (p *proc) kill() { p.life.Close() }

// release closes the tool's ends once the process has exited.
func (p *proc) release() {
	p.in.Close()
	p.out.Close()
	p.life.Close()
}

// faultKind classes what went wrong with a process: after any of them it
// is ended and another one started.
type faultKind int

const (
	faultTimeout  faultKind = iota // no answer before the unit's deadline
	faultExit                      // the solver ended or closed its output
	faultProtocol                  // a line that does not follow docs/PROTOCOL.md
	faultCanceled                  // the run was canceled
)

type fault struct {
	kind faultKind
	msg  string
}

func (f *fault) Error() string { return f.msg }

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) readFrom(f *os.File) {
	b := make([]byte, 4096)
	for {
		n, err := f.Read(b)
		if n > 0 {
			t.mu.Lock()
			t.buf = append(t.buf, b[:n]...)
			if len(t.buf) > tailSize {
				t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
			}
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// quote returns "; its standard error ends: ..." or "" when it wrote none.
func (t *tail) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	if s == "" {
		return ""
	}
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return fmt.Sprintf("; its standard error ends: %q", s)
}

// quote quotes the start of a line for an error message.
func quote(line []byte) string {
	if len(line) > 80 {
		return fmt.Sprintf("%q...", line[:80])
	}
	return fmt.Sprintf("%q", line)
}

// watchdog ends the processes whose exchange is past its deadline: one
// goroutine per Solver, which looks every period (a tenth of the units'
// time limit, 1 ms to 100 ms), so a unit ends at most a period after its
// limit. Units past their limit are timeouts, censored: how late they
// end does not change what is recorded of them but their time.
type watchdog struct {
	base   time.Time
	period time.Duration
	stop   chan struct{}
	done   chan struct{}
}

func newWatchdog(limit time.Duration, procs func() []*proc) *watchdog {
	w := &watchdog{base: time.Now(), period: min(max(limit/10, time.Millisecond), 100*time.Millisecond),
		stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(w.period)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
			now := int64(time.Since(w.base))
			for _, p := range procs() {
				if d := p.deadline.Load(); d != 0 && now >= d && !p.expired.Load() {
					p.expire()
				}
			}
		}
	}()
	return w
}

// close stops the watchdog.
func (w *watchdog) close() {
	close(w.stop)
	<-w.done
}
