package solvers

import (
	"encoding/binary"
	"fmt"
)

// ParsePuzzle parses one puzzle line: N*N symbols for a 4x4, 9x9 or 16x16
// grid, '0' or '.' for an empty cell, '1'-'9' then 'A'-'G' (either case).
// The puzzle may be followed by whitespace, ':' or ',' and anything else
// (e.g. "puzzle:1:solution"). Leading and trailing white space, a trailing
// CR and a UTF-8 byte order mark are ignored.
//
// The error says what is wrong with the line (wrong length, bad symbol,
// conflicting givens); callers that know the file and line wrap it in a
// corpus.SyntaxError.
func ParsePuzzle(line string) (Puzzle, error) {
	var p Puzzle
	if err := parseInto(&p, line); err != nil {
		return Puzzle{}, err
	}
	return p, nil
}

// ParseLine is ParsePuzzle into *p for a line held in a byte slice: the
// corpus Scanner parses its line without a copy into its entry. On error
// *p is the zero Puzzle.
func ParseLine(p *Puzzle, line []byte) error {
	if err := parseInto(p, line); err != nil {
		*p = Puzzle{}
		return err
	}
	return nil
}

// parseInto is ParsePuzzle into *p, for a string or a byte slice. On
// error *p is left partly written.
func parseInto[T string | []byte](p *Puzzle, line T) error {
	*p = Puzzle{}
	line, start := trimStart(line)
	if parse81(p, line, start) {
		return p.validate()
	}
	return parseSymbols(p, line, start)
}

// trimStart drops a BOM from line and returns it with the index of its
// first byte that is not white space.
func trimStart[T string | []byte](line T) (T, int) {
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		line = line[3:]
	}
	start := 0
	for start < len(line) && byteClass[line[start]]&classSpace != 0 {
		start++
	}
	return line, start
}

// parse81 is parseInto's fast path for the corpus line: 81 digits or dots
// from start, then the end of the line or a separator. It reads them as
// ten words and a byte without a loop (parseSymbols' loop exit was
// mispredicted once a line) and reports false, having written nothing,
// for any other line.
func parse81[T string | []byte](p *Puzzle, line T, start int) bool {
	if n := len(line) - start; n < 81 || n > 81 && byteClass[line[start+81]]&classSeparator == 0 {
		return false
	}
	l := line[start:][:81]
	v0, in0 := digits8Mask(load8(l, 0))
	v1, in1 := digits8Mask(load8(l, 8))
	v2, in2 := digits8Mask(load8(l, 16))
	v3, in3 := digits8Mask(load8(l, 24))
	v4, in4 := digits8Mask(load8(l, 32))
	v5, in5 := digits8Mask(load8(l, 40))
	v6, in6 := digits8Mask(load8(l, 48))
	v7, in7 := digits8Mask(load8(l, 56))
	v8, in8 := digits8Mask(load8(l, 64))
	v9, in9 := digits8Mask(load8(l, 72))
	last := symbolValues[l[80]]
	if in0&in1&in2&in3&in4&in5&in6&in7&in8&in9 != swarHigh || last > 9 {
		return false
	}
	c := (*[81]uint8)(p.Cells[:81])
	binary.LittleEndian.PutUint64(c[0:], v0)
	binary.LittleEndian.PutUint64(c[8:], v1)
	binary.LittleEndian.PutUint64(c[16:], v2)
	binary.LittleEndian.PutUint64(c[24:], v3)
	binary.LittleEndian.PutUint64(c[32:], v4)
	binary.LittleEndian.PutUint64(c[40:], v5)
	binary.LittleEndian.PutUint64(c[48:], v6)
	binary.LittleEndian.PutUint64(c[56:], v7)
	binary.LittleEndian.PutUint64(c[64:], v8)
	binary.LittleEndian.PutUint64(c[72:], v9)
	c[80] = last
	p.Box = 3
	return true
}

