package corpus

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"

	"sudokubatch/data"
	"sudokubatch/rundir"
)

// Default is the default corpus as runs record it: the file data.Name
// when there is one (a path relative to the repository's root), else the
// copy embedded in the binary.
const Default = data.Name

// Kind is how a corpus is read.
type Kind int

const (
	KindFile     Kind = iota // a regular file: identified up front, read again on resume
	KindEmbedded             // the default corpus (data.Name) when there is no such file: the copy in the binary
	KindStream               // standard input, a pipe, a FIFO, a device: it can be read only once
)

// Classify tells how the corpus at path is read. Stat does not open the
// file, so a FIFO nobody writes to does not block it.
func Classify(path string) (Kind, error) {
	if path == "-" {
		return KindStream, nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && path == data.Name:
		return KindEmbedded, nil
	case err != nil:
		return 0, fmt.Errorf("corpus %s: %w", path, errors.Unwrap(err))
	case st.IsDir():
		return 0, fmt.Errorf("corpus %s is a directory, want a puzzle file", path)
	case st.Mode().IsRegular():
		return KindFile, nil
	}
	return KindStream, nil
}

// Source is what Open needs besides the path.
type Source struct {
	Stdin io.Reader // for "-"; nil: os.Stdin
	// Known is the corpus's identity when Identify gave it (Size,
	// SHA-256), or nil.
	Known *rundir.CorpusInfo
	// Hash asks for a file's size and SHA-256 as it is read, when Known
	// does not give them (a stream's bytes are always hashed: they are
	// learned only as they are read). Counting needs no hash.
	Hash bool
	// CopyTo, for a stream, is the file in the run directory that keeps
	// the bytes read ("" for none). When it already holds bytes (a
	// resume), the stream must start with them: they are compared, then
	// read from the copy, and the rest of the stream is appended to it.
	CopyTo string
	// Whole is set when the copy holds the whole stream (the run read it
	// to its end): the copy is read, not the stream.
	Whole bool
}

// File is an open corpus: the text a Scanner reads and what is learned
// of the raw bytes as they are read. Info is the corpus's description;
// its reader (the pipeline) fills in the counts. A File is read by one
// goroutine.
type File struct {
	Info   rundir.CorpusInfo
	raw    io.Reader // the bytes as stored (a file, a stream, a copy)
	text   io.Reader // what the Scanner reads (raw, or gunzipped raw)
	h      hash.Hash // of the raw bytes; nil when the identity is known
	n      int64     // raw bytes read
	gz     *byteCounter
	pump   *pump // a stream's, else nil
	closes []func() error
}

// rawReader reads the raw bytes of a File, hashing and counting them.
type rawReader struct{ c *File }

func (r rawReader) Read(p []byte) (int, error) {
	c := r.c
	n, err := c.raw.Read(p)
	if c.h != nil {
		c.h.Write(p[:n])
	}
	c.n += int64(n)
	return n, err
}

// Scanner returns a Scanner over the corpus's text, naming it name in
// its errors.
func (c *File) Scanner(name string) *Scanner { return NewScanner(c.text, name) }

// OnWait sets fn to be called, for a stream, before a read waits for
// more bytes; fn's error is returned by the read. A file does not wait.
func (c *File) OnWait(fn func() error) {
	if c.pump != nil {
		c.pump.onWait = fn
	}
}

// StopOn makes a read that waits on a stream return ErrStopped when halt
// is closed, as well as at the halt given to Open.
func (c *File) StopOn(halt <-chan struct{}) {
	if c.pump != nil {
		c.pump.halt2 = halt
	}
}

// Close closes the corpus.
func (c *File) Close() error {
	var errs []error
	for _, f := range c.closes {
		if err := f(); err != nil && !errors.Is(err, os.ErrClosed) {
			errs = append(errs, err)
		}
	}
	c.closes = nil
	return errors.Join(errs...)
}

// ErrStopped is returned by a read that waited on a stream when its halt
// channel was closed (the first Ctrl-C): not an error of the corpus.
var ErrStopped = errors.New("stopped")

// ErrCopy is wrapped by the errors of writing a stream's copy: they stop
// the run like an error writing results.csv.
var ErrCopy = errors.New("copying the stream into the run directory")

// Open opens path ("-" for src.Stdin) and detects gzip by its magic
// bytes. The default corpus, data.Name, is the file when there is one (a
// replaced copy is read as such, and its checksum recorded), else the copy
// embedded in the binary. A stream is read by a pump (see pump) that halt
// (nil: ctx.Done()) interrupts, and, with src.CopyTo, kept in the run
// directory. The error names the file and
// says what is wrong; a stream that does not start with the bytes of its
// copy wraps rundir.ErrCorpusChanged.
func Open(ctx context.Context, path string, src Source, halt <-chan struct{}) (*File, error) {
	c := &File{Info: rundir.CorpusInfo{Path: path}}
	if src.Known != nil {
		c.Info = src.Known.Identity()
	}
	kind, err := Classify(path)
	if err != nil {
		return nil, err
	}
	if halt == nil {
		halt = ctx.Done()
	}
	switch {
	case kind == KindEmbedded:
		c.raw = strings.NewReader(data.Sudoku17)
		c.Info.Size, c.Info.SHA256 = int64(len(data.Sudoku17)), data.SHA256
	case kind == KindFile:
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("opening corpus: %w", err)
		}
		c.raw, c.closes = f, append(c.closes, f.Close)
		if src.Hash && (src.Known == nil || src.Known.SHA256 == "") {
			c.h = sha256.New()
		}
	default:
		c.Info.Stream = true
		c.h = sha256.New()
		if err := c.openStream(ctx, path, src, halt); err != nil {
			c.Close()
			return nil, err
		}
	}
	// br is for a look at the first bytes (gzip's magic): the Scanner
	// reads into a buffer of its own, which takes the bytes after them
	// from the file itself (a bufio.Reader reads straight into a buffer
	// at least as large as its own), not through a second copy. gzip
	// reads through a buffer of its own (a small one for a small file: a
	// run over many small files would otherwise allocate 64 KB for each).
	br := bufio.NewReaderSize(rawReader{c}, peekSize)
	if magic, _ := br.Peek(2); isGzip(magic) {
		size := 64 << 10
		if c.Info.Size > 0 && !c.Info.Stream && c.Info.Size < int64(size) {
			size = max(int(c.Info.Size)+1, 512)
		}
		c.gz = &byteCounter{r: bufio.NewReaderSize(br, size)}
		zr, err := gzip.NewReader(c.gz)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("opening corpus %s: %w", path, err) // "gzip: invalid header"
		}
		c.Info.Gzip = true
		c.text = zr
	} else {
		c.text = br
	}
	return c, nil
}

