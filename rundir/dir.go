package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating run directory %s: %w", dir, err)
	}
	lockPath := filepath.Join(dir, LockFile)
	_, lockErr := os.Lstat(lockPath)
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	createStep("locked")
	if err := checkReusable(dir); err != nil {
		// Refused: leave the directory as it was found.
		if errors.Is(lockErr, fs.ErrNotExist) {
			os.Remove(lockPath)
		}
		lock.Unlock()
		if made {
			os.Remove(dir)
		}
		return nil, err
	}
	m.Status = Running
	if err := WriteManifest(dir, m); err != nil {
		lock.Unlock()
		return nil, err
	}
	createStep("manifest")
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		lock.Unlock()
		return nil, fmt.Errorf("creating results: %w", err)
	}
	createStep("results")
	d := &Dir{Path: dir, Manifest: m, file: f, w: NewWriter(f), lock: lock, seg: -1, made: made}
	err = d.w.WriteHeader()
	if err == nil {
		err = d.w.Flush()
	}
	if err != nil {
		f.Close()
		lock.Unlock()
		return nil, err
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

// CorpusCheck verifies, before Resume reads a row, that the corpora of
// the run are the ones it read (size and SHA-256, see Manifest.CheckCorpus)
// and returns the number of puzzles of each, which bounds the ids that a
// row may hold.
type CorpusCheck func(m *Manifest) (puzzles []int, err error)

// Resume opens the run in dir to finish it. It refuses a merged run
// (ErrMerged): its units belong to its shards, which are resumed and
// merged again. It takes the lock, reads and
// validates run.json, checks that this build has the run's strategies,
// calls check on the corpora, then reads results.csv as a stream: it
// refuses a row that is not a unit of the run (corpus, strategy, or id
// out of the corpus's range) or that appears twice, cuts a torn last
// line (a row without its newline, left by a killed run), and remembers
// the units done in a bitmap (a bit per unit of the run, whatever
// results.csv holds) so that Skip leaves them out. A segment that a
// killed process left running is closed as killed, ending at its last
// write. Rows are appended after the existing ones.
func Resume(dir string, check CorpusCheck) (*Dir, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("cannot resume %s: %w: not a run directory", dir, ErrNoRun)
	}
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	d, err := resume(dir, check)
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	d.lock = lock
	return d, nil
}

func resume(dir string, check CorpusCheck) (*Dir, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot resume %s: %w (no %s)", dir, ErrNoRun, ManifestFile)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resume: %w", err)
	}
	if m.Shards > 0 {
		return nil, fmt.Errorf("cannot resume %s: %w from %d shards (%s) by batch merge, and its units belong to them: "+
			"resume an unfinished shard (batch -resume -out SHARD), then merge the shards again", dir, ErrMerged, m.Shards, strings.Join(m.shardDirs(), ", "))
	}
	if err := m.Settings.CheckSolvers(); err != nil {
		return nil, fmt.Errorf("cannot resume: %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	puzzles, err := check(m)
	if err != nil {
		return nil, err
	}
	if len(puzzles) != len(m.Settings.Corpora) {
		return nil, fmt.Errorf("cannot resume %s: %d puzzle counts for %d corpora", dir, len(puzzles), len(m.Settings.Corpora))
	}
	last := lastWrite(dir)
	path := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	d := &Dir{Path: dir, Manifest: m, file: f, seg: -1}
	d.done.init(m.Settings.Corpora, m.Settings.Solvers, puzzles)
	if err := d.readDone(); err != nil {
		f.Close()
		return nil, err
	}
	if d.Manifest.closeKilled(last, d.rows) {
		d.Manifest.Rows = d.rows
	}
	return d, nil
}

// lastWrite is the time of the last write into the run directory's
// results.csv or run.json: the last trace of a killed process.
func lastWrite(dir string) time.Time {
	var t time.Time
	for _, name := range []string{ResultsFile, ManifestFile} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.ModTime().After(t) {
			t = st.ModTime()
		}
	}
	return t.UTC()
}

