package history

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// PuzzleNights is the most earlier nights a run's page shows of a
// puzzle.
const PuzzleNights = 7

// PuzzleHistory returns the puzzles that the page of the run in dir names
// (sum.NamedPuzzles) on the last PuzzleNights nights of the run's series
// before it (Index.EarlierNights), from the index of the run's results
// root (rundir.Locate; written by batch trend, read here, not updated),
// or nil when there is no index, no run.json (m nil) or no earlier
// night. It reads only those nights' rows, and of them only the lines
// of the named ids (PuzzleRows), the nights side by side. A night's
// units are in the basis the run ranks its strategy by: its own time
// for a strategy this run ranks by its own time.
//
// Nothing here fails the report: a night whose rows cannot be read is
// shown without them ("rows not read"), an index that cannot be read
// gives nil, and notes says each, for the terminal. When ctx is
// canceled it returns nil.
func PuzzleHistory(ctx context.Context, dir string, m *rundir.Manifest, sum *report.Summary) (h *report.PuzzleHistory, notes []string) {
	if m == nil {
		return nil, nil
	}
	named := sum.NamedPuzzles()
	if len(named) == 0 {
		return nil, nil
	}
	root, name := rundir.Locate(dir)
	idx, err := ReadIndex(filepath.Join(root, IndexFile))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			notes = append(notes, err.Error())
		}
		return nil, notes
	}
	key, nights := idx.EarlierNights(m, PuzzleNights)
	if len(nights) == 0 {
		return nil, nil
	}
	want := namedPuzzles{want: map[puzzleKey]bool{}, ids: map[int]bool{}, self: map[string]bool{}}
	for _, r := range named {
		want.want[puzzleKey{r.Corpus, r.ID}] = true
		want.ids[r.ID] = true
	}
	for _, st := range sum.Strategies {
		want.self[st.Solver] = st.TimeBasis == report.BasisSelf
	}
	h = &report.PuzzleHistory{Series: key, Nights: make([]report.HistoryNight, len(nights))}
	runDir := filepath.Join(root, name)
	for k, n := range nights {
		h.Nights[k] = report.HistoryNight{RunID: n.RunID, Date: n.Start.UTC().Format("01-02 15:04")}
		page := filepath.Join(NightDir(root, n), rundir.PageFile)
		if _, err := os.Stat(page); err == nil {
			if rel, err := filepath.Rel(runDir, page); err == nil {
				h.Nights[k].Href = filepath.ToSlash(rel)
			}
		}
	}
	units, errs := want.read(ctx, root, nights, m)
	if ctx.Err() != nil {
		return nil, nil
	}
	for k, err := range errs {
		if err != nil {
			h.Nights[k].Note = "rows not read"
			notes = append(notes, fmt.Sprintf("night %s: %v", nights[k].RunID, err))
		}
		h.Units = append(h.Units, units[k]...)
	}
	return h, notes
}

type puzzleKey struct {
	corpus string
	id     int
}

// namedPuzzles is what a run's page names, for reading earlier nights.
type namedPuzzles struct {
	want map[puzzleKey]bool // by corpus (as the run names it) and id
	ids  map[int]bool
	self map[string]bool // the strategies the run ranks by their own time
}

// read reads the named puzzles' units of each night (the k-th's into
// units[k], its error into errs[k]), as many nights at once as there
// are CPUs: each is a decompression and a scan of its own file. m is
// the run's run.json, which names the corpora.
func (p *namedPuzzles) read(ctx context.Context, root string, nights []*Night, m *rundir.Manifest) (units [][]report.HistoryUnit, errs []error) {
	units = make([][]report.HistoryUnit, len(nights))
	errs = make([]error, len(nights))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for k, n := range nights {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			units[k], errs[k] = p.readNight(ctx, k, NightDir(root, n), m)
		})
	}
	wg.Wait()
	return units, errs
}

// readNight reads the named puzzles' units of the k-th night, in ndir.
func (p *namedPuzzles) readNight(ctx context.Context, k int, ndir string, m *rundir.Manifest) ([]report.HistoryUnit, error) {
	nm, err := rundir.ReadManifest(ndir)
	if err != nil {
		return nil, err
	}
	rows, err := PuzzleRows(ctx, ndir, p.ids)
	var units []report.HistoryUnit
	for _, row := range rows {
		name := sameCorpus(row.Corpus, nm, m)
		if !p.want[puzzleKey{name, row.ID}] {
			continue
		}
		ns := row.NS
		if p.self[row.Solver] && row.SelfNS > 0 {
			ns = row.SelfNS
		}
		units = append(units, report.HistoryUnit{Night: k, Corpus: name, ID: row.ID, Solver: row.Solver,
			Status: row.Status, NS: ns, Calls: row.Calls})
	}
	return units, err
}

// sameCorpus returns the name that the run m gives the corpus that the
// night nm names name: the corpus at the same place among the settings'
// corpora (a series' nights have the same corpora, by SHA-256, in the
// same order), found by name, then by base name, or the night's only
// corpus; "" when none.
func sameCorpus(name string, nm, m *rundir.Manifest) string {
	at := -1
	for i, c := range nm.Settings.Corpora {
		if c == name {
			at = i
			break
		}
	}
	if at < 0 {
		for i, c := range nm.Settings.Corpora {
			if filepath.Base(c) == filepath.Base(name) {
				at = i
				break
			}
		}
	}
	if at < 0 && len(nm.Settings.Corpora) == 1 {
		at = 0
	}
	if at < 0 || at >= len(m.Settings.Corpora) {
		return ""
	}
	return m.Settings.Corpora[at]
}
