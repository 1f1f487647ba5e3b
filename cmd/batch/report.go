package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"sudokubatch/internal/progress"
	"sudokubatch/pipeline"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/variants"
)

func reportMain(e *env, args []string) error {
	fs := newFlagSet(e, "report", "[DIR]",
		"Rebuild the summary (summary.md, summary.json, summary.bench, hard.csv), the charts\n"+
			"(charts/*.png) and the page (index.html) of the run in DIR (default results/latest) from\n"+
			"DIR/results.csv (or results.csv.gz) alone, so that a finished, interrupted or merged run reports the same way.\n"+
			"A results.csv that is not a regular file, a line that is not a row, a unit (corpus, id,\n"+
			"strategy) on two rows, or an id beyond the corpus that run.json records is refused (exit 2),\n"+
			"naming the line. Ctrl-C stops the report (exit 130); batch report DIR builds it again.\n"+
			"When DIR sits in a results root beside other runs, the report also compares the run with\n"+
			"the previous night of its series (from the root's history.json when batch trend keeps one,\n"+
			"else from the run directories) and writes that comparison's page,\n"+
			"DIR/compare-previous/index.html, which DIR's page links.",
		"  batch report                               # results/latest\n"+
			"  batch report -highlight 39949,2018 -svg results/20261121-230501\n"+
			"  batch report -variants 100 results/latest  # hard or unlucky? 10 per strategy\n")
	highlight := fs.String("highlight", "", "puzzle `ids` to mark on every chart and in the page, or none (default: the run's -highlight, else #39949 on the default corpus)")
	svg := fs.Bool("svg", false, "write SVG too: a scatter of more than 5000 puzzles stays PNG only (about 120 bytes a point), and the report names it")
	top := fs.Int("top", report.DefaultTop, "hardest puzzles listed per strategy")
	full := fs.Bool("full", false, "print the whole main table (p90, means, maxima, calls, guesses, the re-timing), not the headline of at most 12 rows")
	nVariants := fs.Int("variants", 0, "first tell hard from unlucky: solve each strategy's 10 hardest puzzles by calls in `K` random variants (isomorphs) and write variants.json, whose verdicts the report shows beside the hard lists (docs/VARIANTS.md); prints the cost bound first; 0: none (a variants.json already there is shown)")
	variantsSeeds := fs.Int("variants-seeds", variants.DefaultSeeds, "with -variants, `seeds` per orientation of a randomized strategy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	vreq := publish.VariantsRequest{N: *nVariants, Seeds: *variantsSeeds}
	if err := vreq.Check(); err != nil {
		return usageErr("%v", err)
	}
	dir := filepath.Join(rundir.DefaultRoot, rundir.LatestLink)
	switch fs.NArg() {
	case 0:
		if _, err := rundir.RowsPath(dir); err != nil {
			return usageErr("no run in %s to report (a sweep makes one); name a run: batch report DIR", dir)
		}
	case 1:
		dir = fs.Arg(0)
	default:
		return usageErr("report takes one run directory; got %d arguments (see batch report -h)", fs.NArg())
	}
	if _, err := rundir.RowsPath(dir); err != nil {
		return usageErr("not a run directory: %v", err)
	}
	var ids []int
	if *highlight != "" {
		var err error
		if ids, _, err = parseHighlight(*highlight); err != nil {
			return usageErr("-highlight: %v", err)
		}
	}
	opt := publish.Options{Highlight: ids, HighlightGiven: *highlight != "", SVG: *svg, Top: *top}
	if vreq.N > 0 {
		opt.Variants = &vreq
	}
	err := writeReport(e.ctx, e.stdout, e.stderr, dir, opt, *full, e.width())
	if err != nil && e.ctx.Err() != nil && exitCode(err) == exitWrong {
		return &exitError{exitInterrupted, fmt.Errorf("report interrupted: the report in %s is not whole; batch report %s builds it again", dir, dir)}
	}
	return err
}

// reportGCPercent is the GOGC of writeReport.
const reportGCPercent = 25

// writeReport writes the report of the run in dir (publish.Report: the
// summary files, the charts, the page) and prints it on w
// (publish.Result.WriteText), its notes, the analysis's bound and
// progress on warn. A run that cannot be read, or a -variants it cannot
// meet, is a usage error (exit 2); an analysis stopped by ctx exits 130
// with its message. When ctx is canceled it returns ctx.Err() soon after.
func writeReport(ctx context.Context, w, warn io.Writer, dir string, opt publish.Options, full bool, width int) error {
	start := time.Now()
	// Reading and summarising makes short-lived garbage: collecting more
	// often than the default (100) keeps the peak memory near what is
	// live, for little time.
	defer debug.SetGCPercent(debug.SetGCPercent(reportGCPercent))
	opt.Trace = reportTrace(warn)
	res, err := publish.Report(ctx, dir, opt)
	if err != nil {
		return err // its exit code: exitCode
	}
	err = res.WriteText(w, dir, width, full, " in "+report.FormatDuration(time.Since(start))+report.PeakNote())
	if errors.Is(err, syscall.EPIPE) {
		// The reader of w went away (| head): nobody is left to read the
		// text, and the report's files are whole.
		return nil
	}
	return err
}

// reportTrace prints what a report does on warn: its notes, and the
// bound, the progress and the end of its analysis.
func reportTrace(warn io.Writer) *publish.Trace {
	return &publish.Trace{
		Note:          func(text string) { notefOn(warn, "batch: %s\n", text) },
		VariantsBound: func(line string) { fmt.Fprintf(warn, "%s\n", line) },
		VariantsProgress: func(solves int) pipeline.Progress {
			disp := progress.New(warn, progress.IsTerminal(warn), 5*time.Second)
			disp.SetTotal(solves)
			return disp
		},
		VariantsDone: func(solves int, took time.Duration, path string) {
			fmt.Fprintf(warn, "variants: %s in %s (wall time); wrote %s\n", report.Count(solves, "solve", "solves"), report.FormatDuration(took), path)
		},
	}
}

// parseHighlight parses a -highlight value: puzzle ids (rundir.ParseIDs),
// or "none" for no highlighted puzzle at all.
func parseHighlight(s string) (ids []int, none bool, err error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return nil, true, nil
	}
	ids, err = rundir.ParseIDs(s)
	return ids, false, err
}
