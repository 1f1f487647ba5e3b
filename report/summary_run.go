package report

import (
	"slices"
	"sudokubatch/rundir"
	"time"
)

// RunSummary is the part of run.json a summary repeats: what decides the
// rows and where they were measured, but no time of day.
type RunSummary struct {
	RunID      string              `json:"run_id"`
	Status     string              `json:"status"`
	DurationNS int64               `json:"duration_ns"`
	Settings   rundir.Settings     `json:"settings"`
	Corpora    []rundir.CorpusInfo `json:"corpora"`
	Workers    int                 `json:"workers"`  // of the first segment
	Machines   []rundir.Machine    `json:"machines"` // distinct, in segment order
	// ElapsedNS is, for a run still being written (Status running), the
	// time from its start to this summary: DurationNS is set when it
	// ends.
	ElapsedNS int64 `json:"elapsed_ns,omitempty"`
	// Start is when the run started.
	Start time.Time `json:"start,omitzero"`
	// OtherShare is the share of the workers' CPU time that other work
	// took while the units were timed: the largest of the segments that
	// wrote rows (rundir.Segment.OtherShare); nil when run.json does not
	// record it.
	OtherShare *float64 `json:"other_share,omitempty"`
}

// Running reports whether the run was still being written (or was killed
// before it could say otherwise) when it was summarized: its counts are
// those of the rows written so far.
func (r *RunSummary) Running() bool { return r != nil && r.Status == rundir.Running }

func summarizeRun(ri *rundir.Manifest) *RunSummary {
	if ri == nil {
		return nil
	}
	rs := &RunSummary{RunID: ri.RunID, Status: ri.Status, DurationNS: ri.DurationNS,
		Settings: ri.Settings, Corpora: ri.Corpora, Machines: []rundir.Machine{}, Start: ri.Start}
	if rs.Running() && !ri.Start.IsZero() {
		rs.ElapsedNS = max(time.Since(ri.Start).Nanoseconds(), 0)
	}
	for i, seg := range ri.Segments {
		if i == 0 {
			rs.Workers = seg.Workers
		}
		if !slices.Contains(rs.Machines, seg.Machine) {
			rs.Machines = append(rs.Machines, seg.Machine)
		}
		if share, ok := seg.OtherShare(); ok && seg.Rows > 0 && (rs.OtherShare == nil || share > *rs.OtherShare) {
			rs.OtherShare = &share
		}
	}
	return rs
}
