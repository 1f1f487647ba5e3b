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

// RunTrend is what the history of a run's results root says of the run,
// for its page's headline (report.PageOptions.Trend, TrendLine and
// History).
type RunTrend struct {
	// Cells holds each strategy's verdict and change against its
	// baseline, by name.
	Cells map[string]report.TrendCell
	// Line says it in a sentence: which night of the series, against
	// what, the new alarms.
	Line string
	// Href is the history page, relative to the run's page; "" when the
	// root has none.
	Href string
}

// TrendOfRun returns what batch trend says of the run in dir, when its
// results root (rundir.Locate: results/latest is the run it points at)
// keeps a history (IndexFile, written by batch trend) and the run's
// series has earlier nights: each strategy's verdict and change against
// its baseline as trend computed them for that night (the series cut
// after it, so that an older run's page says what its night said). A
// root without history, a run that is no night (a shard, unfinished) or
// the first night of its series returns nil: the page has no history
// column. The index is brought up to date (Update); the gate reads the
// rows of the baseline nights: a few seconds for full-corpus nights.
func TrendOfRun(ctx context.Context, dir string) (*RunTrend, error) {
	root, name := rundir.Locate(dir)
	if _, err := os.Stat(filepath.Join(root, IndexFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	idx, _, err := Update(root)
	if err != nil {
		return nil, err
	}
	var s *Series
	k := -1
	for _, se := range idx.All().Series {
		if i := slices.IndexFunc(se.Nights, func(n *Night) bool { return n.Run == name }); i >= 0 {
			s, k = se, i
		}
	}
	if s == nil || k == 0 {
		return nil, nil
	}
	cut := *s
	cut.Nights = s.Nights[:k+1]
	acks, err := ReadAnnotations(root)
	if err != nil {
		return nil, err
	}
	r, err := Evaluate(ctx, root, &cut, acks, Options{Memo: idx.Memo()})
	if err != nil {
		return nil, err
	}
	t := runTrendOf(r, k+1)
	t.Line = fmt.Sprintf("Night %d of its series in %s (batch trend): each strategy against its baseline of earlier nights, an alarm beyond %s; %s",
		k+1, filepath.Join(filepath.Base(root), IndexFile), FormatShare(r.Options.Threshold), t.Line)
	if _, err := os.Stat(filepath.Join(root, PageFile)); err == nil {
		t.Href = "../" + PageFile
	}
	return t, nil
}

// runTrendOf is the cells of report r's strategies on its night
// (the index-th of its series), and the sentence's end that names the
// night's new alarms.
func runTrendOf(r *Report, index int) *RunTrend {
	t := &RunTrend{Cells: map[string]report.TrendCell{}}
	alarmed := map[string]bool{}
	var alarms []string
	for _, a := range r.Alarms {
		if a.Night.Index == index && a.Unacknowledged() {
			alarmed[a.Solver] = true
			alarms = append(alarms, a.Solver+" ("+a.Kind+")")
		}
	}
	for _, st := range r.Strategies {
		c := report.TrendCell{Verdict: st.Verdict, Alarm: alarmed[st.Solver]}
		if g := st.Gate; g != nil {
			ratio, interval := adjustedCells(g)
			c.Change = "×" + ratio + " " + interval
			c.Ratio = g.Adjusted
			c.Baseline = fmt.Sprintf("the per-puzzle median of %s before it, the machine's common factor %s taken out",
				report.Count(len(g.Baseline), "night", "nights"), fmtMultiple(g.Machine))
		}
		t.Cells[st.Solver] = c
	}
	if len(alarms) == 0 {
		t.Line = "no new alarm."
	} else {
		t.Line = "new " + report.Plural(len(alarms), "alarm", "alarms") + ": " + strings.Join(alarms, ", ") + "."
	}
	return t
}
