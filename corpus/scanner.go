package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"sudokubatch/solvers"
)

// MaxLineLen is the longest line, in bytes without its line end, that the
// Scanner reads whole. A longer line (the longest puzzle line is 256
// symbols plus a comment) is read past, never held in memory, and
// reported as an invalid entry.
const MaxLineLen = 64 << 10

// SyntaxError is a corpus line that is not a puzzle. It travels with the
// data as the Err of an Entry instead of stopping the read.
type SyntaxError struct {
	File string // the corpus name given to NewScanner
	Line int    // 1-based line number in the file
	Msg  string // what is wrong
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Entry is one puzzle line of a corpus.
type Entry struct {
	ID     int            // 0-based index among the puzzle lines of the file
	Line   int            // 1-based line number in the file
	Puzzle solvers.Puzzle // the parsed puzzle; zero when Err is set
	Err    error          // a *SyntaxError when the line is not a puzzle
}

// Scanner reads a corpus one line at a time, like bufio.Scanner, and never
// holds more than one line in memory.
//
// A line ends at LF, CRLF or a lone CR (old Mac files); CRLF is one line
// end, also when its two bytes come in two reads. Blank lines and lines
// starting with '#' are skipped, and so is a first puzzle-less line that
// is a bare integer (a puzzle count header; it may come after comments).
// Skipped lines take no id, so a file with a count header numbers its
// puzzles like the plain file. Every other line takes the next id and
// becomes an Entry, with Err set when it is not a puzzle. A UTF-8 byte
// order mark is tolerated. A file in UTF-16 is not decoded: its lines are
// not puzzles, and each one's error names the encoding (see utf16Of).
//
// A Scanner is not safe for concurrent use.
type Scanner struct {
	rd   io.Reader
	buf  []byte // MaxLineLen+1 bytes: a line of MaxLineLen bytes and its line end fit
	r, w int    // buf[r:w] is read and not yet consumed
	rerr error  // the error that ended reading rd (io.EOF at the end), met after buf[:w]
	// skipLF is set when a line ended at a CR that was the last byte read:
	// a LF that comes next is the second byte of a CRLF, not a line end.
	skipLF bool
	// lf is the index in buf of the first LF at or after the last place
	// searched, or w when buf holds none after it; below r when it must
	// be searched again (-1 after fill). cr is the same for CR: a file
	// without one is searched for it once a buffer, not once a line.
	lf, cr  int
	file    string
	line    int
	nextID  int
	entry   Entry
	err     error
	started bool  // a puzzle line (or a count header) has been seen
	pending error // a read error (or io.EOF) to report after the line read with it
	// utf16 names the encoding when the first line says the file is in
	// UTF-16 (see utf16Of), else "": every line that is not a puzzle says so.
	utf16 string
}

// NewScanner returns a Scanner that reads r; file names it in errors.
func NewScanner(r io.Reader, file string) *Scanner {
	return &Scanner{rd: r, buf: make([]byte, MaxLineLen+1), lf: -1, cr: -1, file: file}
}

// Scan advances to the next puzzle line. It returns false at the end of
// the input or on a read error (see Err).
func (s *Scanner) Scan() bool {
	for {
		if s.err != nil {
			return false
		}
		if s.pending != nil {
			if s.pending != io.EOF {
				s.err = fmt.Errorf("reading %s after line %d: %w", s.file, s.line, s.pending)
			}
			s.pending = nil
			return false
		}
		raw, tooLong, err := s.readLine()
		s.pending = err
		if err != nil && (err != io.EOF || len(raw) == 0) && !tooLong {
			// Nothing read, or a line cut by a read error (a truncated
			// .gz): report the error, not a puzzle line that is not there.
			continue
		}
		s.line++
		if tooLong {
			s.started = true
			s.emit(fmt.Errorf("line longer than %d bytes", MaxLineLen))
			return true
		}
		if s.line == 1 {
			s.utf16 = utf16Of(raw)
			raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
		}
		t := raw
		if len(t) == 0 || !graphic[t[0]] || !graphic[t[len(t)-1]] {
			t = bytes.TrimSpace(t) // not a puzzle line as the corpus's are
		}
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if !s.started {
			s.started = true
			if _, convErr := strconv.ParseUint(string(t), 10, 64); convErr == nil && len(t) < 16 {
				continue // a count header
			}
		}
		s.emit(solvers.ParseLine(&s.entry.Puzzle, t))
		return true
	}
}

// graphic holds the printable ASCII bytes, '!' to '~': a line that
// starts and ends with one has no space to trim.
var graphic = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = true
	}
	return t
}()

