package corpus

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

const corpus0 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

// scanAll reads every entry of text.
func scanAll(t *testing.T, r io.Reader) ([]Entry, error) {
	t.Helper()
	sc := NewScanner(r, "test.txt")
	var out []Entry
	for sc.Scan() {
		out = append(out, sc.Entry())
	}
	return out, sc.Err()
}

func TestScanner(t *testing.T) {
	text := "\uFEFF3\r\n" + // count header after a BOM, CRLF
		"# a comment\r\n" +
		"\r\n" +
		corpus0 + "\r\n" +
		"12345\n" + // wrong length
		"   \n" +
		corpus0 + ":17:x\n" +
		"11" + strings.Repeat("0", 79) + "\n" +
		"4000300200040020" // 4x4, no final newline
	entries, err := scanAll(t, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, line int
		err      string
	}{
		{0, 4, ""},
		{1, 5, "test.txt:5: puzzle has 5 symbols"},
		{2, 7, ""},
		{3, 8, "test.txt:8: conflicting givens: 1 twice in row 1"},
		{4, 9, ""},
	}
	if len(entries) != len(want) {
		t.Fatalf("got %d entries, want %d: %+v", len(entries), len(want), entries)
	}
	for i, w := range want {
		e := entries[i]
		if e.ID != w.id || e.Line != w.line {
			t.Errorf("entry %d: id %d line %d, want id %d line %d", i, e.ID, e.Line, w.id, w.line)
		}
		if w.err == "" {
			if e.Err != nil || e.Puzzle.IsZero() {
				t.Errorf("entry %d: err %v, want a puzzle", i, e.Err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(e.Err, &se) || !strings.Contains(e.Err.Error(), w.err) {
			t.Errorf("entry %d: err %v, want a *SyntaxError containing %q", i, e.Err, w.err)
		}
		if !e.Puzzle.IsZero() {
			t.Errorf("entry %d: invalid entry carries a puzzle", i)
		}
	}
}

func TestScannerCountHeaderOnlyFirst(t *testing.T) {
	// A bare integer after the first puzzle line is a bad puzzle line, not a header.
	entries, err := scanAll(t, strings.NewReader(corpus0+"\n42\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[1].Err == nil || entries[1].ID != 1 {
		t.Fatalf("entries = %+v", entries)
	}
}

func TestScannerLongLine(t *testing.T) {
	long := strings.Repeat("1", 10<<20) // 10 MB with no newline
	for _, tail := range []string{"", "\n" + corpus0 + "\n"} {
		entries, err := scanAll(t, strings.NewReader(corpus0+"\n"+long+tail))
		if err != nil {
			t.Fatal(err)
		}
		wantN := 2
		if tail != "" {
			wantN = 3
		}
		if len(entries) != wantN {
			t.Fatalf("tail %q: %d entries, want %d", tail[:min(len(tail), 5)], len(entries), wantN)
		}
		if e := entries[1]; e.Err == nil || !strings.Contains(e.Err.Error(), "test.txt:2: line longer than") {
			t.Fatalf("long line: err %v", e.Err)
		}
		if tail != "" && (entries[2].Err != nil || entries[2].Line != 3 || entries[2].ID != 2) {
			t.Fatalf("line after the long one: %+v", entries[2])
		}
	}
}

// failingReader returns data, then an error.
type failingReader struct {
	data string
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestScannerReadError(t *testing.T) {
	boom := errors.New("boom")
	// The last line is cut by the error: it is not a line of the file, so it
	// is not reported as a bad puzzle; the error is.
	entries, err := scanAll(t, &failingReader{data: corpus0 + "\n" + corpus0[:40], err: boom})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "reading test.txt after line 1") {
		t.Fatalf("err = %v", err)
	}
	if len(entries) != 1 || entries[0].Err != nil {
		t.Fatalf("entries = %+v", entries)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{corpus0 + "\n" + corpus0, "3\n# c\n\n" + corpus0 + "\r\n12\n", "\uFEFF4000300200040020", "\x00\xff\n\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := NewScanner(bytes.NewReader(data), "f")
		next, lastLine := 0, 0
		for sc.Scan() {
			e := sc.Entry()
			// Ids count puzzle lines, lines only go forward, and every entry is
			// a valid puzzle or a *SyntaxError naming its line.
			if e.ID != next || e.Line <= lastLine {
				t.Fatalf("entry id %d line %d after id %d line %d", e.ID, e.Line, next-1, lastLine)
			}
			next, lastLine = next+1, e.Line
			var se *SyntaxError
			switch {
			case e.Err == nil && !validPuzzle(e.Puzzle):
				t.Fatalf("entry %d: invalid puzzle without an error", e.ID)
			case e.Err != nil && (!errors.As(e.Err, &se) || se.Line != e.Line || se.File != "f"):
				t.Fatalf("entry %d: error %v", e.ID, e.Err)
			}
		}
		if sc.Err() != nil {
			t.Fatalf("reading bytes: %v", sc.Err())
		}
	})
}

// validPuzzle reports whether p parses back from its text: a supported
// size and no two equal givens in a unit.
func validPuzzle(p solvers.Puzzle) bool {
	_, err := solvers.ParsePuzzle(p.String())
	return err == nil
}
