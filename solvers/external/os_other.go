//go:build !linux

package external

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// setDeathSignal: only Linux has a parent-death signal; elsewhere the
// guard's life line alone ends the solver.
func setDeathSignal(*syscall.SysProcAttr) {}

// becomeSubreaper: only Linux has child subreapers; elsewhere the guard
// ends the solver's process group, and a descendant that left it may
// outlive the tool.
func becomeSubreaper() error { return nil }

// descendants: without /proc, none are found beyond the process group.
func descendants(int) []int { return nil }

// unread: without FIONREAD on pipes, a request is taken as read.
func (p *proc) unread() bool { return false }

// poll waits for fds up to d (negative: no limit), to the millisecond.
func poll(fds []unix.PollFd, d time.Duration) (int, error) {
	ms := -1
	if d >= 0 {
		ms = int((d + time.Millisecond - 1) / time.Millisecond)
	}
	return unix.Poll(fds, ms)
}
