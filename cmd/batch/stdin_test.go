package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep of the default corpus with input waiting on standard input (a
// pipe, a file) says at the start that standard input is not read, and
// runs; with a device there (/dev/null, a terminal) it says nothing.
func TestDefaultCorpusSaysStdinIsNotRead(t *testing.T) {
	const note = "batch: reading the default corpus (data/sudoku17.txt); standard input is not read: give - to sweep it\n"
	tmp := t.TempDir()
	file := filepath.Join(tmp, "puzzles.txt")
	if err := os.WriteFile(file, []byte("4000300200040020\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(path string) *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	pipe := func() *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString("4000300200040020\n")
		w.Close()
		t.Cleanup(func() { r.Close() })
		return r
	}
	for _, tc := range []struct {
		name     string
		stdin    *os.File
		corpus   []string
		wantNote bool
	}{
		{"pipe", pipe(), nil, true},
		{"file", open(file), nil, true},
		{"dev-null", open(os.DevNull), nil, false},
		{"empty file", open(emptyFile(t)), nil, false},
		{"pipe and a corpus named", pipe(), []string{file}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"-range", "0:2", "-solvers", "bitboard", "-quiet", "-report=false", "-out", filepath.Join(t.TempDir(), "run")}, tc.corpus...)
			code := Main(args, &env{stdin: tc.stdin, stdout: &stdout, stderr: &stderr, args0: append([]string{"batch"}, args...)})
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr.String())
			}
			if got := strings.HasPrefix(stderr.String(), note); got != tc.wantNote {
				t.Errorf("note on stderr: %v, want %v:\n%s", got, tc.wantNote, stderr.String())
			}
		})
	}
}

// emptyFile returns the path of an empty file.
func emptyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
