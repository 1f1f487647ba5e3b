package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"sudokubatch/rundir"
)

// BenchGroups is the number of samples per strategy in summary.bench:
// the puzzles are split by id % BenchGroups, the same groups in every run
// of a corpus.
const BenchGroups = 20

// BenchSample is one sample of summary.bench: the means over the measured
// units of one group of puzzles (those with id % BenchGroups == Group).
type BenchSample struct {
	Group   int
	Units   int     // measured units in the group
	NS      float64 // mean time (ns)
	Calls   float64 // mean calls
	Guesses float64 // mean guesses
}

// benchSamples returns the samples of ser's measured units, one per group
// that has some, in group order.
func benchSamples(ser *Series) []BenchSample {
	var sum [BenchGroups]struct {
		n                int
		ns, calls, guess float64
	}
	for i := range measuredRows(ser) {
		g := &sum[int(ser.PuzzleID(int(i)))%BenchGroups] // ids are not negative (ReadResults)
		g.n++
		g.ns += float64(ser.NS(int(i)))
		g.calls += float64(ser.Calls(int(i)))
		g.guess += float64(ser.Guesses(int(i)))
	}
	var out []BenchSample
	for k, g := range sum {
		if g.n > 0 {
			n := float64(g.n)
			out = append(out, BenchSample{Group: k, Units: g.n, NS: g.ns / n, Calls: g.calls / n, Guesses: g.guess / n})
		}
	}
	return out
}

// WriteBench writes summary.bench in the Go benchmark format
// (golang.org/x/perf/benchfmt): configuration lines, then BenchGroups
// lines per strategy with measured units, one per fixed group of puzzles
// (id % BenchGroups, the same groups in every run of a corpus):
//
//	BenchmarkSolve/<strategy> 50 54242 ns/puzzle 4.73 calls/puzzle 3.73 guesses/puzzle
//
// (the group's measured units, then the means over them, unrounded but
// for ns), so that benchstat has BenchGroups samples per strategy and
// gives each figure an interval, and two runs a p-value:
//
//	benchstat -ignore revision old/summary.bench new/summary.bench
//
// (benchstat splits its tables by every configuration key that differs;
// -ignore revision compares two revisions of the tool; `-col revision`
// names the columns by them). The configuration: goos, goarch and cpu
// when every machine of the run agrees, pkg, the corpus (its path, or "N
// corpora") and the first 12 hex digits of its SHA-256 (of several: of
// their SHA-256s, one a line, in order), the tool's revision and the
// workers, when the run info knows them. Benchstat takes the median of
// the samples itself, so a sample is a mean: of ns, calls and guesses.
// Calls and guesses do not depend on the machine, so two runs of the same
// strategy over the same corpus give equal samples of them, and any
// change of the code that moves them shows with a p-value; they are not
// declared exact (`assume=exact`), which benchstat would flag in samples
// that differ from group to group. Units stopped by a limit enter at
// their stopping value, and a strategy with some gets a comment line: its
// means are lower bounds, and its counters depend on the machine when a
// timeout stopped them.
func (s *Summary) WriteBench(w io.Writer) error {
	var b strings.Builder
	for _, kv := range s.benchConfig() {
		fmt.Fprintf(&b, "%s: %s\n", kv[0], oneLine(kv[1]))
	}
	fmt.Fprintf(&b, "# %d samples per strategy, the puzzles with id %% %d == k; compare two runs with\n"+
		"# benchstat -ignore revision old/summary.bench new/summary.bench\n", BenchGroups, BenchGroups)
	for _, st := range s.Strategies {
		if st.Measured == 0 {
			fmt.Fprintf(&b, "# %s: no measured unit\n", oneLine(st.Solver))
			continue
		}
		if st.External != nil || st.BasisNote != "" {
			fmt.Fprintf(&b, "# %s: %s\n", oneLine(st.Solver), oneLine(st.basisSentence()))
		}
		if st.Censored > 0 {
			fmt.Fprintf(&b, "# %s: %d of %s stopped by a limit: its means are lower bounds\n",
				oneLine(st.Solver), st.Censored, Count(st.Measured, "unit", "units"))
		}
		for _, x := range st.Bench {
			fmt.Fprintf(&b, "BenchmarkSolve/%s %d %d ns/puzzle %s calls/puzzle %s guesses/puzzle\n",
				benchName(st.Solver), x.Units, int64(math.Round(x.NS)),
				strconv.FormatFloat(x.Calls, 'f', -1, 64), strconv.FormatFloat(x.Guesses, 'f', -1, 64))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("writing summary.bench: %w", err)
	}
	return nil
}

// benchConfig returns the configuration keys of summary.bench, in order.
func (s *Summary) benchConfig() [][2]string {
	var kvs [][2]string
	add := func(k, v string) {
		if v != "" {
			kvs = append(kvs, [2]string{k, v})
		}
	}
	r := s.Run
	machine := func(f func(rundir.Machine) string) string { // "" unless every machine agrees
		if r == nil || len(r.Machines) == 0 {
			return ""
		}
		for _, o := range r.Machines[1:] {
			if f(o) != f(r.Machines[0]) {
				return ""
			}
		}
		return f(r.Machines[0])
	}
	add("goos", machine(func(m rundir.Machine) string { return m.GOOS }))
	add("goarch", machine(func(m rundir.Machine) string { return m.GOARCH }))
	add("cpu", machine(func(m rundir.Machine) string { return m.CPU }))
	add("pkg", "sudokubatch")
	switch {
	case r == nil || len(r.Corpora) == 0:
		add("corpus", s.Corpus)
	case len(r.Corpora) == 1:
		add("corpus", r.Corpora[0].Path)
		add("corpus-sha256", shaPrefix(r.Corpora[0].SHA256))
	default:
		add("corpus", fmt.Sprintf("%d corpora", len(r.Corpora)))
		h := sha256.New()
		known := true
		for _, c := range r.Corpora {
			known = known && c.SHA256 != ""
			fmt.Fprintf(h, "%s\n", c.SHA256)
		}
		if known {
			add("corpus-sha256", shaPrefix(hex.EncodeToString(h.Sum(nil))))
		}
	}
	add("revision", machine(func(m rundir.Machine) string { return m.Version }))
	if r != nil && r.Workers > 0 {
		add("workers", strconv.Itoa(r.Workers))
	}
	return kvs
}

// shaPrefix returns the first 12 hex digits of a SHA-256.
func shaPrefix(sum string) string { return sum[:min(len(sum), 12)] }

// benchName keeps a solver name one benchmark-name field.
func benchName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' {
			return '_'
		}
		return r
	}, s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
