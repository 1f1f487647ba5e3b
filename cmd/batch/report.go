package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
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
			"  batch report -variants 100 results/latest  # hard or unlucky: the 10 hardest of each strategy\n")
	highlight := fs.String("highlight", "", "puzzle `ids` to mark on every chart and in the page, or none (default: the run's -highlight, else #39949 on the default corpus)")
	svg := fs.Bool("svg", false, "also write the charts as SVG; a scatter of more than 5000 puzzles stays PNG only (about 120 bytes a point), and the report names it")
	top := fs.Int("top", report.DefaultTop, "hardest puzzles listed per strategy")
	full := fs.Bool("full", false, "print the whole main table (p90, means, maxima, calls, guesses, the re-timing), not the headline of at most 12 rows")
	nVariants := fs.Int("variants", 0, "first tell hard from unlucky: solve each strategy's 10 hardest puzzles by calls in `K` random variants (isomorphs) and write variants.json, whose verdicts the report shows beside the hard lists (docs/VARIANTS.md); prints the cost bound first; 0: none (a variants.json already there is shown)")
	variantsSeeds := fs.Int("variants-seeds", variants.DefaultSeeds, "with -variants, `seeds` per orientation of a randomized strategy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *nVariants < 0 || *variantsSeeds < 1 {
		return usageErr("-variants %d -variants-seeds %d: want -variants >= 0 and -variants-seeds >= 1", *nVariants, *variantsSeeds)
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
	opt := reportOptions{highlight: ids, svg: *svg, top: *top, explicit: *highlight != "", full: *full, width: e.width()}
	if *nVariants > 0 {
		opt.variants = &variantsRequest{n: *nVariants, seeds: *variantsSeeds}
	}
	_, err := writeReport(e.ctx, e.stdout, e.stderr, dir, opt)
	var ee *exitError
	if err != nil && e.ctx.Err() != nil && !errors.As(err, &ee) {
		return &exitError{exitInterrupted, fmt.Errorf("report interrupted: the report in %s is not whole; batch report %s builds it again", dir, dir)}
	}
	return err
}

// corpusFiles returns, for each corpus of the run in dir, the file to
// read its puzzles from (corpus.InRun: the copy the run keeps of a
// stream), or nil without a run.json.
func corpusFiles(dir string, info *rundir.Manifest) []string {
	if info == nil {
		return nil
	}
	files := make([]string, len(info.Settings.Corpora))
	for i := range files {
		files[i] = corpus.InRun(dir, info, i)
	}
	return files
}

// reportGCPercent is the GOGC of writeReport.
const reportGCPercent = 25

type reportOptions struct {
	highlight []int
	explicit  bool // highlight given on the command line (else the run's)
	svg       bool
	top       int
	full      bool // print the whole main table, not the headline
	// variants asks for the hard-or-unlucky analysis before the report
	// (batch report -variants); nil: none.
	variants *variantsRequest
	// rowsFile is the rows file the page links: "" for the run's own
	// (results.csv or results.csv.gz); the sweep names results.csv.gz
	// when it gzips the rows after the report.
	rowsFile string
	width    int // the columns the text on stdout is fitted to (0: report.DefaultTextWidth)
}

