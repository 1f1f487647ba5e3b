package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"sudokubatch/rundir"
)

// The hard-or-unlucky analysis in the report (docs/VARIANTS.md): when a
// run directory holds variants.json (rundir.Variants, written by batch
// report -variants K), Summary.AttachVariants gives each listed unit of
// an analysed (puzzle, strategy) its verdict (RankedUnit.Variants), which
// summary.md, summary.json and the page show beside the hard lists; the
// page's entry of each analysed puzzle shows, per strategy, the verdict
// with its figures and the strip chart (report/chart's StripCharts, file
// StripFile). Puzzles not analysed show nothing.

// StripFile is the file name, in the charts directory, of the strip chart
// of analysis a: "strip-<corpus>-<id>-<strategy>.png", the corpus named
// by its file name without its extension, every byte other than a
// letter, a digit, '-' or '_' written '_'.
func StripFile(a *rundir.VariantAnalysis) string {
	return "strip-" + CorpusFileName(a.Corpus) + "-" + strconv.Itoa(a.ID) + "-" + SafeFileName(a.Solver) + ".png"
}

// CorpusFileName is a corpus as a part of a file name: its file's name
// without its extensions (hard for data/hard.txt.gz), SafeFileName'd.
func CorpusFileName(corpus string) string {
	base := filepath.Base(corpus)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return SafeFileName(base)
}

// SafeFileName makes s safe as a part of a file name on any system: each
// byte other than an ASCII letter, a digit, '-' or '_' becomes '_', and
// an empty s is "_". It is the one sanitizer of the file names the tool
// makes from names it was given (strategies, corpora, runs).
func SafeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// VariantsSummary is what a summary says of the run's variants.json: the
// analysis' settings and cost, and per strategy how many of its analysed
// puzzles got each verdict.
type VariantsSummary struct {
	Settings  rundir.VariantSettings `json:"settings"`
	Units     int                    `json:"units"`
	ElapsedNS int64                  `json:"elapsed_ns"`
	Analyses  int                    `json:"analyses"`
	// Verdicts counts, per strategy in the summary's order, its analyses
	// by verdict ("hard", "unlucky", "hard, unlucky", "typical", "" for
	// none).
	Verdicts []VerdictCounts `json:"verdicts"`

	seeded bool // some analysis is of a randomized strategy, under seeds
}

// VerdictCounts counts one strategy's analyses by verdict.
type VerdictCounts struct {
	Solver      string `json:"solver"`
	Analysed    int    `json:"analysed"`
	Hard        int    `json:"hard"`    // hard and not unlucky
	Unlucky     int    `json:"unlucky"` // unlucky and not hard
	HardUnlucky int    `json:"hard_unlucky"`
	Typical     int    `json:"typical"`
	NoVerdict   int    `json:"no_verdict"`
}

// AttachVariants gives the listed units of s (the hard lists, the puzzles
// hard for several strategies, the highlighted puzzles) the verdict of
// their (puzzle, strategy) in v, and sets s.Variants; a nil v changes
// nothing. It is called once, before s is written.
func (s *Summary) AttachVariants(v *rundir.Variants) {
	if v == nil {
		return
	}
	s.variants = v
	set := func(us []RankedUnit) {
		for i := range us {
			if a, ok := v.Find(us[i].Puzzle.Corpus, us[i].Puzzle.ID, us[i].Solver); ok {
				us[i].Variants = verdictText(a.Verdict)
			}
		}
	}
	vs := &VariantsSummary{Settings: v.Settings, Units: v.Units, ElapsedNS: v.ElapsedNS, Analyses: len(v.Analyses),
		Verdicts: []VerdictCounts{}}
	for _, a := range v.Analyses {
		vs.seeded = vs.seeded || a.Seeds != nil
	}
	set(s.Hard)
	for _, st := range s.Strategies {
		set(st.ByCalls)
		set(st.ByTime)
		c := VerdictCounts{Solver: st.Solver}
		for _, a := range v.Analyses {
			if a.Solver != st.Solver {
				continue
			}
			c.Analysed++
			switch a.Verdict {
			case rundir.VerdictHard:
				c.Hard++
			case rundir.VerdictUnlucky:
				c.Unlucky++
			case rundir.VerdictHardUnlucky:
				c.HardUnlucky++
			case rundir.VerdictTypical:
				c.Typical++
			default:
				c.NoVerdict++
			}
		}
		if c.Analysed > 0 {
			vs.Verdicts = append(vs.Verdicts, c)
		}
	}
	for i := range s.Several {
		set(s.Several[i].Units)
	}
	for i := range s.Highlights {
		set(s.Highlights[i].Units)
	}
	s.Variants = vs
}

// verdictText is a verdict as the lists show it: "no verdict" for none
// (the analysis' note says why).
func verdictText(v string) string {
	if v == rundir.VerdictNone {
		return "no verdict"
	}
	return v
}