// emit numbers the entry whose puzzle was just parsed into s.entry, with
// err the parse error.
func (s *Scanner) emit(err error) {
	e := &s.entry
	e.ID, e.Line, e.Err = s.nextID, s.line, nil
	if err != nil {
		e.Puzzle = solvers.Puzzle{}
		msg := err.Error()
		if s.utf16 != "" {
			msg += "; the file looks like " + s.utf16
		}
		e.Err = &SyntaxError{File: s.file, Line: s.line, Msg: msg}
	}
	s.nextID++
}

// utf16Of tells whether line, the first line of a file, is text in
// UTF-16, and if so returns what says it and how to convert the file:
// a byte order mark (FF FE little-endian, FE FF big-endian) or, without
// one, a zero byte in every other place and only there (ASCII text in
// UTF-16; a puzzle line is ASCII). A line of UTF-16 ends at its LF byte,
// so the first line holds the whole of the file's first line of text,
// and the zero that follows the LF of a little-endian file starts the
// next line. It returns "" for any other line.
func utf16Of(line []byte) string {
	const convert = ": convert it to UTF-8, e.g. iconv -f %s -t UTF-8"
	switch {
	case bytes.HasPrefix(line, []byte{0xFF, 0xFE}):
		return "UTF-16 (byte order mark FF FE, little-endian)" + fmt.Sprintf(convert, "UTF-16LE")
	case bytes.HasPrefix(line, []byte{0xFE, 0xFF}):
		return "UTF-16 (byte order mark FE FF, big-endian)" + fmt.Sprintf(convert, "UTF-16BE")
	case len(line) < 4:
		return ""
	}
	var zeros [2]int // at even and odd offsets
	for i, c := range line {
		if c == 0 {
			zeros[i%2]++
		}
	}
	half := len(line) / 2
	switch {
	case zeros[0] == 0 && zeros[1] >= half:
		return "UTF-16 (no byte order mark, little-endian: a zero after each character)" + fmt.Sprintf(convert, "UTF-16LE")
	case zeros[1] == 0 && zeros[0] >= half:
		return "UTF-16 (no byte order mark, big-endian: a zero before each character)" + fmt.Sprintf(convert, "UTF-16BE")
	}
	return ""
}

// lineEnd finds the first line end in data: it returns where it starts
// and its length (2 for CRLF, else 1), or i < 0 when data has none. A CR
// that is the last byte of data is a line end of length 1; the caller
// drops a LF that comes next (skipLF). It searches for the LF, then for a
// CR before it: IndexByte is vectorized, one pass for either byte is not.
// readLine does the same and keeps the LF found for the next lines.
func lineEnd(data []byte) (i, n int) {
	lf := bytes.IndexByte(data, '\n')
	if lf < 0 {
		return bytes.IndexByte(data, '\r'), 1
	}
	switch cr := bytes.IndexByte(data[:lf], '\r'); {
	case cr < 0:
		return lf, 1
	case cr == lf-1:
		return cr, 2
	default:
		return cr, 1
	}
}

// consume marks buf[:i+n] as read, i and n a line end found by lineEnd.
func (s *Scanner) consume(i, n int) {
	s.r = i + n
	s.skipLF = n == 1 && s.buf[i] == '\r' && s.r == s.w
}

