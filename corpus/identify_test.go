package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestIdentifyKeptHash: Identify records a corpus file as a hash of its
// bytes does, whether the hash is computed or taken from the user's cache
// (the second time); the cache is what Identify reads then (a marker put
// there is returned), and -resume's check (VerifyRun) hashes the file
// itself: it finds the marker is not the file's.
func TestIdentifyKeptHash(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	path := corpusPath(t)
	want, err := identify(ctx, path, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		got, err := Identify(ctx, []string{path})
		if err != nil || got[0] != want {
			t.Fatalf("Identify %d: %+v, %v; want %+v", i+1, got, err, want)
		}
	}
	kept, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "sudokubatch", "corpus-*"))
	if len(kept) != 1 {
		t.Skipf("%s changed less than a few seconds ago: its hash is not kept yet (%d files kept)", path, len(kept))
	}
	b, err := os.ReadFile(kept[0])
	if err != nil {
		t.Fatal(err)
	}
	marker := strings.Repeat("ab", 32)
	if err := os.WriteFile(kept[0], []byte(strings.Replace(string(b), want.SHA256, marker, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Identify(ctx, []string{path})
	if err != nil || got[0].SHA256 != marker || got[0].Size != want.Size {
		t.Fatalf("Identify with a marker kept: %+v, %v; want the marker", got, err)
	}
	m := &rundir.Manifest{Settings: rundir.Settings{Corpora: []string{path}}, Corpora: got}
	if _, err := VerifyRun(ctx, t.TempDir())(m); !errors.Is(err, rundir.ErrCorpusChanged) {
		t.Fatalf("VerifyRun of a run that recorded the marker: %v, want %v", err, rundir.ErrCorpusChanged)
	}
}
