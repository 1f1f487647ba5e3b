//go:build unix

package rundir

import "syscall"

// processUmask returns the process's umask. syscall.Umask sets it, so it
// is set back at once; called once, at package initialization, before
// any goroutine of the tool creates a file.
func processUmask() int {
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return m
}
