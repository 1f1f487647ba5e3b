package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadCorpora runs the binary on corpora a user did not write and
// checks the exact outcome of each: exit code, message, rows.
func TestBadCorpora(t *testing.T) {
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	head := strings.Join(lines[:2000], "")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(head))
	zw.Close()
	truncated := gz.Bytes()[:gz.Len()/2]
	// #0 with its first given removed: 16 clues, several solutions.
	sixteen := "000000000400000000020000000000050407008000300001090000300400200050100000000806000"
	tests := []struct {
		name     string
		data     []byte
		code     int
		rows     int      // rows in results.csv (bitboard and dlx)
		invalid  int      // of them invalid
		stderr   []string // substrings of stderr
		statuses map[int]string
	}{
		{name: "empty", data: nil, code: 2, stderr: []string{"no puzzle line in FILE (empty, or only comments"}},
		{name: "only comments", data: []byte("# a\n\n   \n# b\n"), code: 2, stderr: []string{"no puzzle line in FILE"}},
		{name: "binary garbage", data: []byte("\x00\x01\xff\xfe1234\n\x1f\x8bzz\n"), code: 0, rows: 4, invalid: 4,
			stderr: []string{`FILE:1: puzzle has 8 symbols`, `FILE:2: puzzle has 4 symbols`}},
		{name: "truncated gzip", data: truncated, code: 1,
			stderr: []string{"FILE could not be read after line", "at byte", "of the compressed file: unexpected EOF", "the rows of the puzzles read before it are in"}},
		{name: "10 MB line", data: []byte(lines[0] + strings.Repeat("7", 10<<20) + "\n" + lines[1]), code: 0, rows: 6, invalid: 2,
			stderr: []string{"FILE:2: line longer than 65536 bytes"}, statuses: map[int]string{0: "solved", 1: "invalid", 2: "solved"}},
		{name: "several solutions", data: []byte(sixteen + "\n"), code: 0, rows: 2, statuses: map[int]string{0: "solved"}},
		{name: "mixed sizes", data: []byte("4000300200040020\n" + lines[0] + "G3070F0000C09D02E5AC690D0070F4B0480F0C500D960G10D000070G000B000500017B03E80060CD5D00000243B700F00EF0C6D0001900703070F0E0050C129G000200B0A00050E6C6E5D010B00G8F00F040056C002D30GB7BG308AF005E20000C0E500671G24000BF00000A900500271000040BC0E0D60969002G70FB400A8C\n"),
			code: 0, rows: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			file := filepath.Join(tmp, "corpus")
			if tt.name == "truncated gzip" {
				file += ".gz"
			}
			os.WriteFile(file, tt.data, 0o644)
			// No timeout: every row read must be solved, and a loaded
			// machine (or the race detector) can take a unit past 100 ms.
			r := batchMain(t, tmp, "-solvers", "dlx,bitboard", "-report=false", "-quiet", "-timeout", "0", "-out", "run", file)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, tt.code, r.stderr)
			}
			for _, want := range tt.stderr {
				if want = strings.ReplaceAll(want, "FILE", file); !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if tt.code == 2 {
				// Nothing to solve: nothing is left behind.
				if _, err := os.Stat(filepath.Join(tmp, "run")); err == nil {
					t.Fatal("the run directory of a run that solved nothing is left behind")
				}
				return
			}
			rows := readRows(t, filepath.Join(tmp, "run/results.csv"))
			if tt.name == "truncated gzip" {
				// Every row is a whole puzzle line read before the error, solved.
				if len(rows) == 0 || len(rows) >= 4000 || len(rows)%2 != 0 {
					t.Fatalf("%d rows", len(rows))
				}
				for _, row := range rows {
					if row.Status.String() != "solved" {
						t.Fatalf("row %+v", row)
					}
				}
				return
			}
			if len(rows) != tt.rows {
				t.Fatalf("%d rows, want %d", len(rows), tt.rows)
			}
			invalid := 0
			for _, row := range rows {
				if row.Status.String() == "invalid" {
					invalid++
					if !strings.HasPrefix(row.Error, file+":") {
						t.Errorf("invalid row without file and line: %q", row.Error)
					}
				}
				if want, ok := tt.statuses[row.ID]; ok && row.Status.String() != want {
					t.Errorf("id %d %s: %s, want %s", row.ID, row.Solver, row.Status, want)
				}
				if tt.name == "mixed sizes" {
					want := "solved"
					if row.Solver == "bitboard" && row.ID != 1 {
						want = "unsupported"
					}
					if row.Status.String() != want {
						t.Errorf("id %d %s: %s, want %s", row.ID, row.Solver, row.Status, want)
					}
				}
			}
			if invalid != tt.invalid {
				t.Errorf("%d invalid rows, want %d", invalid, tt.invalid)
			}
		})
	}
}
