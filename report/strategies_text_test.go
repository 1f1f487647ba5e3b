package report

import (
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// TestWriteStrategies: every strategy of the registry is listed in its
// order, the ones outside the default set say so, and in 40 and 80
// columns no line is wider but for a word longer than the room, a
// description folded under itself.
func TestWriteStrategies(t *testing.T) {
	for _, width := range []int{40, 80} {
		var b strings.Builder
		if err := WriteStrategies(&b, width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		at := 0
		for _, s := range solvers.All() {
			i := strings.Index(out[at:], "\n"+s.Name()+" ")
			if at == 0 && strings.HasPrefix(out, s.Name()+" ") {
				i = 0
			}
			if i < 0 {
				t.Fatalf("%d columns: %s is not listed in order:\n%s", width, s.Name(), out)
			}
			at += i + 1
		}
		if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "(not in the default set: -solvers all)") || !strings.Contains(flat, "-ext NAME=COMMAND") {
			t.Errorf("%d columns: the default set or -ext is not said:\n%s", width, out)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if columns(line) > width && strings.Contains(strings.TrimSpace(line), " ") { // a long word stays whole (Wrap)
				t.Errorf("%d columns: a line of %d: %q", width, columns(line), line)
			}
		}
	}
}
