package publish

import (
	"path/filepath"
	"testing"
)

// TestVariantsDir: the default corpus's puzzle under variants/ID, another
// corpus's under variants/NAME-ID, NAME as the strip charts name the
// corpus: without its extensions, and a byte a file name cannot hold
// (a space, a colon, a backslash) written '_'.
func TestVariantsDir(t *testing.T) {
	for _, c := range []struct{ corpus, want string }{
		{"data/sudoku17.txt", "39949"},
		{"x/hard.txt.gz", "hard-39949"},
		{`x/my hard:1\2.txt`, "my_hard_1_2-39949"},
	} {
		if got := VariantsDir("results", c.corpus, "data/sudoku17.txt", 39949); got != filepath.Join("results", "variants", c.want) {
			t.Errorf("%s: %s, want results/variants/%s", c.corpus, got, c.want)
		}
	}
}
