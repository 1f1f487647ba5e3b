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
	for _, c := range []struct {
		workers int
		other   float64 // CPU seconds over 10 s of wall time, 2 CPUs
		want    float64
	}{
		{2, 5, 0.25}, // both CPUs the workers': a quarter of their time
		{2, 25, 1},   // more than there was: all of it
		{1, 5, 0},    // the other CPU was idle enough for it
		{1, 12, 0.2}, // 2 s beyond the spare CPU's 10
		{0, 5, 0},    // workers unknown: taken as 1
		{4, 5, 0.25}, // more workers than CPUs: as many as CPUs
	} {
		s := Segment{DurationNS: 10e9, OtherCPUNS: int64(c.other * 1e9), Workers: c.workers, Machine: Machine{NumCPU: 2}}
		if got, ok := s.OtherShare(); !ok || got != c.want {
			t.Errorf("%d workers, %g s of other work: OtherShare = %g, %t; want %g", c.workers, c.other, got, ok, c.want)
		}
	}
	// Workers on fewer processors than themselves (GOMAXPROCS=1 set in
	// the environment, -workers 2) run on that many CPUs: the others are
	// spare. GOMAXPROCS 0 (not recorded) caps nothing.
	for _, c := range []struct {
		workers, procs int
		other          float64
		want           float64
	}{
		{2, 1, 5, 0},    // the other CPU was idle enough for it
		{2, 1, 12, 0.2}, // 2 s beyond the spare CPU's 10
		{2, 2, 5, 0.25},
		{1, 4, 5, 0}, // GOMAXPROCS above the workers: the workers count
		{2, 0, 5, 0.25},
	} {
		s := Segment{DurationNS: 10e9, OtherCPUNS: int64(c.other * 1e9), Workers: c.workers, Machine: Machine{NumCPU: 2, GOMAXPROCS: c.procs}}
		if got, ok := s.OtherShare(); !ok || got != c.want {
			t.Errorf("%d workers on GOMAXPROCS %d, %g s of other work: OtherShare = %g, %t; want %g", c.workers, c.procs, c.other, got, ok, c.want)
		}
	}
	s := Segment{DurationNS: 10e9, Machine: Machine{NumCPU: 2}}
	s.OtherCPUNS = 0
	if _, ok := s.OtherShare(); ok {
		t.Error("a segment without other_cpu_ns has a share")
	}
}
