package history

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// rootLockFile is the lock of the files of a results root that trend
// reads, changes and writes back (annotations.json, delivered.json): two
// trends at once, or two -ack, take turns, so that neither loses what
// the other wrote. It is hidden, and so no run directory.
const rootLockFile = ".trend.lock"

// withRootLock runs f holding the lock of root: an flock(2) on
// root/.trend.lock, waited for. The kernel releases it when the process
// ends, however it ends.
func withRootLock(root string, f func() error) error {
	path := filepath.Join(root, rootLockFile)
	lf, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("locking the results root: %w", err)
	}
	defer lf.Close() // releases the lock
	for {
		err = syscall.Flock(int(lf.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("locking the results root: %s: %w", path, err)
	}
	return f()
}
