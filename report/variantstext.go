package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"sudokubatch/rundir"
)

// VariantsText is what `batch variants` prints about one puzzle: the
// analyses of v for the puzzle, a table of the counters (they lead: they
// do not depend on the machine), the seeds of the randomized strategies
// apart from the orientations, then the times.
type VariantsText struct {
	V      *rundir.Variants
	Corpus string // as given on the command line
	ID     int
	// Replay is the command that solves a variant (its transform
	// appended), e.g. "batch show 39949 -corpus F -transform".
	Replay string
}

// WriteText writes the report, every line within width columns (0:
// DefaultTextWidth): the tables split into blocks of columns when they
// are too wide, the sentences folded, the replay commands folded with a
// shell's line continuation.
func (t *VariantsText) WriteText(w io.Writer, width int) error {
	var b bytes.Buffer
	t.writeHead(&b)
	t.writeCounters(&b, width)
	if hasSeeds(t.V.Analyses) {
		t.writeSeeds(&b)
	}
	t.writeTimes(&b, width)
	if t.Replay != "" {
		t.writeReplays(&b, width)
	}
	_, err := io.WriteString(w, Wrap(b.String(), width))
	return err
}

// writeHead writes what was analysed: the puzzle, its variants and
// seeds, the limits, the solves and their time.
func (t *VariantsText) writeHead(b *bytes.Buffer) {
	v := t.V
	s := v.Settings
	fmt.Fprintf(b, "#%d of %s: the original and %s (the whole group, transposition included; draw seed %d)",
		t.ID, t.Corpus, Count(s.N, "random variant", "random variants"), s.DrawSeed)
	if hasSeeds(v.Analyses) {
		fmt.Fprintf(b, ", randomized strategies under %s per orientation (the first, the run's seed %d for the puzzle)",
			Count(s.Seeds, "seed", "seeds"), s.RunSeed)
	}
	fmt.Fprintf(b, ".\n%s, %s.\n", LimitText(time.Duration(s.TimeoutNS), s.MaxCalls)+" per solve", Count(v.Units, "solve", "solves")+" in "+FormatDuration(time.Duration(v.ElapsedNS)))
}

