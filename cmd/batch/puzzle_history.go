package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// historyNights is the most earlier nights the page shows of a puzzle.
const historyNights = 7

// puzzleHistory returns the puzzles the page of the run in dir names
// (sum.NamedPuzzles) on the last historyNights nights of the run's
// series before it, from the history index of the run's results root
// (its parent directory; written by batch trend), or nil when there is
// no index or no earlier night. It reads only those nights' rows, and of
// them only the lines of the named ids (history.PuzzleRows). A night
// whose rows cannot be read is shown without them, with the reason, and
// warned of; nothing here fails the report.
func puzzleHistory(ctx context.Context, warn io.Writer, dir string, info *rundir.Manifest, sum *report.Summary) *report.PuzzleHistory {
	if info == nil {
		return nil
	}
	named := sum.NamedPuzzles()
	if len(named) == 0 {
		return nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	root := filepath.Dir(real)
	idx, err := history.ReadIndex(filepath.Join(root, history.IndexFile))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(warn, "batch: the page's puzzle history: %v\n", err)
		}
		return nil
	}
	key, nights := idx.EarlierNights(info, historyNights)
	if len(nights) == 0 {
		return nil
	}
	type puzzle struct {
		corpus string
		id     int
	}
	want := map[puzzle]bool{}
	ids := map[int]bool{}
	for _, r := range named {
		want[puzzle{r.Corpus, r.ID}] = true
		ids[r.ID] = true
	}
	self := map[string]bool{} // strategies this run ranks by their own time: so are their earlier nights' units
	for _, st := range sum.Strategies {
		self[st.Solver] = st.TimeBasis == report.BasisSelf
	}
	h := &report.PuzzleHistory{Series: key, Nights: make([]report.HistoryNight, len(nights))}
	// The nights' rows are read side by side, as many at once as there
	// are CPUs: each is a decompression and a scan of its own file.
	units := make([][]report.HistoryUnit, len(nights))
	errs := make([]error, len(nights))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for k, n := range nights {
		hn := &h.Nights[k]
		*hn = report.HistoryNight{RunID: n.RunID, Date: n.Start.UTC().Format("01-02 15:04")}
		ndir := history.NightDir(root, n)
		if _, err := os.Stat(filepath.Join(ndir, rundir.PageFile)); err == nil {
			if rel, err := filepath.Rel(real, filepath.Join(ndir, rundir.PageFile)); err == nil {
				hn.Href = filepath.ToSlash(rel)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m, err := rundir.ReadManifest(ndir)
			var rows []rundir.Row
			if err == nil {
				rows, err = history.PuzzleRows(ctx, ndir, ids)
			}
			errs[k] = err
			for _, row := range rows {
				name := sameCorpus(row.Corpus, m, info)
				if want[puzzle{name, row.ID}] {
					ns := row.NS
					if self[row.Solver] && row.SelfNS > 0 {
						ns = row.SelfNS
					}
					units[k] = append(units[k], report.HistoryUnit{Night: k, Corpus: name, ID: row.ID, Solver: row.Solver,
						Status: row.Status, NS: ns, Calls: row.Calls})
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	for k, err := range errs {
		if err != nil {
			h.Nights[k].Note = "rows not read"
			fmt.Fprintf(warn, "batch: the page's puzzle history: night %s: %v\n", nights[k].RunID, err)
		}
		h.Units = append(h.Units, units[k]...)
	}
	return h
}

// sameCorpus returns the name that the run info gives the corpus that
// night m names name: the corpus at the same place among the settings'
// corpora (a series' nights have the same corpora, by SHA-256, in the
// same order), found by name, then by base name; "" when none.
func sameCorpus(name string, m, info *rundir.Manifest) string {
	at := -1
	for i, c := range m.Settings.Corpora {
		if c == name {
			at = i
			break
		}
	}
	if at < 0 {
		for i, c := range m.Settings.Corpora {
			if filepath.Base(c) == filepath.Base(name) {
				at = i
				break
			}
		}
	}
	if at < 0 && len(m.Settings.Corpora) == 1 {
		at = 0
	}
	if at < 0 || at >= len(info.Settings.Corpora) {
		return ""
	}
	return info.Settings.Corpora[at]
}

// showDir is the run directory dir as the page's `batch show` commands
// name it: results/latest as the run it points at now, which stays
// when latest moves on.
func showDir(dir string) string {
	if filepath.Base(dir) == rundir.LatestLink {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return real
		}
	}
	return dir
}
