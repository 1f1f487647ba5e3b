package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"sudokubatch/internal/cli"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
)

// extFlags are the flags of external solvers (docs/PROTOCOL.md).
type extFlags struct {
	specs    []external.Spec
	files    cli.Strings // -ext-files NAME=PATH, merged into specs by resolve
	start    time.Duration
	restarts int
	grace    time.Duration
	limit    time.Duration // -ext-timeout
}

// specList is -ext as a flag.Value: repeatable.
type specList struct{ specs *[]external.Spec }

func (l specList) String() string {
	if l.specs == nil {
		return ""
	}
	var s []string
	for _, sp := range *l.specs {
		s = append(s, sp.Name+"="+sp.Command)
	}
	return strings.Join(s, " ")
}

func (l specList) Set(v string) error {
	sp, err := external.ParseSpec(v)
	if err != nil {
		return err
	}
	if _, ok := solvers.Lookup(sp.Name); ok {
		return fmt.Errorf("%s is a built-in strategy: name the program otherwise", sp.Name)
	}
	if slices.ContainsFunc(*l.specs, func(o external.Spec) bool { return o.Name == sp.Name }) {
		return fmt.Errorf("%s is given twice", sp.Name)
	}
	*l.specs = append(*l.specs, sp)
	return nil
}

// addExtFlags adds the flags of external solvers to fs.
func addExtFlags(fs *flag.FlagSet, f *extFlags) {
	fs.Var(specList{&f.specs}, "ext", "an external solver as strategy `NAME=COMMAND` (repeatable; the line protocol of docs/PROTOCOL.md; no shell: a command run by sh -c names its files with -ext-files)")
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

// names returns the strategies' names of the specs.
func (f *extFlags) names() []string {
	var n []string
	for _, sp := range f.specs {
		n = append(n, sp.Name)
	}
	return n
}

func (f *extFlags) options(workers int, unique bool) external.Options {
	return external.Options{Workers: workers, StartTimeout: f.start, Grace: f.grace, MaxRestarts: f.restarts,
		Count: unique, Limit: f.limit}
}

// externals are the running external solvers of a command.
type externals []*external.Solver

// startExternals starts the external solvers of specs that names lists
// (warning about the others, which are not run), and prints a line for
// each.
func startExternals(ctx context.Context, notef func(format string, a ...any), specs []external.Spec, names []string, opt external.Options) (externals, error) {
	var xs externals
	for _, sp := range specs {
		if !slices.Contains(names, sp.Name) {
			notef("batch: warning: -ext %s is not run: -solvers does not name it (add %s to -solvers, or omit -solvers for the default strategies and every -ext one)\n",
				sp.Name, sp.Name)
			continue
		}
		if warn := sp.Warning(); warn != "" {
			notef("batch: warning: %s\n", warn)
		}
		t0 := time.Now()
		x, err := external.Start(ctx, sp, opt)
		if err != nil {
			xs.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, usageErr("%v", err)
		}
		pr := x.Program()
		notef("batch: external %s: %s %s (%s), %s started in %s; the null round trip is measured during the sweep\n",
			sp.Name, pr.Reported, pr.Version, strings.Join(pr.Caps, " "), report.Count(opt.Workers, "process", "processes"),
			report.FormatDuration(time.Since(t0)))
		xs = append(xs, x)
	}
	return xs, nil
}

// Close ends every process of the external solvers.
func (xs externals) Close() {
	for _, x := range xs {
		x.Close()
	}
}

// infos returns the provenance of each, for run.json.
func (xs externals) infos() []rundir.External {
	var out []rundir.External
	for _, x := range xs {
		out = append(out, recordOf(x.Program()))
	}
	return out
}

// nulls returns the null round trip each measured, for run.json.
func (xs externals) nulls() []rundir.NullRoundTrip {
	var out []rundir.NullRoundTrip
	for _, x := range xs {
		n := x.Null()
		out = append(out, rundir.NullRoundTrip{Name: x.Name(), Samples: n.Samples, MedianNS: n.MedianNS, P10NS: n.P10NS,
			P90NS: n.P90NS, P99NS: n.P99NS})
	}
	return out
}

// uncounted returns, per external solver, the counters it does not
// report (for show).
func (xs externals) uncounted() map[string][]string {
	out := map[string][]string{}
	for _, x := range xs {
		out[x.Name()] = x.Program().Uncounted()
	}
	return out
}

// solvers returns them as strategies (solvers.Resolve).
func (xs externals) solvers() []solvers.Solver {
	out := make([]solvers.Solver, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// recordOf is run.json's record of a program.
func recordOf(p external.Program) rundir.External {
	e := rundir.External{Name: p.Name, Command: p.Command, Args: p.Args, Executable: p.Executable, SHA256: p.SHA256,
		Reported: p.Reported, Version: p.Version, Caps: p.Caps}
	for _, f := range p.Files {
		e.Files = append(e.Files, rundir.FileSum{Path: f.Path, SHA256: f.SHA256, Named: f.Named, Files: f.Files})
	}
	return e
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

// sameSpecs reports whether -ext (and -ext-files) given to -resume name
// the programs the run recorded, with the same commands and files.
func sameSpecs(specs []external.Spec, was []rundir.External) bool {
	if len(specs) != len(was) {
		return false
	}
	for i, sp := range specsOf(rundir.Settings{External: was}) {
		if sp.Name != specs[i].Name || !slices.Equal(sp.Args, specs[i].Args) || !slices.Equal(sp.Files, specs[i].Files) {
			return false
		}
	}
	return true
}

// failures returns, per external solver that failed wholesale in the
// sweep of stats, the line that says so (external.Solver.Failure).
func (xs externals) failures(solverStats []*pipeline.SolverStats) []string {
	var out []string
	for _, x := range xs {
		for _, ss := range solverStats {
			if ss.Name == x.Name() {
				if why := x.Failure(ss.Statuses); why != "" {
					out = append(out, why)
				}
			}
		}
	}
	return out
}
