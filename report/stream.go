package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"sudokubatch/solvers"
)

// ErrNotStreamable is returned by OpenStream for a results.csv whose rows
// are not grouped by puzzle in (corpus, id) order, or that holds a
// negative time: such a file is reported from a Results in memory
// (LoadResults) instead.
var ErrNotStreamable = errors.New("rows not in (corpus, id) order")

// Stream is a run's results.csv read for a report whose memory does not
// grow with the rows: OpenStream reads the CSV once and copies the
// numbers of every row to a compact spill file (a few varints a row,
// beside results.csv, or in the temporary directory when that one is
// read-only; unlinked at once, or removed by Close); the summary, the charts and the
// page are then computed by passes over the spill (see the package
// documentation, "Memory"). A Stream is safe for concurrent passes.
type Stream struct {
	spill   *os.File
	removed bool // the spill file is already unlinked
	size    int64
	// shell holds what the reports need of a Results but its rows:
	// corpora, solver names (in report order), puzzle and row counts.
	shell *Results
	pos   []int // spill solver index -> index in shell.Series
	rows  []int // rows per series, in shell.Series order
}

// spillRow is one row as the passes see it.
type spillRow struct {
	si     int // series index (shell.Series order)
	seq    int // row index within its series, in file order
	corpus uint16
	id     int32
	line   int32
	status solvers.Status
	ns     int64
	calls  uint64
	guess  uint64
}

func (r *spillRow) entry() Entry {
	return Entry{Corpus: r.corpus, ID: r.id, Line: r.line, Status: r.status, NS: r.ns, Calls: r.calls, Guesses: r.guess}
}

