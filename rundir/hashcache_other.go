//go:build !linux

package rundir

import (
	"io/fs"
	"time"
)

// changeTime is zero outside Linux: no hash is kept (KeptSHA256).
func changeTime(fs.FileInfo) time.Time { return time.Time{} }
