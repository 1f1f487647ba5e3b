package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sudokubatch/internal/golden"
)

// goldenArgs is the sweep whose output the golden files hold: every
// strategy over a small fixed corpus (testdata/golden.txt: 17-clue, easy,
// 4x4, 16x16, unsolvable and invalid lines), limited by calls, not by
// time, so that every counter is the same on any machine.
var goldenArgs = []string{"-solvers", "all", "-max-calls", "100000", "-timeout", "0", "-workers", "2", "-seed", "7",
	"-out", "run", "golden.txt"}

// TestGoldenSweep compares what the sweep prints and writes with golden
// files, so that a change to any of them shows as a diff: stdout, stderr
// and results.csv, with what depends on the machine masked (times, peak
// memory). Rewrite them with: go test ./cmd/batch -run Golden -update.
func TestGoldenSweep(t *testing.T) {
	dir := t.TempDir()
	corpus, err := os.ReadFile(filepath.Join("testdata", "golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "golden.txt"), corpus, 0o644); err != nil {
		t.Fatal(err)
	}
	// In 100 columns, the seven strategies' table whole with the spreads
	// on rows of their own: its columns as wide as the names, whatever
	// the times (the spreads beside the times, its widths would follow
	// the times, which are masked).
	r := batchCols(t, dir, "", 100, goldenArgs...)
	mustOK(t, r)
	golden.Check(t, filepath.Join("testdata", "golden.stdout"), []byte(maskOutput(r.stdout)))
	golden.Check(t, filepath.Join("testdata", "golden.stderr"), []byte(maskOutput(r.stderr)))
	csv, err := readRowsFile(filepath.Join(dir, "run", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden.results.csv"), []byte(maskNS(string(csv))))
}

var (
	durationRE = regexp.MustCompile(`[≥≤]?\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`)
	memoryRE   = regexp.MustCompile(`peak memory [0-9]+(\.[0-9]+)? [kMG]?B`)
	// The sizes of the rows depend on the times in them.
	sizeRE = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? (B|kB|MB|GB)\b`)
	// Rows of the summary table whose every value depends on time.
	timeRowRE = regexp.MustCompile(`^(  (time [a-z0-9]+( at)?|puzzles/s/core))\s.*$`)
)

// maskOutput replaces what depends on the machine in batch's output:
// durations, peak memory, and the values of the table's rows of times;
// it drops the warning that the machine was busy.
func maskOutput(s string) string {
	lines := strings.Split(s, "\n")
	timing := false // in the timing line or its continuations
	busy := false   // in the busy machine's warning or its continuations
	for i, l := range lines {
		// Whether the machine was busy is the machine's: the warning
		// goes.
		if strings.HasPrefix(l, "warning: the machine was busy") || busy && strings.HasPrefix(l, "  ") {
			lines[i], busy = "\x00", true
			continue
		}
		busy = false
		if strings.HasPrefix(l, "timing: ") || timing && strings.HasPrefix(l, "  ") {
			lines[i] = "timing: (masked: re-timing outcomes depend on the clock)"
			if timing {
				lines[i] = "\x00" // a continuation: dropped below
			}
			timing = true
			continue
		}
		timing = false
		if m := timeRowRE.FindStringSubmatch(l); m != nil {
			lines[i] = m[1] + " (time: masked)"
			continue
		}
		l = durationRE.ReplaceAllString(l, "<time>")
		l = memoryRE.ReplaceAllString(l, "peak memory <n> MB")
		lines[i] = sizeRE.ReplaceAllString(l, "<size>")
	}
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "\x00" }), "\n")
}

// maskNS replaces the ns column (the fifth) of every row of a
// results.csv with "NS".
func maskNS(csv string) string {
	lines := strings.Split(csv, "\n")
	for i, l := range lines {
		if i == 0 || l == "" {
			continue
		}
		f := strings.SplitN(l, ",", 6)
		if len(f) == 6 {
			f[4] = "NS"
			l = strings.Join(f, ",")
		}
		// The timing columns at the end (runs, ns_min, ns_median,
		// retimed; not unstable, which must stay 0): the golden file
		// has the counters, which do not depend on the clock.
		if f := strings.Split(l, ","); len(f) > 5 {
			for k := len(f) - 5; k < len(f)-1; k++ {
				f[k] = "T"
			}
			l = strings.Join(f, ",")
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}
