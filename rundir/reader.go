package rundir

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"sudokubatch/solvers"
)

// Reader reads the rows of a results.csv one at a time, like a
// bufio.Scanner; a line that is not a row is a value, not the end:
//
//	rd, err := rundir.NewReader(f, path) // reads and checks the header
//	for rd.Scan() {
//		row, err := rd.Row() // err: a *RowError; the next Scan goes on
//	}
//	err = rd.Err() // the file could not be read
//
// Columns are found by name, so a file with the docs/DESIGN.md columns but no
// `corpus` column is read too (corpus ""). The single quote that the
// Writer puts before a text field that looks like a formula is taken off
// (UnescapeFormula). A Reader is not safe for concurrent use.
//
// The file is read as encoding/csv reads it (RFC 4180: quoted fields,
// line breaks inside them, "\r\n" line ends, blank lines skipped), and
// its errors are encoding/csv's. A line without a quote, which is every
// line the Writer writes unless a text field needs quoting, is split at
// its commas in place: no copy of the line, no string per row. A record
// with a quote is parsed by encoding/csv.
type Reader struct {
	br   *bufio.Reader
	file string
	cols []int // index in the file of each Header column, -1 if absent
	// fields is the number of columns of the header: every line has as
	// many (checked when the file has the corpus column, which every
	// version that wrote more than the docs/DESIGN.md columns wrote).
	fields int
	line   int // the first line of the record Scan read
	lines  int // the lines read so far
	lean   bool
	row    Row
	bad    error // the current line's *RowError
	err    error // the read error that ended the scan
	// The solver and corpus of the last row, reused when the next row
	// has the same (most rows do) rather than cloned again.
	solver, corpus string

	rec    []string // the fields of the record next read when it has a quote (valid until the next read)
	plain  []byte   // the record next read when it is a line without a quote, without its line break
	commas []int32  // the offsets of plain's commas (split)
	quoted bool     // the record next read has a quote: rec holds its fields
	raw    []byte   // its bytes as read, after the blank lines before it (see Raw)
	skip   int      // how many bytes of raw are blank lines before the record
	buf    []byte   // raw, when it is not in br's buffer: a long line, a record of several lines
	blank  []byte   // raw, when blank lines come before the record
}

// NewReader reads the header of r and returns a Reader for its rows;
// file names r in errors.
func NewReader(r io.Reader, file string) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, 64<<10), file: file, cols: make([]int, len(Header))}
	head, err := rd.record()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: empty file, want a results.csv header", file)
		}
		return nil, fmt.Errorf("%s: reading header: %w", file, err)
	}
	rd.fields = len(head)
	for i, name := range Header {
		rd.cols[i] = -1
		for j, h := range head {
			if strings.TrimPrefix(h, "\uFEFF") == name {
				rd.cols[i] = j
			}
		}
		if rd.cols[i] < 0 && i < baseColumns && name != "corpus" {
			return nil, fmt.Errorf("%s:1: header has no %q column: not a results.csv", file, name)
		}
	}
	return rd, nil
}

// OmitText makes the reader leave Row.Solution and Row.Error empty: the
// reports do not use them, and cloning them is most of a row's garbage.
func (rd *Reader) OmitText() { rd.lean = true }

// ErrBadRow is wrapped by every *RowError.
var ErrBadRow = errors.New("bad row")

// RowError is a line of results.csv that is not a row.
type RowError struct {
	File   string
	Line   int
	Reason string
}

func (e *RowError) Error() string {
	return fmt.Sprintf("%s:%d: %v: %s", e.File, e.Line, ErrBadRow, e.Reason)
}

func (e *RowError) Unwrap() error { return ErrBadRow }

// Scan advances to the next line. It returns false at the end of the
// file or when the file cannot be read (see Err).
func (rd *Reader) Scan() bool {
	if !rd.read() {
		return false
	}
	if rd.bad == nil {
		rd.split()
		rd.bad = rd.parse()
	}
	return true
}

// read reads the next record, as Scan does, without parsing it: a record
// that encoding/csv refuses is a *RowError in rd.bad.
func (rd *Reader) read() bool {
	if rd.err != nil {
		return false
	}
	rd.bad = nil
	if err := rd.next(); err != nil {
		var pe *csv.ParseError
		switch {
		case err == io.EOF:
			return false
		case errors.As(err, &pe):
			rd.line = pe.StartLine
			rd.bad = &RowError{rd.file, rd.line, err.Error()}
			return true
		}
		rd.err = fmt.Errorf("%s: reading after line %d: %w", rd.file, rd.line, err)
		return false
	}
	return true
}

// Raw returns the bytes of the record Scan read as they are in the file,
// its line break included, and before them the blank lines that Scan
// skipped (skip bytes); after the last Scan, the blank lines at the end
// of the file. They are valid until the next Scan.
func (rd *Reader) Raw() (raw []byte, skip int) { return rd.raw, rd.skip }