// readLine returns the next line without its line end. A line longer
// than MaxLineLen is consumed up to its end and reported with tooLong
// set. err is set, with the last line of the input (which has no line
// end) or none, once the input is read to its end (io.EOF) or a read
// failed; a line followed by a line end comes with err nil, even when the
// input ends there. The returned slice is valid until the next call.
func (s *Scanner) readLine() (line []byte, tooLong bool, err error) {
	if s.skipLF {
		s.skipLF = false
		if s.r == s.w && s.rerr == nil {
			s.fill()
		}
		if s.r < s.w && s.buf[s.r] == '\n' {
			s.r++
		}
	}
	searched := 0 // buf[r:r+searched] holds no line end
	for {
		// As lineEnd, with the LF and the CR found kept in s.lf and s.cr:
		// in a file whose lines end at a lone CR, a search for the LF that
		// is not there would otherwise read the whole buffer for every
		// line (6x slower than a LF file; as fast with s.lf), and in a LF
		// file, a search for the CR.
		from := s.r + searched
		if s.lf < from {
			s.lf = s.w
			if i := bytes.IndexByte(s.buf[from:s.w], '\n'); i >= 0 {
				s.lf = from + i
			}
		}
		if s.cr < from {
			s.cr = s.w
			if i := bytes.IndexByte(s.buf[from:s.w], '\r'); i >= 0 {
				s.cr = from + i
			}
		}
		if i := s.cr; i < s.lf {
			n := 1
			if i+1 == s.lf && s.lf < s.w {
				n = 2 // CRLF
			}
			line = s.buf[s.r:i]
			s.consume(i, n)
			return line, false, nil
		}
		if s.lf < s.w {
			line = s.buf[s.r:s.lf]
			s.consume(s.lf, 1)
			return line, false, nil
		}
		searched = s.w - s.r
		if searched == len(s.buf) {
			return nil, true, s.skipLine()
		}
		if s.rerr != nil {
			line, s.r = s.buf[s.r:s.w], s.w
			return line, false, s.rerr
		}
		s.fill()
	}
}

// skipLine reads past the rest of a line too long to hold, buf being
// full of it, up to its line end. It returns the read error that cut the
// line, if any; nil at the end of the input.
func (s *Scanner) skipLine() error {
	for {
		s.r, s.w, s.lf, s.cr = 0, 0, -1, -1
		if s.rerr != nil {
			if s.rerr == io.EOF {
				return nil
			}
			return s.rerr
		}
		s.fill()
		if i, n := lineEnd(s.buf[:s.w]); i >= 0 {
			s.consume(i, n)
			return nil
		}
	}
}

// fill moves the unread bytes to the start of buf and reads more after
// them, at least one byte unless reading fails (s.rerr).
func (s *Scanner) fill() {
	if s.r > 0 {
		s.w = copy(s.buf, s.buf[s.r:s.w])
		s.r = 0
	}
	s.lf, s.cr = -1, -1
	for range 100 { // as bufio: a reader that keeps returning nothing is broken
		n, err := s.rd.Read(s.buf[s.w:])
		if n < 0 || n > len(s.buf)-s.w {
			n, err = 0, errors.New("invalid count returned by Read")
		}
		s.w += n
		if err != nil {
			s.rerr = err
			return
		}
		if n > 0 {
			return
		}
	}
	s.rerr = io.ErrNoProgress
}

// Entry returns the entry read by the last successful Scan.
func (s *Scanner) Entry() Entry { return s.entry }

// Current returns a pointer to the entry read by the last successful
// Scan, for callers that copy it once into a place of their own; it is
// overwritten by the next Scan.
func (s *Scanner) Current() *Entry { return &s.entry }

// Err returns the first read error other than io.EOF.
func (s *Scanner) Err() error { return s.err }

// Lines returns the number of lines read so far.
func (s *Scanner) Lines() int { return s.line }