// parseSymbols parses the symbols of line from start (after trimStart)
// into the zero puzzle *p: any line parseInto accepts, and every error.
func parseSymbols[T string | []byte](p *Puzzle, line T, start int) error {
	// One pass to the first separator reads the symbols into a full-size
	// grid (the length, hence the box size, is known only at the end) and
	// remembers the largest value (255 for a byte that is not a symbol).
	var top uint8
	end := start
	// Eight bytes at a time while they are all digits or dots (the common
	// corpus line), then a byte at a time. over5 has the high bit of the
	// bytes holding a value in 5..9 (out of range for a 4x4 only), taken
	// after the loop: a branch per eight bytes was mispredicted once a line.
	var over5 uint64
	for end+8 <= len(line) && end-start+8 <= MaxCells {
		v, ok := digits8(load8(line, end))
		if !ok {
			break
		}
		binary.LittleEndian.PutUint64(p.Cells[end-start:], v)
		over5 |= ((v | swarHigh) - 5*swarLow) & swarHigh // no borrow crosses a lane
		end += 8
	}
	if over5 != 0 {
		top = 9
	}
	for end < len(line) {
		ch := line[end]
		if byteClass[ch]&classSeparator != 0 {
			break
		}
		v := symbolValues[ch]
		p.Cells[(end-start)&(MaxCells-1)] = v
		top = max(top, v)
		end++
	}
	tok := line[start:end]
	var box int
	switch len(tok) {
	case 16:
		box = 2
	case 81:
		box = 3
	case 256:
		box = 4
	case 0:
		return fmt.Errorf("empty puzzle")
	default:
		return fmt.Errorf("puzzle has %d symbols, want 16 (4x4), 81 (9x9) or 256 (16x16)", len(tok))
	}
	p.Box = box
	side := uint8(p.Side())
	if top > side {
		for i := 0; i < len(tok); i++ {
			if symbolValues[tok[i]] > side {
				return fmt.Errorf("bad symbol %q at position %d for a %dx%d grid", symbolAt(string(tok[i:min(i+4, len(tok))]), 0), i+1, side, side)
			}
		}
	}
	return p.validate()
}

// load8 returns the eight bytes of s at i, little endian.
func load8[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// digits8 returns the values of eight bytes that are all '0'-'9' or '.'
// ('.' is 0), and whether they all are (SWAR: each byte is a lane).
func digits8(w uint64) (uint64, bool) {
	v, in := digits8Mask(w)
	return v, in == swarHigh
}

// digits8Mask is digits8 with, instead of the answer, the high bit of
// each byte that is a digit or a dot.
func digits8Mask(w uint64) (v, in uint64) {
	const low7 = 0x7f * swarLow
	dots := ^nonZeroBytes(w^'.'*swarLow) & swarHigh   // the high bit of each byte that is '.'
	w += (dots >> 7) * 2                              // '.' + 2 == '0'
	ge0 := (w | swarHigh) - '0'*swarLow               // high bit: byte >= '0' (of its low 7 bits)
	le9 := (0x80+'9')*swarLow - (w & low7)            // high bit: byte <= '9' (of its low 7 bits)
	return w - '0'*swarLow, ge0 & le9 & ^w & swarHigh // and the byte < 0x80
}

// symbolValues maps an input byte to its value (0 for '0' and '.'), or
// to 255 when it is not a symbol.
var symbolValues = func() (t [256]uint8) {
	for c := range t {
		v, ok := symbolValue(byte(c))
		if !ok {
			v = 255
		}
		t[c] = v
	}
	return t
}()

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// isSeparator reports whether c ends the puzzle part of a line.
func isSeparator(c byte) bool { return isSpace(c) || c == ':' || c == ',' || c == ';' }

// byteClass holds isSpace and isSeparator of every byte, for the parser's
// loops.
var byteClass = func() (t [256]uint8) {
	for c := range t {
		if isSpace(byte(c)) {
			t[c] |= classSpace
		}
		if isSeparator(byte(c)) {
			t[c] |= classSeparator
		}
	}
	return t
}()

const (
	classSpace = 1 << iota
	classSeparator
)

// symbolAt returns the (possibly multi-byte) character starting at byte i,
// so that error messages show it whole.
func symbolAt(s string, i int) string {
	for _, r := range s[i:] {
		return string(r)
	}
	return ""
}

// MustParse is ParsePuzzle for tests and examples: it panics on error.
func MustParse(line string) Puzzle {
	p, err := ParsePuzzle(line)
	if err != nil {
		panic(fmt.Sprintf("solvers.MustParse(%q): %v", line, err))
	}
	return p
}
