package rundir

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processCPU returns the CPU time (user and system) this process has
// used so far, or 0 when the system does not tell.
func processCPU() int64 { return usage(syscall.RUSAGE_SELF) }

// childrenCPU returns the CPU time (user and system) of this process's
// children that ended and were waited for (an external solver's
// processes, theirs included), or 0 when the system does not tell.
func childrenCPU() int64 { return usage(syscall.RUSAGE_CHILDREN) }

// usage returns the user and system time getrusage tells of who.
func usage(who int) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// PeakRSS returns the peak resident set size of this process so far, in
// bytes, from /proc/self/status (VmHWM, Linux). It counts this program
// only, not the process image it replaced at exec (which getrusage's
// ru_maxrss would include). ok is false where it is not available.
func PeakRSS() (bytes int64, ok bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, found := strings.CutPrefix(sc.Text(), "VmHWM:"); found {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}
