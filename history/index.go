package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// IndexFile is the name of the history index in the results root.
const IndexFile = "history.json"

// IndexVersion is the version of the index format: an index of another
// version is rebuilt from the run directories. Version 2 added each
// night's OtherShare; version 3 the binary of each night, the verdicts
// of several settings per night, and no longer keeps the nights whose
// directory is gone.
const IndexVersion = 3

// Index is the history index, results/history.json: one entry per run
// directory of the results root, with the night it is (or why it is
// none) and the stamps of the files it was read from. It holds everything
// trend needs of old nights, so that trend reads only the runs that are
// new or changed since the index was written.
type Index struct {
	Version int     `json:"version"`
	Entries []Entry `json:"runs"` // sorted by Run
}

// Entry is one run directory of the index.
type Entry struct {
	Run   string `json:"run"` // relative to the results root, slash-separated
	Stamp Stamp  `json:"stamp"`
	Night *Night `json:"night,omitempty"`
	// Skip says why the run is no night (not finished, no summary.json, a
	// damaged run.json naming the file and the reason); empty for a night.
	Skip string `json:"skip,omitempty"`
	// Verdicts are the gate's verdicts of the night when trend computed
	// them (Options.Memo), under each of the last few settings it ran
	// with: for the history page, and so that the next trend need not
	// read this night's rows again. A rebuild loses them; trend computes
	// those it needs again from the rows.
	Verdicts []*NightVerdicts `json:"verdicts,omitempty"`
}

// Memo returns the verdicts the index keeps, by run id.
func (idx *Index) Memo() Memo {
	m := Memo{}
	for _, e := range idx.Entries {
		if e.Night != nil && len(e.Verdicts) > 0 {
			m[e.Night.RunID] = slices.Clone(e.Verdicts)
		}
	}
	return m
}

// SaveMemo records the verdicts of m in the entries of their nights and
// writes the index to path when any changed. Only trend over the whole
// root calls it: a trend of runs named evaluates a selection, whose
// verdicts are not the root's.
func (idx *Index) SaveMemo(path string, m Memo) error {
	changed := false
	for i := range idx.Entries {
		e := &idx.Entries[i]
		if e.Night == nil {
			continue
		}
		if v, ok := m[e.Night.RunID]; ok && !sameMemo(v, e.Verdicts) {
			e.Verdicts = slices.Clone(v)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return idx.Write(path)
}

func sameMemo(a, b []*NightVerdicts) bool {
	return slices.EqualFunc(a, b, sameVerdicts)
}

func sameVerdicts(a, b *NightVerdicts) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Key == b.Key && maps.Equal(a.Verdicts, b.Verdicts) && maps.Equal(a.Shown, b.Shown)
}

// Stamp is the size and modification time of a run's run.json and
// summary.json when the entry was read: a run whose stamp is unchanged is
// not read again.
type Stamp struct {
	Manifest FileStamp `json:"run_json"`
	Summary  FileStamp `json:"summary_json"`
}

// FileStamp is a file's size and modification time (Unix ns); zero for a
// missing file.
type FileStamp struct {
	Size    int64 `json:"size"`
	MtimeNS int64 `json:"mtime_ns"`
}

func fileStamp(path string) FileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return FileStamp{}
	}
	return FileStamp{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
}

func stampOf(dir string) Stamp {
	return Stamp{fileStamp(filepath.Join(dir, rundir.ManifestFile)), fileStamp(filepath.Join(dir, rundir.SummaryJSON))}
}

// Refresh says what Update did.
type Refresh struct {
	Path string // the index file
	Runs int    // run directories found
	Read int    // of which read (new or changed)
	// Dropped are the nights whose run directory is gone (removed by
	// hand) since the index was written: they are no longer in it, nor in
	// any series. Only the refresh that finds them gone names them.
	Dropped []string
	// Rebuilt says why the index was rebuilt from the run directories
	// (missing, damaged, another version); empty when it was refreshed.
	Rebuilt  string
	Wrote    bool  // the index file was written
	WriteErr error // it could not be: the index in memory is still whole
}

// String is the refresh for people, on one line.
func (r *Refresh) String() string {
	var b strings.Builder
	if r.Rebuilt != "" {
		fmt.Fprintf(&b, "%s: rebuilt from %d run directories", r.Rebuilt, r.Runs)
	} else {
		fmt.Fprintf(&b, "%s: %d run directories, %d read (new or changed), %d from the index", r.Path, r.Runs, r.Read, r.Runs-r.Read)
	}
	if len(r.Dropped) > 0 {
		fmt.Fprintf(&b, "; dropped %s whose directory is gone: %s", report.Count(len(r.Dropped), "night", "nights"), strings.Join(r.Dropped, ", "))
	}
	if r.WriteErr != nil {
		fmt.Fprintf(&b, "; not saved: %v", r.WriteErr)
	}
	return b.String()
}

