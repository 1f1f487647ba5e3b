package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverwriteInPlaceFitsTheOldBlocks: run.json is overwritten in place
// (the full-disk path of WriteManifest) only with data that fits in the
// blocks the old file holds, and is then read back whole; data that
// does not fit leaves the old file as it was.
func TestOverwriteInPlaceFitsTheOldBlocks(t *testing.T) {
	dir := t.TempDir()
	m := testManifest()
	m.Status = Running
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ManifestFile)
	old, _ := os.ReadFile(path)
	m.Status, m.Rows = Failed, 12
	if err := overwriteInPlace(path, mustJSON(t, m)); err != nil {
		t.Fatalf("a run.json as large as the old one: %v", err)
	}
	got, err := ReadManifest(dir)
	if err != nil || got.Status != Failed || got.Rows != 12 {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	huge := []byte(strings.Repeat(" ", 1<<20))
	before, _ := os.ReadFile(path)
	if err := overwriteInPlace(path, huge); err == nil {
		t.Fatal("1 MiB written over a run.json of a few blocks")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) || len(old) == 0 {
		t.Fatal("a refused overwrite changed run.json")
	}
}

func mustJSON(t *testing.T, m *Manifest) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
