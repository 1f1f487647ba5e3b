package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// TestPuzzleRowsReadsOnlyTheIDs: the rows of the ids asked for, a
// quoted field over two lines (whose second line starts like a row of
// an id asked for) not taken for a row, and a bad row of an id asked for
// an error naming the file and its line.
func TestPuzzleRowsReadsOnlyTheIDs(t *testing.T) {
	dir := t.TempDir()
	head := strings.Join(rundir.Header[:15], ",")
	rows := []string{
		head,
		"0,1,dlx,solved,1000,65,64,0,64,17,,1,,,c.txt",
		`1,2,dlx,error,5,0,0,0,0,17,,1,,"boom`,
		`12,13,dlx,solved,1,1,1,0,64,17,,1,,,c.txt",c.txt`, // the error field's second line
		"12,13,dlx,solved,3000,90,89,0,64,17,,1,,,c.txt",
		"13,14,dlx,solved,4000,91,89,0,64,17,,1,,,c.txt",
	}
	path := filepath.Join(dir, rundir.ResultsFile)
	if err := os.WriteFile(path, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := PuzzleRows(context.Background(), dir, map[int]bool{1: true, 12: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != 1 || got[0].Status.String() != "error" || got[1].ID != 12 || got[1].NS != 3000 || got[1].Calls != 90 {
		t.Fatalf("rows %+v, want #1's error and #12 in 3000ns, 90 calls", got)
	}

	rows[4] = "12,13,dlx,bogus,3000,90,89,0,64,17,,1,,,c.txt"
	if err := os.WriteFile(path, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = PuzzleRows(context.Background(), dir, map[int]bool{12: true})
	if err == nil || !strings.Contains(err.Error(), path+":5: bad row") || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("a bad row of #12: %v, want %s:5 and the reason", err, path)
	}
	// A bad row of another id is not read.
	if _, err := PuzzleRows(context.Background(), dir, map[int]bool{13: true}); err != nil {
		t.Errorf("a bad row of #12 fails the read of #13: %v", err)
	}
}

// TestEarlierNights: the last n nights of the run's series that started
// before it, oldest first; nights of another signature and the run
// itself left out.
func TestEarlierNights(t *testing.T) {
	start := time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC)
	manifest := func(id string, day int, timeout time.Duration) *rundir.Manifest {
		s := start.AddDate(0, 0, day)
		return &rundir.Manifest{RunID: id, Start: s,
			Settings: rundir.Settings{TimeoutNS: int64(timeout), Corpora: []string{"data/sudoku17.txt"}, Runs: 5},
			Corpora:  []rundir.CorpusInfo{{Path: "data/sudoku17.txt", SHA256: strings.Repeat("a", 64)}},
			Segments: []rundir.Segment{{Start: s, Workers: 2, Machine: rundir.Machine{CPU: "x", NumCPU: 2}}}}
	}
	idx := &Index{}
	add := func(m *rundir.Manifest) {
		sig, _ := signatureOf(m)
		idx.Entries = append(idx.Entries, Entry{Run: m.RunID, Night: &Night{Run: m.RunID, RunID: m.RunID, Start: m.Start, Signature: sig}})
	}
	for d := range 10 {
		if d != 8 {
			add(manifest(string(rune('a'+d)), d, time.Second))
		}
	}
	add(manifest("other", 9, time.Minute))
	now := manifest("now", 10, time.Second)
	add(now)
	add(manifest("later", 11, time.Second))
	key, nights := idx.EarlierNights(now, 7)
	var got []string
	for _, n := range nights {
		got = append(got, n.RunID)
	}
	if want := "c d e f g h j"; strings.Join(got, " ") != want {
		t.Errorf("earlier nights %v, want %s: the last 7 of a to j (no i), before now", got, want)
	}
	if !strings.Contains(key, "timeout=1s") {
		t.Errorf("series %q", key)
	}
}