// writeCounters writes the counters table, each strategy's calls (or
// time) on the original and over its variants, with its verdict, then
// the verdicts' rule, where the corpus medians come from and the notes.
func (t *VariantsText) writeCounters(b *bytes.Buffer, width int) {
	v := t.V
	s := v.Settings
	b.WriteString("\nCounters first (they do not depend on the machine): calls of each strategy on the original " +
		"and over its variants; \"at\" is the share of variants with at most the original's calls.\n\n")
	rows := [][]string{{"strategy", "original", "variants: median", "IQR", "p90", "max", "original at", "× median", "corpus median", "verdict"}}
	var notes []string
	for _, a := range v.Analyses {
		d := a.Calls
		fmtV := fmtCount
		if a.Measure == "ns" {
			d, fmtV = a.NS, fmtNS
		}
		orig := float64(a.Original.Calls)
		if a.Measure == "ns" {
			orig = float64(a.Original.NS)
		}
		verdict := a.Verdict
		if verdict == "" {
			verdict = "–"
		}
		corpus := "–"
		if a.CorpusFrom != "" {
			corpus = fmtV(a.CorpusMedian)
		}
		rows = append(rows, []string{a.Solver, geIf(a.Original.Status) + fmtV(orig) + unitOf(a.Measure),
			geCens(d) + fmtV(d.Median), "[" + fmtV(d.Q1) + ", " + fmtV(d.Q3) + "]", fmtV(d.P90), fmtV(d.Max),
			"p" + fmt.Sprintf("%.0f", a.Pct), fmtMultiple(a.Ratio), corpus, verdict})
		if a.Note != "" {
			notes = append(notes, a.Solver+": "+a.Note+".")
		}
	}
	writeTextTable(b, rows, 1, 1, width)
	fmt.Fprintf(b, "Verdicts: hard when the variants' median is %gx the corpus median or more; unlucky when "+
		"the original is above the variants' p%g and %gx their median or more; both can hold; else typical.\n",
		s.HardFactor, s.UnluckyPct, s.UnluckyFactor)
	if from := corpusFroms(v.Analyses); from != "" {
		fmt.Fprintf(b, "Corpus medians: %s.\n", from)
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
}

// writeSeeds writes the seed luck of the randomized strategies, apart
// from the orientation luck.
func (t *VariantsText) writeSeeds(b *bytes.Buffer) {
	v := t.V
	b.WriteString("\nSeed luck apart from orientation luck (randomized strategies):\n")
	for _, a := range v.Analyses {
		sl := a.Seeds
		if sl == nil {
			continue
		}
		fmtV := fmtCount
		if a.Measure == "ns" {
			fmtV = fmtNS
		}
		fmt.Fprintf(b, "  %s: the original under %d seeds: median %s [%s, %s], max %s; the run's seed at p%.0f.\n",
			a.Solver, sl.Dist.N, fmtV(sl.Dist.Median), fmtV(sl.Dist.Q1), fmtV(sl.Dist.Q3), fmtV(sl.Dist.Max), sl.Pct)
		fmt.Fprintf(b, "  %s: each orientation's median over its seeds: median %s [%s, %s], p90 %s; the original's at p%.0f.\n",
			a.Solver, fmtV(sl.Orientations.Median), fmtV(sl.Orientations.Q1),
			fmtV(sl.Orientations.Q3), fmtV(sl.Orientations.P90), sl.OrientationPct)
	}
}

// writeTimes writes the times table: the original and its variants.
func (t *VariantsText) writeTimes(b *bytes.Buffer, width int) {
	v := t.V
	b.WriteString("\nTimes (second: one machine, one night):\n\n")
	rows := [][]string{{"strategy", "original", "variants: median", "IQR", "p90", "max"}}
	for _, a := range v.Analyses {
		d := a.NS
		rows = append(rows, []string{a.Solver, geIf(a.Original.Status) + fmtNS(float64(a.Original.NS)),
			geCens(d) + fmtNS(d.Median), "[" + fmtNS(d.Q1) + ", " + fmtNS(d.Q3) + "]", fmtNS(d.P90), fmtNS(d.Max)})
	}
	writeTextTable(b, rows, 1, 1, width)
}

// writeReplays writes the command that replays the costliest and the
// cheapest variant of each strategy (t.Replay and the transform), under
// a heading; nothing when no strategy has them apart.
func (t *VariantsText) writeReplays(b *bytes.Buffer, width int) {
	v := t.V
	heading := "\nReplay a variant (the costliest and the cheapest of each strategy):\n"
	for _, a := range v.Analyses {
		hi, lo := extremes(a)
		if hi < 0 {
			continue
		}
		for k, i := range []int{hi, lo} {
			u := a.Variants[i]
			what := fmtCount(float64(u.Calls)) + " " + Plural(int(u.Calls), "call", "calls")
			if a.Measure == "ns" {
				what = fmtNS(float64(u.NS))
			}
			what = geIf(u.Status) + what // stopped by a limit: a lower bound
			// The heading once, over the first line: none when no
			// strategy has a costliest and a cheapest apart.
			b.WriteString(heading)
			heading = ""
			fmt.Fprintf(b, "  %s, the %s (%s):\n%s", a.Solver, []string{"costliest", "cheapest"}[k], what,
				wrapCommand("    ", t.Replay+" "+u.Transform, width))
		}
	}
}

// extremes returns the indexes of the costliest and the cheapest variant
// by the analysis' measure, among those under the original's seed (batch
// show replays those); -1 when there is none, or when they cost the same.
func extremes(a rundir.VariantAnalysis) (hi, lo int) {
	hi, lo = -1, -1
	val := func(u rundir.VariantUnit) float64 {
		if a.Measure == "ns" {
			return float64(u.NS)
		}
		return float64(u.Calls)
	}
	for i, u := range a.Variants {
		if u.Seed != a.Original.Seed {
			continue
		}
		if hi < 0 || val(u) > val(a.Variants[hi]) {
			hi = i
		}
		if lo < 0 || val(u) < val(a.Variants[lo]) {
			lo = i
		}
	}
	if hi >= 0 && val(a.Variants[hi]) == val(a.Variants[lo]) {
		return -1, -1
	}
	return hi, lo
}

func hasSeeds(as []rundir.VariantAnalysis) bool {
	for _, a := range as {
		if a.Seeds != nil {
			return true
		}
	}
	return false
}

func corpusFroms(as []rundir.VariantAnalysis) string {
	var froms []string
	for _, a := range as {
		if a.CorpusFrom != "" && !slices.Contains(froms, a.CorpusFrom) {
			froms = append(froms, a.CorpusFrom)
		}
	}
	return strings.Join(froms, "; ")
}

// LimitText says how a solve is stopped: "timeout 10s", "no timeout, at
// most 1000 calls".
func LimitText(timeout time.Duration, maxCalls uint64) string {
	parts := []string{"no timeout"}
	if timeout > 0 {
		parts[0] = "timeout " + timeout.String()
	}
	if maxCalls > 0 {
		parts = append(parts, "at most "+Count(int(maxCalls), "call", "calls"))
	}
	return strings.Join(parts, ", ")
}

func unitOf(measure string) string {
	if measure == "ns" {
		return " (time)"
	}
	return ""
}

// geIf marks a value a limit stopped: a lower bound.
func geIf(status string) string {
	if status == "timeout" || status == "limit" {
		return "≥"
	}
	return ""
}

// geCens marks a median that half the variants or more reached only as a
// lower bound.
func geCens(d rundir.Dist) string {
	if d.N > 0 && 2*d.Censored >= d.N {
		return "≥"
	}
	return ""
}
