package rundir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Amend rewrites results.csv with the rows that fix changes: fix is
// called for every row, in order, and returns whether it changed it (the
// pipeline's re-timing at the end of a run sets NS and Retimed). The file
// is rewritten through a temporary file, synced and renamed over it, so
// that a process killed while it amends leaves results.csv as it was
// (and a temporary file that a new run in the directory ignores). The
// directory stays open for more rows. Amend returns the number of rows
// changed; it changes nothing when a row cannot be read.
func (d *Dir) Amend(fix func(*Row) bool) (int, error) {
	if err := d.w.Flush(); err != nil {
		return 0, err
	}
	path := filepath.Join(d.Path, ResultsFile)
	in, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	defer in.Close()
	rd, err := NewReader(in, path)
	if err != nil {
		return 0, fmt.Errorf("amending: %w", err)
	}
	tmp, err := os.CreateTemp(d.Path, "."+ResultsFile+".*")
	if err != nil {
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := NewWriter(tmp)
	w.SetColumns(d.w.cols)
	if err := w.WriteHeader(); err != nil {
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	changed := 0
	for rd.Scan() {
		row, err := rd.Row()
		if err != nil {
			return 0, fmt.Errorf("amending: %w", err)
		}
		if fix(row) {
			changed++
		}
		if err := w.Write(row); err != nil {
			return 0, fmt.Errorf("amending %s: %w", path, err)
		}
	}
	if err := rd.Err(); err != nil {
		return 0, fmt.Errorf("amending: %w", err)
	}
	if changed == 0 {
		return 0, nil
	}
	err = w.Flush()
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("amending %s: %w", path, err)
	}
	done = true
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
