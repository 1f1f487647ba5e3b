package pipeline

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"strings"

	"sudokubatch/data"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// corpusFile is an open corpus: the decompressed text, and the hash of the
// raw bytes as they are read.
type corpusFile struct {
	info  rundir.CorpusInfo
	raw   io.Reader // the file, counted and hashed
	text  io.Reader // what the Scanner reads (raw, or gunzipped raw)
	close func() error
	h     hash.Hash
	n     int64
}

func (c *corpusFile) Read(p []byte) (int, error) {
	n, err := c.raw.Read(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}

// openCorpus opens path ("-" for stdin) and detects gzip by its magic
// bytes. The default corpus, data.Name, is the file when there is one
// (a replaced copy is read as such, and its checksum recorded), else the
// copy embedded in the binary. The error names the file and says what is
// wrong.
func openCorpus(path string, stdin io.Reader) (*corpusFile, error) {
	c := &corpusFile{info: rundir.CorpusInfo{Path: path}, h: sha256.New(), close: func() error { return nil }}
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		c.raw = stdin
	} else {
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) && path == data.Name {
			c.raw = strings.NewReader(data.Sudoku17)
			return c.detectGzip(path)
		}
		if err != nil {
			return nil, fmt.Errorf("opening corpus: %w", err)
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("opening corpus: %w", err)
		}
		if st.IsDir() {
			f.Close()
			return nil, fmt.Errorf("opening corpus %s: is a directory, want a puzzle file", path)
		}
		c.raw, c.close = f, f.Close
	}
	return c.detectGzip(path)
}

// detectGzip sets c.text to c's bytes, through gzip when they start with
// its magic bytes.
func (c *corpusFile) detectGzip(path string) (*corpusFile, error) {
	br := bufio.NewReaderSize(c, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			c.close()
			return nil, fmt.Errorf("opening corpus %s: gzip: %w", path, err)
		}
		c.info.Gzip = true
		c.text = zr
	} else {
		c.text = br
	}
	return c, nil
}

// finish reads the rest of the raw file into the hash (when the selection
// stopped early), closes it and fills the size and checksum.
func (c *corpusFile) finish(drain bool) error {
	var err error
	if drain {
		_, err = io.Copy(io.Discard, c)
	}
	if cerr := c.close(); err == nil && cerr != nil && !errors.Is(cerr, os.ErrClosed) {
		err = cerr
	}
	c.info.Size = c.n
	c.info.SHA256 = hex.EncodeToString(c.h.Sum(nil))
	return err
}

// scanRest reads the rest of the corpus with sc, counting its puzzle
// lines and the invalid ones, and calls fn (if set) on each entry.
func (c *corpusFile) scanRest(sc *solvers.Scanner, fn func(solvers.Entry)) {
	for sc.Scan() {
		e := sc.Entry()
		c.info.Puzzles++
		if e.Err != nil {
			c.info.Invalid++
		}
		if fn != nil {
			fn(e)
		}
	}
}

// end records the lines read by sc, finishes the file (see finish) and
// returns the first read error.
func (c *corpusFile) end(sc *solvers.Scanner, drain bool) error {
	c.info.Lines = sc.Lines()
	rerr := sc.Err()
	if err := c.finish(drain); rerr == nil && err != nil {
		rerr = fmt.Errorf("reading corpus %s: %w", c.info.Path, err)
	}
	return rerr
}
