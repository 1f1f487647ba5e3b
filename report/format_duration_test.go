package report

import (
	"testing"
	"time"
)

// TestFormatDuration: three significant digits up to 100 s, then
// minutes and seconds, hours and minutes, hours.
func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{850, "850ns"}, {36700, "36.7µs"}, {time.Millisecond, "1.00ms"}, {6522 * time.Millisecond, "6.52s"},
		{99940 * time.Millisecond, "99.9s"}, {99960 * time.Millisecond, "1m40s"}, {842 * time.Second, "14m2s"},
		{2*time.Hour + 5*time.Minute + 20*time.Second, "2h5m"}, {2 * time.Hour, "2h0m"}, {130 * time.Hour, "130h"},
	} {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
