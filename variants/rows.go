package variants

import (
	"fmt"
	"strconv"
	"time"

	"sudokubatch/rundir"
)

// RowsOf identifies the rows of the run m describes, for an analysis of
// them (rundir.Variants.Rows).
func RowsOf(m *rundir.Manifest) *rundir.VariantRows {
	return &rundir.VariantRows{RunID: m.RunID, Status: m.Status, Rows: m.Rows, End: m.End}
}

// Stale says why the analysis v of a run, written at time written, is not
// of the run's rows as m describes them now ("" when it is): the run went
// on, was resumed or made again since. An analysis that does not say
// which rows it was made from is taken as the run's when it was written
// after the run ended.
func Stale(v *rundir.Variants, m *rundir.Manifest, written time.Time) string {
	if m == nil {
		return ""
	}
	r := v.Rows
	if r == nil {
		if m.Status == rundir.Running || m.End.IsZero() || written.Before(m.End) {
			return fmt.Sprintf("it was written at %s, before the run's rows were final (the run ended %s)",
				written.UTC().Format(time.DateTime), endText(m))
		}
		return ""
	}
	if r.RunID == m.RunID && r.Rows == m.Rows && r.Status == m.Status && r.End.Equal(m.End) {
		return ""
	}
	return fmt.Sprintf("it was made from %d rows of run %s (%s), and the run now has %d (%s, ended %s)",
		r.Rows, r.RunID, r.Status, m.Rows, m.Status, endText(m))
}

func endText(m *rundir.Manifest) string {
	if m.End.IsZero() {
		return "not yet"
	}
	return m.End.UTC().Format(time.DateTime)
}

// ReplayArgs returns the command that solves a variant of puzzle id of
// corpus (left out when it is the default one) as the analysis cfg
// solved it, its -transform and the transform to be appended: batch show
// with the analysis' run seed, -timeout and -max-calls, so that a variant
// a limit stopped stops there again: "batch show 39949 -seed 1 -timeout 1s".
func ReplayArgs(id int, corpus, defaultCorpus string, cfg Config) []string {
	args := []string{"batch", "show", strconv.Itoa(id)}
	if corpus != defaultCorpus {
		args = append(args, "-corpus", corpus)
	}
	s := rundir.Settings{TimeoutNS: int64(cfg.Timeout), MaxCalls: cfg.MaxCalls, Seed: cfg.RunSeed}
	return append(args, s.ReplayFlags(rundir.ReplayShow)...)
}
