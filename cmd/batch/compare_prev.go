package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// previousDir is the directory, in a run directory, of the page that
// compares the run with the previous night of its series.
const previousDir = rundir.ComparePreviousDir

// comparePrevious compares the run in dir (run, loaded from it) with the
// night before it in its series, and writes the comparison's page and
// charts into dir/compare-previous. The results root is dir's parent
// (the run directory's real path, so that results/latest finds its run);
// the nights are found by previousOf, when the root holds another run
// beside this one.
//
// It returns the link to the page, relative to dir, with a one-line
// verdict as its text; nil when there is nothing to compare with (no
// other run, the run is the first night of its series). note says why a
// comparison that could have been made was not (the run is no night, the
// previous night's rows are gone or unreadable, the runs share no
// puzzle, a chart or the page could not be written): a note for the
// terminal, never a failed report; a comparison of an earlier report that
// this one could not make again is removed. err is ctx.Err() alone.
func comparePrevious(ctx context.Context, dir string, run *report.Run) (link *report.PageLink, note string, err error) {
	link, note, err = comparePreviousNight(ctx, dir, run)
	if link == nil && err == nil {
		// The comparison of an earlier report is not this one's.
		if rmErr := os.RemoveAll(filepath.Join(dir, previousDir)); rmErr != nil && note == "" {
			note = fmt.Sprintf("removing the earlier comparison with the previous night: %v", rmErr)
		}
	}
	return link, note, err
}

// comparePreviousNight is comparePrevious but for the removal of an
// earlier comparison when there is none.
func comparePreviousNight(ctx context.Context, dir string, run *report.Run) (link *report.PageLink, note string, err error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, "", nil // the report of dir already read it: not reached
	}
	real, _ = filepath.Abs(real)
	root, rel := filepath.Dir(real), filepath.Base(real)
	if !otherRuns(root, rel) {
		return nil, "", nil
	}
	prev, note := previousOf(root, real, run)
	if prev == nil {
		return nil, note, nil
	}
	prevDir := prev.Dir // a night read from its directory
	if prevDir == "" {
		prevDir = filepath.Join(root, filepath.FromSlash(prev.Run))
	}
	oldRun, err := report.LoadRun(ctx, prevDir)
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, fmt.Sprintf("not compared with the previous night %s: %v", prev.RunID, err), nil
	}
	c, err := report.Compare(ctx, oldRun, run, report.CompareOptions{})
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, fmt.Sprintf("not compared with the previous night %s: %v", prev.RunID, err), nil
	}
	out := filepath.Join(dir, previousDir)
	// The page of an earlier report goes whole: a strategy no longer
	// compared leaves no chart behind.
	if err := os.RemoveAll(out); err != nil {
		return nil, fmt.Sprintf("not compared with the previous night %s: %v", prev.RunID, err), nil
	}
	_, chartsErr, err := writeComparePage(ctx, out, c, oldRun, run, "../"+rundir.PageFile) // written next
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, fmt.Sprintf("comparing with the previous night %s: %v", prev.RunID, err), nil
	}
	if chartsErr != nil {
		note = fmt.Sprintf("comparing with the previous night %s: charts: %v", prev.RunID, chartsErr)
	}
	return &report.PageLink{Href: previousDir + "/" + rundir.PageFile, Text: previousVerdict(c, prev.RunID)}, note, nil
}

// otherRuns reports whether root holds a run directory (one with a
// run.json) other than rel.
func otherRuns(root, rel string) bool {
	des, err := os.ReadDir(root)
	if err != nil {
		return false
	}
	for _, de := range des {
		if de.IsDir() && de.Name() != rel && !strings.HasPrefix(de.Name(), ".") {
			if _, err := os.Lstat(filepath.Join(root, de.Name(), rundir.ManifestFile)); err == nil {
				return true
			}
		}
	}
	return false
}