// line says it in one line for a terminal or a list: "3 hard, 5 unlucky
// (1 both), 2 typical of 10".
func (c VerdictCounts) line() string {
	parts := []string{fmt.Sprintf("%d hard", c.Hard+c.HardUnlucky), fmt.Sprintf("%d unlucky", c.Unlucky+c.HardUnlucky)}
	if c.HardUnlucky > 0 {
		parts[1] += fmt.Sprintf(" (%d both)", c.HardUnlucky)
	}
	parts = append(parts, fmt.Sprintf("%d typical", c.Typical))
	if c.NoVerdict > 0 {
		parts = append(parts, fmt.Sprintf("%d without a verdict", c.NoVerdict))
	}
	return strings.Join(parts, ", ") + " of " + strconv.Itoa(c.Analysed)
}

// thresholds says the verdicts' thresholds in a sentence.
func (vs *VariantsSummary) thresholds() string {
	st := vs.Settings
	return fmt.Sprintf("hard: the variants' median at least %s× the strategy's corpus median; "+
		"unlucky: the original above the variants' p%s and at least %s× their median",
		TrimNumber(st.HardFactor), TrimNumber(st.UnluckyPct), TrimNumber(st.UnluckyFactor))
}

// settingsLine says how the analysis was made: "100 random variants per
// puzzle beside the original (5 seeds each for a randomized strategy),
// 6060 solves in 62.0s", the seeds said only when a randomized strategy
// was analysed.
func (vs *VariantsSummary) settingsLine() string {
	st := vs.Settings
	seeds := ""
	if vs.seeded {
		seeds = " (" + Count(st.Seeds, "seed", "seeds") + " each for a randomized strategy)"
	}
	return fmt.Sprintf("%s per puzzle beside the original%s, %s in %s",
		Count(st.N, "random variant", "random variants"), seeds, Count(vs.Units, "solve", "solves"), fmtNS(float64(vs.ElapsedNS)))
}

// WriteVariantsText writes what the analysis found, a line per strategy,
// for a terminal, each folded to width columns (0: DefaultTextWidth):
// nothing when the summary has no analysis.
func (s *Summary) WriteVariantsText(w io.Writer, width int) error {
	vs := s.Variants
	if vs == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "variants (%s): %s.\n", rundir.VariantsFile, vs.settingsLine())
	name := 0
	for _, c := range vs.Verdicts {
		name = max(name, len(c.Solver))
	}
	for _, c := range vs.Verdicts {
		fmt.Fprintf(&b, "  %-*s  %s\n", name, c.Solver, c.line())
	}
	for _, l := range strings.Split(vs.thresholds(), "; ") {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	_, err := io.WriteString(w, Wrap(b.String(), width))
	return err
}

// variantsColumn adds the column "variants" to a hard list of summary.md
// when the run has an analysis: each analysed unit's verdict, linked to
// the puzzle's entry on the page (its figures and strip charts); an
// empty cell for a unit not analysed.
func (s *Summary) variantsColumn(head []string, align string, us []RankedUnit, rows [][]string) ([]string, string) {
	if s.Variants == nil {
		return head, align
	}
	for i, u := range us {
		cell := ""
		if u.Variants != "" {
			cell = "[" + mdText(u.Variants) + "](" + PuzzlesPageFile + "#" + anchor(u.Puzzle) + ")"
		}
		rows[i] = append(rows[i], cell)
	}
	return append(head, "variants"), align + "l"
}

// writeVariantsMarkdown writes the section of summary.md on the analysis:
// how it was made, the thresholds, and per strategy how many of its
// analysed puzzles are hard, unlucky and typical.
func (s *Summary) writeVariantsMarkdown(b *bytes.Buffer) {
	vs := s.Variants
	if vs == nil {
		return
	}
	fmt.Fprintf(b, "\n## Hard or unlucky\n\nFrom %s: %s. Each analysed puzzle was solved in random "+
		"isomorphs (band, stack, row and column orders, transposition, relabelling) that keep its "+
		"solutions; the verdict places the original among them, by calls (%s). Hard and unlucky each "+
		"count the puzzles that are both. The column \"variants\" of the lists above links each verdict to its figures and strip chart on the page.\n\n",
		rundir.VariantsFile, vs.settingsLine(), vs.thresholds())
	var rows [][]string
	for _, c := range vs.Verdicts {
		rows = append(rows, []string{mdText(c.Solver), strconv.Itoa(c.Analysed), strconv.Itoa(c.Hard + c.HardUnlucky),
			strconv.Itoa(c.Unlucky + c.HardUnlucky), strconv.Itoa(c.HardUnlucky), strconv.Itoa(c.Typical), strconv.Itoa(c.NoVerdict)})
	}
	writeMDTable(b, []string{"strategy", "analysed", "hard", "unlucky", "both", "typical", "no verdict"}, rows, "lrrrrrr")
}
