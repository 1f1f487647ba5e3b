// Package golden compares test output with golden files in testdata, and
// rewrites them when the tests run with -update:
//
//	go test ./report ./cmd/batch -run Golden -update
//
// Tests only import it.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites the golden files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Check compares got with the golden file path (or rewrites it with
// -update) and shows a line diff on mismatch.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the output (-golden +got; -update rewrites it):\n%s", path,
			Diff(string(want), string(got)))
	}
}

// Diff returns a unified-style diff of two texts, line by line (a
// longest common subsequence), with two lines of context around changes.
func Diff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// lcs[i][j]: length of the LCS of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		line int // in a (for ' ' and '-') or b (for '+'), 1-based
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i + 1})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], i + 1})
			i++
		default:
			ops = append(ops, op{'+', y[j], j + 1})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	last := -1 // index of the last op written
	for k, o := range ops {
		if o.kind == ' ' {
			continue
		}
		from := max(k-context, last+1)
		if last >= 0 && from > last+1 || last < 0 && from > 0 {
			fmt.Fprintf(&out, "@@ line %d @@\n", ops[from].line)
		}
		for m := from; m <= k; m++ {
			fmt.Fprintf(&out, "%c %s\n", ops[m].kind, ops[m].text)
		}
		last = k
		for m := k + 1; m < len(ops) && m <= k+context && ops[m].kind == ' '; m++ {
			fmt.Fprintf(&out, "  %s\n", ops[m].text)
			last = m
		}
	}
	return out.String()
}
