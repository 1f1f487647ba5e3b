package report

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"sudokubatch/rundir"
)

// ComparePageOptions is what the comparison page shows beside the
// comparison.
type ComparePageOptions struct {
	// Charts are the comparison's charts (report/chart's WriteCompare),
	// two per strategy, in the order to show them; ChartsDir is their
	// directory relative to the page ("charts" when empty).
	Charts    []Chart
	ChartsDir string
	// OldPage and NewPage link each run's own page, relative to this one;
	// "": none.
	OldPage, NewPage string
	// Moved is how many puzzles that moved most each strategy lists
	// (those its scatter labels); <= 0: 8.
	Moved int
	// NewRunDir is NEW's run directory as a command line names it, for
	// the `batch show` command of each puzzle listed; "": none shown.
	NewRunDir string
	// Busy is the share of the workers' CPU time other work may take
	// while a run's units are timed before the page warns that its
	// machine was busy (the history's threshold); 0: no warning.
	Busy float64
}

//go:embed compare_page.tmpl
var comparePageTemplate string

var comparePageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("compare").Funcs(sortFuncs).Parse(comparePageTemplate))
})

// comparePage is the template's data.
type comparePage struct {
	Title    string
	Runs     []compareRun
	Warnings []string
	Verdicts []compareVerdict
	Noise    string // the verdicts' rule, a sentence
	Text     string // the comparison as batch compare prints it
	Sections []compareSection
	// Confirmed: both runs have the timing columns, and a time measured
	// once is marked.
	Confirmed bool
	// Lower: a figure of the verdict table is a lower bound (≥).
	Lower bool
	// Partial says what was not compared (partialNote); "": everything.
	Partial string
}

// compareVerdict is a row of the verdict table: the cells, the first
// the strategy, which links its section.
type compareVerdict struct {
	Anchor string
	Cells  []string
}

type compareRun struct {
	Label, Path, Page, What string
	Facts                   string // when, which build, where, how busy (Summary.runFacts)
	Busy                    string // a warning when its machine was busy; ""
}

type compareSection struct {
	Solver, Anchor string
	Verdict        string
	Charts         []pageChart
	Moved          []compareMoved
}

type compareMoved struct {
	Label, Status, Old, New, Ratio string
	OldV, NewV, RatioV             string // the numbers the table sorts by
	Times                          string // confirmed in both, or measured once in a run
	Calls                          string // "=" when equal in both runs, else "OLD → NEW"
	Show                           string // the batch show command that runs it again in NEW's settings; ""
}

// WriteComparePage writes dir/index.html (created if needed): the
// comparison c of the runs oldRun and newRun (those c was computed from)
// as a page: the runs, the warnings, the verdict table of the terminal
// (per strategy the ratio of median times with its 95% interval, the
// test's p, the verdict and the calls), the whole text batch compare
// prints behind a toggle, then per strategy its charts and the puzzles
// whose time moved most. One static file, relative links, readable
// offline; every text from the input is escaped by html/template.
func WriteComparePage(ctx context.Context, dir string, c *Comparison, oldRun, newRun *Run, opt ComparePageOptions) error {
	var b bytes.Buffer
	if err := renderComparePage(ctx, &b, c, oldRun, newRun, opt); err != nil {
		return fmt.Errorf("writing the comparison page: %w", err)
	}
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return fmt.Errorf("writing the comparison page: %w", err)
	}
	return rundir.WriteFile(filepath.Join(dir, rundir.PageFile), b.Bytes())
}

func renderComparePage(ctx context.Context, b *bytes.Buffer, c *Comparison, oldRun, newRun *Run, opt ComparePageOptions) error {
	name := func(r RunRef) string {
		if r.RunID != "" {
			return r.RunID
		}
		return r.Path
	}
	p := comparePage{Title: fmt.Sprintf("sudokubatch: %s against %s", name(c.New), name(c.Old)), Warnings: c.Warnings, Confirmed: c.TimesConfirmed,
		Runs:  []compareRun{compareRunOf("OLD", opt.OldPage, c.Old, oldRun, opt.Busy), compareRunOf("NEW", opt.NewPage, c.New, newRun, opt.Busy)},
		Noise: noiseRule(c.Noise)}
	p.Verdicts, p.Lower = compareVerdicts(c)
	p.Partial = partialNote(c)
	var text bytes.Buffer
	if err := c.WriteText(&text, 0); err != nil {
		return err
	}
	p.Text = text.String()
	for _, d := range c.Strategies {
		sec, err := compareSectionOf(ctx, c, d, oldRun, newRun, opt)
		if err != nil {
			return err
		}
		p.Sections = append(p.Sections, sec)
	}
	return comparePageTmpl().Execute(b, p)
}

