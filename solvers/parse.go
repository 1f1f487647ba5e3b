package solvers

import (
	"fmt"
	"strings"
)

// ParsePuzzle parses one puzzle line: N*N symbols for a 4x4, 9x9 or 16x16
// grid, '0' or '.' for an empty cell, '1'-'9' then 'A'-'G' (either case).
// The puzzle may be followed by whitespace, ':' or ',' and anything else
// (e.g. "puzzle:1:solution"). Leading and trailing white space, a trailing
// CR and a UTF-8 byte order mark are ignored.
//
// The error says what is wrong with the line (wrong length, bad symbol,
// conflicting givens); callers that know the file and line wrap it in a
// *SyntaxError.
func ParsePuzzle(line string) (Puzzle, error) {
	line = strings.TrimPrefix(line, "\uFEFF")
	line = strings.TrimSpace(line)
	end := strings.IndexAny(line, " \t\r:,;")
	if end < 0 {
		end = len(line)
	}
	tok := line[:end]
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
	side := p.Side()
	for i := 0; i < len(tok); i++ {
		v, ok := symbolValue(tok[i])
		if !ok || int(v) > side {
			return Puzzle{}, fmt.Errorf("bad symbol %q at position %d for a %dx%d grid", symbolAt(tok, i), i+1, side, side)
		}
		p.Cells[i] = v
	}
	if err := p.validate(); err != nil {
		return Puzzle{}, err
	}
	return p, nil
}

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
