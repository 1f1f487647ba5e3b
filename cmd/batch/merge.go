package main

import (
	"errors"
	"io"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

func mergeMain(e *env, args []string) error {
	fs := newFlagSet(e, "merge", "-o DIR IN ...",
		"Merge finished shard runs (directories written with -shard k/n) into one run in DIR:\n"+
			"rows in the order of a single-machine run, run.json with every shard's machine\n"+
			"(and its scheduler's job and task: -shard auto).\n"+
			"The run is built beside DIR and renamed into place: a merge that is stopped leaves\n"+
			"no DIR, and the same merge run again builds it. A merged run is not resumed: resume\n"+
			"an unfinished shard, then merge again.",
		"  batch merge -o results/full results/shard-0 results/shard-1 results/shard-2\n")
	out := fs.String("o", "", "output run `directory` (absent or empty, and not inside another run)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return usageErr("merge needs -o DIR and at least one input run; see batch merge -h")
	}
	ri, err := rundir.Merge(e.ctx, *out, fs.Args())
	switch {
	case err == nil:
	case e.ctx.Err() != nil:
		return e.ctx.Err()
	case errors.Is(err, rundir.ErrWrite):
		return &exitError{exitWrong, err} // an I/O error writing the output
	default:
		return &exitError{exitUsage, err} // a shard refused, or -o not usable: named in err
	}
	// Folded to the terminal's width (80 columns through a pipe), as the
	// other commands' output: its line of wall and CPU time is longer.
	var b strings.Builder
	if err := report.WriteMerged(&b, ri, fs.NArg(), *out); err != nil {
		return err
	}
	_, err = io.WriteString(e.stdout, report.Wrap(b.String(), e.width()))
	return err
}
