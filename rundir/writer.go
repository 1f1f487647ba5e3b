package rundir

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
)

// Writer writes rows to results.csv. It buffers; call Flush to push the
// rows out and learn of any write error. A Writer is not safe for
// concurrent use.
//
// Fields are quoted only when they must be (RFC 4180, as encoding/csv
// reads it), and a line break inside a text field becomes a space, so
// that every row is one line. A text field (solver, solution, error,
// corpus) that a spreadsheet would run as a formula is written with a
// single quote in front (EscapeFormula): a corpus named =HYPERLINK(...)
// is shown as text. The Reader takes the quote off again (UnescapeFormula),
// so that writing a row and reading it back gives the same row, whatever
// its text (line breaks aside). Numbers are written as digits: the tool
// makes no negative one, and one in a Row made by hand or read from an
// edited file is a minus sign and digits, a number to a spreadsheet, not
// a formula.
type Writer struct {
	w   *rowBuffer
	err error
	// The corpus of the last row and its encoding: a run's rows share a
	// few corpora, so the field is encoded once per change.
	corpus      string
	corpusField []byte
	// Likewise the seed, shared by the rows of a puzzle (20 digits), and
	// the solver, shared by a batch of rows.
	seed        uint64
	seedField   []byte
	solver      string
	solverField []byte
	cols        int   // columns written: len(Header), or fewer for an older file
	n           int64 // bytes written (taken by the buffer)
}

// rowBuffer holds the rows that a Writer has encoded and not yet written
// to out. A row is encoded in place at its end, not copied there, and
// the buffer goes to out whole when it is nearly full (Flush).
type rowBuffer struct {
	out   io.Writer
	buf   []byte
	limit int // the size past which buf is written out
}

// Reset makes b write to out, dropping what it holds (the Writer was
// flushed before: it holds nothing).
func (b *rowBuffer) Reset(out io.Writer) { b.out, b.buf = out, b.buf[:0] }

// writerBuffer is the size of the buffer of the files that an amend
// writes results.csv again through.
const writerBuffer = 64 << 10

// rowsBuffer is the size of a Writer's buffer: it is written out when it
// holds more than rowsBuffer-rowRoom bytes, so that a row of up to
// rowRoom bytes (every row of a sweep) is encoded without growing it.
// 256 KB would take about 0.6 ms less of the system's time a 9 MB file
// (15% of its writes, ext4) for 192 KB more of the sweep's peak memory,
// which is kept under 15 MB.
const (
	rowsBuffer = 64 << 10
	rowRoom    = 2 << 10
)

// NewWriter returns a Writer on w. It does not write the header. A
// *bufio.Writer (an amend's) buffers the rows itself: the Writer's own
// buffer is then a small one.
func NewWriter(w io.Writer) *Writer {
	size := rowsBuffer
	if _, ok := w.(*bufio.Writer); ok {
		size = 2 * rowRoom
	}
	return &Writer{w: &rowBuffer{out: w, buf: make([]byte, 0, size), limit: size - rowRoom}, cols: len(Header)}
}

// SetColumns makes the writer write the first n columns of Header only
// (at least the 15 up to corpus): the rows appended to a results.csv
// written by an older version have the columns of its header.
func (w *Writer) SetColumns(n int) { w.cols = min(max(n, baseColumns), len(Header)) }

// WriteHeader writes the header line.
func (w *Writer) WriteHeader() error {
	if w.err != nil {
		return w.err
	}
	return w.took(append(w.w.buf, strings.Join(Header[:w.cols], ",")+"\n"...))
}

