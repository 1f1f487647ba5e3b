package external

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Program is what identifies the program of an external strategy, as
// run.json records it (the command maps it to rundir.External): the
// command, the executable it runs and the SHA-256 of every file it is
// made of, and what the program said of itself in its handshake.
type Program struct {
	Name       string   // the strategy's name (-ext NAME=...)
	Command    string   // the command as given
	Args       []string // the command split into arguments
	Executable string   // Args[0] looked up in PATH, absolute
	SHA256     string   // of Executable
	// Files are the arguments that name regular files (a script, a data
	// file) and the files of -ext-files (Named), with their SHA-256: a
	// changed script is a changed solver as much as a changed
	// interpreter.
	Files []FileHash
	// Reported, Version and Caps are the handshake's (empty before it).
	Reported, Version string
	Caps              []string
}

// Uncounted returns the counters of results.csv (calls, guesses,
// backtracks) that the program did not declare in its handshake: it
// reports none of them, and their 0 in results.csv means nothing.
func (p Program) Uncounted() []string {
	var out []string
	for _, c := range []string{"calls", "guesses", "backtracks"} {
		if !slices.Contains(p.Caps, c) {
			out = append(out, c)
		}
	}
	return out
}

// FileHash is a file, or a directory of files, and its SHA-256.
type FileHash struct {
	Path string
	// SHA256 is the file's, or a directory's: of the lines "PATH SHA-256"
	// of every regular file under it (PATH relative to it, '/'-separated,
	// in lexical order; a symbolic link's target in place of its SHA-256).
	SHA256 string
	Named  bool // given with -ext-files, not found among the arguments
	Files  int  // a directory: the number of files hashed; 0 for a file
}

// Identify finds the program of spec without starting it: its
// executable and the SHA-256 of the files it is made of.
func Identify(spec Spec) (Program, error) {
	exe, err := lookPath(spec.Args[0])
	if err != nil {
		return Program{}, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	sum, err := fileSHA256(exe)
	if err != nil {
		return Program{}, fmt.Errorf("-ext %s: %w", spec.Name, err)
	}
	files := argFiles(spec.Args[1:])
	for _, path := range spec.Files {
		h, err := hashPath(path)
		if err != nil {
			return Program{}, fmt.Errorf("-ext-files %s=%s: %w", spec.Name, path, err)
		}
		files = append(files, h)
	}
	return Program{Name: spec.Name, Command: spec.Command, Args: spec.Args, Executable: exe, SHA256: sum, Files: files}, nil
}

// Changed compares the program of a recorded run with this one: the
// executable and every file hashed. It returns what changed, or "".
func Changed(was, now Program) string {
	if was.SHA256 != now.SHA256 {
		return fmt.Sprintf("%s changed: SHA-256 %s, the run's was %s", now.Executable, short(now.SHA256), short(was.SHA256))
	}
	for _, w := range was.Files {
		i := slices.IndexFunc(now.Files, func(f FileHash) bool { return f.Path == w.Path })
		switch {
		case i < 0:
			return fmt.Sprintf("%s is gone", w.Path)
		case now.Files[i].SHA256 != w.SHA256:
			what := "its SHA-256"
			if w.Files > 0 {
				what = fmt.Sprintf("the SHA-256 of its %d files", w.Files)
			}
			return fmt.Sprintf("%s changed: %s is %s, the run's was %s", w.Path, what, short(now.Files[i].SHA256), short(w.SHA256))
		}
	}
	return ""
}

func short(sum string) string { return sum[:min(12, len(sum))] }

// lookPath finds the program: in PATH when its name has no slash. The
// path returned is absolute, so that run.json names the file hashed.
func lookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	if p, err = filepath.Abs(p); err != nil {
		return "", err
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", p)
	}
	return p, nil
}

// fileSHA256 returns the SHA-256 of the file's contents in hex.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// argFiles returns the arguments that name regular files (a script the
// interpreter runs, a data file), with their SHA-256.
func argFiles(args []string) []FileHash {
	var out []FileHash
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if sum, err := fileSHA256(a); err == nil {
			out = append(out, FileHash{Path: a, SHA256: sum})
		}
	}
	return out
}

// maxTreeFiles bounds the files of an -ext-files directory: a directory
// of a whole installation is not what makes up a solver.
const maxTreeFiles = 10000

// hashPath hashes a file of -ext-files, or every file under a directory
// (see FileHash.SHA256).
func hashPath(path string) (FileHash, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileHash{}, err
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() {
			return FileHash{}, fmt.Errorf("not a regular file or a directory")
		}
		sum, err := fileSHA256(path)
		return FileHash{Path: path, SHA256: sum, Named: true}, err
	}
	var lines []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		rel = filepath.ToSlash(rel)
		var sum string
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			sum = "-> " + target
		case d.Type().IsRegular():
			if sum, err = fileSHA256(p); err != nil {
				return err
			}
		default:
			return nil // directories (walked), devices, sockets
		}
		if len(lines) == maxTreeFiles {
			return fmt.Errorf("more than %d files: name the files that make up the solver", maxTreeFiles)
		}
		lines = append(lines, rel+" "+sum+"\n")
		return nil
	})
	if err != nil {
		return FileHash{}, err
	}
	slices.Sort(lines)
	h := sha256.New()
	io.WriteString(h, strings.Join(lines, ""))
	return FileHash{Path: path, SHA256: hex.EncodeToString(h.Sum(nil)), Named: true, Files: len(lines)}, nil
}
