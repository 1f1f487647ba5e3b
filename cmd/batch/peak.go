package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"sudokubatch/report"
)

// peakRSS returns the peak resident set size of this process so far, in
// bytes, from /proc/self/status (VmHWM, Linux). It counts this program
// only, not the process image it replaced at exec (which getrusage's
// ru_maxrss would include). ok is false where it is not available.
func peakRSS() (bytes int64, ok bool) {
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

// peakNote is ", peak memory 21.5 MB" for the summary lines (decimal
// megabytes, report.FormatBytes), or "" where the peak is not known.
func peakNote() string {
	b, ok := peakRSS()
	if !ok {
		return ""
	}
	return ", peak memory " + report.FormatBytes(b)
}
