package testenv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A test that drives a process waits for a sign that the process is
// ready (a line on its stderr, a row in a file, the process blocked
// reading its input), never for a time: on a loaded machine any time
// can be too short. These helpers wait for such signs.

// AwaitLimit bounds every wait here: a guard that turns a hang into a
// failure, far above what any sign takes to come on a loaded machine. It
// is no measurement: a test that must judge a time judges a ratio, in
// the heavy set.
const AwaitLimit = 2 * time.Minute

// pollEvery is how often Await looks at its condition.
const pollEvery = 5 * time.Millisecond

// Await polls cond until it holds. It fails t, naming what it waited
// for, if cond does not hold within AwaitLimit; cond may fail t itself
// (the process ended first).
func Await(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(AwaitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", AwaitLimit, what)
		}
		time.Sleep(pollEvery)
	}
}

// Output is the standard output or error of a process that a test reads
// while the process runs: an io.Writer for exec.Cmd, safe to read from
// another goroutine.
type Output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

// String returns what was written so far.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Await waits until the output holds text. It fails t when done is
// closed first (the process ended without writing it), or after
// AwaitLimit.
func (o *Output) Await(t testing.TB, text string, done <-chan struct{}) {
	t.Helper()
	Await(t, fmt.Sprintf("%q in the output", text), func() bool {
		if strings.Contains(o.String(), text) {
			return true
		}
		select {
		case <-done:
			if !strings.Contains(o.String(), text) {
				t.Fatalf("the process ended without writing %q; it wrote:\n%s", text, o.String())
			}
			return true
		default:
			return false
		}
	})
}

// Kernel functions a thread sleeps in (/proc/PID/task/TID/wchan), by
// what it waits for; the names differ between Linux versions.
var (
	// PipeRead: reading a pipe that holds no data.
	PipeRead = []string{"anon_pipe_read", "pipe_read", "pipe_wait", "pipe_wait_readable"}
	// FIFOOpen: opening a FIFO that no process has opened at its other end.
	FIFOOpen = []string{"wait_for_partner", "fifo_open"}
)

// CanSeeWaits reports whether this system tells in which kernel function
// a thread sleeps (Linux's /proc/PID/task/TID/wchan; a restricted
// kernel shows 0), which WaitsIn needs.
func CanSeeWaits() bool {
	for _, w := range wchans(os.Getpid()) {
		if w != "" && w != "0" {
			return true
		}
	}
	return false
}

// WaitsIn reports whether a thread of process pid sleeps in one of the
// kernel functions funcs (PipeRead, FIFOOpen): the process is blocked
// there, ready for what the test does next.
func WaitsIn(pid int, funcs []string) bool {
	return slices.ContainsFunc(wchans(pid), func(w string) bool { return slices.Contains(funcs, w) })
}

func wchans(pid int) []string {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	var out []string
	for _, path := range tasks {
		if b, err := os.ReadFile(path); err == nil {
			out = append(out, strings.TrimSpace(string(b)))
		}
	}
	return out
}

// HoldsOpen reports whether process pid has path open (Linux's
// /proc/PID/fd): it has got as far as opening it.
func HoldsOpen(pid int, path string) bool {
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && target == path {
			return true
		}
	}
	return false
}