// ReadIndex reads the index file at path. A missing file returns an error
// wrapping fs.ErrNotExist; a damaged one, or one of another version, an
// error that names the file and the reason.
func ReadIndex(path string) (*Index, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var idx Index
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("damaged: %w", decodeError(path, b, err))
	}
	if idx.Version != IndexVersion {
		return nil, fmt.Errorf("%s: of version %d; this build reads version %d", path, idx.Version, IndexVersion)
	}
	for i, e := range idx.Entries {
		if e.Run == "" || (e.Night == nil) == (e.Skip == "") {
			return nil, fmt.Errorf("damaged: %s: runs[%d] (%q) holds neither a night nor a reason to skip it, or both", path, i, e.Run)
		}
	}
	return &idx, nil
}

// Write writes the index to path atomically: a temporary file renamed,
// so that a reader sees the old index or the new one, whole.
func (idx *Index) Write(path string) error {
	b, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	return rundir.WriteFile(path, append(b, '\n'))
}

// Update brings the index of root up to date and returns it: it reads the
// index file (root/IndexFile), lists the run directories of root (its
// subdirectories that hold a run.json; not the latest link), reads those
// that are not in the index or whose run.json or summary.json changed,
// and writes the index back when anything changed. A missing or damaged
// index is rebuilt from the run directories, and Refresh.Rebuilt says so.
// A run directory whose files cannot be read is an entry with the reason
// (naming the file), not an error: the other nights are not lost. The
// error is for a root that cannot be listed.
func Update(root string) (*Index, *Refresh, error) {
	r := &Refresh{Path: filepath.Join(root, IndexFile)}
	old, err := ReadIndex(r.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Rebuilt = r.Path + ": no index yet"
		old = &Index{Version: IndexVersion}
	case err != nil:
		r.Rebuilt = err.Error()
		old = &Index{Version: IndexVersion}
	}
	dirs, err := runDirs(root)
	if err != nil {
		return nil, nil, err
	}
	r.Runs = len(dirs)
	known := make(map[string]*Entry, len(old.Entries))
	for i := range old.Entries {
		known[old.Entries[i].Run] = &old.Entries[i]
	}
	idx := &Index{Version: IndexVersion, Entries: make([]Entry, 0, len(dirs))}
	changed := r.Rebuilt != ""
	for _, rel := range dirs {
		st := stampOf(filepath.Join(root, rel))
		if e, ok := known[rel]; ok && e.Stamp == st && !running(e) {
			idx.Entries = append(idx.Entries, *e)
			delete(known, rel)
			continue
		}
		old := known[rel]
		delete(known, rel)
		e := readEntry(root, rel, st)
		if old != nil && running(old) && running(&e) && old.Stamp == st {
			idx.Entries = append(idx.Entries, *old) // still running
			continue
		}
		changed = true
		r.Read++
		idx.Entries = append(idx.Entries, e)
	}
	for _, e := range known {
		// A run directory removed by hand: a night of it is dropped, said
		// once (the index written without it), and judged no more; its
		// figures go with it, as a rebuild from the run directories would
		// lose them. A pruned night keeps its directory, run.json and
		// summaries, and so its entry.
		changed = true
		if e.Night != nil {
			r.Dropped = append(r.Dropped, e.Run)
		}
	}
	slices.Sort(r.Dropped)
	slices.SortFunc(idx.Entries, func(a, b Entry) int { return strings.Compare(a.Run, b.Run) })
	if changed {
		r.WriteErr = idx.Write(r.Path)
		r.Wrote = r.WriteErr == nil
	}
	return idx, r, nil
}

// running reports whether e is a run that was being written when it was
// read: it is read again, to tell whether it finished or was killed.
func running(e *Entry) bool { return e.Night == nil && e.Skip == skipRunning }

// readEntry reads the run in root/rel into an entry.
func readEntry(root, rel string, st Stamp) Entry {
	e := Entry{Run: filepath.ToSlash(rel), Stamp: st}
	n, why, err := readNight(root, rel)
	switch {
	case err != nil:
		e.Skip = "unreadable: " + err.Error()
	case n == nil:
		e.Skip = why
	default:
		e.Night = n
	}
	return e
}

// runDirs lists the run directories of root: its subdirectories (not
// symbolic links, such as latest; not hidden ones) that hold a run.json.
func runDirs(root string) ([]string, error) {
	des, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("listing the results root: %w", err)
	}
	var dirs []string
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, de.Name(), rundir.ManifestFile)); err == nil {
			dirs = append(dirs, de.Name())
		}
	}
	return dirs, nil
}

// Lookup returns the entry of run rel, or nil.
func (idx *Index) Lookup(rel string) *Entry {
	i, ok := slices.BinarySearchFunc(idx.Entries, filepath.ToSlash(rel), func(e Entry, r string) int { return strings.Compare(e.Run, r) })
	if !ok {
		return nil
	}
	return &idx.Entries[i]
}
