package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sudokubatch/history"
	"sudokubatch/pipeline"
	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Options is what a report is asked for.
type Options struct {
	// Highlight lists the puzzles to mark on every chart and in the page
	// when HighlightGiven (batch report -highlight; nil: none); else the
	// run's own (run.json), else the default (ClassicID on the default
	// corpus).
	Highlight      []int
	HighlightGiven bool
	SVG            bool // also write the charts as SVG
	Top            int  // hardest puzzles listed per strategy; 0: report.DefaultTop
	// RowsFile is the rows file the page links: "" for the run's own
	// (results.csv or results.csv.gz); the sweep names results.csv.gz
	// when it gzips the rows after the report.
	RowsFile string
	// Variants asks for the hard-or-unlucky analysis before the report
	// (batch report -variants); nil: none.
	Variants *VariantsRequest
	// Trace is told what the report does as it goes; nil: nothing.
	Trace *Trace
}

// Trace is told what a report does as it goes, for the person who runs
// it (cmd/batch prints it on stderr), as net/http/httptrace's
// ClientTrace is; a nil field is not told.
type Trace struct {
	// Note is told each thing the report leaves out or could not do (a
	// chart not drawn, no comparison with the previous night and why),
	// as it happens: a note, never a failure. It starts in lower case.
	Note func(text string)
	// VariantsBound is told, before the analysis starts, the bound of
	// its cost in a line: "variants: 60 units x 101 solves = 6060
	// solves, each at most 100ms: at most 10m6s".
	VariantsBound func(line string)
	// VariantsProgress returns the progress to tell of each of the
	// analysis's solves, once it is known to start (nil: none); it is
	// finished when the analysis ends.
	VariantsProgress func(solves int) pipeline.Progress
	// VariantsDone is told the solves made, the analysis's wall time and
	// the path of the variants.json written.
	VariantsDone func(solves int, took time.Duration, path string)
}

// Result is what Report made.
type Result struct {
	Summary *report.Summary
	// Page is the path of the run's page, index.html.
	Page string
	// Charts counts the charts drawn: the run's and the strips of its
	// analysis.
	Charts int
	// Previous links the comparison with the previous night from the
	// run's directory (Href, relative to it), its text the one-line
	// verdict; nil: none.
	Previous *report.PageLink
}

// publication is one report in the making.
type publication struct {
	ctx context.Context
	dir string
	opt Options
	run *report.Run
	sum *report.Summary
	// highlight are the puzzles the charts and the page mark.
	highlight []int
	vars      *rundir.Variants
	popt      report.PageOptions
	trace     Trace
}

// Report writes the report of the run in dir (docs/DESIGN.md): the
// summary files, the charts and the page, from its rows and run.json, in
// the steps of the package doc. It returns what it made; the summary
// also with an error once it is computed. A run that cannot be read, or
// a request it cannot meet, is an *InputError naming the file and line.
// The rows are held in memory as numbers (report.Results, about 20 bytes
// a row).
func Report(ctx context.Context, dir string, opt Options) (*Result, error) {
	p := &publication{ctx: ctx, dir: dir, opt: opt}
	if opt.Trace != nil {
		p.trace = *opt.Trace
	}
	run, err := report.LoadRun(ctx, dir)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, &InputError{err}
	}
	p.run = run
	if err := p.summarize(); err != nil {
		return nil, err
	}
	res := &Result{Summary: p.sum, Page: filepath.Join(dir, rundir.PageFile)}
	for _, step := range []func(*Result) error{p.variants, p.summaryFiles, p.charts, p.previous, p.history, p.page} {
		err := step(res)
		switch _, stopped := errors.AsType[*InterruptedError](err); {
		case stopped:
			return res, err // says what the analysis kept
		case ctx.Err() != nil:
			return res, ctx.Err()
		case err != nil:
			return res, err
		}
	}
	return res, nil
}

// note tells the trace a note.
func (p *publication) note(format string, a ...any) {
	if p.trace.Note != nil {
		p.trace.Note(fmt.Sprintf(format, a...))
	}
}

// summarize computes the summary, over the puzzles highlighted.
func (p *publication) summarize() error {
	res, info := p.run.Results, p.run.Manifest
	highlight, classic := highlighted(p.opt, info, res)
	p.highlight = highlight
	p.popt = report.PageOptions{ChartsDir: rundir.ChartsDir, DefaultHighlight: classic, Busy: history.DefaultBusy,
		Files: corpusFiles(p.dir, info), RowsFile: rowsFile(p.dir, p.opt.RowsFile), Command: commandOf(info), RunDir: showDir(p.dir)}
	if info != nil {
		p.popt.Corpora = info.Settings.Corpora
	}
	var err error
	p.sum, err = report.SummarizeContext(p.ctx, res, report.SummaryOptions{Top: p.opt.Top, Highlight: highlight, Manifest: info})
	return err
}

