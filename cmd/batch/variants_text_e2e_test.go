package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVariantsNoEmptyReplaySection: when no strategy has a costliest and
// a cheapest variant apart (every variant of puzzle #0 costs norvig the
// same calls), the text has no "Replay a variant" heading over nothing.
func TestVariantsNoEmptyReplaySection(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	os.WriteFile(filepath.Join(tmp, "c.txt"), []byte(p0+"\n"), 0o644)
	r := batch(t, tmp, "variants", "0", "-corpus", "c.txt", "-n", "4", "-solvers", "norvig", "-timeout", "5s", "-sample", "5", "-out", "vout")
	mustOK(t, r)
	if strings.Contains(r.stdout, "Replay a variant") {
		t.Errorf("a replay heading without a replay:\n%s", r.stdout)
	}
}
