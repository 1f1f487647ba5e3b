package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/data"
	"sudokubatch/rundir"
)

// The tests named TestCaseN check case N of the reliability issue (#16):
// each failed on the code before its fix.

// TestCase25EmbeddedCorpus runs the binary where no data/ directory is:
// the default corpus is the copy in the binary, recorded with the
// published checksum, and a run over it can be resumed there.
func TestCase25EmbeddedCorpus(t *testing.T) {
	dir := t.TempDir()
	r := batch(t, dir, "-ids", "39949,2018", "-solvers", "bitboard", "-quiet", "-report=false", "-out", "run")
	mustOK(t, r)
	rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile))
	if len(rows) != 2 || rows[0].ID != 2018 || rows[1].ID != 39949 || rows[1].Status.String() != "solved" {
		t.Fatalf("rows: %+v", rows)
	}
	m, err := rundir.ReadManifest(filepath.Join(dir, "run"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Corpora) != 1 || m.Corpora[0].Path != data.Name || m.Corpora[0].SHA256 != data.SHA256 || m.Corpora[0].Puzzles != 49151 {
		t.Fatalf("corpus recorded as %+v", m.Corpora)
	}
	r = batch(t, dir, "-resume", "-quiet", "-report=false", "-out", "run")
	mustOK(t, r)
	if !strings.Contains(r.stderr, "2 rows already done") {
		t.Errorf("resume: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Fatal("a data directory appeared")
	}
}
