package report

import (
	"bufio"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"

	"sudokubatch/solvers"
)

// Header is the first line of results.csv: the columns of DESIGN.md in
// their order, then `corpus`, the corpus file the puzzle comes from (ids
// restart for each corpus file of a run, so (corpus, id) names a puzzle).
var Header = []string{"id", "line", "solver", "status", "ns", "calls", "guesses", "backtracks",
	"filled", "clues", "solutions", "seed", "solution", "error", "corpus"}

// Row is one (puzzle, solver) result: one line of results.csv.
type Row struct {
	ID         int            // 0-based puzzle index within its corpus file
	Line       int            // 1-based line number in the corpus file
	Solver     string         // strategy name
	Status     solvers.Status // outcome
	NS         int64          // wall time of Solve in nanoseconds (monotonic clock)
	Calls      uint64         // strategy counters, see solvers
	Guesses    uint64
	Backtracks uint64
	Filled     int    // cells filled when the solver stopped
	Clues      int    // givens of the puzzle
	Solutions  int    // -unique: 0, 1 or 2 (two or more); -1 when not counted
	Seed       uint64 // the seed passed to the solver
	Solution   string // the solved grid in the input alphabet, empty unless solved
	Error      string // the error message, if any
	Corpus     string // the corpus file as given on the command line
}

// Key identifies the (puzzle, solver) pair of a row.
type Key struct {
	Corpus string
	ID     int
	Solver string
}

// Key returns the row's (corpus, id, solver).
func (r *Row) Key() Key { return Key{r.Corpus, r.ID, r.Solver} }

// Writer writes rows to results.csv. It buffers; call Flush to push the
// rows out and learn of any write error. A Writer is not safe for
// concurrent use.
type Writer struct {
	w   *bufio.Writer
	buf []byte
	err error
	// The corpus of the last row and its encoding: a run's rows share a
	// few corpora, so the field is encoded once per change.
	corpus      string
	corpusField []byte
	// Likewise the seed, shared by the rows of a puzzle (20 digits).
	seed      uint64
	seedField []byte
}

// NewWriter returns a Writer on w. It does not write the header.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 512)}
}

// WriteHeader writes the header line.
func (w *Writer) WriteHeader() error {
	return w.writeBytes([]byte(strings.Join(Header, ",") + "\n"))
}

// Write appends one row.
func (w *Writer) Write(r *Row) error {
	b := w.buf[:0]
	b = appendInt(b, int64(r.ID))
	b = append(b, ',')
	b = appendInt(b, int64(r.Line))
	b = append(b, ',')
	b = appendField(b, r.Solver)
	b = append(b, ',')
	b = append(b, r.Status.String()...)
	b = append(b, ',')
	b = appendInt(b, r.NS)
	for _, v := range [...]uint64{r.Calls, r.Guesses, r.Backtracks} {
		b = append(b, ',')
		b = appendUint(b, v)
	}
	b = append(b, ',')
	b = appendInt(b, int64(r.Filled))
	b = append(b, ',')
	b = appendInt(b, int64(r.Clues))
	b = append(b, ',')
	if r.Solutions >= 0 {
		b = appendInt(b, int64(r.Solutions))
	}
	b = append(b, ',')
	if r.Seed != w.seed || w.seedField == nil {
		w.seed, w.seedField = r.Seed, appendUint(w.seedField[:0], r.Seed)
	}
	b = append(b, w.seedField...)
	b = append(b, ',')
	b = appendField(b, r.Solution)
	b = append(b, ',')
	b = appendField(b, r.Error)
	b = append(b, ',')
	if r.Corpus != w.corpus || w.corpusField == nil {
		w.corpus, w.corpusField = r.Corpus, appendField(w.corpusField[:0], r.Corpus)
	}
	b = append(b, w.corpusField...)
	b = append(b, '\n')
	w.buf = b
	return w.writeBytes(b)
}

// appendUint appends v in decimal, as strconv.AppendUint does. The digits
// are computed eight at a time, one per byte of a word (SWAR, decimal8),
// and the first word is appended without its leading zeros: no branch on
// the number's length, which strconv's loop mispredicts when the lengths
// vary from row to row (6 mispredicted branches a row, cachegrind), and
// fewer instructions for the 20-digit seeds (318 for strconv's).
func appendUint(b []byte, v uint64) []byte {
	if v >= 1e8 {
		hi := v / 1e8
		b = appendUint(b, hi) // hi < 1.9e11: one more level at most
		return binary.LittleEndian.AppendUint64(b, decimal8(uint32(v-hi*1e8))|0x3030303030303030)
	}
	d := decimal8(uint32(v))
	skip := bits.TrailingZeros64(d|1<<56) &^ 7 // leading zeros (low bytes), keeping the last digit
	n := len(b) + 8 - skip/8
	return binary.LittleEndian.AppendUint64(b, (d|0x3030303030303030)>>skip)[:n]
}

// appendInt is appendUint for an int64 (a negative one through strconv).
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		return strconv.AppendInt(b, v, 10)
	}
	return appendUint(b, uint64(v))
}

