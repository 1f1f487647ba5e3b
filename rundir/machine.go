package rundir

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// ThisMachine describes the machine and the build of the running tool.
func ThisMachine() Machine {
	host, _ := os.Hostname()
	return Machine{
		Host: host, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuModel(),
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		GoVersion: runtime.Version(), Version: toolVersion(),
	}
}

// toolVersion is the VCS revision from the build info ("+dirty" when the
// tree had changes). Builds without VCS stamping (go run, -buildvcs=false)
// fall back to asking git, marked "(git)", but only in a checkout of this
// tool (see gitVersion); otherwise "unknown".
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
	return gitVersion(".", module)
}

// gitVersion returns the commit of the git work tree that holds the
// module whose go.mod is found from dir upwards (as the go command finds
// it), "+dirty" when tracked files have changes, and " (git)"; or
// "unknown" when that go.mod is not the given module's or git has no
// answer. Asking git in any directory would record the commit of whatever
// repository a run was started in (a repository of corpora, say) as the
// tool's version.
func gitVersion(dir, module string) string {
	root, ok := moduleRoot(dir, module)
	if !ok {
		return "unknown"
	}
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	v := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		v += "+dirty"
	}
	return v + " (git)"
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
