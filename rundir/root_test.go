package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocate: a run named by its path, through latest, from inside, or
// under a root reached through a link is located in the same root under
// the same name; a path that is not there keeps its name.
func TestLocate(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, DefaultRoot)
	run := filepath.Join(root, "20261121-230501")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("20261121-230501", filepath.Join(root, LatestLink)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(base, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	for _, tt := range []struct{ dir, root, name string }{
		{run, root, "20261121-230501"},
		{filepath.Join(DefaultRoot, "20261121-230501"), root, "20261121-230501"},
		{filepath.Join(DefaultRoot, LatestLink), root, "20261121-230501"},
		{filepath.Join(root, LatestLink) + "/", root, "20261121-230501"},
		{filepath.Join("elsewhere", LatestLink), root, "20261121-230501"},
		{filepath.Join(DefaultRoot, "gone"), root, "gone"},
	} {
		if r, n := Locate(tt.dir); r != tt.root || n != tt.name {
			t.Errorf("Locate(%q) = %q, %q; want %q, %q", tt.dir, r, n, tt.root, tt.name)
		}
	}
	t.Chdir(run)
	if r, n := Locate("."); r != root || n != "20261121-230501" {
		t.Errorf("Locate(.) inside the run = %q, %q; want %q, %q", r, n, root, "20261121-230501")
	}
}
