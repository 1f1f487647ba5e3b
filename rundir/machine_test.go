package rundir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitVersion builds throwaway repositories: the fallback version is
// the commit of a checkout of the module, from any directory inside it,
// and "unknown" in a repository of another module or of no module.
func TestGitVersion(t *testing.T) {
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
	rev := git(own, "rev-parse", "HEAD")
	for _, dir := range []string{own, filepath.Join(own, "data")} {
		if got, want := gitVersion(dir, "sudokubatch"), rev+" (git)"; got != want {
			t.Errorf("gitVersion(%s) = %q, want %q", dir, got, want)
		}
	}
	if err := os.WriteFile(filepath.Join(own, "data", "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := gitVersion(own, "sudokubatch"), rev+"+dirty (git)"; got != want {
		t.Errorf("with a changed tracked file: gitVersion = %q, want %q", got, want)
	}

	for _, gomod := range []string{"module example.com/corpora\n", ""} {
		other := repo(gomod)
		if _, this := moduleRoot(other, "sudokubatch"); gomod == "" && this {
			continue // the temporary directory is inside a checkout of this module
		}
		if got := gitVersion(filepath.Join(other, "data"), "sudokubatch"); got != "unknown" {
			t.Errorf("in a repository with go.mod %q: gitVersion = %q, want unknown", gomod, got)
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