// BusyWarning is the warning that the machine of run was busy while its
// units were timed (other work took more than busy of the workers' CPU
// time), as a line of the terminal goes on after "warning: ": the
// pages' sentence as a clause ("the machine was busy: other work took
// 46.1% ..."); "" when it was not, or run.json does not say.
func BusyWarning(run *Run, busy float64) string {
	if run == nil || run.Manifest == nil {
		return ""
	}
	return (&Summary{Run: summarizeRun(run.Manifest)}).BusyWarning(busy)
}

// BusyWarning is BusyWarning of the summary's run.
func (s *Summary) BusyWarning(busy float64) string {
	_, warning := s.runFacts(busy)
	if warning == "" {
		return ""
	}
	return strings.ToLower(warning[:1]) + strings.TrimSuffix(warning[1:], ".")
}

// compareRunOf describes one of the runs compared, labelled label, its
// page linked from page: what it is (ref), and from its run.json (run
// may be nil) the facts of the run and a warning when its machine was
// busier than busy.
func compareRunOf(label, page string, ref RunRef, run *Run, busy float64) compareRun {
	what := ""
	if ref.RunID != "" {
		what = fmt.Sprintf("run %s (%s), ", ref.RunID, ref.Status)
	}
	what += fmt.Sprintf("%s of %s, %s", Count(ref.Puzzles, "puzzle", "puzzles"), strings.Join(ref.Corpora, ", "),
		Count(ref.Rows, "row", "rows"))
	cr := compareRun{Label: label, Path: ref.Path, Page: page, What: what}
	if run != nil && run.Manifest != nil {
		facts := &Summary{Run: summarizeRun(run.Manifest)}
		cr.Facts, cr.Busy = facts.runFacts(busy)
		if cr.Busy != "" {
			cr.Busy = label + ": " + cr.Busy
		}
	}
	return cr
}

// compareVerdicts returns the rows of the verdict table, one per
// strategy as the terminal prints them, and whether a figure of them is
// a lower bound.
func compareVerdicts(c *Comparison) (rows []compareVerdict, lower bool) {
	for _, d := range c.Strategies {
		if d.Timed == 0 {
			rows = append(rows, compareVerdict{sectionAnchor(d.Solver), []string{d.Solver, "0", "–", "–", "–", "–", "–", fmtCalls(d)}})
			continue
		}
		verdict := d.Verdict
		if d.WithinNoise {
			verdict += " (within noise)"
		}
		rows = append(rows, compareVerdict{sectionAnchor(d.Solver), []string{d.Solver, strconv.Itoa(d.Timed),
			fmtEstimate(d.MedianOldNS, fmtNS), fmtEstimate(d.MedianNewNS, fmtNS), fmtTimeCI(d), fmtP(d.TimeTest.P), verdict, fmtCalls(d)}})
	}
	for _, v := range rows {
		lower = lower || strings.Contains(strings.Join(v.Cells, " "), "≥")
	}
	return rows, lower
}

// noiseRule is the verdicts' rule, a sentence, with the comparison's
// -noise (noise, 1 or less: none).
func noiseRule(noise float64) string {
	if noise > 1 {
		n := strconv.FormatFloat(noise, 'f', -1, 64)
		return fmt.Sprintf("NEW/OLD paired by puzzle: the ratio of median times with its 95%% interval (a bootstrap over timing blocks) and the Wilcoxon signed-rank test of the times, then of the calls. Slower or faster: the interval lies beyond ×%s either way (-noise, the speed of a machine between two runs) and the test agrees (p < 0.05); a smaller change the test finds is within noise.", n)
	}
	return "NEW/OLD paired by puzzle: the ratio of median times with its 95% interval (a bootstrap over timing blocks) and the Wilcoxon signed-rank test of the times, then of the calls. Slower or faster: the interval lies beyond ×1 and the test agrees (p < 0.05)."
}

