package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Dir is a run directory open for writing rows: results.csv for append,
// run.json, and the lock that keeps other processes out until Close. It
// is the Sink of a run. Not safe for concurrent use.
type Dir struct {
	Path     string
	Manifest *Manifest
	file     *os.File
	w        *Writer
	lock     *Lock
	done     doneSet
	rows     int  // rows in results.csv
	segRows  int  // rows written by this process
	seg      int  // index of this process's segment in Manifest.Segments, -1 before Begin
	made     bool // Create made the directory itself
	// base is the offset in results.csv of the first byte w wrote (the
	// file's size when w was made, less what w wrote before): base+w.n
	// is where the next row starts. last is where the last row written
	// starts (LastRowAt), -1 before the first.
	base, last int64
	// busy0, cpu0 and child0 are the machine's busy CPU time (hostBusy),
	// this process's (processCPU) and its children's (childrenCPU) when
	// the segment began: OtherCPUNS is what the machine did besides this
	// process and its children since.
	busy0, cpu0, child0 int64
}

// The errors of Create and Resume that say what the directory holds.
var (
	// ErrExists: the directory holds a run (use Resume to finish it).
	ErrExists = errors.New("directory already holds a run")
	// ErrNotEmpty: the directory holds files but no run.
	ErrNotEmpty = errors.New("directory is not empty and holds no run")
	// ErrNoRun: Resume found no run.json.
	ErrNoRun = errors.New("no run to resume")
	// ErrInsideRun: Create was asked for a directory inside another run's.
	ErrInsideRun = errors.New("a run directory cannot be inside another run's")
	// ErrMerged: Resume found a merged run, which it does not resume.
	ErrMerged = errors.New("it is a run merged")
)

// NewRunID returns a run id for a run started at t (UTC, to the second),
// with a suffix if root already has a run of that name.
func NewRunID(root string, t time.Time) string {
	id := t.UTC().Format("20060102-150405")
	for i := 2; ; i++ {
		if _, err := os.Lstat(filepath.Join(root, id)); errors.Is(err, fs.ErrNotExist) {
			return id
		}
		id = fmt.Sprintf("%s-%d", t.UTC().Format("20060102-150405"), i)
	}
}

// createStep is called after each step of Create; the tests make it end
// the process there, as a kill -9 would.
var createStep = func(step string) {}

// Create makes a new run in dir: the directory if needed, run.json (status
// running), then results.csv with its header. It refuses a directory that
// holds a run (ErrExists: finish it with Resume) or anything else
// (ErrNotEmpty), but for a lock file and the temporary files of an
// earlier creation that was killed, and a directory inside another run's
// (ErrInsideRun).
//
// A process killed at any instant of Create leaves dir reusable by a new
// Create (nothing but those files yet) or resumable: run.json is written
// whole (a temporary file renamed) before results.csv exists, and Resume
// makes a missing or headerless results.csv again.
func Create(dir string, m *Manifest) (*Dir, error) {
	if err := m.Settings.Validate(); err != nil {
		return nil, fmt.Errorf("creating run %s: %w", dir, err)
	}
	if run := EnclosingRun(dir); run != "" {
		return nil, fmt.Errorf("creating run %s: %w: %s holds a run (%s); choose a directory outside it", dir, ErrInsideRun, run, ManifestFile)
	}
	_, statErr := os.Lstat(dir)
	made := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return nil, fmt.Errorf("creating run directory %s: %w", dir, err)
	}
	lockPath := filepath.Join(dir, LockFile)
	_, lockErr := os.Lstat(lockPath)
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	createStep("locked")
	// undo leaves the directory as it was found, after a refusal or a
	// failure (a full disk): no run.json without rows, no empty run
	// directory left behind by each night that could not start.
	undo := func(files ...string) {
		for _, name := range files {
			os.Remove(filepath.Join(dir, name))
		}
		if errors.Is(lockErr, fs.ErrNotExist) {
			os.Remove(lockPath)
		}
		lock.Unlock()
		if made {
			os.Remove(dir)
		}
	}
	if err := checkReusable(dir); err != nil {
		undo()
		return nil, err
	}
	m.Status = Running
	if err := WriteManifest(dir, m); err != nil {
		undo()
		return nil, err
	}
	createStep("manifest")
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		undo(ManifestFile)
		return nil, fmt.Errorf("creating results: %w", err)
	}
	createStep("results")
	d := &Dir{Path: dir, Manifest: m, file: f, w: NewWriter(f), lock: lock, seg: -1, made: made, last: -1}
	err = d.w.WriteHeader()
	if err == nil {
		err = d.w.Flush()
	}
	if err != nil {
		f.Close()
		undo(ResultsFile, ManifestFile)
		return nil, fmt.Errorf("writing the header of %s: %w", filepath.Join(dir, ResultsFile), err)
	}
	createStep("header")
	return d, nil
}

