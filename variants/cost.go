package variants

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"sudokubatch/solvers"
)

// BytesPerSolve is about what one solve of an analysis holds in memory
// until its end: the puzzle's line, its row, its transform and its unit
// in the result. Measured: 200,002 solves of two strategies (batch
// variants -n 100000) peaked at 152 MB, about 640 bytes a solve over the
// process's own 25 MB; the bound takes 1 KiB.
const BytesPerSolve = 1024

// Cost is what an analysis will do before it starts: its solves, and the
// memory they hold until its end.
type Cost struct {
	Solves int64
	Bytes  int64
	// PerOrientation is the solves of one orientation of every puzzle
	// (Solves is N+1 times it): what one variant more costs.
	PerOrientation int64
}

// CostOf returns the cost of analysing puzzles under cfg, counted
// without a step per solve (a bound must be printed before an analysis
// too large to plan is refused).
func CostOf(cfg Config, puzzles []Puzzle) (Cost, error) {
	cfg.defaults()
	var c Cost
	for _, pz := range puzzles {
		var per int64 // solves per orientation
		for _, s := range cfg.Solvers {
			if pz.Solvers != nil && !slices.Contains(pz.Solvers, s.Name()) {
				continue
			}
			if cfg.Randomized(s) {
				per += int64(cfg.Seeds)
			} else {
				per++
			}
		}
		for _, name := range pz.Solvers {
			if !slices.ContainsFunc(cfg.Solvers, func(s solvers.Solver) bool { return s.Name() == name }) {
				return Cost{}, fmt.Errorf("puzzle #%d: strategy %q is not among the analysis' strategies", pz.ID, name)
			}
		}
		n := (int64(cfg.N) + 1) * per
		if n < 0 || c.Solves+n < c.Solves {
			return Cost{}, fmt.Errorf("puzzle #%d: %d variants under %d seeds: too many solves to count", pz.ID, cfg.N, cfg.Seeds)
		}
		c.Solves += n
		c.PerOrientation += per
	}
	c.Bytes = c.Solves * BytesPerSolve
	if c.Solves > 0 && c.Bytes/c.Solves != BytesPerSolve {
		c.Bytes = 1<<63 - 1
	}
	return c, nil
}

// defaultMemory is the memory taken as available where the system does
// not say (/proc/meminfo).
const defaultMemory = 8 << 30

// Fits returns nil when the cost fits in the memory available
// (MemAvailable of /proc/meminfo, else 8 GiB), and else an error that
// says what it needs and how far to cut it.
func (c Cost) Fits() error {
	avail := availableMemory()
	if c.Bytes <= avail {
		return nil
	}
	most := max(avail/BytesPerSolve/max(c.PerOrientation, 1)-1, 0)
	return fmt.Errorf("%d solves would hold about %s in memory until the analysis ends, and %s is available: at most %d variants a puzzle fit (fewer seeds allow more)",
		c.Solves, fmtBytes(c.Bytes), fmtBytes(avail), most)
}

// availableMemory returns the memory available to a new allocation.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return defaultMemory
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return kb << 10
			}
		}
	}
	return defaultMemory
}

// fmtBytes is a size for people: "24 GB", "512 MB".
func fmtBytes(b int64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.0f TB", float64(b)/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	default:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
}
