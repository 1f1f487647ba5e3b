package rundir

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Machine describes where (part of) a run ran.
type Machine struct {
	Host       string `json:"host"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GoVersion  string `json:"go_version"`
	Version    string `json:"tool_version"` // VCS revision of the tool
	// BuildTags are the build tags the tool was built with (-tags), e.g.
	// "slowdown": a build of one revision with other tags is another
	// build.
	BuildTags string `json:"build_tags,omitempty"`
	// Binary identifies the program itself, whatever directory it ran
	// in: "vcs:" and the revision of its build info's VCS stamp (of a
	// tree without changes), else "sha256:" and the SHA-256 of its
	// executable; empty in run.json written before it. Two nights ran
	// the same build when their Binary, Go version and tags are equal.
	Binary string `json:"binary,omitempty"`
}

// ThisMachine describes the machine and the build of the running tool.
func ThisMachine() Machine {
	host, _ := os.Hostname()
	return Machine{
		Host: host, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuModel(),
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		GoVersion: runtime.Version(), Version: toolVersion(), BuildTags: buildTags(), Binary: binaryID(),
	}
}

// binaryID is Machine.Binary of the running program, computed once: its
// VCS stamp, else the SHA-256 of its executable (binarySHA256); "" when
// neither can be read.
var binaryID = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev string
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" && !modified {
			return "vcs:" + rev
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return binarySHA256(exe, binaryCache(exe))
})

// binaryCache is the file where binarySHA256 keeps the hash of the
// executable exe: one a path, in the user's cache directory, "" when
// there is none.
func binaryCache(exe string) string { return cachePath("binary", exe) }

// binarySHA256 returns "sha256:" and the SHA-256 of the file exe, or ""
// when it cannot be read. Hashing a 25 MB executable costs about 20 ms of
// CPU, a tenth of a fast sweep's, in every run; so the hash is kept in
// the file cache ("" for none) beside the identity of the file it was
// computed from (fileIdentity: its device, inode, size and change
// times, which any write to the file changes), and a later run of the
// same file reads it from there. A cache that cannot be read or written
// only costs the hash.
func binarySHA256(exe, cache string) string {
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	id := ""
	if st, err := f.Stat(); err == nil && cache != "" {
		id = fileIdentity(st)
	}
	// A damaged cache file is not believed (see KeptSHA256).
	if v := readKept(cache, id); strings.HasPrefix(v, "sha256:") && isHex(v[len("sha256:"):], 2*sha256.Size) {
		return v
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	sum := "sha256:" + hex.EncodeToString(h.Sum(nil))
	if id != "" {
		writeCache(cache, id+"\t"+sum+"\n")
	}
	return sum
}

// writeCache writes content to the file path (WriteFile: a process
// reading it sees the old content or the new); it gives up silently on
// an error, which only costs a later run the hash. It makes the cache
// directories (path's, and the user's cache directory it is in) only
// below a directory that exists: a home that does not (HOME=/nonexistent,
// as cron jobs and system users have it) is not made, not even by root.
func writeCache(path, content string) {
	dir := filepath.Dir(path)
	if st, err := os.Stat(filepath.Dir(filepath.Dir(dir))); err != nil || !st.IsDir() {
		return
	}
	if os.MkdirAll(dir, DirMode) == nil {
		_ = WriteFile(path, []byte(content))
	}
}

// buildTags returns the -tags the tool was built with, or "".
func buildTags() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" {
				return s.Value
			}
		}
	}
	return ""
}

// toolVersion is the VCS revision from the build info ("+dirty" when the
// tree had changes). Builds without VCS stamping (go run, -buildvcs=false)
// fall back to the commit of the checkout the tool runs in, read from
// its git files, marked " (checkout)", but only in a checkout of this
// tool (see checkoutVersion); otherwise "unknown". No git command runs:
// two of them took most of a one-puzzle run's start-up.
func toolVersion() string {
	module := "sudokubatch"
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" {
			return rev + dirty
		}
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
	}
	return checkoutVersion(".", module)
}

// checkoutVersion returns the commit checked out in the git work tree
// that holds the module whose go.mod is found from dir upwards (as the go
// command finds it), followed by " (checkout)"; or "unknown" when that
// go.mod is not the given module's or its git files do not say. It reads
// .git (a directory, or a file naming it, as in a linked work tree),
// HEAD, and the branch's ref, loose or packed; it cannot tell whether the
// work tree has changes (a build with VCS stamping can: "+dirty"). Asking
// in any directory would record the commit of whatever repository a run
// was started in (a repository of corpora, say) as the tool's version.
func checkoutVersion(dir, module string) string {
	root, ok := moduleRoot(dir, module)
	if !ok {
		return "unknown"
	}
	gitDir := filepath.Join(root, ".git")
	if st, err := os.Stat(gitDir); err != nil {
		return "unknown"
	} else if !st.IsDir() {
		data, err := os.ReadFile(gitDir)
		path, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
		if err != nil || !ok {
			return "unknown"
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		gitDir = path
	}
	// A linked work tree keeps its HEAD in its own directory and the refs
	// in the common one.
	common := gitDir
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(rev, "ref: "); ok {
		rev = readRef(common, ref)
	}
	if !isCommitID(rev) {
		return "unknown"
	}
	return rev + " (checkout)"
}

// readRef returns the commit of ref (refs/heads/main, say) in the git
// directory gitDir: its loose file, else its line in packed-refs.
func readRef(gitDir, ref string) string {
	if data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return strings.TrimSpace(string(data))
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok && name == ref {
			return id
		}
	}
	return ""
}

// isCommitID reports whether s is a full commit id (SHA-1 or SHA-256, in hex).
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// moduleRoot returns the directory of the first go.mod found from dir
// upwards, and whether it declares module.
func moduleRoot(dir, module string) (string, bool) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return d, modulePath(data) == module
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// modulePath returns the path of go.mod's module directive ("" if none).
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`+"`")
		}
	}
	return ""
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