// writeReport builds the summary files, the charts and the page of the
// run in dir from its results.csv (and run.json when there is one), and
// prints the main table to w; notes on what the charts leave out (an
// SVG not written) go to warn. The rows are held in memory as numbers
// (report.Results, about 20 bytes a row). A run that cannot be read is
// a usage error (exit 2), naming the file and line. When ctx is
// canceled, it stops soon after (between rows, strategies, charts) and
// returns ctx.Err(): the files written by then are whole, but the
// report may lack some.
func writeReport(ctx context.Context, w, warn io.Writer, dir string, opt reportOptions) (*report.Summary, error) {
	start := time.Now()
	// Reading and summarising makes short-lived garbage: collecting more
	// often than the default (100) keeps the peak memory near what is
	// live, for little time.
	defer debug.SetGCPercent(debug.SetGCPercent(reportGCPercent))
	run, err := report.LoadRun(ctx, dir)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, &exitError{exitUsage, err}
	}
	res, info := run.Results, run.Manifest
	highlight, classic := resolveHighlight(opt, info, res)
	var corpora []string
	title := res.CorpusLabel()
	if info != nil {
		corpora = info.Settings.Corpora
		title += ", run " + info.RunID
	}
	sum, err := report.SummarizeContext(ctx, res, report.SummaryOptions{Top: opt.top, Highlight: highlight, Manifest: info})
	if err != nil {
		return nil, err
	}
	if opt.variants != nil {
		if err := analyseVariants(ctx, warn, dir, run, sum, *opt.variants); err != nil {
			return sum, err
		}
	}
	// The hard-or-unlucky analysis, when the run has one of its rows.
	vars := readRunVariants(warn, dir, run)
	sum.AttachVariants(vars)
	if err := report.WriteSummaryFiles(dir, sum); err != nil {
		return sum, err
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	charts, err := chart.Write(ctx, filepath.Join(dir, rundir.ChartsDir), res,
		chart.Options{Highlight: highlight, SVG: opt.svg, Title: title, Baseline: solvers.Baseline(), Summary: sum})
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	if err != nil {
		fmt.Fprintf(warn, "batch: charts: %v\n", err)
	}
	for _, c := range charts {
		if c.Note != "" {
			fmt.Fprintf(warn, "batch: -svg: %s\n", c.Note)
		}
	}
	var strips []report.Chart
	if vars != nil {
		// The strips drawn since variants.json was written are kept.
		sopt := chart.StripOptions{SVG: opt.svg}
		if st, err := os.Stat(filepath.Join(dir, rundir.VariantsFile)); err == nil {
			sopt.Since = st.ModTime()
		}
		strips, err = chart.StripCharts(ctx, filepath.Join(dir, rundir.ChartsDir), vars, sopt)
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		if err != nil {
			fmt.Fprintf(warn, "batch: strip charts: %v\n", err)
		}
	}
	prev, note, err := comparePrevious(ctx, dir, run)
	if err != nil {
		return sum, err
	}
	if note != "" {
		fmt.Fprintf(warn, "batch: %s\n", note)
	}
	popt := report.PageOptions{Charts: charts, ChartsDir: rundir.ChartsDir,
		Corpora: corpora, Files: corpusFiles(dir, info), RowsFile: rowsFile(dir, opt.rowsFile), Command: commandOf(info),
		RunDir: showDir(dir), DefaultHighlight: classic, PuzzleHistory: puzzleHistory(ctx, warn, dir, info, sum),
		Previous: prev, Strips: strips, Busy: history.DefaultBusy}
	if prev == nil {
		// The page says why there is no comparison: the first night of
		// its series (or a run alone), or the note on the one that could
		// not be made.
		popt.NoPrevious = "First night: no earlier night of its series to compare with"
		if note != "" {
			popt.NoPrevious = strings.ToUpper(note[:1]) + note[1:]
		}
	}
	// The history's verdict of this night, when its results root keeps one:
	// a note when it cannot be had, never a failed report.
	if h, err := historyOf(ctx, dir); err != nil {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		fmt.Fprintf(warn, "batch: the page's history column: %v\n", err)
	} else if h != nil {
		popt.Trend, popt.TrendLine, popt.History = h.trend, h.line, h.href
	}
	if err := report.WritePage(ctx, dir, res, sum, popt); err != nil {
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		return sum, err
	}
	write := sum.WriteText
	if opt.full {
		write = sum.WriteFullText
	}
	if err := write(w, opt.width); err != nil {
		return sum, err
	}
	if err := sum.WriteVariantsText(w, opt.width); err != nil {
		return sum, err
	}
	if prev != nil {
		fprintf(w, opt.width, "previous night: %s: %s\n", prev.Text, filepath.Join(dir, filepath.FromSlash(prev.Href)))
	}
	fprintf(w, opt.width, "report: %s (summary.md, hard.csv, %s) in %s%s\n",
		filepath.Join(dir, rundir.PageFile), report.Count(len(charts)+len(strips), "chart", "charts"), report.FormatDuration(time.Since(start)), peakNote())
	return sum, err
}

// rowsFile is the name of the rows file of the run in dir for its page:
// name when given, else the file there is.
func rowsFile(dir, name string) string {
	if name != "" {
		return name
	}
	if path, err := rundir.RowsPath(dir); err == nil {
		return filepath.Base(path)
	}
	return ""
}

// commandOf is the command line of the run's first segment as a reader
// can run it again (report.RerunCommand: batch and its flags, or go run
// ./cmd/batch for a binary go run built), with how many segments
// (resumes, merged shards) followed; "".
func commandOf(m *rundir.Manifest) string {
	if m == nil || len(m.Segments) == 0 || len(m.Segments[0].Command) == 0 {
		return ""
	}
	c := report.RerunCommand(m.Segments[0].Command)
	if n := len(m.Segments) - 1; n > 0 {
		c += fmt.Sprintf("  (then %s)", report.Count(n, "more segment", "more segments"))
	}
	return c
}
