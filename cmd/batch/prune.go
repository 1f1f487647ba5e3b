package main

import (
	"errors"
	"fmt"
	"io/fs"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

func pruneMain(e *env, args []string) error {
	fset := newFlagSet(e, "prune", "[-keep N] [-dry-run] [ROOT]",
		"Remove the rows (results.csv or results.csv.gz, and the stream copies stream-N) of every\n"+
			"finished run under ROOT (default results) but the newest N, by start time. A pruned run\n"+
			"keeps run.json, summary.json, summary.md, summary.bench, hard.csv, index.html, charts/ and\n"+
			"compare-previous/ (its comparison with the previous night):\n"+
			"its page still shows, and the history of runs (batch trend) is built from its summary;\n"+
			"batch report, compare and show need rows and refuse it. With -page=false only run.json\n"+
			"and the summaries stay. A run that is not finished (interrupted, failed, killed: -resume\n"+
			"appends to its rows), a run in use (locked by a sweep, a resume or a merge) and the target\n"+
			"of ROOT/latest are never touched. Prints each run pruned with the bytes freed, and the\n"+
			"runs skipped with why.",
		"  batch prune -keep 30              # the rows of the last 30 finished runs stay\n"+
			"  batch prune -keep 30 -page=false  # older runs keep run.json and summaries\n"+
			"  batch prune -keep 7 -dry-run /data/results\n"+
			"  batch prune -keep 30 -gzip        # and gzip the rows of the 30 kept\n")
	keep := fset.Int("keep", 30, "the newest finished `runs` whose rows are kept (0 or more)")
	dry := fset.Bool("dry-run", false, "say what would be removed, remove nothing")
	gz := fset.Bool("gzip", false, "also gzip the plain results.csv of the kept finished runs (runs written before results.csv.gz, merged runs, -gzip=false or -report=false runs)")
	page := fset.Bool("page", true, "keep the pruned runs' pages (index.html, puzzles.html, charts.html, charts/, compare-previous/ and hard.csv); -page=false keeps run.json and the summaries only")
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	root := rundir.DefaultRoot
	switch fset.NArg() {
	case 0:
	case 1:
		root = fset.Arg(0)
	default:
		return usageErr("prune takes one results root; got %d arguments (see batch prune -h)", fset.NArg())
	}
	if *keep < 0 {
		return usageErr("-keep %d: want 0 or more", *keep)
	}
	opt := rundir.PruneOptions{Keep: *keep, DryRun: *dry, DropPage: !*page, Gzip: *gz}
	res, err := rundir.Prune(root, opt)
	if res == nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usageErr("%v: no results root there", err)
		}
		return &exitError{exitWrong, err}
	}
	report.WritePruned(e.stdout, res, opt)
	if err != nil {
		return &exitError{exitWrong, fmt.Errorf("%v (the runs listed above are pruned)", err)}
	}
	return nil
}
