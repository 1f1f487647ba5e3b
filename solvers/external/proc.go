package external

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// maxLine is the longest line the tool reads from a solver: a longer one
// is a protocol error, read in pieces of its buffer, never whole.
const maxLine = 64 << 10

// tailSize is how much of a solver's standard error is kept, to quote
// when it fails.
const tailSize = 4 << 10

// exitWait is how long the tool waits, once a solver's output has ended,
// for the process to exit, so that the error says how it ended: past it
// the error says the output was closed by a process still running. The
// wait is not in the unit's time (Result.HarnessNS).
const exitWait = 100 * time.Millisecond

// proc is one running solver behind its guard, as the tool sees it. Its
// pipes are read and written with raw, non-blocking system calls, each
// wait a poll(2) of the pipe and of a wake pipe with the exchange's
// deadline: the answer wakes the waiting thread at once, a deadline
// needs no timer, and nothing waits on an end of file that a process
// out of the tool's reach could hold back.
type proc struct {
	cmd      *exec.Cmd
	in, out  *os.File // the solver's standard input and output (the tool's ends)
	inFD     int
	outFD    int
	wakeR    *os.File // poll watches it: a byte on wakeW ends a wait (wake)
	wakeW    *os.File
	wakeFD   int
	rbuf     []byte // what was read of out: maxLine bytes
	rstart   int    // the unread bytes are rbuf[rstart:rend],
	rend     int
	scanned  int                 // of which the first scanned hold no \n
	life     *os.File            // the guard's life line (see runGuard)
	tail     *tail               // the end of its standard error
	exited   chan struct{}       // closed once the guard is waited for
	status   string              // how it ended ("exit status 3"), once exited is closed
	buf      []byte              // the request being written
	requests uint64              // requests written: the number of the last one
	last     [recent]lastRequest // the units of the last requests, by number (late.go)
	woken    bool                // a wake ended a wait: the proc is abandoned
	sampled  time.Duration       // when the null round trip was last sampled with it (null.go)
}

// lastRequest is what a proc remembers of a request: a line that comes
// after its answer is that unit's fault (late.go).
type lastRequest struct {
	n          uint64
	corpus, id int
}

// startProc starts args behind a guard (the running binary in the guard
// role), with extra variables in its environment.
func startProc(args, extra []string, grace time.Duration) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the batch binary to start the guard: %w", err)
	}
	var pipes [10]*os.File // child and parent ends: stdin r,w; stdout r,w; stderr r,w; life r,w; wake r,w
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
	p := &proc{cmd: cmd, in: pipes[1], out: pipes[2], life: pipes[7], wakeR: pipes[8], wakeW: pipes[9], tail: &tail{},
		exited: make(chan struct{}), buf: make([]byte, 0, 320), rbuf: make([]byte, maxLine)}
	// Fd puts a file in blocking mode: the pipes to the solver are then
	// made non-blocking for the raw reads and writes of exchange.
	p.inFD, p.outFD, p.wakeFD = int(p.in.Fd()), int(p.out.Fd()), int(p.wakeR.Fd())
	if err := errors.Join(unix.SetNonblock(p.inFD, true), unix.SetNonblock(p.outFD, true)); err != nil {
		p.kill()
		return nil, err
	}
	tailDone := make(chan struct{})
	go func() {
		p.tail.readFrom(pipes[4])
		pipes[4].Close()
		close(tailDone)
	}()
	go func() {
		err := cmd.Wait()
		// The guard's stderr is the solver's: wait a little for the last
		// of it (the guard ends every descendant before it exits).
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
// (zero: none) that passes ends the process and returns a timeout fault
// at once, whatever holds its output open; so does a wake (the run was
// stopped: a canceled fault).
func (p *proc) exchange(deadline time.Time) ([]byte, error) {
	if err := p.write(deadline); err != nil {
		return nil, err
	}
	return p.readLine(deadline)
}

// write writes p.buf, waiting for room in the pipe when it is full.
func (p *proc) write(deadline time.Time) error {
	b := p.buf
	for len(b) > 0 {
		n, err := unix.Write(p.inFD, b)
		if n > 0 {
			b = b[n:]
		}
		switch {
		case err == unix.EAGAIN:
			if err := p.wait(unix.POLLOUT, p.inFD, deadline); err != nil {
				return err
			}
		case err == unix.EINTR:
		case err != nil:
			return p.endedFault(fmt.Errorf("writing the request: %w", err), false)
		}
	}
	return nil
}

// wait polls fd for events, and the wake pipe, until the deadline.
func (p *proc) wait(events int16, fd int, deadline time.Time) error {
	fds := [2]unix.PollFd{{Fd: int32(fd), Events: events}, {Fd: int32(p.wakeFD), Events: unix.POLLIN}}
	for {
		d := time.Duration(-1)
		if !deadline.IsZero() {
			if d = time.Until(deadline); d <= 0 {
				p.expire()
				return &fault{kind: faultTimeout, msg: "no answer in time"}
			}
		}
		_, err := poll(fds[:], d)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return &fault{kind: faultExit, msg: fmt.Sprintf("waiting for the solver: %v", err)}
		case fds[1].Revents != 0:
			p.woken = true
			return &fault{kind: faultCanceled, msg: "the run was stopped"}
		case fds[0].Revents != 0:
			return nil // readable, writable, or its end: the read or write says which
		}
	}
}

