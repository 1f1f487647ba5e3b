package rundir

import (
	"fmt"
	"io/fs"
	"syscall"
)

// fileIdentity names the content of the file st describes: its device,
// inode, size, modification time and status change time (which the
// kernel sets on every write and no process can set back), "" when st
// does not say them. A build writes a new file (another inode); a write
// in place changes the times, unless it comes within the same tick of
// the kernel's file clock (a few milliseconds) as the run that kept the
// hash and leaves the size as it was.
func fileIdentity(st fs.FileInfo) string {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d %d %d %d.%09d %d.%09d", s.Dev, s.Ino, s.Size, s.Mtim.Sec, s.Mtim.Nsec, s.Ctim.Sec, s.Ctim.Nsec)
}
