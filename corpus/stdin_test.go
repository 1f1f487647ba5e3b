package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHoldsInput: a pipe and a file that is not empty hold input;
// /dev/null, an empty file and no standard input do not; a reader of a
// test holds input when it has bytes left.
func TestHoldsInput(t *testing.T) {
	open := func(path string) *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	dir := t.TempDir()
	full, empty := filepath.Join(dir, "full"), filepath.Join(dir, "empty")
	os.WriteFile(full, []byte("4000300200040020\n"), 0o644)
	os.WriteFile(empty, nil, 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer r.Close()
	for _, tc := range []struct {
		name string
		in   any
		want bool
	}{
		{"pipe", r, true},
		{"file", open(full), true},
		{"empty file", open(empty), false},
		{"dev-null", open(os.DevNull), false},
		{"no stdin", (*os.File)(nil), false},
		{"buffer", bytes.NewBufferString("x"), true},
		{"empty buffer", &bytes.Buffer{}, false},
	} {
		var got bool
		switch in := tc.in.(type) {
		case *os.File:
			got = HoldsInput(in)
		case *bytes.Buffer:
			got = HoldsInput(in)
		}
		if got != tc.want {
			t.Errorf("%s: HoldsInput = %v, want %v", tc.name, got, tc.want)
		}
	}
}
