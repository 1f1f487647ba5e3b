package rundir

import (
	"os/exec"
	"testing"
	"time"
)

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

// TestOtherCPULeavesOutChildren: the CPU time of the process's children
// (an external solver's processes, ended and waited for before the
// segment closes) is the sweep's own work, not other work. A child
// spins for a few hundred milliseconds of CPU between Begin and Close;
// whatever else the machine did then is counted by both the segment and
// the test's own reading around it, so the segment's OtherCPUNS must lie
// below the machine's busy time by about the child's CPU time (before,
// it held it: a -ext sweep on two workers read as busy on a quiet
// machine).
func TestOtherCPULeavesOutChildren(t *testing.T) {
	if hostBusy() < 0 {
		t.Skip("the system does not tell its CPUs' busy time (/proc/stat)")
	}
	d, err := Create(t.TempDir(), &Manifest{Settings: Settings{Solvers: []string{"norvig"}, Corpora: []string{"c"}}})
	if err != nil {
		t.Fatal(err)
	}
	b0 := hostBusy()
	if err := d.Begin(Segment{Workers: 2, Machine: Machine{NumCPU: 2}}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	child := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds()
	if err := d.Close(Finished, ""); err != nil {
		t.Fatal(err)
	}
	busy := hostBusy() - b0
	if child < 100e6 {
		t.Fatalf("the child spun for %v of CPU only, want 100ms or more to tell it from the clock ticks", time.Duration(child))
	}
	// Half the child's time: /proc/stat counts in ticks of 10 ms a CPU.
	if other := d.Manifest.Segments[0].OtherCPUNS; other > busy-child/2 {
		t.Errorf("other CPU %v of the machine's %v busy, while the child alone took %v: the child counted as other work",
			time.Duration(other), time.Duration(busy), time.Duration(child))
	}
}