// OpenStream reads the results.csv at path into a spill file in its
// directory. It returns an error wrapping ErrNotStreamable when the rows
// are not grouped by puzzle in (corpus, id) order (as every run and merge
// writes them) or a time is negative.
func OpenStream(path string) (*Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	rd, err := NewReader(f, path)
	if err != nil {
		return nil, err
	}
	rd.lean = true
	sp, err := os.CreateTemp(filepath.Dir(path), ".results-*.spill")
	if err != nil {
		if sp, err = os.CreateTemp("", "results-*.spill"); err != nil {
			return nil, fmt.Errorf("reading results: %w", err)
		}
	}
	st := &Stream{spill: sp, shell: &Results{}}
	// Unlinked at once where the system allows it (the open file stays
	// readable), so that a killed report leaves nothing behind.
	st.removed = os.Remove(sp.Name()) == nil
	ok := false
	defer func() {
		if !ok {
			st.Close()
		}
	}()
	w := bufio.NewWriterSize(sp, 256<<10)
	var buf []byte
	var solverNames []string
	lastSolver := -1
	curCorpus, curID := -1, int32(0)
	for {
		row, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ci := indexOrAppend(&st.shell.Corpora, row.Corpus)
		if lastSolver < 0 || solverNames[lastSolver] != row.Solver {
			lastSolver = indexOrAppend(&solverNames, row.Solver)
			if lastSolver == len(st.rows) {
				st.rows = append(st.rows, 0) // a new strategy
			}
		}
		id := int32(row.ID)
		if ci != curCorpus || id != curID {
			if ci < curCorpus || ci == curCorpus && id < curID {
				return nil, fmt.Errorf("%s:%d: %w", path, rd.Line(), ErrNotStreamable)
			}
			curCorpus, curID = ci, id
			st.shell.Puzzles++
		}
		if row.NS < 0 {
			return nil, fmt.Errorf("%s:%d: negative time: %w", path, rd.Line(), ErrNotStreamable)
		}
		st.shell.Rows++
		st.rows[lastSolver]++
		buf = buf[:0]
		buf = binary.AppendUvarint(buf, uint64(lastSolver))
		buf = append(buf, byte(row.Status))
		buf = binary.AppendUvarint(buf, uint64(ci))
		buf = binary.AppendVarint(buf, int64(id))
		buf = binary.AppendVarint(buf, int64(int32(row.Line)))
		buf = binary.AppendUvarint(buf, uint64(row.NS))
		buf = binary.AppendUvarint(buf, row.Calls)
		buf = binary.AppendUvarint(buf, row.Guesses)
		if _, err := w.Write(buf); err != nil {
			return nil, fmt.Errorf("writing the report's spill file: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("writing the report's spill file: %w", err)
	}
	st.size, _ = sp.Seek(0, io.SeekCurrent)
	for _, name := range solverNames {
		st.shell.addSeries(name)
		st.pos = append(st.pos, len(st.pos))
	}
	ok = true
	return st, nil
}

// Close removes the spill file.
func (st *Stream) Close() error {
	if st.spill == nil {
		return nil
	}
	name := st.spill.Name()
	err := st.spill.Close()
	if !st.removed {
		if rerr := os.Remove(name); err == nil {
			err = rerr
		}
	}
	st.spill = nil
	return err
}

// Corpora returns the corpus names, in order of first appearance.
func (st *Stream) Corpora() []string { return st.shell.Corpora }

// CorpusLabel is Results.CorpusLabel.
func (st *Stream) CorpusLabel() string { return st.shell.CorpusLabel() }

// OrderSolvers is Results.OrderSolvers.
func (st *Stream) OrderSolvers(names []string) {
	old := slices.Clone(st.shell.Series)
	st.shell.OrderSolvers(names)
	at := map[*Series]int{}
	for i, s := range st.shell.Series {
		at[s] = i
	}
	rows := make([]int, len(st.rows))
	for spillIdx, oldPos := range st.pos {
		st.pos[spillIdx] = at[old[oldPos]]
		rows[at[old[oldPos]]] = st.rows[oldPos]
	}
	st.rows = rows
}

// scan calls fn with every row, in file order. fn must not keep r.
func (st *Stream) scan(fn func(r *spillRow)) error {
	const chunk = 256 << 10
	const maxRow = 8 * binary.MaxVarintLen64
	buf := make([]byte, chunk)
	var off int64
	n, lo := 0, 0 // buf[lo:n] holds undecoded bytes
	seq := make([]int, len(st.rows))
	var r spillRow
	for {
		if n-lo < maxRow && off < st.size {
			copy(buf, buf[lo:n])
			n -= lo
			lo = 0
			m, err := st.spill.ReadAt(buf[n:], off)
			if err != nil && err != io.EOF {
				return fmt.Errorf("reading the report's spill file: %w", err)
			}
			n += m
			off += int64(m)
		}
		if lo >= n {
			return nil
		}
		b := buf[lo:n]
		k := 0
		uv := func() uint64 {
			v, w := binary.Uvarint(b[k:])
			k += w
			return v
		}
		sv := func() int64 {
			v, w := binary.Varint(b[k:])
			k += w
			return v
		}
		r.si = st.pos[uv()]
		r.status = solvers.Status(b[k])
		k++
		r.corpus = uint16(uv())
		r.id = int32(sv())
		r.line = int32(sv())
		r.ns = int64(uv())
		r.calls = uv()
		r.guess = uv()
		lo += k
		r.seq = seq[r.si]
		seq[r.si]++
		fn(&r)
	}
}

// scanGroups calls fn with the rows of each puzzle (adjacent in the
// file: OpenStream checked it), in file order. fn must not keep rows.
func (st *Stream) scanGroups(fn func(rows []spillRow)) error {
	var group []spillRow
	err := st.scan(func(r *spillRow) {
		if len(group) > 0 && (group[0].corpus != r.corpus || group[0].id != r.id) {
			fn(group)
			group = group[:0]
		}
		group = append(group, *r)
	})
	if err != nil {
		return err
	}
	if len(group) > 0 {
		fn(group)
	}
	return nil
}
