package pipeline

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

	"sudokubatch/report"
)

// ResultsFile is the name of the rows file in a run directory.
const ResultsFile = "results.csv"

// RunDir is a run directory open for writing rows: results.csv for
// append and run.json. It is the Sink of a run. Not safe for concurrent
// use.
type RunDir struct {
	Dir  string
	Info *report.RunInfo
	file *os.File
	w    *report.Writer
	done doneSet
	rows int // rows in results.csv
}

// ErrRunExists is returned by Create when the directory holds a run.
var ErrRunExists = errors.New("directory already holds a run")

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
func Create(dir string, info *report.RunInfo) (*RunDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating run directory: %w", err)
	}
	for _, name := range []string{ResultsFile, "run.json"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			status := "unknown"
			if ri, err := report.ReadRunInfo(dir); err == nil {
				status = ri.Status
			}
			return nil, fmt.Errorf("%s: %w (status %s): use -resume to finish it, or another -out", dir, ErrRunExists, status)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating results: %w", err)
	}
	d := &RunDir{Dir: dir, Info: info, file: f, w: report.NewWriter(f)}
	if err := d.w.WriteHeader(); err != nil {
		f.Close()
		return nil, err
	}
	if err := d.w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	info.Status = report.RunRunning
	if err := report.WriteRunInfo(dir, info); err != nil {
		f.Close()
		return nil, err
	}
	return d, nil
}

// Resume opens the run in dir to finish it: it reads run.json and
// results.csv, cuts a torn last line (a row without its newline, left by
// a killed run), and remembers which (corpus, id, solver) units are done
// so that Skip leaves them out. Rows are appended after the existing ones.
func Resume(dir string) (*RunDir, error) {
	info, err := report.ReadRunInfo(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	path := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot resume: reading %s: %w", path, err)
	}
	good := int64(bytes.LastIndexByte(data, '\n') + 1)
	d := &RunDir{Dir: dir, Info: info, file: f}
	d.done.init(info.Settings.Corpora, info.Settings.Solvers)
	if good == 0 {
		// Not even a header: start the file again.
		data = nil
	}
	rd, err := report.NewReader(bytes.NewReader(data[:good]), path)
	if err != nil && good > 0 {
		f.Close()
		return nil, fmt.Errorf("cannot resume: %w", err)
	}
	if rd != nil {
		for {
			row, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
			if !d.done.add(row.Corpus, row.ID, row.Solver) {
				f.Close()
				return nil, fmt.Errorf("cannot resume: %s:%d: row (%s, %d, %s) is not part of this run or appears twice",
					path, rd.Line(), row.Corpus, row.ID, row.Solver)
			}
			d.rows++
		}
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot resume: cutting the torn last line of %s: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	d.w = report.NewWriter(f)
	if good == 0 {
		if err := d.w.WriteHeader(); err != nil {
			f.Close()
			return nil, err
		}
	}
	return d, nil
}

// Rows returns the number of rows in results.csv (read and written).
func (d *RunDir) Rows() int { return d.rows }

// Skip reports whether the unit is already in results.csv.
func (d *RunDir) Skip(corpus, id, solver int) bool { return d.done.has(corpus, id, solver) }

// Write appends a row.
func (d *RunDir) Write(r *report.Row) error {
	d.rows++
	return d.w.Write(r)
}

// Flush pushes buffered rows to the file.
func (d *RunDir) Flush() error { return d.w.Flush() }

// Close flushes the rows, closes results.csv and records the end of the
// segment in run.json.
func (d *RunDir) Close(status string) error {
	err := d.w.Flush()
	if cerr := d.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		status = report.RunFailed
	}
	d.Info.Status = status
	d.Info.Rows = d.rows
	if werr := report.WriteRunInfo(d.Dir, d.Info); err == nil {
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
	link := filepath.Join(root, "latest")
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
