package corpus

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"sudokubatch/solvers"
)

// A line ends at LF, CRLF or a lone CR. The tests compare the
// Scanner with naiveScan, which splits the whole input at once, on inputs
// read whole, a byte at a time and in odd chunks, so that a CRLF is also
// split between two reads.

// splitLines splits data at LF, CRLF and lone CR; a last line without a
// line end counts, an empty remainder after the last line end does not.
func splitLines(data []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			lines = append(lines, data[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, data[start:i])
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(data) {
		lines = append(lines, data[start:])
	}
	return lines
}

// scanned is what a scan produced, in a form easy to compare.
type scanned struct {
	entries []string // "id line: puzzle or error"
	lines   int      // Scanner.Lines at the end
}

func entryString(e Entry) string {
	if e.Err != nil {
		return fmt.Sprintf("%d %d: %v", e.ID, e.Line, e.Err)
	}
	return fmt.Sprintf("%d %d: %s", e.ID, e.Line, e.Puzzle.String())
}

// naiveScan applies the Scanner's rules to the lines of splitLines.
// Lines longer than MaxLineLen are not modelled.
func naiveScan(data []byte) scanned {
	var out scanned
	started, id := false, 0
	lines := splitLines(data)
	for n, raw := range lines {
		line := n + 1
		if line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
		}
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if !started {
			started = true
			if _, err := strconv.ParseUint(string(t), 10, 64); err == nil && len(t) < 16 {
				continue
			}
		}
		e := Entry{ID: id, Line: line}
		p, err := solvers.ParsePuzzle(string(t))
		if err != nil {
			e.Err = &SyntaxError{File: "f", Line: line, Msg: err.Error()}
		} else {
			e.Puzzle = p
		}
		out.entries = append(out.entries, entryString(e))
		id++
	}
	out.lines = len(lines)
	return out
}

// scanWith reads r with a Scanner named "f".
func scanWith(r io.Reader) (scanned, error) {
	var out scanned
	sc := NewScanner(r, "f")
	for sc.Scan() {
		out.entries = append(out.entries, entryString(sc.Entry()))
	}
	out.lines = sc.Lines()
	return out, sc.Err()
}

// chunkReader returns its data in reads of the given sizes, in turn.
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), c.sizes[c.i%len(c.sizes)])
	c.i++
	n = copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readers returns data behind readers that cut it in different places.
func readers(data []byte) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":    bytes.NewReader(data),
		"one byte": iotest.OneByteReader(bytes.NewReader(data)),
		"half":     iotest.HalfReader(bytes.NewReader(data)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(data)),
		"chunks":   &chunkReader{data: data, sizes: []int{7, 1, 82, 3, 2}},
	}
}

// checkLikeNaive scans data through every reader and compares with
// naiveScan.
func checkLikeNaive(t *testing.T, data []byte) {
	t.Helper()
	want := naiveScan(data)
	for name, r := range readers(data) {
		got, err := scanWith(r)
		if err != nil {
			t.Fatalf("%s reader: %v", name, err)
		}
		if got.lines != want.lines {
			t.Errorf("%s reader: %d lines, want %d", name, got.lines, want.lines)
		}
		if strings.Join(got.entries, "\n") != strings.Join(want.entries, "\n") {
			t.Fatalf("%s reader on %q:\ngot  %q\nwant %q", name, data, got.entries, want.entries)
		}
	}
}

const corpus1 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

func TestScannerCROnlyLineEnds(t *testing.T) {
	p4 := "4000300200040020"
	tests := []struct {
		name  string
		text  string
		lines int
		want  []string // "id line" of each entry, "!" after an invalid one
	}{
		{"CR only", corpus1 + "\r" + p4 + "\r" + corpus1 + "\r", 3, []string{"0 1", "1 2", "2 3"}},
		{"CR only, no final CR", corpus1 + "\r" + p4, 2, []string{"0 1", "1 2"}},
		{"CR only, header and comment", "\uFEFF3\r# c\r\r" + corpus1 + "\r12345\r" + p4 + "\r", 6,
			[]string{"0 4", "1 5!", "2 6"}},
		{"CRLF", corpus1 + "\r\n" + p4 + "\r\n", 2, []string{"0 1", "1 2"}},
		{"LF", corpus1 + "\n" + p4 + "\n", 2, []string{"0 1", "1 2"}},
		{"mixed", corpus1 + "\r" + p4 + "\n" + corpus1 + "\r\n" + p4 + "\r" + corpus1, 5,
			[]string{"0 1", "1 2", "2 3", "3 4", "4 5"}},
		{"blank lines of each kind", "\r\r\n\n\r" + p4 + "\n\r" + p4, 7, []string{"0 5", "1 7"}},
		{"CR CR LF", p4 + "\r\r\n" + p4, 3, []string{"0 1", "1 3"}},
		{"LF CR", p4 + "\n\r" + p4, 3, []string{"0 1", "1 3"}},
		{"only line ends", "\r\n\r\r\n\n", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, r := range readers([]byte(tt.text)) {
				sc := NewScanner(r, "f")
				var got []string
				for sc.Scan() {
					e := sc.Entry()
					s := fmt.Sprintf("%d %d", e.ID, e.Line)
					if e.Err != nil {
						s += "!"
					}
					got = append(got, s)
				}
				if sc.Err() != nil {
					t.Fatalf("%s reader: %v", name, sc.Err())
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) || sc.Lines() != tt.lines {
					t.Errorf("%s reader: entries %q, %d lines; want %q, %d lines", name, got, sc.Lines(), tt.want, tt.lines)
				}
			}
			checkLikeNaive(t, []byte(tt.text))
		})
	}
}

