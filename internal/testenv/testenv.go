// Package testenv says which tests of the module run: `go test ./...`
// runs the quick ones (well under a minute in all on two cores), and the
// heavy ones (whole corpora many times, processes killed and resumed
// again and again, a load test; seconds to minutes each) run when the
// environment variable SUDOKUBATCH_HEAVY is 1, as .ci/run sets it, and
// not under the race detector: .ci/run's race pass runs the quick tests,
// which walk the same concurrent paths, and leaves the heavy ones to the
// plain pass (under the detector they take several times as long).
package testenv

import (
	"os"
	"testing"
)

// HeavyVar is the environment variable that asks for the heavy tests.
const HeavyVar = "SUDOKUBATCH_HEAVY"

// HeavyEnabled reports whether the heavy tests run: HeavyVar is 1, the
// run is not -short, and not under the race detector.
func HeavyEnabled() bool { return os.Getenv(HeavyVar) == "1" && !testing.Short() && !raceEnabled }

// Heavy skips t unless the heavy tests run, saying in one line what makes
// it heavy (what, e.g. "sweeps 65,540 corpus files") and how to run it.
func Heavy(t testing.TB, what string) {
	t.Helper()
	switch {
	case raceEnabled:
		t.Skipf("heavy: %s; not under -race (the plain pass runs it)", what)
	case !HeavyEnabled():
		t.Skipf("heavy: %s; runs with %s=1 (as .ci/run sets it)", what, HeavyVar)
	}
}

// SkipUnderRace skips t under the race detector, saying why in one line
// (why, e.g. "four sweeps and three merges: 3 s, 45 s under -race"): a
// quick test whose work the detector slows tenfold or more, and whose
// concurrent paths quicker tests walk.
func SkipUnderRace(t testing.TB, why string) {
	t.Helper()
	if raceEnabled {
		t.Skipf("not under -race: %s", why)
	}
}

// Race reports whether this build has the race detector (go test -race).
func Race() bool { return raceEnabled }
