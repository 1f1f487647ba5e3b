package report

import (
	"fmt"
	"math"
	"strings"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// pageVariant is one strategy's hard-or-unlucky analysis of a puzzle, on
// the puzzle's entry: the verdict and the figures it read.
type pageVariant struct {
	Solver, Verdict, Class  string
	Note                    string
	Measure                 string // "calls", or "time" for a strategy without counters
	Original                string // the original's value, "≥" when a limit stopped it
	Median, P90, Max        string // over the variants, "≥" when some were stopped
	Spread                  string // "N variants (k stopped)"
	Pct, Ratio              string // where the original stands: "p97", "×6.2"
	Corpus, CorpusFrom      string // the strategy's corpus median and where it is from; ""
	HardAt                  string // the hard threshold: corpus median × HardFactor; ""
	Seeds                   string // a randomized strategy's seed luck, a sentence; ""
	Strip, StripSVG         string // the strip chart (src), ""
	StripTitle              string
	StripWidth, StripHeight int // its size in pixels; 0: unknown
	// StripSmall is its small PNG, for a small screen, with its size; "".
	StripSmall                        string
	StripSmallWidth, StripSmallHeight int
}

// variantsLine is the page's line on a strategy's analyses: "3 hard, 5
// unlucky (1 both), 2 typical of 10"; "" without one.
func (s *Summary) variantsLine(solver string) string {
	if s.Variants == nil {
		return ""
	}
	for _, c := range s.Variants.Verdicts {
		if c.Solver == solver {
			return c.line()
		}
	}
	return ""
}

// pageVariants returns the analyses of puzzle r, one per strategy in
// the summary's order, with their strip charts when drawn.
func (s *Summary) pageVariants(r PuzzleRef, opt PageOptions) []pageVariant {
	if s.variants == nil {
		return nil
	}
	dir := opt.ChartsDir
	if dir == "" {
		dir = rundir.ChartsDir
	}
	strips := map[string]Chart{}
	for _, c := range opt.Strips {
		strips[c.File] = c
	}
	set := s.variants.Settings
	var out []pageVariant
	for _, st := range s.Strategies {
		a, ok := s.variants.Find(r.Corpus, r.ID, st.Solver)
		if !ok {
			continue
		}
		pv := pageVariant{Solver: a.Solver, Verdict: verdictText(a.Verdict), Note: a.Note,
			Class: verdictClass(verdictText(a.Verdict))}
		d, f, orig := a.Calls, fmtCount, float64(a.Original.Calls)
		pv.Measure = "calls"
		if a.Measure == "ns" {
			d, f, orig, pv.Measure = a.NS, fmtNS, float64(a.Original.NS), "time"
		}
		bound := func(v float64, censored bool) string {
			if censored {
				return "≥ " + f(v)
			}
			return f(v)
		}
		pv.Original = bound(orig, isCensored(a.Original.Status))
		pv.Median, pv.P90, pv.Max = bound(d.Median, d.Censored > 0), bound(d.P90, d.Censored > 0), bound(d.Max, d.Censored > 0)
		pv.Spread = Count(d.N, "variant solve", "variant solves")
		if d.Censored > 0 {
			pv.Spread += fmt.Sprintf(" (%d stopped by a limit)", d.Censored)
		}
		pv.Pct = fmtPercentile(a.Pct)
		if a.Ratio > 0 && !math.IsInf(a.Ratio, 0) && !math.IsNaN(a.Ratio) {
			pv.Ratio = fmtMultiple(a.Ratio)
		}
		if a.CorpusMedian > 0 {
			pv.Corpus, pv.CorpusFrom = f(a.CorpusMedian), a.CorpusFrom
			pv.HardAt = f(a.CorpusMedian * set.HardFactor)
		}
		if sl := a.Seeds; sl != nil && len(sl.Original) > 0 {
			pv.Seeds = fmt.Sprintf("The original orientation under %s: median %s, the run's seed at %s of them; the original's median over its seeds at %s of the variants' medians over theirs (median %s).",
				Count(len(sl.Original), "seed", "seeds"), bound(sl.Dist.Median, sl.Dist.Censored > 0), fmtPercentile(sl.Pct),
				fmtPercentile(sl.OrientationPct), bound(sl.Orientations.Median, sl.Orientations.Censored > 0))
		}
		if c, ok := strips[StripFile(&a)]; ok {
			pv.Strip, pv.StripTitle = dir+"/"+c.File, c.Title
			pv.StripWidth, pv.StripHeight = c.Width, c.Height
			if c.Small != "" {
				pv.StripSmall, pv.StripSmallWidth, pv.StripSmallHeight = dir+"/"+c.Small, c.SmallWidth, c.SmallHeight
			}
			if c.SVG != "" {
				pv.StripSVG = dir + "/" + c.SVG
			}
		}
		out = append(out, pv)
	}
	return out
}

// isCensored reports whether a status name is one of a unit stopped by a
// limit.
func isCensored(status string) bool {
	st, err := solvers.ParseStatus(status)
	return err == nil && st.Censored()
}

// verdictClass is the CSS class of a verdict's cell: "v-hard",
// "v-hard-unlucky", "v-no-verdict".
func verdictClass(v string) string {
	if v == "" {
		return ""
	}
	return "v-" + strings.ReplaceAll(strings.ReplaceAll(v, ", ", "-"), " ", "-")
}