// readDone reads the rows of results.csv into the done set, cuts a torn
// last line and leaves the file ready to append.
func (d *Dir) readDone() error {
	path := d.file.Name()
	good, err := completeLines(d.file)
	if err != nil {
		return fmt.Errorf("cannot resume: reading %s: %w", path, err)
	}
	cols := len(Header)
	if good > 0 {
		rd, err := NewReader(io.NewSectionReader(d.file, 0, good), path)
		if err != nil {
			return fmt.Errorf("cannot resume: %w", err)
		}
		cols = rd.Columns()
		rd.OmitText()
		for rd.Scan() {
			row, err := rd.Row()
			if err != nil {
				return fmt.Errorf("cannot resume: %w", err)
			}
			if err := d.done.add(row.Corpus, row.ID, row.Solver); err != nil {
				return fmt.Errorf("cannot resume: %s:%d: %w", path, rd.Line(), err)
			}
			d.rows++
		}
		if err := rd.Err(); err != nil {
			return fmt.Errorf("cannot resume: %w", err)
		}
	}
	if err := d.file.Truncate(good); err != nil {
		return fmt.Errorf("cannot resume: cutting the torn last line of %s: %w", path, err)
	}
	if _, err := d.file.Seek(good, io.SeekStart); err != nil {
		return err
	}
	d.w = NewWriter(d.file)
	d.w.SetColumns(cols) // a file written before the timing columns keeps its columns
	if good == 0 {
		// No header (a creation killed before it was written): start the
		// file again.
		if err := d.w.WriteHeader(); err != nil {
			return err
		}
		return d.w.Flush()
	}
	return nil
}

// completeLines returns the length of f up to its last newline, reading
// only its tail.
func completeLines(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 64<<10)
	for end := st.Size(); end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return 0, err
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				return start + int64(i) + 1, nil
			}
		}
		end = start
	}
	return 0, nil
}

// Begin starts the segment of this process (the first run, or a -resume):
// it is appended to run.json with status running, and written at once,
// so that a process killed later leaves its trace.
func (d *Dir) Begin(seg Segment) error {
	seg.Status = Running
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
	return d.w.Write(r)
}

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

// countRows returns the number of whole rows in the results file at
// path: its complete lines but the header.
func countRows(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	good, err := completeLines(f)
	if err != nil {
		return 0, err
	}
	n := 0
	buf := make([]byte, 64<<10)
	for off := int64(0); off < good; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), good-off)], off)
		n += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil && off < good {
			return 0, err
		}
	}
	return max(n-1, 0), nil
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

// doneSet is a bitmap of the units done, per corpus: bit id*len(solvers)+s
// for ids below the corpus's puzzle count. Its size is the run's units,
// whatever the rows hold.
type doneSet struct {
	corpus  map[string]int
	solver  map[string]int
	nsolver int
	puzzles []int
	bits    [][]uint64
}

func (s *doneSet) init(corpora, solvers []string, puzzles []int) {
	s.corpus = make(map[string]int, len(corpora))
	for i, c := range corpora {
		s.corpus[c] = i
	}
	s.solver = make(map[string]int, len(solvers))
	for i, n := range solvers {
		s.solver[n] = i
	}
	s.nsolver = len(solvers)
	s.puzzles = puzzles
	s.bits = make([][]uint64, len(corpora))
	for c, n := range puzzles {
		s.bits[c] = make([]uint64, (n*len(solvers)+63)/64)
	}
}

// add marks the unit done, or says why it cannot be a unit of the run.
func (s *doneSet) add(corpus string, id int, solver string) error {
	c, ok := s.corpus[corpus]
	if !ok {
		return fmt.Errorf("row (%s, %d, %s): corpus %q is not one of the run's", corpus, id, solver, corpus)
	}
	k, ok := s.solver[solver]
	if !ok {
		return fmt.Errorf("row (%s, %d, %s): strategy %q is not one of the run's", corpus, id, solver, solver)
	}
	if id < 0 || id >= s.puzzles[c] {
		return fmt.Errorf("row (%s, %d, %s): id %d out of range: %s has %d puzzles (ids 0 to %d)",
			corpus, id, solver, id, corpus, s.puzzles[c], s.puzzles[c]-1)
	}
	if s.has(c, id, k) {
		return fmt.Errorf("row (%s, %d, %s): the unit appears twice", corpus, id, solver)
	}
	bit := id*s.nsolver + k
	s.bits[c][bit/64] |= 1 << (bit % 64)
	return nil
}

func (s *doneSet) has(c, id, k int) bool {
	if c >= len(s.bits) || id < 0 || id >= s.puzzles[c] {
		return false
	}
	bit := id*s.nsolver + k
	return s.bits[c][bit/64]&(1<<(bit%64)) != 0
}
