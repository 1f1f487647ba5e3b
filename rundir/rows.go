package rundir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	kgzip "github.com/klauspost/compress/gzip"
)

// ResultsGzip is results.csv once a finished run is compressed
// (Compress): the same bytes, gzipped.
const ResultsGzip = ResultsFile + ".gz"

// RowsPath returns the file that holds the rows of the run in dir:
// results.csv while the run is being written (and after, unless it was
// compressed), else results.csv.gz. When both are there (a Compress
// killed between its rename and its remove) results.csv is the one: it
// is whole, and the gzip beside it is its copy. The error wraps
// fs.ErrNotExist when neither is there.
func RowsPath(dir string) (string, error) {
	plain := filepath.Join(dir, ResultsFile)
	if _, err := os.Lstat(plain); err == nil {
		return plain, nil
	}
	gz := filepath.Join(dir, ResultsGzip)
	if _, err := os.Lstat(gz); err == nil {
		return gz, nil
	}
	why := ""
	if _, err := os.Stat(filepath.Join(dir, SummaryJSON)); err == nil {
		why = " (its summary is there: were the rows removed by batch prune?)"
	}
	return "", fmt.Errorf("%s: no %s or %s%s: %w", dir, ResultsFile, ResultsGzip, why, fs.ErrNotExist)
}

// Rows is the rows file of a run open for reading: results.csv as it is,
// or results.csv.gz decompressed as it is read. Name is the file's path,
// for error messages (line numbers count the decompressed lines).
type Rows struct {
	io.Reader
	Name string
	file *os.File
	gz   *kgzip.Reader
}

// OpenRows opens the rows of a run: path is a run directory (its
// results.csv, or results.csv.gz, see RowsPath) or a rows file itself
// (one whose name ends in .gz is decompressed). It is the one place that
// opens a run's rows for reading; the file must be regular
// (OpenRegular). A gzip that is damaged fails the read that meets the
// damage, naming the file.
func OpenRows(path string) (*Rows, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if path, err = RowsPath(path); err != nil {
			return nil, err
		}
	}
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	r := &Rows{Reader: f, Name: path, file: f}
	if filepath.Ext(path) == ".gz" {
		gz, err := kgzip.NewReader(bufio.NewReaderSize(f, 256<<10))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: not a gzip file: %w", path, err)
		}
		r.gz = gz
		r.Reader = &gzipErrors{gz, path}
	}
	return r, nil
}

// Compressed reports whether the rows are read from a gzip.
func (r *Rows) Compressed() bool { return r.gz != nil }

// Close closes the file.
func (r *Rows) Close() error {
	if r.gz != nil {
		r.gz.Close()
	}
	return r.file.Close()
}

// gzipErrors names the file in a decompression error.
type gzipErrors struct {
	r    io.Reader
	name string
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: decompressing: %w", g.name, err)
	}
	return n, err
}

// Compression is what Compress did: the sizes of results.csv before and
// of results.csv.gz after.
type Compression struct {
	Plain, Gzip int64
}

// gzipLevel is the level of github.com/klauspost/compress's gzip that
// Compress writes results.csv.gz with: the same format as compress/gzip's
// (any gzip reader reads it), its fast encoder. On the rows of a sweep it
// is the fastest level and smaller than the levels above it up to 6
// (docs/PERFORMANCE.md has the figures).
const gzipLevel = 2

// Compress gzips the rows of the finished run in dir: results.csv.gz is
// written beside results.csv under a temporary name, synced, renamed into
// place, and then results.csv is removed, so that a process killed at
// any instant leaves the rows whole in one of the two (RowsPath prefers
// results.csv). It takes the run's lock (ErrLocked when a process holds
// it) and refuses a run that is not finished: an interrupted, failed or
// killed run keeps its plain results.csv, which -resume appends to. A
// run already compressed is left as it is (Compression zero).
func Compress(dir string) (Compression, error) {
	lock, err := LockDir(dir)
	if err != nil {
		return Compression{}, err
	}
	defer lock.Unlock()
	m, err := ReadManifest(dir)
	if err != nil {
		return Compression{}, fmt.Errorf("compressing the rows of %s: %w", dir, err)
	}
	if m.Status != Finished {
		return Compression{}, fmt.Errorf("compressing the rows of %s: the run is %s, not finished: its results.csv stays plain so that batch -resume can append to it", dir, m.Status)
	}
	plain := filepath.Join(dir, ResultsFile)
	in, err := OpenRegular(plain)
	if errors.Is(err, fs.ErrNotExist) {
		if _, gerr := os.Stat(filepath.Join(dir, ResultsGzip)); gerr == nil {
			return Compression{}, nil
		}
	}
	if err != nil {
		return Compression{}, fmt.Errorf("compressing the rows of %s: %w", dir, err)
	}
	defer in.Close()
	var c Compression
	if st, err := in.Stat(); err == nil {
		c.Plain = st.Size()
	}
	size, err := replaceFile(filepath.Join(dir, ResultsGzip), 256<<10, func(w *bufio.Writer) error {
		gz, err := kgzip.NewWriterLevel(w, gzipLevel)
		if err != nil {
			return err
		}
		gz.Name = ResultsFile
		if _, err := io.Copy(gz, bufio.NewReaderSize(in, 256<<10)); err != nil {
			return err
		}
		return gz.Close()
	})
	if err != nil {
		return Compression{}, fmt.Errorf("compressing the rows of %s (results.csv is kept): %w", dir, err)
	}
	c.Gzip = size
	if err := os.Remove(plain); err != nil {
		return c, fmt.Errorf("compressing the rows of %s: %s is written but %w", dir, ResultsGzip, err)
	}
	return c, nil
}

// replaceFile writes path through write into a temporary file beside it
// (write gets its buffer, of buffer bytes), then gives it the mode of the rest of a
// run directory (FileMode), syncs it, renames it into place and
// syncs the directory: path is either its old content or the new one in full, on
// disk. It returns the new file's size; on an error the temporary is
// removed and path is as it was.
func replaceFile(path string, buffer int, write func(*bufio.Writer) error) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(tmp, buffer)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(FileMode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	var size int64
	if st, serr := tmp.Stat(); err == nil && serr == nil {
		size = st.Size()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	syncDir(filepath.Dir(path))
	return size, nil
}

// syncDir syncs the directory dir, so that a rename in it is on disk.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// decompress makes the gzipped rows of the run in dir plain again for
// Resume, which holds the lock: results.csv is written under a temporary
// name and renamed into place before results.csv.gz is removed, so that
// the rows are whole in one of the two at any instant.
func decompress(dir string) error {
	in, err := OpenRows(filepath.Join(dir, ResultsGzip))
	if err != nil {
		return err
	}
	defer in.Close()
	if _, err := replaceFile(filepath.Join(dir, ResultsFile), 256<<10, func(w *bufio.Writer) error {
		_, err := io.Copy(w, in)
		return err
	}); err != nil {
		return fmt.Errorf("making %s plain again: %w", ResultsGzip, err)
	}
	return os.Remove(filepath.Join(dir, ResultsGzip))
}
