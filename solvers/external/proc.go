package external

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
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
	cmd    *exec.Cmd
	in     *os.File      // the solver's standard input
	out    *os.File      // its standard output
	r      *bufio.Reader // on out, maxLine bytes
	life   *os.File      // the guard's life line (see runGuard)
	tail   *tail         // the end of its standard error
	exited chan struct{} // closed once the guard is waited for
	status string        // how it ended ("exit status 3"), once exited is closed
	buf    []byte        // the request being written
	timed  bool          // a deadline is set on in and out
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
	p.r = bufio.NewReaderSize(p.out, maxLine)
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

// setDeadline sets the deadline of the next exchange (zero: none).
func (p *proc) setDeadline(t time.Time) {
	if t.IsZero() && !p.timed {
		return
	}
	p.out.SetReadDeadline(t)
	p.in.SetWriteDeadline(t)
	p.timed = !t.IsZero()
}

// exchange writes p.buf (a whole line) and reads the answer line, without
// its line end. The line is valid until the next exchange.
func (p *proc) exchange(deadline time.Time) ([]byte, error) {
	p.setDeadline(deadline)
	if _, err := p.in.Write(p.buf); err != nil {
		return nil, p.readErr(err)
	}
	return p.readLine()
}

// readLine reads a line, without its \n and a \r before it.
func (p *proc) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, &fault{kind: faultProtocol, msg: fmt.Sprintf("an answer line longer than %d bytes (it starts %s)", maxLine, quote(line))}
		}
		return nil, p.readErr(err)
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// readErr turns an error of the pipes into the fault it means.
func (p *proc) readErr(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
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
