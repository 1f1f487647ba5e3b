package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	rows     int // rows in results.csv
}

// ErrExists is returned by Create when the directory holds a run.
var ErrExists = errors.New("directory already holds a run")

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

// Create makes dir (if needed) and a new results.csv with its header, and
// writes run.json with status running. It refuses a directory that
// already holds results.csv or run.json, finished or not: a run is never
// overwritten (use Resume to finish one).
func Create(dir string, info *Manifest) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating run directory: %w", err)
	}
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{ResultsFile, ManifestFile} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			status := "unknown"
			if ri, err := ReadManifest(dir); err == nil {
				status = ri.Status
			}
			lock.Unlock()
			return nil, fmt.Errorf("%s: %w (status %s): use -resume to finish it, or another -out", dir, ErrExists, status)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		lock.Unlock()
		return nil, fmt.Errorf("creating results: %w", err)
	}
	d := &Dir{Path: dir, Manifest: info, file: f, w: NewWriter(f), lock: lock}
	err = d.w.WriteHeader()
	if err == nil {
		err = d.w.Flush()
	}
	if err == nil {
		info.Status = Running
		err = WriteManifest(dir, info)
	}
	if err != nil {
		f.Close()
		lock.Unlock()
		return nil, err
	}
	return d, nil
}

// Resume opens the run in dir to finish it: it reads run.json and
// results.csv, cuts a torn last line (a row without its newline, left by
// a killed run), and remembers which (corpus, id, solver) units are done
// so that Skip leaves them out. Rows are appended after the existing ones.
func Resume(dir string) (*Dir, error) {
	lock, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	d, err := resume(dir)
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	d.lock = lock
	return d, nil
}

func resume(dir string) (*Dir, error) {
	info, err := ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	path := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	d := &Dir{Path: dir, Manifest: info, file: f}
	if err := d.readDone(); err != nil {
		f.Close()
		return nil, err
	}
	return d, nil
}

// readDone reads the rows of results.csv into the done set, cuts a torn
// last line and leaves the file ready to append.
func (d *Dir) readDone() error {
	path := d.file.Name()
	data, err := io.ReadAll(d.file)
	if err != nil {
		return fmt.Errorf("cannot resume: reading %s: %w", path, err)
	}
	good := int64(bytes.LastIndexByte(data, '\n') + 1)
	d.done.init(d.Manifest.Settings.Corpora, d.Manifest.Settings.Solvers)
	if good > 0 {
		rd, err := NewReader(bytes.NewReader(data[:good]), path)
		if err != nil {
			return fmt.Errorf("cannot resume: %w", err)
		}
		for rd.Scan() {
			row, err := rd.Row()
			if err != nil {
				return fmt.Errorf("cannot resume: %w", err)
			}
			if !d.done.add(row.Corpus, row.ID, row.Solver) {
				return fmt.Errorf("cannot resume: %s:%d: row (%s, %d, %s) is not part of this run or appears twice",
					path, rd.Line(), row.Corpus, row.ID, row.Solver)
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
	if good == 0 {
		// Not even a header: start the file again.
		return d.w.WriteHeader()
	}
	return nil
}

// Rows returns the number of rows in results.csv (read and written).
func (d *Dir) Rows() int { return d.rows }

// Skip reports whether the unit is already in results.csv.
func (d *Dir) Skip(corpus, id, solver int) bool { return d.done.has(corpus, id, solver) }

// Write appends a row.
func (d *Dir) Write(r *Row) error {
	d.rows++
	return d.w.Write(r)
}

// Flush pushes buffered rows to the file.
func (d *Dir) Flush() error { return d.w.Flush() }

// Close flushes the rows, closes results.csv, records the end of the
// segment in run.json with the given status (failed if the rows could not
// be written) and releases the directory.
func (d *Dir) Close(status string) error {
	defer d.lock.Unlock()
	err := d.w.Flush()
	if cerr := d.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		status = Failed
	}
	d.Manifest.Status = status
	d.Manifest.Rows = d.rows
	if werr := WriteManifest(d.Path, d.Manifest); err == nil {
		err = werr
	}
	return err
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

// doneSet is a bitmap of done units per corpus: bit id*len(solvers)+s.
type doneSet struct {
	corpora []string
	solvers []string
	bits    [][]uint64
}

func (s *doneSet) init(corpora, solvers []string) {
	s.corpora, s.solvers = corpora, solvers
	s.bits = make([][]uint64, len(corpora))
}

func (s *doneSet) add(corpus string, id int, solver string) bool {
	c := slices.Index(s.corpora, corpus)
	k := slices.Index(s.solvers, solver)
	if c < 0 || k < 0 || id < 0 || s.has(c, id, k) {
		return false
	}
	bit := id*len(s.solvers) + k
	for len(s.bits[c]) <= bit/64 {
		s.bits[c] = append(s.bits[c], 0)
	}
	s.bits[c][bit/64] |= 1 << (bit % 64)
	return true
}

func (s *doneSet) has(c, id, k int) bool {
	if c >= len(s.bits) {
		return false
	}
	bit := id*len(s.solvers) + k
	return bit/64 < len(s.bits[c]) && s.bits[c][bit/64]&(1<<(bit%64)) != 0
}
