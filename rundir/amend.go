package rundir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Amend rewrites results.csv with the rows that fix changes: fix is
// called for every row, in order, and returns whether it changed it (the
// pipeline's re-timing at the end of a run sets NS and Retimed). Rows it
// leaves alone are copied byte for byte; a changed row is read whole and
// written again. fix is first called on the row without its solution
// and error text, and, when it changes it, again on the whole row. The
// file is rewritten through a temporary file, synced and renamed over
// it, so that a process killed while it amends leaves results.csv as it
// was (and a temporary file that a new run in the directory ignores).
// The directory stays open for more rows. Amend returns the number of
// rows changed; it changes nothing when a row cannot be read.
// errUnchanged stops Amend's rewrite when fix changed no row: the file
// is left as it was.
var errUnchanged = errors.New("no row changed")

func (d *Dir) Amend(fix func(*Row) bool) (int, error) {
	if err := d.w.Flush(); err != nil {
		return 0, err
	}
	path := filepath.Join(d.Path, ResultsFile)
	fail := func(err error) (int, error) { return 0, fmt.Errorf("amending %s: %w", path, err) }
	// Two readers of the file in step: rows, without their text, to
	// decide; lines, to copy. The writer puts every row on one line.
	in, err := os.Open(path)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	raw, err := os.Open(path)
	if err != nil {
		return fail(err)
	}
	defer raw.Close()
	rd, err := NewReader(in, path)
	if err != nil {
		return fail(err)
	}
	rd.OmitText()
	lines := bufio.NewReaderSize(raw, 64<<10)
	head, err := lines.ReadBytes('\n')
	if err != nil {
		return fail(err)
	}
	var changed int
	_, err = replaceFile(path, func(bw *bufio.Writer) error {
		w := NewWriter(bw)
		w.SetColumns(d.w.cols)
		bw.Write(head)
		var err error
		if changed, err = copyAmended(rd, lines, head, w, bw, fix); err == nil && changed == 0 {
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
	cols := d.w.cols
	d.file, d.w = f, NewWriter(f)
	d.w.SetColumns(cols)
	return changed, nil
}

// copyAmended copies the rows that rd reads, in step with their lines,
// to out: the rows that fix changes written again through w, the others
// byte for byte. It returns the number changed.
func copyAmended(rd *Reader, lines *bufio.Reader, head []byte, w *Writer, out *bufio.Writer, fix func(*Row) bool) (int, error) {
	changed := 0
	var lean Row    // one copy for fix to change, reused: a default sweep has 294,906 rows
	var long []byte // a line longer than the buffer of lines
	for rd.Scan() {
		line, err := lines.ReadSlice('\n') // valid until the next read: used before it
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = lines.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !(err == io.EOF && len(line) > 0) {
			return 0, fmt.Errorf("line %d: %w", rd.Line(), err)
		}
		row, err := rd.Row()
		if err != nil {
			return 0, err
		}
		lean = *row
		if !fix(&lean) {
			out.Write(line)
			continue
		}
		// The whole row, text included, from its line.
		full, err := NewReader(io.MultiReader(bytes.NewReader(head), bytes.NewReader(line)), rd.file)
		if err != nil || !full.Scan() {
			return 0, errors.Join(err, fmt.Errorf("line %d: cannot be read again", rd.Line()))
		}
		whole, err := full.Row()
		if err != nil {
			return 0, err
		}
		fix(whole)
		if err := w.Write(whole); err != nil {
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
	return changed, nil
}
