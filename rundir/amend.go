package rundir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// errUnchanged stops Amend's rewrite when fix changed no row: the file
// is left as it was.
var errUnchanged = errors.New("no row changed")

// Amend rewrites results.csv with the rows that fix changes: fix is
// called on every row, in order, and returns whether it changed it (the
// pipeline's re-timing at the end of a run sets NS and Retimed). It is
// AmendIDs with every id wanted.
func (d *Dir) Amend(fix func(*Row) bool) (int, error) { return d.AmendIDs(nil, fix) }

// AmendIDs rewrites results.csv with the rows that fix changes: fix is
// called, in order, on every row of a puzzle that ids wants (every row
// when ids is nil), and returns whether it changed it. The other rows are
// copied byte for byte, the rows of the ids not wanted without being
// parsed; a changed row is written again. The file is rewritten through a
// temporary file, synced and renamed over it, so that a process killed
// while it amends leaves results.csv as it was (and a temporary file
// that a new run in the directory ignores). The directory stays open for
// more rows. Amend returns the number of rows changed; it changes
// nothing when a row it reads cannot be read.
func (d *Dir) AmendIDs(ids func(id int) bool, fix func(*Row) bool) (int, error) {
	return d.rewriteRows(func(in *os.File, path string, w *Writer, bw *bufio.Writer) (int, error) {
		rd, err := NewReader(in, path)
		if err != nil {
			return 0, err
		}
		head, _ := rd.Raw()
		bw.Write(head)
		return copyAmended(rd, w, bw, ids, fix)
	})
}

// rewriteRows replaces results.csv with what body writes to bw (w writes
// rows there in the file's columns) from in, the file as it is, and
// returns the rows body says it changed: results.csv is flushed first,
// replaced through a temporary file (replaceFile: a process killed
// meanwhile leaves it as it was), left as it was when body changed no
// row or failed, and open for more rows afterwards.
func (d *Dir) rewriteRows(body func(in *os.File, path string, w *Writer, bw *bufio.Writer) (int, error)) (int, error) {
	if err := d.w.Flush(); err != nil {
		return 0, err
	}
	path := filepath.Join(d.Path, ResultsFile)
	in, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	defer in.Close()
	var changed int
	_, err = replaceFile(path, writerBuffer, func(bw *bufio.Writer) error {
		w := NewWriter(bw)
		w.SetColumns(d.w.cols)
		var err error
		if changed, err = body(in, path, w, bw); err == nil && changed == 0 {
			err = errUnchanged
		}
		return err
	})
	switch {
	case errors.Is(err, errUnchanged):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	return changed, d.reopen(path)
}

// reopen goes on appending rows to results.csv at path, just replaced
// by an amend: the Writer, flushed before, keeps its buffer and writes
// to the new file from its end.
func (d *Dir) reopen(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("amending %s: %w", path, err)
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return fmt.Errorf("amending %s: %w", path, err)
	}
	d.file.Close()
	d.file = f
	d.w.w.Reset(f) // flushed: its buffer is empty
	d.base, d.last = end-d.w.n, -1
	return nil
}

// AmendAt rewrites results.csv with the rows that fix changes among the
// rows that start at the offsets at (LastRowAt said where each row this
// Dir wrote starts): fix is called on each, in the file's order, and
// returns whether it changed it. Every other byte is copied as it is,
// without being read where the system copies a file's range itself
// (copy_file_range on Linux): a sweep of microsecond units amends a few
// hundred rows of a file of megabytes. The file is replaced as Amend
// replaces it (a process killed meanwhile leaves it as it was), and the
// directory stays open for more rows. An offset where no row starts is
// an error, and changes nothing. AmendAt returns the number of rows
// changed.
func (d *Dir) AmendAt(at []int64, fix func(*Row) bool) (int, error) {
	at = slices.Compact(slices.Sorted(slices.Values(at)))
	return d.rewriteRows(func(in *os.File, path string, w *Writer, bw *bufio.Writer) (int, error) {
		st, err := in.Stat()
		if err != nil {
			return 0, err
		}
		// The rows are read through a small buffer: only their own bytes
		// and a little after each are read.
		rd, err := NewReader(io.NewSectionReader(in, 0, st.Size()), path)
		if err != nil {
			return 0, err
		}
		head, _ := rd.Raw()
		rd.br = bufio.NewReaderSize(nil, 4<<10)
		changed := 0
		var pos int64 // copied up to pos: the header too
		var before [1]byte
		for _, off := range at {
			if off < max(pos, int64(len(head))) || off >= st.Size() {
				return 0, fmt.Errorf("no row starts at byte %d", off)
			}
			if _, err := in.ReadAt(before[:], off-1); err != nil || before[0] != '\n' {
				return 0, fmt.Errorf("no row starts at byte %d", off)
			}
			if err := copyRange(bw, in, pos, off); err != nil {
				return 0, err
			}
			rd.br.Reset(io.NewSectionReader(in, off, st.Size()-off))
			if !rd.Scan() {
				if err := rd.Err(); err != nil {
					return 0, err
				}
				return 0, fmt.Errorf("no row starts at byte %d", off)
			}
			raw, skip := rd.Raw()
			row, err := rd.Row()
			if err != nil || skip > 0 {
				return 0, fmt.Errorf("no row starts at byte %d", off)
			}
			pos = off + int64(len(raw))
			if !fix(row) {
				bw.Write(raw)
				continue
			}
			if err := w.Write(row); err != nil {
				return 0, err
			}
			if err := w.Flush(); err != nil { // into bw, in order with the copied bytes
				return 0, err
			}
			changed++
		}
		if changed == 0 {
			return 0, nil
		}
		return changed, copyRange(bw, in, pos, st.Size())
	})
}

// copyRange copies the bytes [from, to) of in to out, after what out
// holds: out is flushed first, so that the file behind it takes the
// bytes from in itself (os.File.ReadFrom: copy_file_range on Linux)
// rather than through the buffer.
func copyRange(out *bufio.Writer, in *os.File, from, to int64) error {
	if to <= from {
		return nil
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if _, err := in.Seek(from, io.SeekStart); err != nil {
		return err
	}
	n, err := out.ReadFrom(io.LimitReader(in, to-from))
	if err == nil && n < to-from {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// copyAmended copies the rows that rd reads to out: the rows that fix
// changes written again through w, the others byte for byte (Raw), and
// the blank lines as they are. Only the rows of the ids wanted are
// parsed. It returns the number changed.
func copyAmended(rd *Reader, w *Writer, out *bufio.Writer, ids func(int) bool, fix func(*Row) bool) (int, error) {
	changed := 0
	for rd.read() {
		raw, skip := rd.Raw() // valid until the next read: used before it
		if ids != nil && rd.bad == nil {
			if id, ok := digits(rd.firstField()); !ok || id > math.MaxInt || !ids(int(id)) {
				out.Write(raw)
				continue
			}
		}
		if rd.bad == nil {
			rd.split()
			rd.bad = rd.parse()
		}
		row, err := rd.Row()
		if err != nil {
			return 0, err
		}
		if !fix(row) {
			out.Write(raw)
			continue
		}
		out.Write(raw[:skip])
		if err := w.Write(row); err != nil {
			return 0, err
		}
		if err := w.Flush(); err != nil { // into out, in order with the copied lines
			return 0, err
		}
		changed++
	}
	if err := rd.Err(); err != nil {
		return 0, err
	}
	rest, _ := rd.Raw() // blank lines at the end
	out.Write(rest)
	return changed, nil
}
