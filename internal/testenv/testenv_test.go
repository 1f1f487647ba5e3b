package testenv

import "testing"

// TestHeavyFollowsTheVariable: Heavy skips unless SUDOKUBATCH_HEAVY is 1.
func TestHeavyFollowsTheVariable(t *testing.T) {
	for _, tc := range []struct {
		value string
		runs  bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", !testing.Short() && !Race()}} {
		t.Setenv(HeavyVar, tc.value)
		ran := false
		t.Run("value="+tc.value, func(t *testing.T) {
			Heavy(t, "a test")
			ran = true
		})
		if ran != tc.runs {
			t.Errorf("%s=%q: ran %v, want %v", HeavyVar, tc.value, ran, tc.runs)
		}
	}
}