// decimal8 returns the eight decimal digits of v < 10^8, most significant
// first in the lowest byte: v = abcdefgh is split into abcd and efgh (two
// 32-bit lanes), each into two 16-bit lanes of two digits, each into two
// bytes of one digit, by a multiplication and a shift per step (x/100 is
// x*10486>>20 for x < 10^4; x/10 is x*103>>10 for x < 100; no product
// leaves its lane).
func decimal8(v uint32) uint64 {
	hi := v / 10000
	x := uint64(hi) | uint64(v-hi*10000)<<32
	q := x * 10486 >> 20 & (0x7f<<32 | 0x7f)
	x = q | (x-q*100)<<16
	q = x * 103 >> 10 & (0xf<<48 | 0xf<<32 | 0xf<<16 | 0xf)
	return q | (x-q*10)<<8
}

func (w *Writer) writeBytes(b []byte) error {
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("writing results: %w", err)
	}
	return w.err
}

// Flush writes any buffered rows and returns the first write error.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("writing results: %w", err)
	}
	return w.err
}

// needsQuotes reports whether s must be quoted as a CSV field: it holds a
// comma, a quote or a line break, or starts with a space.
func needsQuotes(s string) bool {
	if s != "" && s[0] == ' ' {
		return true
	}
	// Eight bytes at a time while none is below '-' (every special byte
	// is): a solution grid is read this way.
	const low, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		if (w&(0x7f*low)+(0x80-'-')*low|w)&high != high {
			break // a byte below '-' (or a special one) in these eight
		}
	}
	for ; i < len(s); i++ {
		if csvSpecial[s[i]] {
			return true
		}
	}
	return false
}

var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}

// appendField appends s as a CSV field, quoted only when it must be
// (RFC 4180, as encoding/csv reads it). Line breaks inside a message are
// replaced by spaces so that every row is one line (tail -f, resume).
func appendField(b []byte, s string) []byte {
	if !needsQuotes(s) {
		return append(b, s...)
	}
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// Reader reads rows from results.csv. A Reader is not safe for concurrent
// use.
type Reader struct {
	r    *csv.Reader
	file string
	cols []int // index in the file of each Header column, -1 if absent
	line int
	lean bool // leave Solution and Error empty (ReadResults does not keep them)
	// The solver and corpus of the last row, reused when the next row
	// has the same (most rows do) rather than cloned again.
	solver, corpus string
}

// NewReader reads the header of r and returns a Reader for its rows;
// file names r in errors. Columns are found by name, so a file with the
// DESIGN.md columns but no `corpus` column is read too (corpus "").
func NewReader(r io.Reader, file string) (*Reader, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: empty file, want a results.csv header", file)
		}
		return nil, fmt.Errorf("%s: reading header: %w", file, err)
	}
	rd := &Reader{r: cr, file: file, cols: make([]int, len(Header)), line: 1}
	for i, name := range Header {
		rd.cols[i] = -1
		for j, h := range head {
			if strings.TrimPrefix(h, "\uFEFF") == name {
				rd.cols[i] = j
			}
		}
		if rd.cols[i] < 0 && name != "corpus" {
			return nil, fmt.Errorf("%s:1: header has no %q column: not a results.csv", file, name)
		}
	}
	return rd, nil
}

// ErrBadRow is wrapped by the errors of rows that cannot be read.
var ErrBadRow = errors.New("bad row")

// Read returns the next row, or io.EOF at the end.
func (rd *Reader) Read() (Row, error) {
	rec, err := rd.r.Read()
	if err != nil {
		if err == io.EOF {
			return Row{}, io.EOF
		}
		line := rd.line + 1
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			line = pe.StartLine
		}
		return Row{}, fmt.Errorf("%s:%d: %w: %v", rd.file, line, ErrBadRow, err)
	}
	rd.line, _ = rd.r.FieldPos(0)
	field := func(col int) string {
		if i := rd.cols[col]; i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var row Row
	var errs []string
	num := func(col int) int64 {
		v, err := strconv.ParseInt(field(col), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %q is not an integer", Header[col], field(col)))
		}
		return v
	}
	unum := func(col int) uint64 {
		v, err := strconv.ParseUint(field(col), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %q is not a non-negative integer", Header[col], field(col)))
		}
		return v
	}
	if len(rec) != len(Header) && rd.cols[len(Header)-1] >= 0 {
		errs = append(errs, fmt.Sprintf("%d fields, want %d", len(rec), len(Header)))
	}
	row.ID = int(num(0))
	row.Line = int(num(1))
	row.Solver = field(2)
	st, err := solvers.ParseStatus(field(3))
	if err != nil {
		errs = append(errs, err.Error())
	}
	row.Status = st
	row.NS = num(4)
	row.Calls, row.Guesses, row.Backtracks = unum(5), unum(6), unum(7)
	row.Filled = int(num(8))
	row.Clues = int(num(9))
	row.Solutions = -1
	if s := field(10); s != "" {
		row.Solutions = int(num(10))
	}
	row.Seed = unum(11)
	if !rd.lean {
		row.Solution = strings.Clone(field(12))
		row.Error = strings.Clone(field(13))
	}
	if c := field(14); c != rd.corpus {
		rd.corpus = strings.Clone(c)
	}
	row.Corpus = rd.corpus
	if row.Solver != rd.solver {
		rd.solver = strings.Clone(row.Solver)
	}
	row.Solver = rd.solver
	if row.Solver == "" {
		errs = append(errs, "empty solver")
	}
	if len(errs) > 0 {
		return Row{}, fmt.Errorf("%s:%d: %w: %s", rd.file, rd.line, ErrBadRow, strings.Join(errs, "; "))
	}
	return row, nil
}

// Line returns the line number of the row last read.
func (rd *Reader) Line() int { return rd.line }
