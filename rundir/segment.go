package rundir

import "time"

// Segment is one invocation that wrote rows into the run (the first run,
// each -resume, or a merged shard).
type Segment struct {
	Start      time.Time `json:"start"`
	End        time.Time `json:"end,omitzero"`
	DurationNS int64     `json:"duration_ns"`      // wall time, End - Start
	CPUNS      int64     `json:"cpu_ns,omitempty"` // CPU time of the process (user and system), when it closed the segment
	// OtherCPUNS is the CPU time the machine's other work took during the
	// segment: the time its CPUs were busy (steal included) less this
	// process's own and its children's (the external solvers', ended
	// before the segment) (Linux; 0 where the system does not tell). Over
	// the wall time it is what others took of the CPUs while the units
	// were timed (see OtherShare).
	OtherCPUNS int64    `json:"other_cpu_ns,omitempty"`
	Command    []string `json:"command"`
	Workers    int      `json:"workers"`
	Rows       int      `json:"rows"`            // rows this segment wrote
	Status     string   `json:"status"`          // running, finished, interrupted, failed, killed
	Error      string   `json:"error,omitempty"` // why it failed
	Machine    Machine  `json:"machine"`
	Source     string   `json:"source,omitempty"` // the shard directory, for merged runs
	Shard      string   `json:"shard,omitempty"`  // that shard's k/n, for merged runs
	Timing     *Timing  `json:"timing,omitempty"` // how this segment timed its units
	// Scheduler is the scheduler's job and task the process ran in
	// (ThisJob), nil outside one.
	Scheduler *Scheduler `json:"scheduler,omitempty"`
}

// OtherShare returns the share of the workers' CPU time that other work
// took during the segment, and false when the segment did not record
// OtherCPUNS. Other work first fills the CPUs the workers leave idle
// (NumCPU - Workers of them): only what it used beyond those took time
// from the workers. So on 2 CPUs a sweep with 2 workers shares them with
// anything else that ran, and one with 1 worker shares its CPU only
// when the other work needed more than the other CPU. Workers on fewer
// processors (GOMAXPROCS set below -workers) run on as many CPUs.
func (s *Segment) OtherShare() (float64, bool) {
	if s.OtherCPUNS <= 0 || s.DurationNS <= 0 || s.Machine.NumCPU <= 0 {
		return 0, false
	}
	workers := min(max(s.Workers, 1), s.Machine.NumCPU)
	if p := s.Machine.GOMAXPROCS; p > 0 {
		workers = min(workers, p)
	}
	spare := float64(s.Machine.NumCPU-workers) * float64(s.DurationNS)
	return min(max(float64(s.OtherCPUNS)-spare, 0)/(float64(workers)*float64(s.DurationNS)), 1), true
}

// end closes the segment at t (not before its start) with status.
func (s *Segment) end(t time.Time, status string) {
	s.End, s.Status = t, status
	if s.End.Before(s.Start) {
		s.End = s.Start
	}
	s.DurationNS = s.End.Sub(s.Start).Nanoseconds()
}

// Timing is how a segment timed its units: the timer's overhead it
// subtracted, the units whose repeated runs disagreed, what the
// re-timing at its end did (its noise figure), and the garbage
// collector's part of it.
type Timing struct {
	TimerNS    int64   `json:"timer_ns"`
	Unstable   int     `json:"unstable"`
	Retimed    int     `json:"retimed"`   // units timed again at the end
	Slow       int     `json:"slow"`      // of which outliers confirmed slow
	Noise      int     `json:"noise"`     // sweep times not confirmed
	Confirmed  int     `json:"confirmed"` // slowest units confirmed
	Left       int     `json:"left"`      // candidates not re-timed (time allowed spent)
	RetimeNS   int64   `json:"retime_ns"`
	RetimeErr  string  `json:"retime_error,omitempty"` // the rows could not be amended: they keep their sweep times
	GCCycles   uint64  `json:"gc_cycles"`
	GCPauseNS  int64   `json:"gc_pause_ns"`
	GCCPUShare float64 `json:"gc_cpu_share"`
	// Null is the null round trip of each external solver, measured
	// during the segment's sweep: the part of its units' times (ns) that
	// is the pipes and the wake-ups, not the program.
	Null []NullRoundTrip `json:"null,omitempty"`
}

// NullRoundTrip is the null round trip of an external solver during a
// sweep (docs/PROTOCOL.md, "Times"): round trips with a built-in echo
// peer behind the same guard and pipes, taken between the solver's
// requests by the workers that send them, at most one a millisecond per
// process (the re-timing's included).
type NullRoundTrip struct {
	Name     string `json:"name"` // the strategy
	Samples  int    `json:"samples"`
	MedianNS int64  `json:"median_ns"`
	P10NS    int64  `json:"p10_ns"`
	P90NS    int64  `json:"p90_ns"`
	P99NS    int64  `json:"p99_ns"`
}

// TimingBlock is the number of puzzles of a timing block: the pipeline
// reads the selected puzzles of a shard in blocks of TimingBlock and
// times the block's units one strategy at a time, within milliseconds of
// each other, so that a comparison of two runs (report's compare) can
// pair the units timed under the same conditions by their block.
const TimingBlock = 256

// closeKilled closes the segments that a killed process left running
// (whoever calls it holds the run's lock, so their process is gone):
// status killed, ending at last, the last write into the directory. With
// rows >= 0, the rows in results.csv, the last of them is given the rows
// that no other segment wrote; else their counts stay as recorded. It
// reports whether there was any.
func (m *Manifest) closeKilled(last time.Time, rows int) bool {
	others := 0
	var killed []*Segment
	for i := range m.Segments {
		s := &m.Segments[i]
		if s.Status == Running {
			killed = append(killed, s)
		} else {
			others += s.Rows
		}
	}
	for i, s := range killed {
		s.end(last, Killed)
		if rows >= 0 {
			if i == len(killed)-1 {
				s.Rows = max(rows-others, 0)
			} else {
				s.Rows = 0
			}
			others += s.Rows
		}
	}
	if len(killed) > 0 {
		m.sumDurations()
	}
	return len(killed) > 0
}

// sumDurations sets the run's wall time and CPU time from its segments'
// (see DurationNS).
func (m *Manifest) sumDurations() {
	m.DurationNS, m.CPUNS = 0, 0
	for _, s := range m.Segments {
		d := s.DurationNS
		if d == 0 && !s.End.IsZero() {
			d = s.End.Sub(s.Start).Nanoseconds() // a run.json from before segments had their own
		}
		m.DurationNS += max(d, 0)
		m.CPUNS += max(s.CPUNS, 0)
	}
	if m.Shards > 0 && !m.End.IsZero() {
		m.DurationNS = max(m.End.Sub(m.Start).Nanoseconds(), 0)
	}
	m.Duration = time.Duration(m.DurationNS).Round(time.Millisecond).String()
}
