package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// previousNight compares the run in dir (run, loaded from it) with the
// newest earlier night of its series whose rows are there
// (history.ComparePrevious), and writes the comparison's page and charts
// into dir/compare-previous (rundir.ComparePreviousDir).
//
// It returns the link to the page, relative to dir, with a one-line
// verdict as its text; nil when there is nothing to compare with (no
// other run, the run is the first night of its series). note says why a
// comparison that could have been made was not (the run is no night, the
// previous night's rows are gone or unreadable, the runs share no
// puzzle, a chart or the page could not be written): a note for the
// terminal, never a failed report. A comparison of an earlier report
// that this one could not make again is removed. err is ctx.Err() alone.
func previousNight(ctx context.Context, dir string, run *report.Run) (link *report.PageLink, note string, err error) {
	link, note, err = comparePrevious(ctx, dir, run)
	if link == nil && err == nil {
		// The comparison of an earlier report is not this one's.
		if rmErr := os.RemoveAll(filepath.Join(dir, rundir.ComparePreviousDir)); rmErr != nil && note == "" {
			note = fmt.Sprintf("removing the earlier comparison with the previous night: %v", rmErr)
		}
	}
	return link, note, err
}

// comparePrevious is previousNight but for the removal of an earlier
// comparison when there is none: history.ComparePrevious finds the night
// and compares, this writes the page.
func comparePrevious(ctx context.Context, dir string, run *report.Run) (link *report.PageLink, note string, err error) {
	prev, note, err := history.ComparePrevious(ctx, dir, run)
	if prev == nil || err != nil {
		return nil, note, err
	}
	join := func(s string) string {
		if note == "" {
			return s
		}
		return note + "; " + s
	}
	out := filepath.Join(dir, rundir.ComparePreviousDir)
	// The page of an earlier report goes whole: a strategy no longer
	// compared leaves no chart behind.
	if err := os.RemoveAll(out); err != nil {
		return nil, join(fmt.Sprintf("not compared with the previous night %s: %v", prev.Night.RunID, err)), nil
	}
	_, chartsErr, err := WriteComparePage(ctx, out, prev.Comparison, prev.Old, run, "../"+rundir.PageFile)
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	if err != nil {
		return nil, join(fmt.Sprintf("comparing with the previous night %s: %v", prev.Night.RunID, err)), nil
	}
	if chartsErr != nil {
		note = join(fmt.Sprintf("comparing with the previous night %s: charts: %v", prev.Night.RunID, chartsErr))
	}
	return &report.PageLink{Href: rundir.ComparePreviousDir + "/" + rundir.PageFile, Text: prev.Verdict}, note, nil
}
