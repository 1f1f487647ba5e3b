package rundir

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// TestLockExcludesSecondWriter: while a run directory is open for
// writing, a second Resume (or any LockDir) fails at once naming the
// holder's pid; after Close the directory can be resumed.
func TestLockExcludesSecondWriter(t *testing.T) {
	dir := t.TempDir()
	manifest := func() *Manifest {
		return &Manifest{Settings: Settings{Solvers: []string{"norvig"}, Corpora: []string{"c"}}}
	}
	d, err := Create(dir, manifest())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Resume(dir, tenPuzzles)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("Resume of a directory in use: %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	if _, err := Create(dir, manifest()); !errors.Is(err, ErrLocked) {
		t.Fatalf("Create in a directory in use: %v, want ErrLocked", err)
	}
	if err := d.Write(&Row{ID: 0, Solver: "norvig", Status: solvers.StatusSolved, Corpus: "c", Solutions: -1}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(Interrupted, ""); err != nil {
		t.Fatal(err)
	}
	d2, err := Resume(dir, tenPuzzles)
	if err != nil {
		t.Fatalf("Resume after Close: %v", err)
	}
	defer d2.Close(Finished, "")
	if d2.Rows() != 1 || !d2.Skip(0, 0, 0) || d2.Skip(0, 1, 0) {
		t.Errorf("resumed: %d rows, skip(0)=%v skip(1)=%v; want 1 row, unit 0 done", d2.Rows(), d2.Skip(0, 0, 0), d2.Skip(0, 1, 0))
	}
	if _, err := Create(t.TempDir()+"/x", manifest()); err != nil {
		t.Fatal(err)
	}
}

// tenPuzzles is the CorpusCheck of a run over one corpus of ten puzzles.
func tenPuzzles(m *Manifest) ([]int, error) { return []int{10}, nil }
