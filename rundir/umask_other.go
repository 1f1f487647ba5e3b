//go:build !unix

package rundir

// processUmask returns 022 where there is no umask to read.
func processUmask() int { return 0o022 }
