package report

import (
	"regexp"
	"testing"

	"sudokubatch/rundir"
)

// TestPeakNote: the process's peak memory, in the form of the commands'
// last lines, where the system says it.
func TestPeakNote(t *testing.T) {
	note := PeakNote()
	if _, ok := rundir.PeakRSS(); !ok {
		if note != "" {
			t.Errorf("no peak known, yet %q", note)
		}
		return
	}
	if !regexp.MustCompile(`^, peak memory [0-9.]+ (kB|MB|GB)$`).MatchString(note) {
		t.Errorf("PeakNote() = %q", note)
	}
}
