package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// corpus4 writes a corpus of n 4x4 puzzles (or the lines of bad, by
// index) and returns its path and each puzzle's id by grid.
func corpus4(t *testing.T, n int, bad map[int]string) (string, map[solvers.Grid]int) {
	t.Helper()
	base := solvers.MustParse("4231314223141423")
	ids := map[solvers.Grid]int{}
	var b strings.Builder
	for i := range n {
		if line, ok := bad[i]; ok {
			b.WriteString(line + "\n")
			continue
		}
		p := base
		p.Cells[i%16] = 0 // a different puzzle each
		p.Cells[(i/16+5)%16] = 0
		ids[p.Grid] = i
		b.WriteString(p.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "c.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, ids
}

func TestFind(t *testing.T) {
	path, ids := corpus4(t, 6, map[int]string{4: "12345"})
	check := func(id int, wantOK bool, wantErr string) Entry {
		t.Helper()
		e, ok, info, err := Find(context.Background(), path, nil, id)
		if err != nil {
			t.Fatal(err)
		}
		// Found, the corpus is read only as far as the puzzle; not
		// found, to its end.
		if ok != wantOK || info.SHA256 == "" || info.Size == 0 || (!ok && (info.Puzzles != 6 || info.Invalid != 1 || !info.Complete)) {
			t.Fatalf("id %d: found %v, info %+v", id, ok, info)
		}
		if got := ""; e.Err != nil || wantErr != "" {
			if e.Err != nil {
				got = e.Err.Error()
			}
			if got != wantErr {
				t.Fatalf("id %d: error %q, want %q", id, got, wantErr)
			}
		}
		return e
	}
	if e := check(3, true, ""); ids[e.Puzzle.Grid] != 3 || e.Line != 4 {
		t.Errorf("id 3: %+v", e)
	}
	check(4, true, path+":5: puzzle has 5 symbols, want 16 (4x4), 81 (9x9) or 256 (16x16)")
	check(6, false, "")
	if _, _, _, err := Find(context.Background(), path+".nope", nil, 0); err == nil {
		t.Error("missing corpus: no error")
	}
	// Standard input.
	e, ok, info, err := Find(context.Background(), "-", strings.NewReader("# c\n4231314223141423\n0000000000000000\n"), 1)
	if err != nil || !ok || e.Line != 3 || info.Puzzles != 2 {
		t.Errorf("stdin: %+v %v %+v %v", e, ok, info, err)
	}
}
