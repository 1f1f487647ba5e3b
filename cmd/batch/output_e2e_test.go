package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// mountTmpfs mounts a small tmpfs at a new directory (root only; CI runs
// as root) and unmounts it at the end of the test.
func mountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s): this test needs root, as CI has", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

func TestFullDisk(t *testing.T) {
	root := repoRoot(t)
	out := filepath.Join(mountTmpfs(t, "size=64k"), "run")
	r := batch(t, root, "-solvers", "bitboard,dlx,norvig", "-limit", "3000", "-quiet", "-out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "-resume -out "+out) {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "incomplete") {
		t.Errorf("the summary does not say the results are incomplete:\n%s", r.stdout)
	}
	// Nothing presents the partial file as a finished run.
	info, err := rundir.ReadManifest(out)
	if err == nil && info.Status == rundir.Finished {
		t.Fatal("run.json says finished")
	}
	if _, err := os.Stat(filepath.Join(out, rundir.PageFile)); err == nil {
		t.Fatal("a report was written for the incomplete run")
	}
}

// TestReadOnlyOutput: an -out that cannot be made is a usage error
// (exit 2, as other usage errors) that names the directory and the reason.
func TestReadOnlyOutput(t *testing.T) {
	root := repoRoot(t)
	out := filepath.Join(mountTmpfs(t, "ro,size=64k"), "run")
	r := batch(t, root, "-solvers", "bitboard", "-limit", "3", "-quiet", "-out", out)
	if r.code != 2 || !strings.Contains(r.stderr, "creating run directory") || !strings.Contains(r.stderr, out) ||
		!strings.Contains(r.stderr, "read-only file system") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
}
