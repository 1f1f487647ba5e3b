package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Lock is the exclusive hold of one process on a run directory: an
// flock(2) on its .lock file, which holds the holder's pid. The kernel
// releases it when the process ends, however it ends, so a killed run
// leaves no stale lock.
type Lock struct{ f *os.File }

// ErrLocked is wrapped by LockDir's error when another process holds the
// directory.
var ErrLocked = errors.New("run directory in use")

// LockDir takes the lock of the run directory dir, or fails at once with
// an error wrapping ErrLocked that names the holder's pid.
func LockDir(dir string) (*Lock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, heldError(dir)
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f}, nil
}

// heldError is the error of a lock of dir that a process holds: it wraps
// ErrLocked and names the holder's pid, as the lock file records it.
func heldError(dir string) error {
	holder, _ := os.ReadFile(filepath.Join(dir, LockFile))
	pid := string(bytes.TrimSpace(holder))
	if pid == "" {
		pid = "?"
	}
	return fmt.Errorf("%s: %w by pid %s", dir, ErrLocked, pid)
}

// Unlock releases the lock. It may be called on a nil Lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close() // closing the descriptor releases the flock
	l.f = nil
}