// EnclosingRun returns the run directory that dir would be inside (a
// parent directory that holds a run.json), or "". A run inside another
// would be rows and reports inside its directory, which a report or a
// merge of the outer run does not expect.
func EnclosingRun(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		if st, err := os.Stat(filepath.Join(p, ManifestFile)); err == nil && st.Mode().IsRegular() {
			return p
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}

// checkReusable refuses a directory that holds a run or other files. Its
// lock file and the temporary files of a killed WriteFile do not count.
func checkReusable(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("creating run: %w", err)
	}
	var others []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == ManifestFile:
			status := "unknown"
			if m, err := ReadManifest(dir); err == nil {
				status = m.Status
			}
			return fmt.Errorf("%s: %w (status %s): use -resume to finish it, or another -out", dir, ErrExists, status)
		case name == LockFile || isTempFile(name):
		default:
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		if len(others) > 3 {
			others = append(others[:3], "...")
		}
		return fmt.Errorf("%s: %w (it holds %s): choose a new or empty directory", dir, ErrNotEmpty, strings.Join(others, ", "))
	}
	return nil
}

// isTempFile reports whether name is a temporary file that WriteFile
// leaves when it is killed while it writes run.json, or Amend while it
// rewrites results.csv.
func isTempFile(name string) bool {
	return strings.HasPrefix(name, "."+ManifestFile+".") || strings.HasPrefix(name, "."+ResultsFile+".")
}

// Begin starts the segment of this process (the first run, or a -resume):
// it is appended to run.json with status running, and written at once,
// so that a process killed later leaves its trace.
func (d *Dir) Begin(seg Segment) error {
	seg.Status = Running
	d.busy0, d.cpu0, d.child0 = hostBusy(), processCPU(), childrenCPU()
	d.Manifest.Segments = append(d.Manifest.Segments, seg)
	d.seg = len(d.Manifest.Segments) - 1
	d.Manifest.Status = Running
	return WriteManifest(d.Path, d.Manifest)
}

// SetTiming records how this process's segment timed its units (written
// by Close).
func (d *Dir) SetTiming(t Timing) {
	if d.seg >= 0 {
		d.Manifest.Segments[d.seg].Timing = &t
	}
}

// Rows returns the number of rows in results.csv (read and written).
func (d *Dir) Rows() int { return d.rows }

// Skip reports whether the unit (corpus, id, solver), indices into the
// run's Settings, is already in results.csv.
func (d *Dir) Skip(corpus, id, solver int) bool { return d.done.has(corpus, id, solver) }

// Write appends a row.
func (d *Dir) Write(r *Row) error {
	d.rows++
	d.segRows++
	d.last = d.base + d.w.n
	return d.w.Write(r)
}

// LastRowAt returns the offset in results.csv at which the last row
// Write wrote starts, for AmendAt; -1 before the first. It stays right
// until the next Amend, AmendIDs or AmendAt.
func (d *Dir) LastRowAt() int64 { return d.last }