// wake ends the wait of an exchange (the run was stopped). It is safe to
// call at any time, from any goroutine, also once p is released.
func (p *proc) wake() { p.wakeW.Write([]byte{1}) }

// expire ends the process of an exchange past its deadline.
func (p *proc) expire() { p.terminate() }

// readLine reads a line, without its \n and a \r before it, into p.rbuf:
// a line longer than the buffer is a protocol error.
func (p *proc) readLine(deadline time.Time) ([]byte, error) {
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
		n, err := unix.Read(p.outFD, p.rbuf[p.rend:])
		switch {
		case n > 0:
			p.rend += n
		case err == unix.EAGAIN:
			if err := p.wait(unix.POLLIN, p.outFD, deadline); err != nil {
				return nil, err
			}
		case err == unix.EINTR:
		case err != nil:
			return nil, p.endedFault(err, true)
		default: // end of file
			return nil, p.endedFault(nil, true)
		}
	}
}

// pending reports whether unread output follows the last line read.
func (p *proc) pending() bool { return p.rend > p.rstart }

// fill reads what the process wrote, without waiting for more.
func (p *proc) fill() {
	if p.rend < len(p.rbuf) {
		if n, _ := unix.Read(p.outFD, p.rbuf[p.rend:]); n > 0 {
			p.rend += n
		}
	}
}

// endedFault is the fault of a solver whose output ended (read) or whose
// input cannot be written: it waits up to exitWait for the process's
// status, and says whether the solver ended without reading the request
// (a request not written whole, or left in the pipe: see unread): one it
// had not read is not its unit's fault.
func (p *proc) endedFault(err error, read bool) error {
	f := &fault{kind: faultExit, unread: !read || p.unread()}
	t0 := time.Now()
	select {
	case <-p.exited:
		f.msg = fmt.Sprintf("the solver ended (%s)%s", p.status, p.tail.quote())
	case <-time.After(exitWait):
		if read {
			f.msg = fmt.Sprintf("the solver closed its standard output, its process still running%s", p.tail.quote())
		} else {
			f.msg = fmt.Sprintf("the solver closed its standard input (%v), its process still running%s", err, p.tail.quote())
		}
	}
	f.waited = time.Since(t0).Nanoseconds()
	return f
}

// terminate asks the guard to end the solver and every process it
// started: TERM now, KILL after the grace.
func (p *proc) terminate() { p.life.Write([]byte{'t'}) }

// kill ends the solver and its descendants at once (the guard KILLs them
// when its life line closes).
func (p *proc) kill() { p.life.Close() }

// release closes the tool's ends once the process has exited.
func (p *proc) release() {
	closeAll([]*os.File{p.in, p.out, p.life, p.wakeR, p.wakeW})
}

// faultKind classes what went wrong with a process: after any of them it
// is ended and another one started.
type faultKind int

const (
	faultTimeout  faultKind = iota // no answer before the unit's deadline
	faultExit                      // the solver ended or closed its output
	faultProtocol                  // a line that does not follow docs/PROTOCOL.md
	faultCanceled                  // the run was stopped
	faultLate                      // a line for an earlier request: that unit's fault (late.go)
)

type fault struct {
	kind   faultKind
	msg    string
	n      uint64 // faultLate: the request the line answers
	unread bool   // faultExit: the solver ended without reading the request
	waited int64  // ns spent waiting for the process's status
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