// Write appends one row.
func (w *Writer) Write(r *Row) error {
	if w.err != nil {
		return w.err
	}
	b := w.w.buf
	b = appendInt(b, int64(r.ID))
	b = append(b, ',')
	b = appendInt(b, int64(r.Line))
	b = append(b, ',')
	if r.Solver != w.solver || w.solverField == nil {
		w.solver, w.solverField = r.Solver, appendField(w.solverField[:0], r.Solver)
	}
	b = append(b, w.solverField...)
	b = append(b, ',')
	b = append(b, r.Status.String()...)
	b = append(b, ',')
	ns := len(b)
	b = appendInt(b, r.NS)
	ns2 := len(b)
	b = append(b, ',')
	b = appendUint(b, r.Calls)
	b = append(b, ',')
	b = appendUint(b, r.Guesses)
	b = append(b, ',')
	b = appendUint(b, r.Backtracks)
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
	if r.Error != "" {
		b = appendField(b, r.Error)
	}
	b = append(b, ',')
	if r.Corpus != w.corpus || w.corpusField == nil {
		w.corpus, w.corpusField = r.Corpus, appendField(w.corpusField[:0], r.Corpus)
	}
	b = append(b, w.corpusField...)
	if w.cols > baseColumns {
		b = w.appendTiming(b, r, ns, ns2)
	}
	return w.took(append(b, '\n'))
}

// appendNS appends v, a time of the row whose ns column, of value rowNS,
// b[ns:ns2] holds: its digits copied when v is that value.
func appendNS(b []byte, v, rowNS int64, ns, ns2 int) []byte {
	if v == rowNS {
		return append(b, b[ns:ns2]...)
	}
	return appendInt(b, v)
}

// appendTiming appends the timing columns after corpus, as many as the
// writer writes (Header's order: runs, ns_min, ns_median, retimed,
// unstable, self_ns). b[ns:ns2] holds the row's ns column: a unit timed
// once has the same ns_min and ns_median, whose digits are copied.
func (w *Writer) appendTiming(b []byte, r *Row, ns, ns2 int) []byte {
	more := w.cols - baseColumns // 1 to 6
	b = append(b, ',')
	b = appendInt(b, int64(r.Runs))
	if more == 1 {
		return b
	}
	b = appendNS(append(b, ','), r.NSMin, r.NS, ns, ns2)
	if more == 2 {
		return b
	}
	b = appendNS(append(b, ','), r.NSMedian, r.NS, ns, ns2)
	if more == 3 {
		return b
	}
	b = append(b, ',')
	if r.Retimed != "" {
		b = appendField(b, r.Retimed)
	}
	if more == 4 {
		return b
	}
	if r.Unstable {
		b = append(b, ",1"...)
	} else {
		b = append(b, ",0"...)
	}
	if more == 5 {
		return b
	}
	b = append(b, ',')
	if r.SelfNS > 0 {
		b = appendInt(b, r.SelfNS)
	}
	return b
}

