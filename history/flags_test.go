package history

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubatch/rundir"
)

func TestParseShare(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "1.05": 0.05, "12.5%": 0.125, " 10% ": 0.1} {
		if got, err := ParseShare(in); err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("ParseShare(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "0%", "100%", "2", "-5%", "abc", "NaN", "1"} {
		if got, err := ParseShare(in); err == nil {
			t.Errorf("ParseShare(%q) = %g, want an error", in, got)
		}
	}
}

// TestAckNightRefuses: an acknowledgement of a run that is not there, of
// a run that is not a night, without a reason, or of a night that raised
// no alarm of the strategy is a usage error, and nothing is recorded.
func TestAckNightRefuses(t *testing.T) {
	root := t.TempDir()
	for i := range 3 {
		writeRun(t, root, night{name: "n" + string(rune('0'+i)), day: i, timeout: time.Second, median: 1000})
	}
	writeRun(t, root, night{name: "broken", day: 4, timeout: time.Second, status: rundir.Interrupted, median: 1000})
	ctx := context.Background()
	for _, tc := range []struct {
		night, solver, why, want string
	}{
		{"nope", "norvig", "x", "-ack nope: no run of that name under " + root},
		{"broken", "norvig", "x", "-ack broken: not a night of the history"},
		{"n2", "norvig", " ", "-ack n2 norvig: an acknowledgement needs a reason"},
		{"n2", "norvig", "on purpose", "-ack n2 norvig: night n2 raised no alarm of norvig"},
	} {
		_, err := AckNight(ctx, root, tc.night, tc.solver, tc.why, Options{Baseline: DefaultBaseline, Threshold: 0.05, Busy: 1})
		if _, ok := errors.AsType[*UsageError](err); !ok || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-ack %s %s %q: %v, want a usage error with %q", tc.night, tc.solver, tc.why, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, AnnotationsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an acknowledgement refused was recorded: %v", err)
	}
}
