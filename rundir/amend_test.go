package rundir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// TestAmend: the rows fix changes are rewritten with their text; the
// others are copied byte for byte; rows written after Amend go on the
// end of the new file; a fix that changes nothing leaves the file as it
// was.
func TestAmend(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, &Manifest{Settings: Settings{Solvers: []string{"norvig"}, Corpora: []string{"c,=1"}}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(id int) *Row {
		msg := "a, \"quoted\" message"
		if id == 1 || id == 2 { // lines longer than Amend's buffer (64 KB), one copied and one changed
			msg = strings.Repeat("x, ", 30000) + msg
		}
		return &Row{ID: id, Line: id + 1, Solver: "norvig", Status: solvers.StatusSolved, NS: int64(1000 + id),
			Calls: 3, Solutions: -1, Solution: "123", Error: msg, Corpus: "c,=1",
			Runs: 5, NSMin: 900, NSMedian: int64(1000 + id)}
	}
	for id := range 5 {
		if err := d.Write(row(id)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, ResultsFile)
	if n, err := d.Amend(func(*Row) bool { return false }); n != 0 || err != nil {
		t.Fatalf("a fix that changes nothing: %d, %v", n, err)
	}
	before, _ := os.ReadFile(path)
	n, err := d.AmendIDs(func(id int) bool { return id == 2 || id == 4 }, func(r *Row) bool {
		if r.ID != 2 && r.ID != 4 {
			t.Errorf("fix called on row %d, not wanted", r.ID)
		}
		if r.ID != 2 {
			return false
		}
		r.NS, r.Retimed = 7, RetimedNoise
		return true
	})
	if n != 1 || err != nil {
		t.Fatalf("amend: %d, %v", n, err)
	}
	if err := d.Write(row(5)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(Finished, ""); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	bl, al := strings.Split(strings.TrimSuffix(string(before), "\n"), "\n"), strings.Split(strings.TrimSuffix(string(after), "\n"), "\n")
	if len(al) != len(bl)+1 {
		t.Fatalf("%d lines after, %d before (+1 row written after)", len(al), len(bl))
	}
	for i := range bl {
		if i == 3 { // the header, then ids 0, 1, 2
			if al[i] == bl[i] || !strings.Contains(al[i], ",7,") || !strings.Contains(al[i], ",noise,") {
				t.Errorf("amended line %q (was %q)", al[i], bl[i])
			}
			continue
		}
		if al[i] != bl[i] {
			t.Errorf("line %d changed: %q, was %q", i+1, al[i], bl[i])
		}
	}
	rd, err := NewReader(bytes.NewReader(after), path)
	if err != nil {
		t.Fatal(err)
	}
	for id := 0; rd.Scan(); id++ {
		got, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		want := *row(id)
		if id == 2 {
			want.NS, want.Retimed = 7, RetimedNoise
		}
		if *got != want {
			t.Errorf("row %d: %+v, want %+v", id, *got, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 { // results.csv, run.json, the lock
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v: a temporary file left?", names)
	}
}

// TestAmendAt: the rows at the offsets LastRowAt gave are passed to fix,
// in the file's order, and rewritten when it changes them; every other
// byte is the file's (rows quoted, rows longer than the reader's
// buffers, rows before a resume); rows written after an amend have
// their own offsets, and a second amend finds them; an offset where no
// row starts changes nothing.
func TestAmendAt(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Settings: Settings{Solvers: []string{"norvig"}, Corpora: []string{"c,=1"}}}
	d, err := Create(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	row := func(id int) *Row {
		msg := "a, \"quoted\" message"
		switch id % 4 {
		case 1: // longer than AmendAt's row buffer (4 KB) and the Reader's (64 KB)
			msg = strings.Repeat("x, ", 30000) + msg
		case 2:
			msg = strings.Repeat("y", 5000)
		}
		return &Row{ID: id, Line: id + 1, Solver: "norvig", Status: solvers.StatusSolved, NS: int64(1000 + id),
			Calls: 3, Solutions: -1, Solution: "123", Error: msg, Corpus: "c,=1",
			Runs: 5, NSMin: 900, NSMedian: int64(1000 + id)}
	}
	at := map[int]int64{}
	write := func(d *Dir, ids ...int) {
		t.Helper()
		for _, id := range ids {
			if err := d.Write(row(id)); err != nil {
				t.Fatal(err)
			}
			at[id] = d.LastRowAt()
		}
	}
	// Rows before a resume, and rows after it.
	write(d, 0, 1, 2)
	if err := d.Close(Interrupted, ""); err != nil {
		t.Fatal(err)
	}
	if d, err = Resume(dir, tenPuzzles); err != nil {
		t.Fatal(err)
	}
	if d.LastRowAt() != -1 {
		t.Errorf("LastRowAt after a resume, before a row: %d, want -1", d.LastRowAt())
	}
	write(d, 3, 4, 5, 6)
	path := filepath.Join(dir, ResultsFile)
	d.Flush()
	before, _ := os.ReadFile(path)
	for id, off := range at {
		line, _, _ := strings.Cut(string(before[off:]), "\n")
		if !strings.HasPrefix(line, fmt.Sprintf("%d,%d,", id, id+1)) {
			t.Fatalf("LastRowAt of row %d: %d, where the file holds %.40q", id, off, line)
		}
	}
	retime := func(ids ...int) func(*Row) bool {
		return func(r *Row) bool {
			if !slices.Contains(ids, r.ID) {
				return false
			}
			r.NS, r.Retimed = 7, RetimedNoise
			return true
		}
	}
	// An offset inside a row, past the end, before the first row.
	for _, bad := range []int64{at[2] + 1, int64(len(before)), 3} {
		if n, err := d.AmendAt([]int64{at[1], bad}, retime(1)); n != 0 || err == nil || !strings.Contains(err.Error(), "no row starts at byte") {
			t.Errorf("AmendAt at byte %d: %d, %v; want an error", bad, n, err)
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
			t.Fatalf("a failed AmendAt changed the file")
		}
	}
	if n, err := d.AmendAt([]int64{at[1], at[3]}, retime()); n != 0 || err != nil {
		t.Fatalf("a fix that changes nothing: %d, %v", n, err)
	}
	var seen []int
	n, err := d.AmendAt([]int64{at[5], at[1], at[2], at[5]}, func(r *Row) bool {
		seen = append(seen, r.ID)
		return retime(1, 5)(r)
	})
	if n != 2 || err != nil || !slices.Equal(seen, []int{1, 2, 5}) {
		t.Fatalf("AmendAt: %d, %v; fix saw %v, want rows 1, 2, 5 once each", n, err, seen)
	}
	write(d, 7, 8)
	if n, err := d.AmendAt([]int64{at[8]}, retime(8)); n != 1 || err != nil {
		t.Fatalf("AmendAt of a row written after an amend: %d, %v", n, err)
	}
	write(d, 9)
	if err := d.Close(Finished, ""); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	rd, err := NewReader(bytes.NewReader(after), path)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	w := NewWriter(&want)
	w.WriteHeader()
	id := 0
	for ; rd.Scan(); id++ {
		got, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		r := row(id)
		if id == 1 || id == 5 || id == 8 {
			r.NS, r.Retimed = 7, RetimedNoise
		}
		if *got != *r {
			t.Errorf("row %d: %+v, want %+v", id, *got, *r)
		}
		w.Write(r)
	}
	w.Flush()
	if id != 10 || !bytes.Equal(after, want.Bytes()) {
		t.Errorf("%d rows; the file is not the rows written, amended (%d bytes, want %d)", id, len(after), want.Len())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("the directory holds %d files: a temporary file left?", len(entries))
	}
}
