package corpus

import (
	"os"
	"testing"
)

// corpusPath returns the path of the full corpus, failing with a message
// that says where it comes from when it is missing.
func corpusPath(t testing.TB) string {
	t.Helper()
	const path = "../data/sudoku17.txt"
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the 17-clue corpus is missing (%v): data/sudoku17.txt is committed in the repository; "+
			"see data/README.md for its provenance and SHA-256", err)
	}
	return path
}
