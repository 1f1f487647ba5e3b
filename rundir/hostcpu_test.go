package rundir

import "testing"

func TestParseHostBusy(t *testing.T) {
	for line, want := range map[string]int64{
		"cpu  1303398 392 382782 759870 12778 0 14269 0 0 0": (1303398 + 392 + 382782 + 14269) * clockTick,
		"cpu  10 0 5 100 7 1 2 30":                           (10 + 5 + 1 + 2 + 30) * clockTick, // steal counts
		"cpu0 1 2 3 4 5 6 7 8":                               -1,
		"cpu  1 2 3":                                         -1,
		"cpu  1 2 x 4 5 6 7 8":                               -1,
		"":                                                   -1,
	} {
		if got := parseHostBusy(line); got != want {
			t.Errorf("parseHostBusy(%q) = %d, want %d", line, got, want)
		}
	}
}

func TestOtherShare(t *testing.T) {
	s := Segment{DurationNS: 10e9, OtherCPUNS: 5e9, Machine: Machine{NumCPU: 2}}
	if got, ok := s.OtherShare(); !ok || got != 0.25 {
		t.Errorf("OtherShare = %g, %t; want 0.25", got, ok)
	}
	s.OtherCPUNS = 0
	if _, ok := s.OtherShare(); ok {
		t.Error("a segment without other_cpu_ns has a share")
	}
}
