package history

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"sudokubatch/rundir"
)

// EarlierNights returns the series of the run m describes (its key, for
// people) and its last n nights that started before the run, oldest
// first: the nights of idx with the run's signature, the run itself left
// out. A run with no
// signature (its segments ran on several machines) has none.
func (idx *Index) EarlierNights(m *rundir.Manifest, n int) (string, []*Night) {
	sig, why := signatureOf(m)
	if why != "" || n <= 0 {
		return "", nil
	}
	id := sig.ID()
	var nights []*Night
	for _, e := range idx.Entries {
		if e.Night == nil || e.Night.RunID == m.RunID || e.Night.Signature.ID() != id || !e.Night.Start.Before(m.Start) {
			continue
		}
		nights = append(nights, e.Night)
	}
	series := Group(new(History).dropCopies(nights, nil)) // a run copied by hand is one night
	if len(series) == 0 {
		return sig.Key(), nil
	}
	all := series[0].Nights
	return sig.Key(), all[max(len(all)-n, 0):]
}

// NightDir returns the run directory of night n of the results root.
func NightDir(root string, n *Night) string {
	if n.Dir != "" {
		return n.Dir
	}
	return filepath.Join(root, filepath.FromSlash(n.Run))
}

// PuzzleRows returns the rows of the run in dir (its results.csv or
// results.csv.gz) whose puzzle id is in ids, in file order. It reads the
// file once and parses only the lines of those ids: a record's first
// field, the id, is read before the CSV parse, which is most of the cost
// of reading a whole run (report.LoadRun). A line that is not a row is
// an error naming the file and its line.
func PuzzleRows(ctx context.Context, dir string, ids map[int]bool) ([]rundir.Row, error) {
	f, err := rundir.OpenRows(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	var keep bytes.Buffer // the header and the records of the ids
	var lines []int       // the file's line of each record kept, after the header
	line, first := 0, true
	idFirst := false
	var rec []byte
	for {
		rec, err = readRecord(br, rec[:0])
		if len(rec) == 0 && err != nil {
			break
		}
		line++
		start := line
		line += bytes.Count(rec[:max(len(rec)-1, 0)], []byte{'\n'})
		if first {
			first = false
			head := strings.TrimPrefix(string(rec), "\uFEFF")
			idFirst = strings.HasPrefix(head, "id,")
			keep.Write(rec)
			if len(rec) > 0 && rec[len(rec)-1] != '\n' {
				keep.WriteByte('\n')
			}
			continue
		}
		if line%65536 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if idFirst && !ids[leadingInt(rec)] {
			continue
		}
		keep.Write(rec)
		if len(rec) > 0 && rec[len(rec)-1] != '\n' {
			keep.WriteByte('\n')
		}
		lines = append(lines, start)
		if err != nil {
			break
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: reading after line %d: %w", f.Name, line, err)
	}
	if first {
		return nil, fmt.Errorf("%s: empty file, want a results.csv header", f.Name)
	}
	rd, err := rundir.NewReader(&keep, f.Name)
	if err != nil {
		return nil, err
	}
	rd.OmitText()
	var out []rundir.Row
	for k := 0; rd.Scan(); k++ {
		row, err := rd.Row()
		if err != nil {
			at := 0
			if k < len(lines) {
				at = lines[k]
			}
			var re *rundir.RowError
			if errors.As(err, &re) {
				return nil, fmt.Errorf("%s:%d: %w: %s", f.Name, at, rundir.ErrBadRow, re.Reason)
			}
			return nil, err
		}
		if ids[row.ID] {
			out = append(out, *row)
		}
	}
	return out, rd.Err()
}

// readRecord appends to buf the next CSV record of br, through the end
// of its last line: a line with an odd count of quotes opens a quoted
// field that goes on to the next line. It returns the error of the read
// that ended it (io.EOF at the end).
func readRecord(br *bufio.Reader, buf []byte) ([]byte, error) {
	quoted := false
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		quoted = quoted != (bytes.Count(chunk, []byte{'"'})%2 == 1)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			// A long line: its quotes are counted chunk by chunk.
		case err != nil:
			return buf, err
		case !quoted:
			return buf, nil
		}
	}
}

// leadingInt returns the integer at the start of rec, up to its first
// comma, or -1 when it is not one.
func leadingInt(rec []byte) int {
	n, digits := 0, 0
	for _, c := range rec {
		if c == ',' {
			break
		}
		if c < '0' || c > '9' || digits > 9 {
			return -1
		}
		n = n*10 + int(c-'0')
		digits++
	}
	if digits == 0 {
		return -1
	}
	return n
}