// variants runs the analysis when asked, then attaches the run's
// variants.json to the summary when it is of the run's rows.
func (p *publication) variants(*Result) error {
	if p.opt.Variants != nil {
		if err := p.analyse(*p.opt.Variants); err != nil {
			return err
		}
	}
	p.vars = p.runVariants()
	p.sum.AttachVariants(p.vars)
	return nil
}

func (p *publication) summaryFiles(*Result) error { return report.WriteSummaryFiles(p.dir, p.sum) }

// charts draws the run's charts and the strips of its analysis.
func (p *publication) charts(r *Result) error {
	res, info := p.run.Results, p.run.Manifest
	title := res.CorpusLabel()
	if info != nil {
		title += ", run " + info.RunID
	}
	charts, err := chart.Write(p.ctx, filepath.Join(p.dir, rundir.ChartsDir), res,
		chart.Options{Highlight: p.highlight, SVG: p.opt.SVG, Title: title, Baseline: solvers.Baseline(), Summary: p.sum})
	if p.ctx.Err() != nil {
		return p.ctx.Err()
	}
	if err != nil {
		p.note("charts: %v", err)
	}
	for _, c := range charts {
		if c.Note != "" {
			p.note("-svg: %s", c.Note)
		}
	}
	p.popt.Charts = charts
	r.Charts = len(charts)
	if p.vars == nil {
		return nil
	}
	// The strips drawn since variants.json was written are kept.
	sopt := chart.StripOptions{SVG: p.opt.SVG}
	if st, err := os.Stat(filepath.Join(p.dir, rundir.VariantsFile)); err == nil {
		sopt.Since = st.ModTime()
	}
	strips, err := chart.StripCharts(p.ctx, filepath.Join(p.dir, rundir.ChartsDir), p.vars, sopt)
	if p.ctx.Err() != nil {
		return p.ctx.Err()
	}
	if err != nil {
		p.note("strip charts: %v", err)
	}
	p.popt.Strips = strips
	r.Charts += len(strips)
	return nil
}

// previous compares the run with the previous night of its series and
// links the comparison, or says on the page why there is none.
func (p *publication) previous(r *Result) error {
	prev, note, err := previousNight(p.ctx, p.dir, p.run)
	if err != nil {
		return err
	}
	if note != "" {
		p.note("%s", note)
	}
	r.Previous, p.popt.Previous = prev, prev
	if prev == nil {
		// The first night of its series (or a run alone), or the note on
		// the comparison that could not be made.
		p.popt.NoPrevious = "First night: no earlier night of its series to compare with"
		if note != "" {
			p.popt.NoPrevious = strings.ToUpper(note[:1]) + note[1:]
		}
	}
	return nil
}

// history gives the page the history's verdict of the run's night and
// the named puzzles' earlier nights, when its results root keeps a
// history: a note when it cannot be had, never a failed report.
func (p *publication) history(*Result) error {
	h, notes := history.PuzzleHistory(p.ctx, p.dir, p.run.Manifest, p.sum)
	for _, n := range notes {
		p.note("the page's puzzle history: %s", n)
	}
	p.popt.PuzzleHistory = h
	t, err := history.TrendOfRun(p.ctx, p.dir)
	switch {
	case err != nil && p.ctx.Err() == nil:
		p.note("the page's history column: %v", err)
	case t != nil:
		p.popt.Trend, p.popt.TrendLine, p.popt.History = t.Cells, t.Line, t.Href
	}
	return nil
}

func (p *publication) page(*Result) error {
	return report.WritePage(p.ctx, p.dir, p.run.Results, p.sum, p.popt)
}

// WriteText prints what Report made of the run in dir on w, fitted to
// width columns (report.Wrap): the summary's main table (the headline,
// or whole with full), the analysis's verdicts, the one-line verdict of
// the comparison with the previous night and its page, then the line
// naming the page and the charts, ending with tail (", in 1.2s, peak
// memory 21 MB": what the command measured).
func (r *Result) WriteText(w io.Writer, dir string, width int, full bool, tail string) error {
	write := r.Summary.WriteText
	if full {
		write = r.Summary.WriteFullText
	}
	if err := write(w, width); err != nil {
		return err
	}
	if err := r.Summary.WriteVariantsText(w, width); err != nil {
		return err
	}
	var b strings.Builder
	// The page's headline warns of a busy machine: so does the terminal.
	if busy := r.Summary.BusyWarning(history.DefaultBusy); busy != "" {
		fmt.Fprintf(&b, "warning: %s\n", busy)
	}
	if prev := r.Previous; prev != nil {
		fmt.Fprintf(&b, "previous night: %s: %s\n", prev.Text, filepath.Join(dir, filepath.FromSlash(prev.Href)))
	}
	fmt.Fprintf(&b, "report: %s (summary.md, hard.csv, %s)%s\n", r.Page, report.Count(r.Charts, "chart", "charts"), tail)
	_, err := io.WriteString(w, report.Wrap(b.String(), width))
	return err
}
