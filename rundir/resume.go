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
// write. Rows are appended after the existing ones. A run whose rows are
// gzipped (Compress: only a finished run is) has them made plain again
// first, so that they can be appended to.
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
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Lstat(filepath.Join(dir, ResultsGzip)); err == nil {
			if err := decompress(dir); err != nil {
				return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
			}
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
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
	d.base, d.last = good, -1
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