// TestScannerCorpusWithCROrCRLF reads the 17-clue corpus with its line ends
// turned into CR and into CRLF: the same puzzles, ids and line numbers
// as the LF file, also when read a few bytes at a time.
func TestScannerCorpusWithCROrCRLF(t *testing.T) {
	src, err := os.ReadFile(corpusPath(t))
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		src = src[:82*2000]
	}
	want, err := scanWith(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, end := range []string{"\r", "\r\n"} {
		data := bytes.ReplaceAll(src, []byte("\n"), []byte(end))
		for name, r := range map[string]io.Reader{
			"whole":  bytes.NewReader(data),
			"chunks": &chunkReader{data: data, sizes: []int{4093, 1, 81, 65537}},
		} {
			got, err := scanWith(r)
			if err != nil {
				t.Fatalf("%q, %s reader: %v", end, name, err)
			}
			if got.lines != want.lines || len(got.entries) != len(want.entries) {
				t.Fatalf("%q, %s reader: %d lines, %d entries; want %d, %d", end, name,
					got.lines, len(got.entries), want.lines, len(want.entries))
			}
			for i := range want.entries {
				if got.entries[i] != want.entries[i] {
					t.Fatalf("%q, %s reader: entry %s, want %s", end, name, got.entries[i], want.entries[i])
				}
			}
		}
	}
}

// TestScannerLongLinesAnyLineEnd checks lines around MaxLineLen ended by each line
// end: a line of MaxLineLen bytes is read whole, even when its CRLF is
// split between two reads (the CR is the last byte the buffer holds); a
// longer one is an invalid entry, and the lines after it keep their
// numbers.
func TestScannerLongLinesAnyLineEnd(t *testing.T) {
	for _, end := range []string{"\n", "\r", "\r\n"} {
		for _, n := range []int{MaxLineLen, MaxLineLen + 1, MaxLineLen + 2, 3 * MaxLineLen} {
			text := corpus1 + end + strings.Repeat("1", n) + end + corpus1 + end + "\r" + corpus1
			for name, r := range map[string]io.Reader{
				"whole":    strings.NewReader(text),
				"one byte": iotest.OneByteReader(strings.NewReader(text)),
			} {
				sc := NewScanner(r, "f")
				var got []Entry
				for sc.Scan() {
					got = append(got, sc.Entry())
				}
				if sc.Err() != nil {
					t.Fatalf("end %q, length %d, %s reader: %v", end, n, name, sc.Err())
				}
				if len(got) != 4 || sc.Lines() != 5 {
					t.Fatalf("end %q, length %d, %s reader: %d entries, %d lines; want 4, 5", end, n, name, len(got), sc.Lines())
				}
				msg := fmt.Sprintf("f:2: puzzle has %d symbols", n)
				if n > MaxLineLen {
					msg = fmt.Sprintf("f:2: line longer than %d bytes", MaxLineLen)
				}
				if got[1].Err == nil || !strings.Contains(got[1].Err.Error(), msg) {
					t.Errorf("end %q, length %d, %s reader: long line: %v, want %q", end, n, name, got[1].Err, msg)
				}
				for i, line := range []int{1, 2, 3, 5} {
					if got[i].ID != i || got[i].Line != line || (i != 1 && got[i].Err != nil) {
						t.Errorf("end %q, length %d, %s reader: entry %d: id %d line %d err %v; want line %d",
							end, n, name, i, got[i].ID, got[i].Line, got[i].Err, line)
					}
				}
			}
		}
	}
}

// TestScannerTooLongLastLine: a line too long to hold that ends the input
// (no line end after it) is one invalid entry and the last line, however
// the reads cut it, also when the read that fills the buffer with it
// reports the end of the input.
func TestScannerTooLongLastLine(t *testing.T) {
	for _, n := range []int{MaxLineLen + 1, MaxLineLen + 2, 2*MaxLineLen + 3} {
		for _, lead := range []string{"\r", "\n", "\r\n"} {
			text := []byte(corpus1 + lead + strings.Repeat("1", n))
			want := []string{"0 1: " + corpus1, fmt.Sprintf("1 2: f:2: line longer than %d bytes", MaxLineLen)}
			for name, r := range readers(text) {
				got, err := scanWith(r)
				if err != nil {
					t.Fatalf("length %d after %q, %s reader: %v", n, lead, name, err)
				}
				if got.lines != 2 || strings.Join(got.entries, "\n") != strings.Join(want, "\n") {
					t.Errorf("length %d after %q, %s reader: %d lines, entries %.200q; want 2 lines, %q",
						n, lead, name, got.lines, got.entries, want)
				}
			}
		}
	}
}

