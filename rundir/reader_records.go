package rundir

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"io"
	"math/bits"
	"unsafe"
)

// readLine returns the next line of the file, its line break included,
// and io.EOF after the last one (with the last line when it has no line
// break). The line is in br's buffer or in rd.buf, valid until the next
// read; keep appends it to rd.buf instead (a record of several lines).
func (rd *Reader) readLine(keep bool) ([]byte, error) {
	line, err := rd.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull || (keep && len(line) > 0) {
		if !keep {
			rd.buf = rd.buf[:0]
		}
		start := len(rd.buf)
		rd.buf = append(rd.buf, line...)
		for err == bufio.ErrBufferFull {
			line, err = rd.br.ReadSlice('\n')
			rd.buf = append(rd.buf, line...)
		}
		line = rd.buf[start:]
	}
	if len(line) > 0 {
		rd.lines++
		if err == io.EOF {
			err = nil
		}
	}
	return line, err
}

// content returns line without its line break, as encoding/csv reads it:
// "\r\n" and "\n" end a line, and a "\r" before the end of the file is
// dropped.
func content(line []byte, last bool) []byte {
	n := len(line)
	switch {
	case n > 0 && line[n-1] == '\n':
		if n > 1 && line[n-2] == '\r' {
			return line[:n-2]
		}
		return line[:n-1]
	case last && n > 0 && line[n-1] == '\r':
		return line[:n-1]
	}
	return line
}

// record reads the next record and returns its fields (next, split).
func (rd *Reader) record() ([]string, error) {
	err := rd.next()
	if err == io.EOF {
		return nil, err
	}
	rd.split()
	rec := make([]string, rd.nfields())
	for i := range rec {
		rec[i] = rd.field(i)
	}
	return rec, err
}

// next reads the next record into rd.raw. A line without a quote is
// left in rd.plain (without its line break) for split; a record
// with a quote is read whole (its quoted fields may hold line breaks) and
// parsed by encoding/csv into rd.rec (rd.quoted). Blank lines are
// skipped, as encoding/csv skips them. It returns io.EOF at the end, or
// the error of encoding/csv or of the read.
func (rd *Reader) next() error {
	rd.skip = 0
	rd.blank = rd.blank[:0]
	rd.plain, rd.quoted = nil, false
	var line, c []byte
	var err error
	for {
		if line, err = rd.readLine(false); len(line) == 0 {
			if err == nil {
				err = io.EOF
			}
			rd.raw = rd.blank
			return err
		}
		if c = content(line, line[len(line)-1] != '\n'); len(c) > 0 {
			break
		}
		// A blank line, copied for Raw: it may be in br's buffer, which
		// the next read overwrites.
		rd.blank = append(rd.blank, line...)
		rd.skip = len(rd.blank)
	}
	rd.line = rd.lines
	rd.raw = line
	if rd.skip > 0 {
		rd.blank = append(rd.blank, line...)
		rd.raw = rd.blank
	}
	if bytes.IndexByte(c, '"') < 0 {
		rd.plain = c
		return err
	}
	rd.quoted = true
	return rd.readQuoted(c, err)
}

// split finds the fields of the record next read: a line without a
// quote, the offsets of its commas.
func (rd *Reader) split() {
	if !rd.quoted {
		rd.commas = commas(rd.commas[:0], rd.plain)
	}
}

// nfields returns the number of fields of the record split.
func (rd *Reader) nfields() int {
	if rd.quoted {
		return len(rd.rec)
	}
	return len(rd.commas) + 1
}

// field returns field i of the record split (i < nfields), valid until
// the next read: a field of a line without a quote shares its memory.
func (rd *Reader) field(i int) string {
	if rd.quoted {
		return rd.rec[i]
	}
	start, end := 0, len(rd.plain)
	if i > 0 {
		start = int(rd.commas[i-1]) + 1
	}
	if i < len(rd.commas) {
		end = int(rd.commas[i])
	}
	if start == end {
		return ""
	}
	return unsafe.String(&rd.plain[start], end-start)
}

// firstField returns the first field of the record next read, valid
// until the next read.
func (rd *Reader) firstField() string {
	if rd.quoted {
		if len(rd.rec) == 0 {
			return ""
		}
		return rd.rec[0]
	}
	c := rd.plain
	if i := bytes.IndexByte(c, ','); i >= 0 {
		c = c[:i]
	}
	return unsafe.String(unsafe.SliceData(c), len(c))
}

// commas appends to dst the offsets of the commas of c, found eight
// bytes at a time: a line of results.csv has about twenty.
func commas(dst []int32, c []byte) []int32 {
	const low, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(c); i += 8 {
		x := binary.LittleEndian.Uint64(c[i:]) ^ ','*low // a comma's byte becomes 0
		// The high bit of each byte of m is set where x's byte is 0,
		// exactly (no carry crosses a byte).
		m := ^((x&(0x7f*low) + 0x7f*low) | x) & high
		for ; m != 0; m &= m - 1 {
			dst = append(dst, int32(i+bits.TrailingZeros64(m)/8))
		}
	}
	for ; i < len(c); i++ {
		if c[i] == ',' {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// readQuoted reads the rest of a record whose first line, c (without its
// line break), holds a quote, and parses it with encoding/csv into
// rd.rec. The record goes on past a line that ends inside a quoted field.
func (rd *Reader) readQuoted(c []byte, err error) error {
	start := rd.line
	inQuotes := continues(c, false) // before rd.buf changes: c may be in it (a long line)
	rd.buf = append(rd.buf[:0], rd.raw...)
	for ; inQuotes && err == nil; inQuotes = continues(c, true) {
		var line []byte
		if line, err = rd.readLine(true); len(line) == 0 {
			break
		}
		c = content(line, line[len(line)-1] != '\n')
	}
	rd.raw = rd.buf
	cr := csv.NewReader(bytes.NewReader(rd.buf[rd.skip:]))
	cr.FieldsPerRecord = -1
	rec, perr := cr.Read()
	rd.rec = rec
	if pe, ok := errors.AsType[*csv.ParseError](perr); ok {
		pe.StartLine += start - 1
		pe.Line += start - 1
	}
	if perr != nil {
		return perr
	}
	return err
}

// continues reports whether a record whose line c (without its line
// break) starts inside a quoted field when inQuotes goes on to the next
// line: it ends inside a quoted field. A quote that encoding/csv refuses
// (a bare quote in an unquoted field, a quote after a quoted field) ends
// the record at this line, as encoding/csv ends it there with its error.
func continues(c []byte, inQuotes bool) bool {
	for {
		if !inQuotes {
			// At the start of a field.
			if len(c) == 0 || c[0] != '"' {
				i := bytes.IndexByte(c, ',')
				field := c
				if i >= 0 {
					field = c[:i]
				}
				if bytes.IndexByte(field, '"') >= 0 || i < 0 {
					return false // a bare quote (an error), or the last field
				}
				c = c[i+1:]
				continue
			}
			c = c[1:]
		}
		// Inside a quoted field.
		i := bytes.IndexByte(c, '"')
		if i < 0 {
			return true
		}
		c = c[i+1:]
		switch {
		case len(c) > 0 && c[0] == '"':
			c = c[1:] // an escaped quote
			inQuotes = true
		case len(c) > 0 && c[0] == ',':
			c = c[1:]
			inQuotes = false
		default:
			return false // the end of the record, or a quote refused
		}
	}
}
