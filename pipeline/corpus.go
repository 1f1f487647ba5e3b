package pipeline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sudokubatch/data"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// sourceKind is how a corpus is read.
type sourceKind int

const (
	fileSource     sourceKind = iota // a regular file: identified up front, read again on resume
	embeddedSource                   // the default corpus (data.Name) when there is no such file: the copy in the binary
	streamSource                     // standard input, a pipe, a FIFO, a device: it can be read only once
)

// classify tells how the corpus at path is read. Stat does not open the
// file, so a FIFO nobody writes to does not block it.
func classify(path string) (sourceKind, error) {
	if path == "-" {
		return streamSource, nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && path == data.Name:
		return embeddedSource, nil
	case err != nil:
		return 0, fmt.Errorf("corpus %s: %w", path, errors.Unwrap(err))
	case st.IsDir():
		return 0, fmt.Errorf("corpus %s is a directory, want a puzzle file", path)
	case st.Mode().IsRegular():
		return fileSource, nil
	}
	return streamSource, nil
}

// Identify describes the corpora at paths before a run reads them, so
// that run.json records them from its creation and -resume can check them:
// a file's size and SHA-256 (the embedded default corpus's are known), and
// whether it is gzipped; a stream is only marked Stream (it can be read
// once, by the run). The counts are left to the run. The error names a
// corpus that is missing, a directory, or cannot be read.
func Identify(ctx context.Context, paths []string) ([]rundir.CorpusInfo, error) {
	infos := make([]rundir.CorpusInfo, len(paths))
	for i, path := range paths {
		info, err := identify(ctx, path)
		if err != nil {
			return nil, err
		}
		infos[i] = info
	}
	return infos, nil
}

func identify(ctx context.Context, path string) (rundir.CorpusInfo, error) {
	info := rundir.CorpusInfo{Path: path}
	kind, err := classify(path)
	if err != nil {
		return info, err
	}
	switch kind {
	case streamSource:
		info.Stream = true
	case embeddedSource:
		info.Size, info.SHA256 = int64(len(data.Sudoku17)), data.SHA256
	case fileSource:
		f, err := os.Open(path)
		if err != nil {
			return info, fmt.Errorf("corpus %s: %w", path, errors.Unwrap(err))
		}
		defer f.Close()
		h := sha256.New()
		buf := make([]byte, 256<<10)
		for {
			if ctx.Err() != nil {
				return info, ctx.Err()
			}
			n, err := f.Read(buf)
			if info.Size == 0 && isGzip(buf[:n]) {
				info.Gzip = true
			}
			h.Write(buf[:n])
			info.Size += int64(n)
			if err == io.EOF {
				break
			}
			if err != nil {
				return info, fmt.Errorf("reading corpus %s: %w", path, err)
			}
		}
		info.SHA256 = hex.EncodeToString(h.Sum(nil))
	}
	return info, nil
}

// isGzip reports whether b starts with gzip's magic bytes.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// VerifyCorpora is the rundir.CorpusCheck of `batch -resume` for the run
// in runDir, before it reads a row: each file (or the embedded default
// corpus) must have the size and SHA-256 the run recorded; the copy of a
// stream, kept in the run directory, must be there, and have the recorded
// checksum when the run read the stream to its end. It returns each
// corpus's puzzle count: the recorded one when the run read the corpus
// whole, else a count made now (of the copy, for a stream: the rows can
// only be of puzzles in it).
func VerifyCorpora(ctx context.Context, runDir string) rundir.CorpusCheck {
	return func(m *rundir.Manifest) ([]int, error) {
		counts := make([]int, len(m.Settings.Corpora))
		for i, path := range m.Settings.Corpora {
			var rec rundir.CorpusInfo
			if i < len(m.Corpora) {
				rec = m.Corpora[i]
			} else if kind, err := classify(path); err == nil && kind == streamSource {
				rec.Stream = true
			}
			if rec.Stream {
				n, err := verifyStreamCopy(ctx, runDir, m, i, rec)
				if err != nil {
					return nil, err
				}
				counts[i] = n
				continue
			}
			now, err := identify(ctx, path)
			if err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
			if err := m.CheckCorpus(i, now); err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
			if rec.Complete {
				counts[i] = rec.Puzzles
				continue
			}
			if counts[i], err = countPuzzles(ctx, path); err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
		}
		return counts, nil
	}
}