// TestScannerReadErrorsAfterCR: a read error after a line ended by a CR reports
// that line and then the error; a line cut by the error is not a line; a
// truncated .gz of a CR-only corpus reports the error and no phantom line.
func TestScannerReadErrorsAfterCR(t *testing.T) {
	boom := errors.New("boom")
	for _, tt := range []struct {
		name, data string
		entries    int
		after      string
	}{
		{"CR then error", corpus1 + "\r", 1, "after line 1"},
		{"CR then cut line", corpus1 + "\r" + corpus1[:40], 1, "after line 1"},
		{"CRLF cut after CR", corpus1 + "\r" + corpus1 + "\r", 2, "after line 2"},
		{"cut first line", corpus1[:40], 0, "after line 0"},
	} {
		entries, err := scanAll(t, &failingReader{data: tt.data, err: boom})
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "reading test.txt "+tt.after) {
			t.Errorf("%s: err = %v, want boom %s", tt.name, err, tt.after)
		}
		if len(entries) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(entries), tt.entries, entries)
		}
		for _, e := range entries {
			if e.Err != nil {
				t.Errorf("%s: entry %d: %v", tt.name, e.ID, e.Err)
			}
		}
	}

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 3000 {
		zw.Write([]byte(corpus1 + "\r"))
	}
	zw.Close()
	zr, err := gzip.NewReader(bytes.NewReader(gz.Bytes()[:gz.Len()/2]))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := scanAll(t, zr)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated .gz: err = %v, want unexpected EOF", err)
	}
	if len(entries) == 0 || len(entries) >= 3000 {
		t.Fatalf("truncated .gz: %d entries", len(entries))
	}
	for _, e := range entries {
		if e.Err != nil {
			t.Fatalf("truncated .gz: entry %d line %d: %v", e.ID, e.Line, e.Err)
		}
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("after line %d:", len(entries))) {
		t.Fatalf("truncated .gz: err = %v, want after line %d", err, len(entries))
	}
}

// utf16Hint begins what the Scanner adds to a line's error in a file
// that looks like UTF-16.
const utf16Hint = "; the file looks like UTF-16"

// FuzzScannerLineEnds compares the Scanner with naiveScan on any input, cut
// into reads of a size taken from the input.
func FuzzScannerLineEnds(f *testing.F) {
	for _, s := range []string{
		corpus1 + "\r" + corpus1,
		"3\r\n# c\r\r" + corpus1 + "\r\n12\n",
		"\uFEFF4000300200040020\r\r\n\n\r",
		"\r\n\r\r\n\n",
		"4000300200040020\r",
		"0\x000\x00", // a zero after each character: the hint that it looks like UTF-16
	} {
		f.Add([]byte(s), uint8(1))
		f.Add([]byte(s), uint8(17))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		want := naiveScan(data)
		for _, r := range []io.Reader{
			bytes.NewReader(data),
			&chunkReader{data: data, sizes: []int{int(chunk%32) + 1, 1}},
		} {
			got, err := scanWith(r)
			if err != nil {
				t.Fatal(err)
			}
			// naiveScan knows line ends, not encodings: the hint that a
			// file looks like UTF-16 (TestScannerNamesUTF16 checks when
			// it is given) is taken off before the comparison.
			for i, e := range got.entries {
				got.entries[i], _, _ = strings.Cut(e, utf16Hint)
			}
			if got.lines != want.lines || strings.Join(got.entries, "\n") != strings.Join(want.entries, "\n") {
				t.Fatalf("on %q:\ngot  %d lines %q\nwant %d lines %q", data, got.lines, got.entries, want.lines, want.entries)
			}
		}
	})
}

// BenchmarkScanLineEnds reads the corpus with each kind of line end and
// reports ns/line (BenchmarkScan is the LF case).
func BenchmarkScanLineEnds(b *testing.B) {
	src, err := os.ReadFile(corpusPath(b))
	if err != nil {
		b.Fatal(err)
	}
	for _, end := range []struct{ name, end string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}} {
		data := bytes.ReplaceAll(src, []byte("\n"), []byte(end.end))
		b.Run(end.name, func(b *testing.B) {
			lines := 0
			for b.Loop() {
				sc := NewScanner(bytes.NewReader(data), "sudoku17.txt")
				for sc.Scan() {
					lines++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines), "ns/line")
			b.ReportMetric(0, "ns/op")
		})
	}
}
