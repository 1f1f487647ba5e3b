package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A pruned run keeps what the history of runs is built from and what its
// page shows: run.json (settings, corpora, machine, segments), the summary
// (summary.json, summary.md, summary.bench), hard.csv, index.html and
// charts/. It loses its rows (results.csv or results.csv.gz), the copies
// of its streams (stream-N) and the temporary files a killed process left.
// The rows are what a night costs on disk; the rest is a few hundred
// kilobytes, and `batch report` can no longer rebuild it, so it stays
// unless PruneOptions.DropPage asks: then hard.csv, index.html, charts/
// and compare-previous/ go too, and run.json and the summary stay.

// PruneOptions says what Prune removes: the rows of all but the newest
// Keep finished runs, and with DropPage their pages too; with Gzip, the
// kept runs' rows that are still plain (runs written before results.csv.gz,
// merged runs, -gzip=false, -report=false) are gzipped (Compress); DryRun
// changes nothing.
type PruneOptions struct {
	Keep     int
	DryRun   bool
	DropPage bool
	Gzip     bool
}

// Pruned is a run directory whose rows Prune removed (or, with dryRun,
// would remove): the files, and the bytes they held.
type Pruned struct {
	Dir   string
	Files []string // names in Dir
	Bytes int64
}

// PruneSkip is a run directory Prune left whole, and why.
type PruneSkip struct {
	Dir, Why string
}

// PruneResult is what Prune did: the runs pruned, the finished runs kept
// whole (the newest keep), and the run directories it did not touch.
type PruneResult struct {
	Pruned  []Pruned
	Kept    []string
	Gzipped []Pruned // kept runs whose results.csv Gzip compressed; Bytes: the bytes saved
	Skipped []PruneSkip
	Bytes   int64 // freed, summed over Pruned and Gzipped
}

// Prune removes the rows of every finished run under root but the newest
// opt.Keep (by start time, from run.json), and keeps their summaries (see
// the list above). It never touches a run that is not finished (its rows are
// what -resume appends to), a run whose lock another process holds (it
// is being written, resumed or merged: ErrLocked), nor the target of
// root/latest. A directory of root without run.json is not a run and is
// passed over in silence. With opt.DryRun it removes nothing and says what it
// would remove. A file that cannot be removed is an error naming it; the
// runs pruned before it are in the result.
func Prune(root string, opt PruneOptions) (*PruneResult, error) {
	keep := opt.Keep
	if keep < 0 {
		return nil, fmt.Errorf("prune: keep %d: want 0 or more", keep)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("prune: %w", err)
	}
	latest := ""
	if target, err := filepath.EvalSymlinks(filepath.Join(root, LatestLink)); err == nil {
		latest, _ = filepath.Abs(target)
	}
	type run struct {
		dir string
		m   *Manifest
	}
	res := &PruneResult{}
	var finished []run
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // latest is a symlink; MergeTemp dirs are hidden
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Lstat(filepath.Join(dir, ManifestFile)); err != nil {
			continue
		}
		m, err := ReadManifest(dir)
		switch {
		case err != nil:
			res.Skipped = append(res.Skipped, PruneSkip{dir, err.Error()})
		case m.Status == Running:
			res.Skipped = append(res.Skipped, PruneSkip{dir, runningWhy(dir)})
		case m.Status != Finished:
			res.Skipped = append(res.Skipped, PruneSkip{dir, "not finished (" + m.Status + "): its rows stay for batch -resume"})
		default:
			finished = append(finished, run{dir, m})
		}
	}
	// Newest first; the directory name (the UTC start time) breaks ties.
	slices.SortStableFunc(finished, func(a, b run) int {
		if c := b.m.Start.Compare(a.m.Start); c != 0 {
			return c
		}
		return strings.Compare(b.dir, a.dir)
	})
	for i, r := range finished {
		if i < keep {
			res.Kept = append(res.Kept, r.dir)
			if opt.Gzip {
				if err := gzipKept(res, r.dir, opt.DryRun); err != nil {
					return res, err
				}
			}
			continue
		}
		if abs, _ := filepath.Abs(r.dir); abs == latest {
			res.Skipped = append(res.Skipped, PruneSkip{r.dir, "the target of " + filepath.Join(root, LatestLink)})
			continue
		}
		p, why, err := pruneRun(r.dir, opt)
		if err != nil {
			return res, err
		}
		if why != "" {
			res.Skipped = append(res.Skipped, PruneSkip{r.dir, why})
			continue
		}
		if len(p.Files) > 0 {
			res.Pruned = append(res.Pruned, p)
			res.Bytes += p.Bytes
		}
	}
	return res, nil
}