// peekSize is the buffer that Open peeks at a corpus's first bytes with.
const peekSize = 512

// openStream sets c.raw to the stream at path: a pump (so that a blocked
// read does not block the reader), with its copy in the run directory
// when src.CopyTo is set.
func (c *File) openStream(ctx context.Context, path string, src Source, halt <-chan struct{}) error {
	open := func() (io.Reader, func() error, error) {
		if path != "-" {
			f, err := os.Open(path) // blocks until a FIFO has a writer: in the pump's goroutine
			if err != nil {
				return nil, nil, fmt.Errorf("opening corpus: %w", err)
			}
			return f, f.Close, nil
		}
		if src.Stdin != nil {
			return src.Stdin, func() error { return nil }, nil
		}
		return os.Stdin, func() error { return nil }, nil
	}
	var cp *os.File
	if src.CopyTo != "" {
		var err error
		if cp, err = os.OpenFile(src.CopyTo, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
			return fmt.Errorf("%w: %w", ErrCopy, err)
		}
		c.closes = append(c.closes, cp.Close)
		if src.Whole {
			c.raw = cp // the run read the whole stream: its copy is the corpus
			return nil
		}
	}
	p := newPump(open, halt)
	c.pump, c.closes = p, append(c.closes, p.Close)
	if cp == nil {
		c.raw = p
		return nil
	}
	st, err := cp.Stat()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCopy, err)
	}
	if have := st.Size(); have > 0 {
		if err := samePrefix(ctx, path, p, cp, have); err != nil {
			return err
		}
		if _, err := cp.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("%w: %w", ErrCopy, err)
		}
		c.raw = io.MultiReader(io.LimitReader(cp, have), &teeReader{r: p, w: cp})
		return nil
	}
	c.raw = &teeReader{r: p, w: cp}
	return nil
}

// samePrefix reads n bytes of stream and compares them with the first n
// of cp (the copy that a run kept), leaving cp at its end.
func samePrefix(ctx context.Context, path string, stream io.Reader, cp *os.File, n int64) error {
	a := make([]byte, 64<<10)
	b := make([]byte, 64<<10)
	for off := int64(0); off < n; {
		k := int(min(int64(len(a)), n-off))
		got, err := io.ReadFull(stream, a[:k])
		if errors.Is(err, ErrStopped) || ctx.Err() != nil {
			return ErrStopped
		}
		if err != nil {
			return fmt.Errorf("%w: corpus %s ends after %d bytes, but the run read %d bytes of it (kept in %s)",
				rundir.ErrCorpusChanged, path, off+int64(got), n, cp.Name())
		}
		if _, err := io.ReadFull(cp, b[:k]); err != nil {
			return fmt.Errorf("%w: reading %s: %w", ErrCopy, cp.Name(), err)
		}
		if i := firstDiff(a[:k], b[:k]); i >= 0 {
			return fmt.Errorf("%w: corpus %s is not the stream the run read: it differs at byte %d from the copy in %s",
				rundir.ErrCorpusChanged, path, off+int64(i), cp.Name())
		}
		off += int64(k)
	}
	return nil
}

func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// teeReader is io.TeeReader with the write errors marked ErrCopy.
type teeReader struct {
	r io.Reader
	w io.Writer
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.w.Write(p[:n]); werr != nil {
			return n, fmt.Errorf("%w: %w", ErrCopy, werr)
		}
	}
	return n, err
}

// byteCounter counts the bytes that gzip consumes of the raw file, so
// that damage is reported at its byte offset. It is an io.ByteReader, so
// gzip reads through it without a buffer of its own.
type byteCounter struct {
	r *bufio.Reader
	n int64
}

func (b *byteCounter) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

func (b *byteCounter) ReadByte() (byte, error) {
	c, err := b.r.ReadByte()
	if err == nil {
		b.n++
	}
	return c, err
}

// Finish closes the corpus and fills in its size and checksum from the
// bytes read when they were hashed (a stream, or a file not identified
// before): those of the whole file only if it was read to its end.
func (c *File) Finish() error {
	err := c.Close()
	if c.h != nil && (c.Info.Complete || c.Info.Stream) {
		c.Info.Size = c.n
		c.Info.SHA256 = hex.EncodeToString(c.h.Sum(nil))
	}
	return err
}

// ReadError describes a read error of the corpus met by sc: where it
// happened (the byte of the raw file, and the line reached) and what it is.
func (c *File) ReadError(sc *Scanner, err error) string {
	at := c.n
	if c.gz != nil {
		at = c.gz.n
	}
	what := "the file"
	if c.Info.Gzip {
		what = "the compressed file"
	}
	return fmt.Sprintf("%s could not be read after line %d: at byte %d of %s: %v", c.Info.Path, sc.Lines(), at, what, errors.Unwrap(err))
}
