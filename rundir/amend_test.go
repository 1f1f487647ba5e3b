package rundir

import (
	"bytes"
	"os"
	"path/filepath"
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
