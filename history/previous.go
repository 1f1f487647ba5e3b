package history

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// Previous is a run compared with the previous night of its series, for
// the run's report (its compare-previous page and the one-line verdict
// its page links it with).
type Previous struct {
	Night      *Night             // the night compared with
	Dir        string             // its run directory
	Old        *report.Run        // its rows
	Comparison *report.Comparison // Old against the run
	// Verdict sums the comparison up in a line: "against 20261124-230000:
	// 1 slower (backtrack ×1.565), 5 no change; calls changed: norvig".
	Verdict string
}

// ComparePrevious compares the run in dir (run, loaded from it) with the
// newest earlier night of its series in its results root, dir's parent,
// whose rows are there. A night removed by hand is no longer in the
// series (Update drops it), and one whose rows are gone (batch prune) is
// passed over for the night before it; note then says which night was
// compared and why not the one just before.
//
// It returns nil when there is nothing to compare with (no other run in
// the root, the run is the first night of its series). note says why a
// comparison that could have been made was not (the run is no night, no
// earlier night has its rows, the runs share no puzzle): a note for the
// terminal, never a failed report. err is ctx.Err() alone.
//
// A root that keeps a history (root/history.json, which batch trend
// writes) has its index brought up to date (Update); in any other the
// nights are read from the run directories (run.json and summary.json
// of each run started before this one) and nothing is written: a
// history.json is batch trend's.
func ComparePrevious(ctx context.Context, dir string, run *report.Run) (prev *Previous, note string, err error) {
	root, name := rundir.Locate(dir)
	if !otherRuns(root, name) {
		return nil, "", nil
	}
	nights, self, why := runSeries(root, filepath.Join(root, name), run)
	if why != "" {
		return nil, "not compared with the previous night: " + why, nil
	}
	if self <= 0 {
		return nil, "", nil
	}
	var gone []string
	for j := self - 1; j >= 0; j-- {
		n := nights[j]
		ndir := NightDir(root, n)
		old, err := report.LoadRun(ctx, ndir)
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, n.RunID)
			continue
		}
		if err != nil {
			return nil, fmt.Sprintf("not compared with the previous night %s: %v", n.RunID, err), nil
		}
		c, err := report.Compare(ctx, old, run, report.CompareOptions{})
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if err != nil {
			return nil, fmt.Sprintf("not compared with the previous night %s: %v", n.RunID, err), nil
		}
		if len(gone) > 0 {
			note = fmt.Sprintf("compared with night %s, the newest earlier night of its series with rows: the rows of %s are gone (batch prune)",
				n.RunID, listRuns(gone))
		}
		return &Previous{Night: n, Dir: ndir, Old: old, Comparison: c, Verdict: PreviousVerdict(c, n.RunID)}, note, nil
	}
	return nil, fmt.Sprintf("not compared with the previous night %s: no earlier night of its series has its rows (those of %s are gone: batch prune)", gone[0], listRuns(gone)), nil
}

// listRuns names runs newest first, "a, b and 3 more" past a few.
func listRuns(runs []string) string {
	const shown = 3
	if len(runs) <= shown {
		return strings.Join(runs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(runs[:shown], ", "), len(runs)-shown)
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

// runSeries returns the nights of the series of the run in dir (its real,
// absolute path; run loaded from it) in the results root, oldest first,
// up to it, and its place among them; why says why it has none (the run
// is no night).
func runSeries(root, dir string, run *report.Run) (nights []*Night, self int, why string) {
	rel := filepath.Base(dir)
	if _, err := os.Stat(filepath.Join(root, IndexFile)); err == nil {
		idx, _, err := Update(root)
		if err != nil {
			return nil, -1, err.Error()
		}
		e := idx.Lookup(rel)
		if e == nil || e.Night == nil {
			why := "it is not in the history of " + root
			if e != nil && e.Skip != "" {
				why = e.Skip
			}
			return nil, -1, "this run is no night of the history: " + why
		}
		for _, s := range idx.All().Series {
			if i := slices.Index(s.Nights, e.Night); i >= 0 {
				return s.Nights, i, ""
			}
		}
		return nil, -1, ""
	}
	if run.Manifest == nil {
		return nil, -1, "the run has no run.json"
	}
	// The runs started before this one, and this one last: the newest,
	// whose series Selected keeps.
	var runs []string
	des, err := os.ReadDir(root)
	if err != nil {
		return nil, -1, err.Error()
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
	h, err := (&Index{}).Selected(root, append(runs, dir))
	if err != nil {
		return nil, -1, err.Error()
	}
	for _, sk := range h.Skipped {
		if sk.Run == dir {
			return nil, -1, "this run is no night: " + sk.Reason
		}
	}
	if len(h.Series) == 0 {
		return nil, -1, ""
	}
	nights = h.Series[0].Nights
	return nights, slices.IndexFunc(nights, func(n *Night) bool { return n.Dir == dir }), ""
}

// PreviousVerdict sums up comparison c with night prev in a line:
// "against 20261124-230000: 1 slower (backtrack ×1.565), 5 no change;
// calls changed: norvig".
func PreviousVerdict(c *report.Comparison, prev string) string {
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
