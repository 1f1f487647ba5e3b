package rundir

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime returns the status change time of the file st describes,
// zero when st does not say it.
func changeTime(st fs.FileInfo) time.Time {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}
	}
	return time.Unix(s.Ctim.Sec, s.Ctim.Nsec)
}
