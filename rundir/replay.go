package rundir

import (
	"strconv"
	"time"
)

// A Replay is a command that solves units of a run again: which flags
// Settings.ReplayFlags gives depends on it.
type Replay int

const (
	// ReplayShowRun is `batch show ID -run DIR`, which takes the seed of
	// the run it names: the flags of the limits only.
	ReplayShowRun Replay = iota
	// ReplayShow is `batch show ID` without -run: the seed too, which
	// batch show would otherwise take from results/latest, or make 1.
	ReplayShow
	// ReplaySweep is a sweep, `batch run` (a bisect script's): the
	// limits, -runs and -unique, the seed when it is not batch run's
	// default, 1, and the external solvers (-ext, -ext-files). A flag at
	// batch run's default is left out, so that a build older than the
	// flag runs the command too.
	ReplaySweep
)

// ReplayFlags returns the flags that make command c solve units as the
// run of s solved them, in this order: -seed (see Replay), -timeout,
// always (0 for none: batch show's default is 1s), -max-calls when the
// run had a limit, then for a sweep -runs when it is not MaxRuns,
// -unique, and each external solver's -ext NAME=COMMAND and the
// -ext-files NAME=PATH it was given (without them a sweep could not run
// the strategy). A duration is written as Go writes it (time.Duration.String:
// exact, and what the flag parses), not rounded for a person.
func (s *Settings) ReplayFlags(c Replay) []string {
	var flags []string
	if c == ReplayShow || c == ReplaySweep && s.Seed != 1 {
		flags = append(flags, "-seed", strconv.FormatUint(s.Seed, 10))
	}
	timeout := "0"
	if s.TimeoutNS > 0 {
		timeout = time.Duration(s.TimeoutNS).String()
	}
	flags = append(flags, "-timeout", timeout)
	if s.MaxCalls > 0 {
		flags = append(flags, "-max-calls", strconv.FormatUint(s.MaxCalls, 10))
	}
	if c != ReplaySweep {
		return flags
	}
	if s.runs() != MaxRuns {
		flags = append(flags, "-runs", strconv.Itoa(s.Runs))
	}
	if s.Unique {
		flags = append(flags, "-unique")
	}
	for _, x := range s.External {
		flags = append(flags, "-ext", x.Name+"="+x.Command)
		for _, f := range x.Files {
			if f.Named {
				flags = append(flags, "-ext-files", x.Name+"="+f.Path)
			}
		}
	}
	return flags
}
