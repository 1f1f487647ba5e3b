package solvers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxLineLen is the longest line the Scanner reads whole. A longer line
// (the longest puzzle line is 256 symbols plus a comment) is read past,
// never held in memory, and reported as an invalid entry.
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
	ID     int    // 0-based index among the puzzle lines of the file
	Line   int    // 1-based line number in the file
	Puzzle Puzzle // the parsed puzzle; zero when Err is set
	Err    error  // a *SyntaxError when the line is not a puzzle
}

// Scanner reads a corpus one line at a time, like bufio.Scanner, and never
// holds more than one line in memory.
//
// Blank lines and lines starting with '#' are skipped, and so is a first
// puzzle-less line that is a bare integer (a puzzle count header; it may
// come after comments). Skipped lines take no id, so a file with a count
// header numbers its puzzles like the plain file. Every other line takes
// the next id and becomes an Entry, with Err set when it is not a puzzle.
// CRLF line ends and a UTF-8 byte order mark are tolerated.
//
// A Scanner is not safe for concurrent use.
type Scanner struct {
	r       *bufio.Reader
	file    string
	line    int
	nextID  int
	entry   Entry
	err     error
	started bool  // a puzzle line (or a count header) has been seen
	pending error // a read error (or io.EOF) to report after the line read with it
}

// NewScanner returns a Scanner that reads r; file names it in errors.
func NewScanner(r io.Reader, file string) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, 64<<10), file: file}
}

// Scan advances to the next puzzle line. It returns false at the end of
// the input or on a read error (see Err).
func (s *Scanner) Scan() bool {
	for {
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
			raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
		}
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if !s.started {
			s.started = true
			if _, convErr := strconv.ParseUint(string(t), 10, 64); convErr == nil && len(t) < 16 {
				continue // a count header
			}
		}
		s.emit(parseInto(&s.entry.Puzzle, t))
		return true
	}
}

// emit numbers the entry whose puzzle was just parsed into s.entry, with
// err the parse error.
func (s *Scanner) emit(err error) {
	e := &s.entry
	e.ID, e.Line, e.Err = s.nextID, s.line, nil
	if err != nil {
		e.Puzzle = Puzzle{}
		e.Err = &SyntaxError{File: s.file, Line: s.line, Msg: err.Error()}
	}
	s.nextID++
}

// readLine returns the next line without its end of line. A line longer
// than MaxLineLen is consumed up to its end and reported with tooLong set.
// The returned slice is valid until the next call.
func (s *Scanner) readLine() (line []byte, tooLong bool, err error) {
	line, err = s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = s.r.ReadSlice('\n')
		}
		if err == io.EOF {
			err = nil
		}
		return nil, true, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, false, err
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