// verifyStreamCopy checks the copy of stream corpus i in runDir and
// returns the number of its puzzle lines.
func verifyStreamCopy(ctx context.Context, runDir string, m *rundir.Manifest, i int, rec rundir.CorpusInfo) (int, error) {
	path := filepath.Join(runDir, rundir.StreamFile(i))
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if rec.Size > 0 {
			return 0, fmt.Errorf("cannot resume: the copy of %s that the run read (%s) is missing", rec.Path, path)
		}
		return 0, nil // the run read nothing of it
	}
	if rec.Complete {
		now, err := identify(ctx, path)
		if err != nil {
			return 0, fmt.Errorf("cannot resume: %w", err)
		}
		if err := m.CheckCorpus(i, now); err != nil {
			return 0, fmt.Errorf("cannot resume: the copy of %s: %w", rec.Path, err)
		}
	}
	n, err := countPuzzles(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("cannot resume: %w", err)
	}
	return n, nil
}

// countPuzzles counts the puzzle lines (valid or not) of the corpus at
// path, to its end or to damage that stops its reading (a corrupt .gz):
// a resumed run meets the damage again and records it, and its rows can
// only be of puzzles before it. Only a canceled ctx is an error.
func countPuzzles(ctx context.Context, path string) (int, error) {
	c, err := openCorpus(ctx, path, source{}, nil)
	if err != nil {
		return 0, ctx.Err()
	}
	defer c.close()
	sc := solvers.NewScanner(c.text, path)
	n := 0
	for sc.Scan() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
	return n, ctx.Err()
}

// source is what openCorpus needs besides the path.
type source struct {
	stdin io.Reader // for "-"; nil: os.Stdin
	// known is the corpus's identity when Identify gave it (Size,
	// SHA-256), or nil.
	known *rundir.CorpusInfo
	// hash asks for a file's size and SHA-256 as it is read, when known
	// does not give them (a stream's bytes are always hashed: they are
	// learned only as they are read). Counting needs no hash.
	hash bool
	// copyTo, for a stream, is the file in the run directory that keeps
	// the bytes read ("" for none). When it already holds bytes (a
	// resume), the stream must start with them: they are compared, then
	// read from the copy, and the rest of the stream is appended to it.
	copyTo string
	// whole is set when the copy holds the whole stream (the run read it
	// to its end): the copy is read, not the stream.
	whole bool
}

// corpusFile is an open corpus: the text the Scanner reads and what is
// learned of the raw bytes as they are read.
type corpusFile struct {
	info   rundir.CorpusInfo
	raw    io.Reader // the bytes as stored (a file, a stream, a copy)
	text   io.Reader // what the Scanner reads (raw, or gunzipped raw)
	h      hash.Hash // of the raw bytes; nil when the identity is known
	n      int64     // raw bytes read
	gz     *byteCounter
	pump   *pump // a stream's, else nil
	closes []func() error
}

func (c *corpusFile) Read(p []byte) (int, error) {
	n, err := c.raw.Read(p)
	if c.h != nil {
		c.h.Write(p[:n])
	}
	c.n += int64(n)
	return n, err
}

func (c *corpusFile) close() error {
	var errs []error
	for _, f := range c.closes {
		if err := f(); err != nil && !errors.Is(err, os.ErrClosed) {
			errs = append(errs, err)
		}
	}
	c.closes = nil
	return errors.Join(errs...)
}