// runningWhy says why a run whose run.json says running is left whole:
// a process is writing it (it holds its lock), or the process that wrote
// it ended without closing it (killed) and -resume finishes it.
func runningWhy(dir string) string {
	if held, ok := LockHeld(dir); held && ok {
		return "not finished (running): " + heldError(dir).Error()
	}
	return "not finished (running): left running by a process that ended without closing it (killed?); its rows stay for batch -resume -out " + dir
}

// pruneRun removes the rows of the finished run in dir under its lock;
// why says why it did not (the lock is held, the run is no longer
// finished).
func pruneRun(dir string, opt PruneOptions) (p Pruned, why string, err error) {
	p.Dir = dir
	lock, err := LockDir(dir)
	if errors.Is(err, ErrLocked) {
		return p, "in use: " + err.Error(), nil
	}
	if err != nil {
		return p, "", fmt.Errorf("prune: %w", err)
	}
	defer lock.Unlock()
	m, err := ReadManifest(dir) // again, under the lock
	if err != nil {
		return p, err.Error(), nil
	}
	if m.Status != Finished {
		return p, "not finished (" + m.Status + "): its rows stay for batch -resume", nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return p, "", fmt.Errorf("prune: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		page := opt.DropPage && (name == HardCSV || name == PageFile || name == ChartsPage || name == PuzzlesPage || name == ChartsDir || name == ComparePreviousDir)
		if !page && (!prunable(name) || !e.Type().IsRegular()) {
			continue
		}
		n, err := treeSize(filepath.Join(dir, name))
		if err != nil {
			return p, "", fmt.Errorf("prune: %w", err)
		}
		if !opt.DryRun {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return p, "", fmt.Errorf("prune: %w", err)
			}
		}
		if e.IsDir() {
			name += "/"
		}
		p.Files = append(p.Files, name)
		p.Bytes += n
	}
	return p, "", nil
}

// treeSize returns the bytes of the regular files at path and below it.
func treeSize(path string) (int64, error) {
	var n int64
	err := filepath.WalkDir(path, func(_ string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if e.Type().IsRegular() {
			info, err := e.Info()
			if err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n, err
}

// prunable reports whether name is a file of a run directory that Prune
// removes: the rows, the stream copies, temporary files.
func prunable(name string) bool {
	switch {
	case name == ResultsFile, name == ResultsGzip:
		return true
	case strings.HasPrefix(name, "stream-"):
		return true
	case isTempFile(name):
		return true
	}
	return false
}

// gzipKept gzips the plain rows of the kept finished run in dir, or with
// dryRun counts them (the saving is then unknown: Bytes is the plain
// file's size). A run in use is skipped, with why.
func gzipKept(res *PruneResult, dir string, dryRun bool) error {
	st, err := os.Lstat(filepath.Join(dir, ResultsFile))
	if err != nil || !st.Mode().IsRegular() {
		return nil // already gzipped, or no rows
	}
	if dryRun {
		res.Gzipped = append(res.Gzipped, Pruned{Dir: dir, Files: []string{ResultsFile}, Bytes: st.Size()})
		return nil
	}
	c, err := Compress(dir)
	switch {
	case errors.Is(err, ErrLocked):
		res.Skipped = append(res.Skipped, PruneSkip{dir, "not gzipped: in use: " + err.Error()})
		return nil
	case err != nil:
		return fmt.Errorf("prune: %w", err)
	}
	res.Gzipped = append(res.Gzipped, Pruned{Dir: dir, Files: []string{ResultsFile}, Bytes: c.Plain - c.Gzip})
	res.Bytes += c.Plain - c.Gzip
	return nil
}