// appendUint appends v in decimal, as strconv.AppendUint does. A number
// below 10^4 (most of a row's: counters, clues, a fast unit's times) is
// two digit pairs from a table (appendDigits4). Else the digits are
// computed eight at a time, one per byte of a word (SWAR, decimal8), and
// the first word is appended without its leading zeros: no branch on the
// number's length beyond those two, which strconv's loop mispredicts
// when the lengths vary from row to row, and fewer instructions for the
// 20-digit seeds.
func appendUint(b []byte, v uint64) []byte {
	if v < 1e4 {
		return appendDigits4(b, uint32(v))
	}
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

// digitPairs holds the two digits of each number below 100, the tens in
// the low byte: "00" to "99".
var digitPairs = func() (t [100]uint16) {
	for i := range t {
		t[i] = uint16('0'+i/10) | uint16('0'+i%10)<<8
	}
	return t
}()

// appendDigits4 appends v < 10^4 in decimal: its two digit pairs
// (digitPairs) make a word of four digits, most significant in the low
// byte, appended without its leading zeros (keeping the last digit).
func appendDigits4(b []byte, v uint32) []byte {
	hi := v * 5243 >> 19 // v/100 for v < 43699
	d := uint32(digitPairs[hi]) | uint32(digitPairs[v-hi*100])<<16
	skip := bits.TrailingZeros32(d^0x30303030|1<<24) &^ 7
	n := len(b) + 4 - skip/8
	return binary.LittleEndian.AppendUint32(b, d>>skip)[:n]
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

// took makes b, the buffer with bytes appended, the Writer's buffer,
// counts the bytes, and writes the buffer out when it is nearly full.
func (w *Writer) took(b []byte) error {
	w.n += int64(len(b) - len(w.w.buf))
	w.w.buf = b
	if len(b) > w.w.limit {
		return w.Flush()
	}
	return nil
}

// Flush writes any buffered rows and returns the first write error.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	b := w.w
	n, err := b.out.Write(b.buf)
	if err == nil && n < len(b.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = fmt.Errorf("writing results: %w", err)
		return w.err
	}
	if cap(b.buf) > 2*(b.limit+rowRoom) {
		b.buf = make([]byte, 0, b.limit+rowRoom) // grown by a row longer than rowRoom
	}
	b.buf = b.buf[:0]
	return nil
}

// needsQuotes reports whether s must be quoted as a CSV field: it holds a
// comma, a quote or a line break, or starts with a space.
func needsQuotes(s string) bool {
	if s != "" && s[0] == ' ' {
		return true
	}
	// Sixteen bytes at a time, then eight, while none is below '-' (every
	// special byte is): a solution grid is read this way.
	i := 0
	for ; i+16 <= len(s); i += 16 {
		if !aboveDash(word(s[i:i+8]) & word(s[i+8:i+16])) {
			break // a byte below '-' (or a special one) in these sixteen
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if !aboveDash(word(s[i : i+8])) {
			break
		}
	}
	for ; i < len(s); i++ {
		if csvSpecial[s[i]] {
			return true
		}
	}
	return false
}

// word returns the eight bytes of b (eight long), the first in the low
// byte.
func word(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// aboveDash reports whether each byte of w, with its high bit cleared,
// is '-' or above, or had its high bit set: then none of the eight is
// special. When the AND of two words passes, both do (each has every
// bit the AND has): sixteen bytes are passed at once, and a word that
// fails is looked at again eight and one bytes at a time.
func aboveDash(w uint64) bool {
	const low, high = 0x0101010101010101, 0x8080808080808080
	return (w&(0x7f*low)+(0x80-'-')*low|w)&high == high
}

var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}

// formulaLead holds the bytes that make a field a formula to a
// spreadsheet when they lead it (the OWASP CSV injection list: = + - @
// tab CR), and the single quote that EscapeFormula puts before them.
var formulaLead = [256]bool{'=': true, '+': true, '-': true, '@': true, '\t': true, '\r': true, '\'': true}

// lineBreaks turns the line breaks of a text field into spaces.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// isFormula reports whether s gets a quote in front when written: it is
// longer than one byte and, past all its leading single quotes, starts
// with = + - @ tab or CR. A lone "-" (standard input, as a corpus) is
// left alone. Looking past the quotes makes the escape undoable: a field
// that starts with a quote is written with one more quote exactly when
// the same field without it would be, so the Reader removes one quote
// from a field that starts with one and passes this test, and only then.
func isFormula(s string) bool {
	if len(s) < 2 {
		return false
	}
	i := 0
	for i < len(s) && s[i] == '\'' {
		i++
	}
	return i < len(s) && formulaLead[s[i]] // s[i] is not a quote
}

// EscapeFormula returns s as a CSV cell that a spreadsheet shows as
// text: with a single quote in front when isFormula(s) (see Writer), else
// s itself. UnescapeFormula(EscapeFormula(s)) is s for every s. Every CSV
// file the tool writes escapes its cells this way.
func EscapeFormula(s string) string {
	if len(s) > 1 && formulaLead[s[0]] && isFormula(s) {
		return "'" + s
	}
	return s
}

// appendField appends s as a CSV field: with a quote in front when it
// could be run as a formula (EscapeFormula), quoted only when it must be
// (RFC 4180, as encoding/csv reads it). Line breaks are replaced by
// spaces before the formula test, so that every row is one line (tail -f,
// resume) and the field read back is the one tested.
func appendField(b []byte, s string) []byte {
	quote := needsQuotes(s)
	if !quote && (len(s) < 2 || !formulaLead[s[0]]) {
		return append(b, s...) // the common case: one table lookup more
	}
	if quote {
		s = lineBreaks.Replace(s)
		b = append(b, '"')
	}
	if isFormula(s) {
		b = append(b, '\'')
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}
