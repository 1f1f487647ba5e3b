package rundir

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// LockHeld reports whether a process holds the lock of the run directory
// dir (LockDir's flock on dir/.lock): a run whose run.json says
// running is being written when one does, and was killed when none does
// (the kernel releases the lock of a process however it ends). It reads
// the kernel's table of locks, /proc/locks, so that asking takes no lock
// that a resume starting at that instant would find taken; where that
// table cannot be read, it tries a shared lock and releases it at once.
// ok is false when it cannot tell (no lock file: a run so old, or so
// new, that it has none yet).
func LockHeld(dir string) (held, ok bool) {
	path := filepath.Join(dir, LockFile)
	fi, err := os.Stat(path)
	if err != nil {
		return false, false
	}
	st, isUnix := fi.Sys().(*syscall.Stat_t)
	if isUnix {
		if held, ok := inProcLocks(uint64(st.Dev), uint64(st.Ino)); ok {
			return held, true
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return false, false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, true
	}
	return false, err == nil // closing f releases the shared lock
}

// inProcLocks reports whether /proc/locks lists a lock on the file of
// device dev and inode ino; ok is false when the table cannot be read.
// Its lines read "1: FLOCK  ADVISORY  WRITE 1777 fe:00:9978531 0 EOF":
// the device as major:minor in hex, then the inode.
func inProcLocks(dev, ino uint64) (held, ok bool) {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return false, false
	}
	defer f.Close()
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, ino)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, field := range strings.Fields(sc.Text()) {
			if field == want {
				return true, true
			}
		}
	}
	return false, sc.Err() == nil
}