// compareSectionOf is the section of strategy d: its verdict, its charts
// (opt.Charts of it) and the puzzles whose time moved most (opt.Moved of
// them, 8 when not set), each with the batch show command that runs it
// again in NEW.
func compareSectionOf(ctx context.Context, c *Comparison, d *StrategyDiff, oldRun, newRun *Run, opt ComparePageOptions) (compareSection, error) {
	sec := compareSection{Solver: d.Solver, Anchor: sectionAnchor(d.Solver)}
	if d.Timed == 0 {
		sec.Verdict = "no unit measured in both runs"
		return sec, nil
	}
	sec.Verdict = fmt.Sprintf("median time %s, %s, %s; %s", fmtTimeCI(d), fmtP(d.TimeTest.P), d.Verdict, fmtCalls(d))
	if d.WithinNoise {
		sec.Verdict = fmt.Sprintf("median time %s, %s, %s (within noise); %s", fmtTimeCI(d), fmtP(d.TimeTest.P), d.Verdict, fmtCalls(d))
	}
	chartsDir := opt.ChartsDir
	if chartsDir == "" {
		chartsDir = rundir.ChartsDir
	}
	for _, ch := range opt.Charts {
		if ch.Solver != d.Solver {
			continue
		}
		pc := pageChart{Chart: ch, Src: chartsDir + "/" + ch.File}
		if ch.SVG != "" {
			pc.SVGSrc = chartsDir + "/" + ch.SVG
		}
		if ch.Small != "" {
			pc.SmallSrc = chartsDir + "/" + ch.Small
		}
		sec.Charts = append(sec.Charts, pc)
	}
	moved := opt.Moved
	if moved <= 0 {
		moved = 8
	}
	pairs, err := c.Pairs(ctx, oldRun, newRun, d.Solver)
	if err != nil {
		return sec, err
	}
	for _, u := range MostMoved(pairs, moved) {
		sec.Moved = append(sec.Moved, compareMovedOf(c, u, oldRun, newRun, d.Solver, opt.NewRunDir))
	}
	return sec, nil
}

// compareMovedOf is the row of a puzzle that moved, u, of strategy
// solver: its status, times, ratio and calls in both runs, and the batch
// show command that runs it again in NEW (newRunDir).
func compareMovedOf(c *Comparison, u TimePair, oldRun, newRun *Run, solver, newRunDir string) compareMoved {
	status := u.Old.Status.String()
	if u.New.Status != u.Old.Status {
		status += " → " + u.New.Status.String()
	}
	times := "–" // a run without the timing columns
	switch {
	case u.Confirmed():
		times = "confirmed in both"
	case c.TimesConfirmed:
		times = "measured once" + UnconfirmedMark
	}
	return compareMoved{Label: oldRun.Results.PuzzleLabel(&u.Old), Status: status,
		Old: fmtNS(float64(u.Old.NS)), New: fmtNS(float64(u.New.NS)), Ratio: fmtMultiple(u.Ratio()), Times: times, Calls: movedCalls(u),
		OldV: strconv.FormatInt(u.Old.NS, 10), NewV: strconv.FormatInt(u.New.NS, 10), RatioV: strconv.FormatFloat(u.Ratio(), 'g', 8, 64),
		Show: compareShow(newRun, &u.New, solver, newRunDir)}
}

// movedCalls says whether a moved unit made the same calls in both runs
// ("=": the same search, so its change of time is the machine's or
// noise, not the code's) or how they changed.
func movedCalls(u TimePair) string {
	if u.Old.Calls == u.New.Calls {
		return "="
	}
	return fmtCount(float64(u.Old.Calls)) + " → " + fmtCount(float64(u.New.Calls))
}

// sectionAnchor is the id of a strategy's section: "s-" and its name
// made safe in an id.
func sectionAnchor(s string) string {
	return "s-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// compareShow is the `batch show` command that runs unit e of NEW (of
// strategy solver) again with NEW's limits and ranks it in NEW: "" when
// NEW's directory is not known.
func compareShow(newRun *Run, e *Entry, solver, dir string) string {
	if dir == "" {
		return ""
	}
	args := []string{"batch", "show", strconv.Itoa(int(e.ID)), "-run", dir}
	if len(newRun.Results.Corpora) > 1 {
		args = append(args, "-corpus", newRun.Results.Corpora[e.Corpus])
	}
	args = append(args, "-solvers", solver)
	if m := newRun.Manifest; m != nil {
		args = append(args, m.Settings.ReplayFlags(rundir.ReplayShowRun)...)
	}
	return ShellCommand(args)
}

// partialNote says, under the verdicts, what a partial comparison left
// out: the strategies of one run only, and per strategy the puzzles of
// one run only: "Not compared: norvig, bitboard (only in OLD); dlx's 2500
// puzzles only in OLD." The terminal's output says it at its end; the
// page said it only inside its collapsed copy of that output.
func partialNote(c *Comparison) string {
	var parts []string
	for _, x := range []struct {
		names []string
		run   string
	}{{c.OnlyOld, "OLD"}, {c.OnlyNew, "NEW"}} {
		if len(x.names) > 0 {
			parts = append(parts, fmt.Sprintf("%s (only in %s)", strings.Join(x.names, ", "), x.run))
		}
	}
	for _, d := range c.Strategies {
		for _, x := range []struct {
			n   int
			run string
		}{{d.OnlyOld, "OLD"}, {d.OnlyNew, "NEW"}} {
			if x.n > 0 {
				parts = append(parts, fmt.Sprintf("%s's %s only in %s", d.Solver, Count(x.n, "puzzle", "puzzles"), x.run))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not compared: " + strings.Join(parts, "; ") + "."
}
