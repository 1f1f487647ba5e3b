package rundir

import "syscall"

// processCPU returns the CPU time (user and system) this process has
// used so far, or 0 when the system does not tell.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
