package solvers

import "fmt"

// ParsePuzzle parses one puzzle line: N*N symbols for a 4x4, 9x9 or 16x16
// grid, '0' or '.' for an empty cell, '1'-'9' then 'A'-'G' (either case).
// The puzzle may be followed by whitespace, ':' or ',' and anything else
// (e.g. "puzzle:1:solution"). Leading and trailing white space, a trailing
// CR and a UTF-8 byte order mark are ignored.
//
// The error says what is wrong with the line (wrong length, bad symbol,
// conflicting givens); callers that know the file and line wrap it in a
// *SyntaxError.
func ParsePuzzle(line string) (Puzzle, error) { return parsePuzzle(line) }

// parsePuzzle is ParsePuzzle for a string or a byte slice (the Scanner's
// line, parsed without a copy).
func parsePuzzle[T string | []byte](line T) (Puzzle, error) {
	// Trim a BOM and white space, then cut at the first separator.
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		line = line[3:]
	}
	start := 0
	for start < len(line) && isSpace(line[start]) {
		start++
	}
	end := start
	for end < len(line) && !isSeparator(line[end]) {
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
		return Puzzle{}, fmt.Errorf("empty puzzle")
	default:
		return Puzzle{}, fmt.Errorf("puzzle has %d symbols, want 16 (4x4), 81 (9x9) or 256 (16x16)", len(tok))
	}
	p := Puzzle{Grid: NewGrid(box)}
	side := uint8(p.Side())
	for i := 0; i < len(tok); i++ {
		v := symbolValues[tok[i]]
		if v > side {
			return Puzzle{}, fmt.Errorf("bad symbol %q at position %d for a %dx%d grid", symbolAt(string(tok[i:min(i+4, len(tok))]), 0), i+1, side, side)
		}
		p.Cells[i] = v
	}
	if err := p.validate(); err != nil {
		return Puzzle{}, err
	}
	return p, nil
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
