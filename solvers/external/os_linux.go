package external

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// setDeathSignal makes the solver die with its guard (KILL when the guard
// ends), should the guard be killed before it could end them.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// becomeSubreaper makes the guard the parent of every orphan among its
// descendants (a grandchild whose parent exited, one that called
// setsid()), so that it can find and end them (descendants).
func becomeSubreaper() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// descendants returns the processes below pid, from /proc: the children
// of each process are those whose stat names it as their parent.
func descendants(pid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	children := map[int][]int{}
	for _, path := range dirs {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // it ended
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, err1 := strconv.Atoi(string(f[1]))
		child, err2 := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if err1 == nil && err2 == nil {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []int
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return out
}

// unread reports whether bytes the tool wrote to the solver's standard
// input are still in the pipe: the solver did not read the request.
func (p *proc) unread() bool {
	n, err := unix.IoctlGetInt(p.inFD, unix.TIOCINQ) // FIONREAD
	return err == nil && n > 0
}

// poll waits for fds up to d (negative: no limit), to the nanosecond.
func poll(fds []unix.PollFd, d time.Duration) (int, error) {
	if d < 0 {
		return unix.Ppoll(fds, nil, nil)
	}
	ts := unix.NsecToTimespec(d.Nanoseconds())
	return unix.Ppoll(fds, &ts, nil)
}
