package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
	"sudokubatch/solvers/external"
)

// extFlags are the flags of external solvers (docs/PROTOCOL.md).
type extFlags struct {
	specs    []external.Spec
	start    time.Duration
	restarts int
	grace    time.Duration
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
	fs.Var(specList{&f.specs}, "ext", "an external solver as strategy `NAME=COMMAND` (repeatable; the line protocol of docs/PROTOCOL.md; no shell: write sh -c '...' for one)")
	fs.DurationVar(&f.start, "ext-start", external.DefaultStartTimeout, "the time an external solver's process has to answer the handshake")
	fs.IntVar(&f.restarts, "ext-restarts", external.DefaultMaxRestarts, "restarts of external solvers' processes at most in a run (after a timeout, a crash or a protocol error); past it their units are error")
	fs.DurationVar(&f.grace, "ext-grace", external.DefaultGrace, "the time between TERM and KILL when an external solver's process is ended")
}

// names returns the strategies' names of the specs.
func (f *extFlags) names() []string {
	var n []string
	for _, sp := range f.specs {
		n = append(n, sp.Name)
	}
	return n
}

func (f *extFlags) options(workers int, timeout time.Duration, unique bool) external.Options {
	return external.Options{Workers: workers, StartTimeout: f.start, Grace: f.grace, MaxRestarts: f.restarts,
		Count: unique, Timeout: timeout}
}

// externals are the running external solvers of a command.
type externals []*external.Solver

// startExternals starts the external solvers of specs that names lists
// (the others are not run), and prints a line for each.
func startExternals(ctx context.Context, w io.Writer, specs []external.Spec, names []string, opt external.Options) (externals, error) {
	var xs externals
	for _, sp := range specs {
		if !slices.Contains(names, sp.Name) {
			continue
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
		in := x.Info()
		fmt.Fprintf(w, "batch: external %s: %s %s (%s), %s started in %s; null round trip %s median, %s p99\n",
			sp.Name, in.Reported, in.Version, strings.Join(in.Caps, " "), report.Count(opt.Workers, "process", "processes"),
			report.FormatDuration(time.Since(t0)), report.FormatDuration(time.Duration(in.NullNS)), report.FormatDuration(time.Duration(in.NullP99NS)))
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
		out = append(out, x.Info())
	}
	return out
}

// lookup returns the external solver named name.
func (xs externals) lookup(name string) (*external.Solver, bool) {
	for _, x := range xs {
		if x.Name() == name {
			return x, true
		}
	}
	return nil, false
}

// specsOf returns the specs recorded in a run's settings (for -resume).
func specsOf(s rundir.Settings) []external.Spec {
	var specs []external.Spec
	for _, e := range s.External {
		specs = append(specs, external.Spec{Name: e.Name, Command: e.Command, Args: e.Args})
	}
	return specs
}

// checkUnchanged refuses to go on with a program that is not the one the
// run swept (-resume), before starting it.
func checkUnchanged(dir string, was []rundir.External) error {
	for _, w := range was {
		now, err := external.Identify(external.Spec{Name: w.Name, Command: w.Command, Args: w.Args})
		if err != nil {
			return usageErr("-resume: %v", err)
		}
		if why := external.Changed(w, now); why != "" {
			return usageErr("-resume: the external solver %s is not the program %s/run.json recorded: %s", w.Name, dir, why)
		}
	}
	return nil
}

// sameSpecs reports whether -ext given to -resume names the programs the
// run recorded, with the same commands.
func sameSpecs(specs []external.Spec, was []rundir.External) bool {
	if len(specs) != len(was) {
		return false
	}
	for i, sp := range specs {
		if sp.Name != was[i].Name || !slices.Equal(sp.Args, was[i].Args) {
			return false
		}
	}
	return true
}
