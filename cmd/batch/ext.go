package main

import (
	"flag"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/report"
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
	xs, err := external.StartAll(e.ctx, specs, names, opt, func(w string) { e.notef("batch: warning: %s\n", w) }, startedNote(e))
	switch {
	case err == nil:
		return xs, nil
	case e.ctx.Err() != nil:
		return nil, e.ctx.Err()
	}
	return nil, usageErr("%v", err)
}

// startedNote returns what says on stderr that an external solver
// started, with its processes and the time they took.
func startedNote(e *env) func(x *external.Solver, took time.Duration) {
	return func(x *external.Solver, took time.Duration) {
		pr := x.Program()
		e.notef("batch: external %s: %s %s (%s), %s started in %s; the null round trip is measured during the sweep\n",
			x.Name(), pr.Reported, pr.Version, strings.Join(pr.Caps, " "), report.Count(x.Workers(), "process", "processes"),
			report.FormatDuration(took))
	}
}
