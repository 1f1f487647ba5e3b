package rundir

import (
	"strings"
	"testing"
	"time"
)

func TestReplayFlags(t *testing.T) {
	plain := Settings{TimeoutNS: int64(time.Second), Seed: 1}
	limited := Settings{TimeoutNS: int64(1500 * time.Millisecond), MaxCalls: 3000, Seed: 7, Runs: 1, Unique: true}
	none := Settings{Seed: 1, Runs: MaxRuns}
	external := Settings{TimeoutNS: int64(time.Second), Seed: 1, External: []External{{Name: "py", Command: "python3 s.py",
		Files: []FileSum{{Path: "s.py"}, {Path: "lib", Named: true}}}}}
	cases := []struct {
		name string
		s    Settings
		c    Replay
		want string
	}{
		{"show in the run: the limits", plain, ReplayShowRun, "-timeout 1s"},
		{"show in the run: the seed is the run's", limited, ReplayShowRun, "-timeout 1.5s -max-calls 3000"},
		{"show in the run: no time limit", none, ReplayShowRun, "-timeout 0"},
		{"show alone: the seed, even 1", plain, ReplayShow, "-seed 1 -timeout 1s"},
		{"show alone: no -runs nor -unique", limited, ReplayShow, "-seed 7 -timeout 1.5s -max-calls 3000"},
		{"sweep: defaults left out", plain, ReplaySweep, "-timeout 1s"},
		{"sweep: -runs at MaxRuns left out", none, ReplaySweep, "-timeout 0"},
		{"sweep: every setting", limited, ReplaySweep, "-seed 7 -timeout 1.5s -max-calls 3000 -runs 1 -unique"},
		{"sweep: seed 0 is not the default", Settings{TimeoutNS: int64(time.Hour)}, ReplaySweep, "-seed 0 -timeout 1h0m0s"},
		{"sweep: an external solver and its named files", external, ReplaySweep, "-timeout 1s -ext py=python3 s.py -ext-files py=lib"},
		{"show: no -ext (it cannot start one without its command)", external, ReplayShowRun, "-timeout 1s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(c.s.ReplayFlags(c.c), " "); got != c.want {
				t.Errorf("ReplayFlags(%d) = %q, want %q", c.c, got, c.want)
			}
		})
	}
}
