package rundir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
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
	if err := d.w.Flush(); err != nil {
		return 0, err
	}
	path := filepath.Join(d.Path, ResultsFile)
	fail := func(err error) (int, error) { return 0, fmt.Errorf("amending %s: %w", path, err) }
	in, err := os.Open(path)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	rd, err := NewReader(in, path)
	if err != nil {
		return fail(err)
	}
	head, _ := rd.Raw()
	head = bytes.Clone(head)
	var changed int
	_, err = replaceFile(path, writerBuffer, func(bw *bufio.Writer) error {
		w := NewWriter(bw)
		w.SetColumns(d.w.cols)
		bw.Write(head)
		var err error
		if changed, err = copyAmended(rd, w, bw, ids, fix); err == nil && changed == 0 {
			err = errUnchanged
		}
		return err
	})
	switch {
	case errors.Is(err, errUnchanged):
		return 0, nil
	case err != nil:
		return fail(err)
	}
	// Go on appending to the new file.
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return changed, fmt.Errorf("amending %s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return changed, fmt.Errorf("amending %s: %w", path, err)
	}
	d.file.Close()
	d.file = f
	d.w.w.Reset(f) // flushed above: its buffer is empty
	return changed, nil
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
