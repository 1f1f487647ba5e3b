package rundir

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckoutVersion builds throwaway repositories: the fallback
// version is the commit of a checkout of the module, from any directory
// inside it, read from git's files as git itself reads it (a branch's
// loose or packed ref, a detached HEAD, a linked work tree), and
// "unknown" in a repository of another module or of no module.
func TestCheckoutVersion(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com",
			"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	repo := func(gomod string) string {
		dir := t.TempDir()
		git(dir, "init", "-q")
		if gomod != "" {
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "data", "README.md"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(dir, "add", ".")
		git(dir, "commit", "-q", "-m", "first")
		return dir
	}

	own := repo("// a comment\nmodule sudokubatch\n\ngo 1.26\n")
	check := func(what, dir string) {
		t.Helper()
		if got, want := checkoutVersion(dir, "sudokubatch"), git(dir, "rev-parse", "HEAD")+" (checkout)"; got != want {
			t.Errorf("%s: checkoutVersion(%s) = %q, want %q", what, dir, got, want)
		}
	}
	check("a branch", own)
	check("a branch, from a subdirectory", filepath.Join(own, "data"))
	git(own, "commit", "-q", "--allow-empty", "-m", "second")
	git(own, "pack-refs", "--all")
	check("a packed ref", own)
	git(own, "commit", "-q", "--allow-empty", "-m", "third")
	check("a loose ref beside a packed one", own)
	wt := filepath.Join(t.TempDir(), "wt")
	git(own, "worktree", "add", "-q", "-b", "other", wt)
	git(wt, "commit", "-q", "--allow-empty", "-m", "in the work tree")
	check("a linked work tree", wt)
	check("the main work tree beside it", own)
	git(own, "checkout", "-q", "--detach", "HEAD~1")
	check("a detached HEAD", own)

	for _, gomod := range []string{"module example.com/corpora\n", ""} {
		other := repo(gomod)
		if _, this := moduleRoot(other, "sudokubatch"); gomod == "" && this {
			continue // the temporary directory is inside a checkout of this module
		}
		if got := checkoutVersion(filepath.Join(other, "data"), "sudokubatch"); got != "unknown" {
			t.Errorf("in a repository with go.mod %q: checkoutVersion = %q, want unknown", gomod, got)
		}
	}
}

func TestModulePath(t *testing.T) {
	for gomod, want := range map[string]string{
		"module sudokubatch\n":                  "sudokubatch",
		"// c\n\nmodule \"sudokubatch\" // x\n": "sudokubatch",
		"go 1.26\n":                             "",
		"modules x\n":                           "",
	} {
		if got := modulePath([]byte(gomod)); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", gomod, got, want)
		}
	}
}

// TestPeakRSS: on Linux the peak memory of this process is known, and
// above what a buffer it has touched takes.
func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is Linux's")
	}
	b := make([]byte, 32<<20)
	for i := range b {
		b[i] = 1
	}
	peak, ok := PeakRSS()
	if !ok || peak < int64(len(b)) {
		t.Errorf("PeakRSS = %d, %v; want at least %d after touching that many bytes", peak, ok, len(b))
	}
	runtime.KeepAlive(b)
}

// TestBinarySHA256Cache checks that the hash of an executable is kept
// and read back only while the file is unchanged: a write to it, or a
// new file renamed over it, is hashed again.
func TestBinarySHA256Cache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the hash is kept on Linux only")
	}
	dir := t.TempDir()
	exe, cache := filepath.Join(dir, "exe"), filepath.Join(dir, "cache", "binary")
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(exe, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := func(content string) string { return fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(content))) }
	write("first build")
	if got := binarySHA256(exe, cache); got != want("first build") {
		t.Fatalf("first run: %q, want %q", got, want("first build"))
	}
	b, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("the hash was not kept: %v", err)
	}
	// The kept hash is what a later run returns: made a marker here, so
	// that the test sees it read.
	marker := "sha256:" + strings.Repeat("ab", 32)
	id, _, _ := strings.Cut(string(b), "\t")
	if err := os.WriteFile(cache, []byte(id+"\t"+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := binarySHA256(exe, cache); got != marker {
		t.Errorf("a second run of the same file: %q, want the kept %q", got, marker)
	}
	// A damaged cache file (written over by hand: not hex, or capitals) is
	// not believed: the file is hashed again, or run.json would record it.
	for _, bad := range []string{"sha256:" + strings.Repeat("zz", 32), "sha256:" + strings.Repeat("AB", 32)} {
		if err := os.WriteFile(cache, []byte(id+"\t"+bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := binarySHA256(exe, cache); got != want("first build") {
			t.Errorf("a cache that keeps %q: %q, want the file's %q", bad, got, want("first build"))
		}
	}
	write("another build")
	if got := binarySHA256(exe, cache); got != want("another build") {
		t.Errorf("after a write to the file: %q, want %q", got, want("another build"))
	}
	next := filepath.Join(dir, "next")
	if err := os.WriteFile(next, []byte("third build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, exe); err != nil {
		t.Fatal(err)
	}
	if got := binarySHA256(exe, cache); got != want("third build") {
		t.Errorf("after a new file renamed over it: %q, want %q", got, want("third build"))
	}
	if got := binarySHA256(exe, ""); got != want("third build") {
		t.Errorf("without a cache: %q, want %q", got, want("third build"))
	}
	if got := binarySHA256(filepath.Join(dir, "missing"), cache); got != "" {
		t.Errorf("a missing file: %q, want empty", got)
	}
}