// previousOf returns the night before the run in dir (its real,
// absolute path; run loaded from it) in its series of the results root,
// or nil and why not ("" when there is nothing to say: the first night
// of its series). A root that keeps a history (root/history.json, which
// batch trend writes) has its index brought up to date (history.Update);
// in any other the nights are read from the run directories (run.json
// and summary.json of each run started before this one) and nothing is
// written: a history.json is batch trend's, and says that the root's
// pages show the history's verdicts.
func previousOf(root, dir string, run *report.Run) (*history.Night, string) {
	rel := filepath.Base(dir)
	var nights []*history.Night
	if _, err := os.Stat(filepath.Join(root, history.IndexFile)); err == nil {
		idx, _, err := history.Update(root)
		if err != nil {
			return nil, fmt.Sprintf("not compared with the previous night: %v", err)
		}
		self := idx.Lookup(rel)
		if self == nil || self.Night == nil {
			why := "it is not in the history of " + root
			if self != nil && self.Skip != "" {
				why = self.Skip
			}
			return nil, fmt.Sprintf("not compared with the previous night: this run is no night of the history (%s)", why)
		}
		for _, s := range idx.All().Series {
			if slices.Contains(s.Nights, self.Night) {
				nights = s.Nights
			}
		}
		prev := nightBefore(nights, func(n *history.Night) bool { return n == self.Night })
		if prev != nil {
			if e := idx.Lookup(prev.Run); e != nil && e.Gone {
				return nil, fmt.Sprintf("not compared with the previous night %s: its directory was removed", prev.RunID)
			}
		}
		return prev, ""
	}
	if run.Manifest == nil {
		return nil, "not compared with the previous night: the run has no run.json"
	}
	// The runs started before this one, and this one last: the newest,
	// whose series Selected keeps.
	runs := []string{}
	des, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Sprintf("not compared with the previous night: %v", err)
	}
	for _, de := range des {
		if !de.IsDir() || de.Name() == rel || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		m, err := rundir.ReadManifest(filepath.Join(root, de.Name()))
		if err == nil && !m.Start.After(run.Manifest.Start) {
			runs = append(runs, filepath.Join(root, de.Name()))
		}
	}
	h, err := (&history.Index{}).Selected(root, append(runs, dir))
	if err != nil {
		return nil, fmt.Sprintf("not compared with the previous night: %v", err)
	}
	for _, sk := range h.Skipped {
		if sk.Run == dir {
			return nil, fmt.Sprintf("not compared with the previous night: this run is no night (%s)", sk.Reason)
		}
	}
	if len(h.Series) > 0 {
		nights = h.Series[0].Nights
	}
	return nightBefore(nights, func(n *history.Night) bool { return n.Dir == dir }), ""
}

// nightBefore returns the night before the one self picks in nights
// (a series, oldest first), or nil.
func nightBefore(nights []*history.Night, self func(*history.Night) bool) *history.Night {
	if i := slices.IndexFunc(nights, self); i > 0 {
		return nights[i-1]
	}
	return nil
}

// previousVerdict sums up comparison c in a line: "against 20261124-230000:
// 1 slower (backtrack ×1.565), 5 no change; calls changed: norvig".
func previousVerdict(c *report.Comparison, prev string) string {
	type group struct {
		verdict string
		what    []string
	}
	groups := []*group{{verdict: report.VerdictSlower}, {verdict: report.VerdictFaster}, {verdict: report.VerdictUndecided},
		{verdict: report.VerdictSame}}
	var calls []string
	for _, d := range c.Strategies {
		if d.Changed.Calls > 0 {
			calls = append(calls, d.Solver)
		}
		if d.Timed == 0 {
			continue
		}
		for _, g := range groups {
			if g.verdict == d.Verdict {
				g.what = append(g.what, fmt.Sprintf("%s ×%.3f", d.Solver, d.MedianRatio.Value))
			}
		}
	}
	var parts []string
	for _, g := range groups {
		switch {
		case len(g.what) == 0:
		case g.verdict == report.VerdictSame:
			parts = append(parts, fmt.Sprintf("%d %s", len(g.what), g.verdict))
		default:
			parts = append(parts, fmt.Sprintf("%d %s (%s)", len(g.what), g.verdict, strings.Join(g.what, ", ")))
		}
	}
	line := "against " + prev + ": " + strings.Join(parts, ", ")
	if len(parts) == 0 {
		line = "against " + prev + ": no time measured in both"
	}
	if len(calls) > 0 {
		line += "; calls changed: " + strings.Join(calls, ", ")
	}
	return line
}