// Row returns the row of the line Scan read, or a *RowError saying why
// the line is not one. The Row is overwritten by the next Scan.
func (rd *Reader) Row() (*Row, error) {
	if rd.bad != nil {
		return nil, rd.bad
	}
	return &rd.row, nil
}

// Columns returns the number of leading Header columns the file has (15
// for a file written before the timing columns): the Writer that appends
// to it writes as many (Writer.SetColumns).
func (rd *Reader) Columns() int {
	n := 0
	for n < len(rd.cols) && rd.cols[n] >= 0 {
		n++
	}
	return n
}

// retimedValue returns the constant equal to r, so that rows share it.
func retimedValue(r string) string {
	switch r {
	case RetimedSlow:
		return RetimedSlow
	case RetimedNoise:
		return RetimedNoise
	case RetimedConfirmed:
		return RetimedConfirmed
	case RetimedCache:
		return RetimedCache
	}
	return ""
}

// Err returns the error that ended the scan, or nil at the end of the
// file.
func (rd *Reader) Err() error { return rd.err }

// Line returns the line number of the line Scan read.
func (rd *Reader) Line() int { return rd.line }

// parse fills rd.row from the fields of a line.
func (rd *Reader) parse() error {
	n := rd.nfields()
	field := func(col int) string {
		if i := rd.cols[col]; i >= 0 && i < n {
			return rd.field(i)
		}
		return ""
	}
	row := &rd.row
	*row = Row{}
	if field(0) == Header[0] && field(2) == Header[2] {
		return &RowError{rd.file, rd.line, "a header line in the middle of the file: several results.csv files concatenated? (shard runs are joined with batch merge)"}
	}
	var errs []string
	num := func(col int) int64 {
		if v, ok := digits(field(col)); ok && v <= math.MaxInt64 {
			return int64(v)
		}
		v, err := strconv.ParseInt(field(col), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %q is not an integer", Header[col], field(col)))
		}
		return v
	}
	unum := func(col int) uint64 {
		if v, ok := digits(field(col)); ok {
			return v
		}
		v, err := strconv.ParseUint(field(col), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %q is not a non-negative integer", Header[col], field(col)))
		}
		return v
	}
	if n != rd.fields && rd.cols[baseColumns-1] >= 0 {
		errs = append(errs, fmt.Sprintf("%d fields, want %d", n, rd.fields))
	}
	row.ID = int(num(0))
	row.Line = int(num(1))
	row.Solver = UnescapeFormula(field(2))
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
		row.Solution = strings.Clone(UnescapeFormula(field(12)))
		row.Error = strings.Clone(UnescapeFormula(field(13)))
	}
	if c := UnescapeFormula(field(14)); c != rd.corpus {
		rd.corpus = strings.Clone(c)
	}
	row.Corpus = rd.corpus
	if i := rd.cols[baseColumns]; i >= 0 && i < n {
		row.Runs = int(num(baseColumns))
		row.NSMin, row.NSMedian = num(baseColumns+1), num(baseColumns+2)
		switch r := field(baseColumns + 3); r {
		case "", RetimedSlow, RetimedNoise, RetimedConfirmed, RetimedCache:
			row.Retimed = retimedValue(r)
		default:
			errs = append(errs, fmt.Sprintf("retimed %q is not one of slow, noise, confirmed, cache or empty", r))
		}
		switch u := field(baseColumns + 4); u {
		case "", "0":
		case "1":
			row.Unstable = true
		default:
			errs = append(errs, fmt.Sprintf("unstable %q is not 0 or 1", u))
		}
	}
	if i := rd.cols[selfColumn]; i >= 0 && i < n && rd.field(i) != "" {
		row.SelfNS = num(selfColumn)
	}
	if row.Solver != rd.solver {
		rd.solver = strings.Clone(row.Solver)
	}
	row.Solver = rd.solver
	if row.Solver == "" {
		errs = append(errs, "empty solver")
	}
	if len(errs) > 0 {
		return &RowError{rd.file, rd.line, strings.Join(errs, "; ")}
	}
	return nil
}

// digits returns the value of s when s is 1 to 20 decimal digits whose
// value fits in 64 bits (a seed has 20 digits about half the time), as
// strconv.ParseUint returns it; ok is false for anything else (a sign, a
// bad number, a value beyond 64 bits), which strconv then parses or
// refuses.
func digits(s string) (v uint64, ok bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		if i == 19 && v > (math.MaxUint64-uint64(d))/10 {
			return 0, false // beyond 64 bits
		}
		v = v*10 + uint64(d)
	}
	return v, true
}

// UnescapeFormula undoes EscapeFormula: it takes the single quote off a
// field that starts with one when the rest is a field that EscapeFormula
// escapes, and returns any other field as it is (one that a spreadsheet
// would run but has no quote, written by an older version or by hand,
// included).
func UnescapeFormula(s string) string {
	if len(s) > 2 && s[0] == '\'' && isFormula(s[1:]) {
		return s[1:]
	}
	return s
}
