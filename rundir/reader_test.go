package rundir

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// FuzzRecordsLikeEncodingCSV: the Reader splits a file into records as
// encoding/csv does (the same fields, the same first line, the same
// *csv.ParseError), whatever the bytes: it parses the lines without a
// quote itself and leaves the others to encoding/csv. And the bytes of
// the records (Raw), blank lines included, are the file: Amend copies
// the rows it leaves alone with them.
func FuzzRecordsLikeEncodingCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,c\n1,2,3\n",
		"a,b\r\n\r\n1,2\r\n\n\n3,4",
		"a,\"b\nc\",d\n1,2,3\n",
		"a,b\"c,d\n1,2\n",
		"\"a\"b,c\n1\n",
		"\"a\n\nb\"\"c\",\"d\"\n",
		"\"open\nnever closed\n",
		"x\r",
		"\r\n\n,\n,,\n\"\",\"\"\n",
		"a,b\n\"c\",\"d\r\ne\"\r\nf",
		"id,\"q\"\"x\",\n\"\"\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cr := csv.NewReader(bytes.NewReader(data))
		cr.FieldsPerRecord = -1
		// A small buffer, so that long lines take the Reader's other path.
		rd := &Reader{br: bufio.NewReaderSize(bytes.NewReader(data), 16), file: "f.csv"}
		var raw []byte
		for n := 0; ; n++ {
			want, werr := cr.Read()
			got, gerr := rd.record()
			r, skip := rd.Raw()
			if skip > len(r) {
				t.Fatalf("record %d: skip %d of %d raw bytes", n, skip, len(r))
			}
			raw = append(raw, r...)
			if (werr == io.EOF) != (gerr == io.EOF) {
				t.Fatalf("record %d: encoding/csv %q, %v; Reader %q, %v", n, want, werr, got, gerr)
			}
			if werr == io.EOF {
				break
			}
			var wpe, gpe *csv.ParseError
			switch {
			case errors.As(werr, &wpe) != errors.As(gerr, &gpe):
				t.Fatalf("record %d: encoding/csv's error %v, the Reader's %v", n, werr, gerr)
			case wpe != nil:
				if *wpe != *gpe {
					t.Fatalf("record %d: encoding/csv's error %+v, the Reader's %+v", n, *wpe, *gpe)
				}
			case werr != nil || gerr != nil:
				t.Fatalf("record %d: encoding/csv's error %v, the Reader's %v", n, werr, gerr)
			default:
				if !slices.Equal(want, got) {
					t.Fatalf("record %d: encoding/csv %q, the Reader %q", n, want, got)
				}
				if line, _ := cr.FieldPos(0); line != rd.line {
					t.Fatalf("record %d: encoding/csv's line %d, the Reader's %d", n, line, rd.line)
				}
			}
		}
		if !bytes.Equal(raw, data) {
			t.Fatalf("the records' bytes %q are not the file's %q", raw, data)
		}
	})
}

// TestReaderSplitsLongAndQuotedLines reads a results.csv whose rows hold
// a line longer than the buffer, a quoted field with a line break and
// blank lines, through NewReader: the rows are those written.
func TestReaderSplitsLongAndQuotedLines(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	rows := []Row{
		{ID: 0, Line: 1, Solver: "dlx", Status: solvers.StatusError, Solutions: -1, Corpus: "c.txt", Error: long},
		{ID: 1, Line: 2, Solver: "dlx", Status: solvers.StatusError, Solutions: -1, Corpus: "c.txt", Error: "a, \"b\""},
		{ID: 2, Line: 3, Solver: "dlx", Status: solvers.StatusSolved, Solutions: 2, Corpus: "c, d.txt", Solution: "12"},
	}
	// A blank line, and a line break inside the quoted error of row 1.
	text := strings.Replace(string(encodeRows(rows)), "a, \"\"b\"\"", "a,\r\n \"\"b\"\"", 1) + "\n\n"
	rows[1].Error = "a,\n \"b\""
	rd, err := NewReader(strings.NewReader(text), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; rd.Scan(); i++ {
		got, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		if *got != rows[i] {
			t.Errorf("row %d: %+v, want %+v", i, *got, rows[i])
		}
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
}

// encodeRows returns rows as the Writer writes them, after the header.
func encodeRows(rows []Row) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteHeader()
	for i := range rows {
		w.Write(&rows[i])
	}
	w.Flush()
	return buf.Bytes()
}
