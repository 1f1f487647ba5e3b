package main

import (
	"os"
	"path/filepath"
	"testing"

	"sudokubatch/rundir"
)

// TestVariantsDirOfAnOddCorpusName: batch variants without -out writes
// into results/variants/CORPUS-ID, the corpus's name made safe as a file
// name (publish.VariantsDir): a space and a colon, which some systems
// refuse in a name, become '_', as in the strip charts' names.
func TestVariantsDirOfAnOddCorpusName(t *testing.T) {
	dir := t.TempDir()
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	if err := os.WriteFile(filepath.Join(dir, "my hard:1.txt"), []byte(p0+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := batchMain(t, dir, "variants", "0", "-corpus", "my hard:1.txt", "-run", "", "-n", "1", "-sample", "0", "-solvers", "dlx")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "results", "variants", "my_hard_1-0", rundir.VariantsFile)); err != nil {
		t.Errorf("%v\nstdout:\n%s", err, r.stdout)
	}
}
