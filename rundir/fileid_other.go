//go:build !linux

package rundir

import "io/fs"

// fileIdentity is "" outside Linux: the hash of the executable is not
// kept (binarySHA256).
func fileIdentity(fs.FileInfo) string { return "" }
