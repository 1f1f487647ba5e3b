package main

import (
	"flag"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers/external"
)

// extFlags are the flags of external solvers (docs/PROTOCOL.md).
type extFlags struct {
	specs    external.Specs
	files    cli.Strings // -ext-files NAME=PATH, merged into specs by resolve
	start    time.Duration
	restarts int
	grace    time.Duration
	limit    time.Duration // -ext-timeout
}

// addExtFlags adds the flags of external solvers to fs.
func addExtFlags(fs *flag.FlagSet, f *extFlags) {
	fs.Var(&f.specs, "ext", "an external solver as strategy `NAME=COMMAND` (repeatable; the line protocol of docs/PROTOCOL.md; no shell: a command run by sh -c names its files with -ext-files)")
	fs.Var(&f.files, "ext-files", "a file or directory `NAME=PATH` that the external solver NAME is made of, hashed into run.json beside its executable (repeatable): -resume and merge refuse a run whose files changed")
	fs.DurationVar(&f.start, "ext-start", external.DefaultStartTimeout, "the time an external solver's process has to answer the handshake")
	fs.IntVar(&f.restarts, "ext-restarts", external.DefaultMaxRestarts, "restarts of external solvers' processes at most in a run (after a timeout, a crash or a protocol error); past it their units are error, and batch exits 1")
	fs.DurationVar(&f.grace, "ext-grace", external.DefaultGrace, "the time between TERM and KILL when an external solver's process is ended")
	fs.DurationVar(&f.limit, "ext-timeout", external.DefaultLimit, "the time limit of an external solver's unit when -timeout is 0 (a program that stops answering ends there, its unit timeout); 0 for none")
}

// resolve adds the -ext-files to their specs; call it once the flags are
// parsed.
func (f *extFlags) resolve() error {
	if err := external.AddFiles(f.specs, f.files); err != nil {
		return usageErr("%v", err)
	}
	f.files = nil
	return nil
}

func (f *extFlags) options(workers int, unique bool) external.Options {
	return external.Options{Workers: workers, StartTimeout: f.start, Grace: f.grace, MaxRestarts: f.restarts,
		Count: unique, Limit: f.limit}
}

// startExternals starts the external solvers of specs that names lists
// (external.StartAll), saying on stderr what it left out and what it
// started; a program that does not start is a usage error.
func startExternals(e *env, specs []external.Spec, names []string, opt external.Options) (external.Set, error) {
	xs, err := external.StartAll(e.ctx, specs, names, opt,
		func(w string) { e.notef("batch: warning: %s\n", w) },
		func(x *external.Solver, took time.Duration) {
			pr := x.Program()
			e.notef("batch: external %s: %s %s (%s), %s started in %s; the null round trip is measured during the sweep\n",
				x.Name(), pr.Reported, pr.Version, strings.Join(pr.Caps, " "), report.Count(opt.Workers, "process", "processes"),
				report.FormatDuration(took))
		})
	switch {
	case err == nil:
		return xs, nil
	case e.ctx.Err() != nil:
		return nil, e.ctx.Err()
	}
	return nil, usageErr("%v", err)
}

// The external solvers in run.json: solvers/external knows no run.json,
// rundir no external solver; the command maps one onto the other.

// recordsOf is run.json's record of each program of xs.
func recordsOf(xs external.Set) []rundir.External {
	var out []rundir.External
	for _, x := range xs {
		p := x.Program()
		r := rundir.External{Name: p.Name, Command: p.Command, Args: p.Args, Executable: p.Executable, SHA256: p.SHA256,
			Reported: p.Reported, Version: p.Version, Caps: p.Caps}
		for _, f := range p.Files {
			r.Files = append(r.Files, rundir.FileSum{Path: f.Path, SHA256: f.SHA256, Named: f.Named, Files: f.Files})
		}
		out = append(out, r)
	}
	return out
}

// nullsOf is run.json's record of the null round trip each of xs measured.
func nullsOf(xs external.Set) []rundir.NullRoundTrip {
	var out []rundir.NullRoundTrip
	for _, x := range xs {
		n := x.Null()
		out = append(out, rundir.NullRoundTrip{Name: x.Name(), Samples: n.Samples, MedianNS: n.MedianNS, P10NS: n.P10NS,
			P90NS: n.P90NS, P99NS: n.P99NS})
	}
	return out
}

// programOf is the program of run.json's record.
func programOf(e rundir.External) external.Program {
	p := external.Program{Name: e.Name, Command: e.Command, Args: e.Args, Executable: e.Executable, SHA256: e.SHA256,
		Reported: e.Reported, Version: e.Version, Caps: e.Caps}
	for _, f := range e.Files {
		p.Files = append(p.Files, external.FileHash{Path: f.Path, SHA256: f.SHA256, Named: f.Named, Files: f.Files})
	}
	return p
}

// specsOf returns the specs recorded in a run's settings (for -resume).
func specsOf(s rundir.Settings) []external.Spec {
	var specs []external.Spec
	for _, e := range s.External {
		sp := external.Spec{Name: e.Name, Command: e.Command, Args: e.Args}
		for _, f := range e.Files {
			if f.Named {
				sp.Files = append(sp.Files, f.Path)
			}
		}
		specs = append(specs, sp)
	}
	return specs
}

// checkUnchanged refuses to go on with a program that is not the one the
// run swept (-resume), before starting it.
func checkUnchanged(dir string, was []rundir.External) error {
	for i, sp := range specsOf(rundir.Settings{External: was}) {
		now, err := external.Identify(sp)
		if err != nil {
			return usageErr("-resume: %v", err)
		}
		if why := external.Changed(programOf(was[i]), now); why != "" {
			return usageErr("-resume: the external solver %s is not the program %s/run.json recorded: %s", sp.Name, dir, why)
		}
	}
	return nil
}

// namedRecords is what -ext and -ext-files name of each program, as
// run.json records it, for rundir.Settings.CheckResume: the name, the
// command and the named files.
func namedRecords(specs []external.Spec) []rundir.External {
	var out []rundir.External
	for _, sp := range specs {
		r := rundir.External{Name: sp.Name, Command: sp.Command, Args: sp.Args}
		for _, path := range sp.Files {
			r.Files = append(r.Files, rundir.FileSum{Path: path, Named: true})
		}
		out = append(out, r)
	}
	return out
}