// errCopy is wrapped by the errors of writing a stream's copy: they stop
// the run like an error writing results.csv.
var errCopy = errors.New("copying the stream into the run directory")

// openCorpus opens path ("-" for src.stdin) and detects gzip by its magic
// bytes. The default corpus, data.Name, is the file when there is one (a
// replaced copy is read as such, and its checksum recorded), else the copy
// embedded in the binary. A stream is read by a pump (see pump) that halt
// (nil: ctx.Done()) interrupts, and, with src.copyTo, kept in the run
// directory. The error names the file and
// says what is wrong; a stream that does not start with the bytes of its
// copy wraps rundir.ErrCorpusChanged.
func openCorpus(ctx context.Context, path string, src source, halt <-chan struct{}) (*corpusFile, error) {
	c := &corpusFile{info: rundir.CorpusInfo{Path: path}}
	if src.known != nil {
		c.info = src.known.Identity()
	}
	kind, err := classify(path)
	if err != nil {
		return nil, err
	}
	if halt == nil {
		halt = ctx.Done()
	}
	switch {
	case kind == embeddedSource:
		c.raw = strings.NewReader(data.Sudoku17)
		c.info.Size, c.info.SHA256 = int64(len(data.Sudoku17)), data.SHA256
	case kind == fileSource:
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("opening corpus: %w", err)
		}
		c.raw, c.closes = f, append(c.closes, f.Close)
		if src.hash && (src.known == nil || src.known.SHA256 == "") {
			c.h = sha256.New()
		}
	default:
		c.info.Stream = true
		c.h = sha256.New()
		if err := c.openStream(ctx, path, src, halt); err != nil {
			c.close()
			return nil, err
		}
	}
	// A small file gets a small buffer: a run over many small files
	// would otherwise allocate 64 KB for each.
	size := 64 << 10
	if c.info.Size > 0 && !c.info.Stream && c.info.Size < int64(size) {
		size = max(int(c.info.Size)+1, 512)
	}
	br := bufio.NewReaderSize(c, size)
	if magic, _ := br.Peek(2); isGzip(magic) {
		c.gz = &byteCounter{r: br}
		zr, err := gzip.NewReader(c.gz)
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

// openStream sets c.raw to the stream at path: a pump (so that a blocked
// read does not block the reader), with its copy in the run directory
// when src.copyTo is set.
func (c *corpusFile) openStream(ctx context.Context, path string, src source, halt <-chan struct{}) error {
	open := func() (io.Reader, func() error, error) {
		if path != "-" {
			f, err := os.Open(path) // blocks until a FIFO has a writer: in the pump's goroutine
			if err != nil {
				return nil, nil, fmt.Errorf("opening corpus: %w", err)
			}
			return f, f.Close, nil
		}
		if src.stdin != nil {
			return src.stdin, func() error { return nil }, nil
		}
		return os.Stdin, func() error { return nil }, nil
	}
	var cp *os.File
	if src.copyTo != "" {
		var err error
		if cp, err = os.OpenFile(src.copyTo, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
			return fmt.Errorf("%w: %w", errCopy, err)
		}
		c.closes = append(c.closes, cp.Close)
		if src.whole {
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
		return fmt.Errorf("%w: %w", errCopy, err)
	}
	if have := st.Size(); have > 0 {
		if err := samePrefix(ctx, path, p, cp, have); err != nil {
			return err
		}
		if _, err := cp.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("%w: %w", errCopy, err)
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
		if errors.Is(err, errStopped) || ctx.Err() != nil {
			return errStopped
		}
		if err != nil {
			return fmt.Errorf("%w: corpus %s ends after %d bytes, but the run read %d bytes of it (kept in %s)",
				rundir.ErrCorpusChanged, path, off+int64(got), n, cp.Name())
		}
		if _, err := io.ReadFull(cp, b[:k]); err != nil {
			return fmt.Errorf("%w: reading %s: %w", errCopy, cp.Name(), err)
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

// teeReader is io.TeeReader with the write errors marked errCopy.
type teeReader struct {
	r io.Reader
	w io.Writer
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.w.Write(p[:n]); werr != nil {
			return n, fmt.Errorf("%w: %w", errCopy, werr)
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

// finish closes the corpus and fills in its size and checksum from the
// bytes read when they were hashed (a stream, or a file not identified
// before): those of the whole file only if it was read to its end.
func (c *corpusFile) finish() error {
	err := c.close()
	if c.h != nil && (c.info.Complete || c.info.Stream) {
		c.info.Size = c.n
		c.info.SHA256 = hex.EncodeToString(c.h.Sum(nil))
	}
	return err
}

// readError describes a read error of the corpus: where it happened (the
// byte of the raw file, and the line reached) and what it is.
func (c *corpusFile) readError(sc *solvers.Scanner, err error) string {
	at := c.n
	if c.gz != nil {
		at = c.gz.n
	}
	what := "the file"
	if c.info.Gzip {
		what = "the compressed file"
	}
	return fmt.Sprintf("%s could not be read after line %d: at byte %d of %s: %v", c.info.Path, sc.Lines(), at, what, errors.Unwrap(err))
}

// pump reads a stream in a goroutine of its own, so that a read that
// waits (a slow pipe, a FIFO that nobody opened for writing yet) does not
// hold up its caller: Read returns errStopped as soon as halt is closed.
// Open runs in the goroutine too, since opening a FIFO waits for a
// writer. Two buffers go round between the goroutine and Read.
type pump struct {
	chunks chan pumpChunk
	free   chan []byte
	halt   <-chan struct{}
	halt2  <-chan struct{} // a second one, set by Run on a stream opened before it (see Streams)
	// onWait, if set, is called by Read before it waits for the next
	// chunk; its error is returned by Read.
	onWait func() error
	quit   chan struct{}
	cur    []byte // the bytes of buf not read yet
	buf    []byte // the buffer of the last chunk, given back once read
	err    error
}

type pumpChunk struct {
	b   []byte
	err error
}

func newPump(open func() (io.Reader, func() error, error), halt <-chan struct{}) *pump {
	p := &pump{chunks: make(chan pumpChunk, 2), free: make(chan []byte, 2), halt: halt, quit: make(chan struct{})}
	p.free <- make([]byte, 64<<10)
	p.free <- make([]byte, 64<<10)
	go func() {
		r, closeFn, err := open()
		if err != nil {
			p.chunks <- pumpChunk{nil, err}
			return
		}
		defer closeFn()
		for {
			var buf []byte
			select {
			case buf = <-p.free:
			case <-p.quit:
				return
			}
			n, err := r.Read(buf)
			select {
			case p.chunks <- pumpChunk{buf[:n], err}:
			case <-p.quit:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

func (p *pump) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.err != nil {
			return 0, p.err
		}
		if p.buf != nil {
			p.free <- p.buf
			p.buf = nil
		}
		if p.onWait != nil {
			// Nothing has come yet: before waiting, let the caller hand
			// over what it holds (the reader's part-filled batch).
			select {
			case c := <-p.chunks:
				p.take(c)
				continue
			default:
			}
			if err := p.onWait(); err != nil {
				return 0, err
			}
		}
		select {
		case c := <-p.chunks:
			p.take(c)
		case <-p.halt:
			return 0, errStopped
		case <-p.halt2:
			return 0, errStopped
		}
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// take makes c the chunk that Read reads from.
func (p *pump) take(c pumpChunk) {
	p.buf, p.cur, p.err = c.b[:cap(c.b)], c.b, c.err
	if c.b == nil {
		p.buf = nil
	}
}

// Close ends the pump's goroutine, at once if it waits to hand a chunk
// over, or after its read returns.
func (p *pump) Close() error {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	return nil
}
