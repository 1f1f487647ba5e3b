package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/history"
	"sudokubatch/report"
)

// pageHistory is what the history of a run's results root says of the
// run, for its page's headline.
type pageHistory struct {
	trend map[string]report.TrendCell
	line  string // a sentence: which night, against what, the alarms
	href  string // the history page, relative to the run's page ("" when none)
}

// historyOf returns what batch trend says of the run in dir, when its
// results root (dir's parent) keeps a history (history.json, written by
// batch trend) and the run's series has earlier nights: each strategy's
// verdict and change against its baseline, as trend computed them for
// that night (the series cut after it, so that an older run's page says
// what its night said). A root without history, a run that is no night
// (a shard, unfinished) or the first night of its series returns nil:
// the page has no history column. The gate reads the rows of the
// baseline nights: a few seconds for full-corpus nights.
func historyOf(ctx context.Context, dir string) (*pageHistory, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, rel := filepath.Dir(abs), filepath.Base(abs)
	if _, err := os.Stat(filepath.Join(root, history.IndexFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	idx, _, err := history.Update(root)
	if err != nil {
		return nil, err
	}
	var s *history.Series
	k := -1
	for _, se := range idx.All().Series {
		if i := slices.IndexFunc(se.Nights, func(n *history.Night) bool { return n.Run == rel }); i >= 0 {
			s, k = se, i
		}
	}
	if s == nil || k == 0 {
		return nil, nil
	}
	cut := *s
	cut.Nights = s.Nights[:k+1]
	acks, err := history.ReadAnnotations(root)
	if err != nil {
		return nil, err
	}
	r, err := history.Evaluate(ctx, root, &cut, acks, history.Options{Memo: idx.Memo()})
	if err != nil {
		return nil, err
	}
	h := &pageHistory{trend: map[string]report.TrendCell{}}
	alarmed := map[string]bool{}
	var alarms []string
	for _, a := range r.Alarms {
		if a.Night.Index == k+1 && a.Unacknowledged() {
			alarmed[a.Solver] = true
			alarms = append(alarms, a.Solver+" ("+a.Kind+")")
		}
	}
	for _, st := range r.Strategies {
		c := report.TrendCell{Verdict: st.Verdict, Alarm: alarmed[st.Solver]}
		if g := st.Gate; g != nil {
			c.Change = fmt.Sprintf("×%.3f [%.3f, %.3f]", g.Adjusted, g.AdjustedCI.Lo, g.AdjustedCI.Hi)
			c.Ratio = g.Adjusted
			c.Baseline = fmt.Sprintf("the per-puzzle median of %s before it, the machine's common factor ×%.3f taken out",
				report.Count(len(g.Baseline), "night", "nights"), g.Machine)
		}
		h.trend[st.Solver] = c
	}
	h.line = fmt.Sprintf("Night %d of its series in %s (batch trend): each strategy against its baseline of earlier nights, an alarm beyond %s; ",
		k+1, filepath.Join(filepath.Base(root), history.IndexFile), history.FormatShare(r.Options.Threshold))
	if len(alarms) == 0 {
		h.line += "no new alarm."
	} else {
		h.line += "new " + report.Plural(len(alarms), "alarm", "alarms") + ": " + strings.Join(alarms, ", ") + "."
	}
	if _, err := os.Stat(filepath.Join(root, history.PageFile)); err == nil {
		h.href = "../" + history.PageFile
	}
	return h, nil
}