// CopiesRows says that Write keeps nothing of a row it is given: it
// encodes the row (pipeline.RowCopier).
func (d *Dir) CopiesRows() {}

// Flush pushes buffered rows to the file.
func (d *Dir) Flush() error { return d.w.Flush() }

// Close flushes the rows, closes results.csv, ends this process's
// segment if Begin started one (its end, wall time, CPU time, rows and
// status; msg, if any, says why it failed), records the run's status in
// run.json (failed if the rows could not be written), and releases the
// directory.
func (d *Dir) Close(status, msg string) error {
	defer d.lock.Unlock()
	return d.finish(status, msg, false)
}

// finish is Close but for the lock, which the caller keeps. With sync,
// results.csv is synced before it is closed (Merge renames the directory
// next: the name must not point at a file whose data is not there).
func (d *Dir) finish(status, msg string, sync bool) error {
	err := d.w.Flush()
	if err == nil && sync {
		err = d.file.Sync()
	}
	if cerr := d.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		status = Failed
		msg = err.Error()
		// Rows counted may not have reached the file: count those that did.
		if n, cerr := countRows(filepath.Join(d.Path, ResultsFile)); cerr == nil && n < d.rows {
			d.segRows = max(d.segRows-(d.rows-n), 0)
			d.rows = n
		}
	}
	if d.seg >= 0 {
		now := time.Now().UTC()
		s := &d.Manifest.Segments[d.seg]
		s.end(now, status)
		s.Rows, s.Error = d.segRows, msg
		s.CPUNS = processCPU()
		if busy := hostBusy(); busy >= 0 && d.busy0 >= 0 {
			// Never 0 once measured: 0 means "not recorded". The
			// children are the external solvers, ended before.
			s.OtherCPUNS = max(busy-d.busy0-(s.CPUNS-d.cpu0)-(childrenCPU()-d.child0), 1)
		}
		d.Manifest.End = now
	}
	d.Manifest.Status = status
	d.Manifest.Rows = d.rows
	d.Manifest.sumDurations()
	if werr := WriteManifest(d.Path, d.Manifest); err == nil {
		err = werr
	}
	return err
}

// remove deletes the directory that Create made for a merge and all it
// holds, and releases it.
func (d *Dir) remove() {
	d.file.Close()
	os.RemoveAll(d.Path)
	d.lock.Unlock()
}

// Release closes the directory without writing anything (a resume
// refused after Resume opened it) and releases its lock.
func (d *Dir) Release() {
	d.file.Close()
	d.lock.Unlock()
}

// Discard removes what Create wrote (a run that wrote no row, e.g. one
// whose selection matched no puzzle), the directory too if Create made
// it, and releases it.
func (d *Dir) Discard() error {
	defer d.lock.Unlock()
	d.file.Close()
	var errs []error
	for _, name := range []string{ResultsFile, ManifestFile} {
		if err := os.Remove(filepath.Join(d.Path, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for i := range d.Manifest.Settings.Corpora {
		os.Remove(filepath.Join(d.Path, StreamFile(i)))
	}
	os.Remove(filepath.Join(d.Path, LockFile))
	if d.made {
		os.Remove(d.Path) // only if empty
	}
	return errors.Join(errs...)
}

// UpdateLatest points root/latest at the run directory (a relative
// symbolic link), when the run directory is directly under root.
func UpdateLatest(root, dir string) error {
	if filepath.Clean(filepath.Dir(dir)) != filepath.Clean(root) {
		return nil
	}
	link := filepath.Join(root, LatestLink)
	tmp := link + ".tmp"
	os.Remove(tmp)
	if err := os.Symlink(filepath.Base(dir), tmp); err != nil {
		return fmt.Errorf("updating %s: %w", link, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("updating %s: %w", link, err)
	}
	return nil
}
