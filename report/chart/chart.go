package chart

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"gonum.org/v1/plot/vg"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// The kinds of chart Write draws (report.Chart.Kind).
const (
	KindHistTime    = "hist-time"    // per strategy: histogram of log time
	KindHistCalls   = "hist-calls"   // per strategy: histogram of log calls
	KindECDFTime    = "ecdf-time"    // all strategies: ECDF curves of time
	KindBoxTime     = "box-time"     // all strategies: box plots of time
	KindScatterTime = "scatter-time" // per strategy: time against the baseline's, puzzle by puzzle
)

// Options controls Write.
type Options struct {
	// Highlight lists puzzle ids marked and labelled on every chart
	// (in every corpus of the results). Ids absent from the results are
	// ignored.
	Highlight []int
	// SVG also writes an .svg beside each .png, except for scatters of
	// more than 5000 puzzles (an SVG costs about 120 bytes a point: 6 MB
	// for the 49151-puzzle corpus): those are PNG only, and their
	// report.Chart says so in its Note.
	SVG bool
	// Baseline is the strategy the scatters compare every other one
	// with (the registry's baseline, solvers.Baseline). Empty, or a
	// strategy absent from the results, means the first strategy of the
	// results.
	Baseline string
	// Title names the run in chart titles, e.g. "sudoku17.txt, run
	// 20261121-230501"; empty means the corpus label of the results.
	Title string
	// Summary is the report's summary of the same results: the
	// histograms label the units its ranking lists first
	// (StrategySummary.ByTime, ByCalls). Nil: Write summarises the
	// results itself (report.Summarize), with the same ranking.
	Summary *report.Summary
}

// Chart geometry: 8x5 inches, 800x500 pixels in PNG; a scatter on equal
// axes 6.5 inches square.
const (
	plotWidth    = 8 * vg.Inch
	plotHeight   = 5 * vg.Inch
	squareSide   = 6.5 * vg.Inch
	svgMaxPoints = 5000 // scatters with more points are written as PNG only
	hardestTop   = 5    // puzzles labelled on each histogram
	ecdfPoints   = 300  // quantile points per ECDF curve
)

// job is one chart to draw: its description (with the SVG name
// set when an SVG is wanted) and how to build it.
type job struct {
	chart report.Chart
	build func() (*Figure, error)
}

// Write draws the charts of res into dir (created if needed) and
// returns them in the order a page should show them:
//  1. the ECDF curves of time of all strategies, then their box plots;
//  2. for each strategy in the order of res.Series: the histogram of
//     time, the histogram of calls, and (for every strategy but the
//     baseline) the scatter of its time against the baseline's.
//
// A strategy with no row to plot, or that finished none (it gave up on
// or was stopped on every puzzle), gets no chart of its own, a scatter
// with no puzzle measured by both strategies is left out, and with a
// single strategy there is no scatter.
//
// Rows with status invalid, unsupported or error are not plotted. Only
// finished rows (solved, unsolvable) count as finished: the ECDF curves
// rise with them alone and end at the share finished, and the boxes
// summarise them alone. The rows that did not finish are drawn at their
// value in marks of their own, never dropped and never as finished:
// those that gave up (stuck, wrong) at the value where the strategy
// gave up, the censored ones (timeout, limit) at the value where they
// were stopped. Zeros are drawn at 1 ns or 1 call. Captions say so when
// it happens. Charts are drawn
// concurrently; each file is written atomically. A chart that cannot be
// drawn (including a panic inside gonum/plot) is left out: Write
// returns the charts it wrote and an error naming each one that failed.
// res is only read, and must not change during the call.
//
// When ctx is canceled, Write starts no other chart, leaves the ones
// being drawn once their current step is done, and returns the charts
// written and ctx.Err().
func Write(ctx context.Context, dir string, res *report.Results, opt Options) ([]report.Chart, error) {
	if res == nil {
		return nil, errors.New("writing charts: no results")
	}
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return nil, fmt.Errorf("writing charts: %w", err)
	}
	cs, err := newChartSet(ctx, res, opt)
	if err != nil {
		return nil, err
	}
	return writeJobs(ctx, dir, cs.jobs())
}

// writeJobs renders the jobs into dir concurrently (GOMAXPROCS at a
// time) and returns the charts written, in the jobs' order; once ctx is
// canceled no job starts, and ctx.Err() is returned.
func writeJobs(ctx context.Context, dir string, jobs []job) ([]report.Chart, error) {
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range jobs {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			errs[i] = ctx.Err()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = writeJob(ctx, dir, &jobs[i])
		}()
	}
	wg.Wait()

	var charts []report.Chart
	for i, j := range jobs {
		if errs[i] == nil {
			charts = append(charts, j.chart)
		}
	}
	if err := ctx.Err(); err != nil {
		return charts, err
	}
	return charts, errors.Join(errs...)
}

// writeJob builds and writes one chart, turning a panic inside
// gonum/plot into an error. It looks at ctx between its steps.
func writeJob(ctx context.Context, dir string, j *job) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing chart %s: panic: %v", j.chart.File, r)
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := j.build()
	if err != nil {
		return fmt.Errorf("drawing chart %s: %w", j.chart.File, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j.chart.Width, j.chart.Height = f.Pixels()
	png, err := f.Render("png")
	if err != nil {
		return fmt.Errorf("drawing chart %s: %w", j.chart.File, err)
	}
	if err := writeFile(filepath.Join(dir, j.chart.File), png); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if j.chart.SVG != "" {
		svg, err := f.Render("svg")
		if err != nil {
			return fmt.Errorf("drawing chart %s: %w", j.chart.SVG, err)
		}
		if err := writeFile(filepath.Join(dir, j.chart.SVG), svg); err != nil {
			return err
		}
	}
	if j.chart.Small == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.Shrink()
	j.chart.SmallWidth, j.chart.SmallHeight = f.Pixels()
	small, err := f.Render("png")
	if err != nil {
		return fmt.Errorf("drawing chart %s: %w", j.chart.Small, err)
	}
	return writeFile(filepath.Join(dir, j.chart.Small), small)
}

// smallFile is the name of the small PNG of a chart's PNG file.
func smallFile(png string) string { return strings.TrimSuffix(png, ".png") + "-small.png" }

// writeFile writes a chart file atomically, with the mode of the page
// that shows it (rundir.WriteFile).
func writeFile(path string, data []byte) error {
	if err := rundir.WriteFile(path, data); err != nil {
		return fmt.Errorf("writing chart: %w", err)
	}
	return nil
}

// chartSet is the charts of one report: what they share, the columns of
// every series for both measures (see column), shared histogram
// bins, the baseline's times by puzzle for the scatters.
type chartSet struct {
	res      *report.Results
	opt      Options
	hl       map[int32]bool // the highlighted ids
	label    string         // names the run in titles
	baseline string
	time     []*column // per series, in res.Series order
	calls    []*column
	// Histogram bin edges. Time bins are shared by all strategies, so
	// that their histograms read on the same axis; calls count different
	// things in each strategy, so each has its own range (the bins are
	// still aligned on the same fractions of a decade).
	timeEdges []float64
	// The baseline's plotted time by puzzle index (NaN: not plotted) and
	// its ending, for the scatters' join.
	baseV []float64
	baseO []ending
	// ranking is the report's summary of each strategy, by name: its
	// lists of the hardest by time and by calls label the histograms.
	ranking map[string]*report.StrategySummary
	// unconfirmedWhy says why a labelled time is marked unconfirmed
	// (report.Summary.UnconfirmedCause).
	unconfirmedWhy string
}

func newChartSet(ctx context.Context, res *report.Results, opt Options) (*chartSet, error) {
	cs := &chartSet{res: res, opt: opt, label: opt.Title, hl: map[int32]bool{}}
	if cs.label == "" {
		cs.label = res.CorpusLabel()
	}
	for _, id := range opt.Highlight {
		if id >= math.MinInt32 && id <= math.MaxInt32 {
			cs.hl[int32(id)] = true
		}
	}
	sum := opt.Summary
	if sum == nil {
		var err error
		if sum, err = report.SummarizeContext(ctx, res, report.SummaryOptions{Top: hardestTop + len(opt.Highlight)}); err != nil {
			return nil, err
		}
	}
	cs.unconfirmedWhy = sum.UnconfirmedCause()
	cs.ranking = map[string]*report.StrategySummary{}
	for _, st := range sum.Strategies {
		cs.ranking[st.Solver] = st
	}
	// The shared time bins need the range of every series first.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range res.Series {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := range s.Len() {
			if s.Status(i).Measured() {
				v := math.Max(valueOf(s, i, measureTime), measureTime.floor())
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo <= hi {
		cs.timeEdges = logBins(lo, hi, false)
	}
	for _, s := range res.Series {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// One strategy's sorted values of one measure at a time (8 bytes
		// a unit).
		st := cs.ranking[s.Solver]
		if st == nil {
			return nil, fmt.Errorf("writing charts: the summary has no strategy %s", s.Solver)
		}
		cs.time = append(cs.time, newColumn(s, measureTime, columnOptions{edges: cs.timeEdges, highlight: cs.hl, dist: true,
			summary: st, values: report.SortedTimes(s)}))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cs.calls = append(cs.calls, newColumn(s, measureCalls, columnOptions{highlight: cs.hl, summary: st, values: report.SortedCalls(s)}))
	}
	cs.baseline = baselineOf(res, opt.Baseline)
	if base := res.Solver(cs.baseline); base != nil && len(res.Series) > 1 {
		cs.baseV = make([]float64, res.PuzzleCount())
		cs.baseO = make([]ending, res.PuzzleCount())
		for p := range cs.baseV {
			cs.baseV[p] = math.NaN()
		}
		for i := range base.Len() {
			if st := base.Status(i); st.Measured() {
				p := base.Puzzle(i)
				cs.baseV[p] = math.Max(valueOf(base, i, measureTime), measureTime.floor())
				cs.baseO[p] = endingOf(st)
			}
		}
	}
	return cs, ctx.Err()
}

// baselineOf picks the scatter baseline: want if present, else the
// first strategy ("" when there is none).
func baselineOf(res *report.Results, want string) string {
	if want != "" && res.Solver(want) != nil {
		return want
	}
	if len(res.Series) > 0 {
		return res.Series[0].Solver
	}
	return ""
}

// jobs lists the charts in page order.
func (cs *chartSet) jobs() []job {
	var jobs []job
	add := func(kind, solver, base string, svg bool, title, caption string, build func() (*Figure, error)) {
		if kind != KindHistCalls {
			caption += cs.basisNote(solver, kind == KindScatterTime)
		}
		c := report.Chart{File: base + ".png", Small: base + "-small.png", Title: title, Caption: caption, Solver: solver, Kind: kind}
		if cs.opt.SVG && svg {
			c.SVG = base + ".svg"
		}
		jobs = append(jobs, job{chart: c, build: build})
	}
	if len(cs.res.Series) == 0 {
		return nil
	}
	add(KindECDFTime, "", "ecdf-time", true, cs.ecdfTitle(), cs.ecdfCaption(), cs.ecdfPlot)
	add(KindBoxTime, "", "box-time", true, cs.boxTitle(), cs.boxCaption(), cs.boxPlot)
	var base *column
	for _, c := range cs.time {
		if c.solver == cs.baseline && c.fin > 0 {
			base = c // a baseline that finished nothing has no scatters
		}
	}
	for i := range cs.res.Series {
		if cs.time[i].n == 0 || cs.time[i].fin == 0 {
			// Nothing measured, or nothing finished (singles, stuck on
			// every 17-clue puzzle): the ECDF and the box plot say so, and
			// its histograms and scatter would draw when it gave up.
			continue
		}
		name := report.SafeFileName(cs.time[i].solver)
		for _, col := range []*column{cs.time[i], cs.calls[i]} {
			kind := KindHistTime
			if col.measure == measureCalls {
				kind = KindHistCalls
			}
			add(kind, col.solver, kind+"-"+name, true, cs.histTitle(col), cs.histCaption(col, i),
				func() (*Figure, error) { return cs.histPlot(col, i) })
		}
		if base != nil && cs.time[i] != base {
			sc := cs.newScatter(cs.res.Series[i], cs.time[i], base, i)
			if sc.n == 0 {
				continue // no puzzle measured by both
			}
			add(KindScatterTime, sc.y.solver, "scatter-time-"+name+"-vs-"+report.SafeFileName(base.solver),
				sc.n <= svgMaxPoints, sc.title(), sc.caption(), sc.plot)
			if cs.opt.SVG && sc.n > svgMaxPoints {
				jobs[len(jobs)-1].chart.Note = fmt.Sprintf("scatter %s vs %s: %d points, written as PNG only (SVG over %d points)",
					sc.y.solver, base.solver, sc.n, svgMaxPoints)
			}
		}
	}
	return jobs
}

// title builds a chart title: "<strategy>: time per puzzle — sudoku17.txt,
// 1000 puzzles".
func (cs *chartSet) title(what string, puzzles int) string {
	return fmt.Sprintf("%s — %s, %s", what, cs.label, report.Count(puzzles, "puzzle", "puzzles"))
}

// rankedLabel is a unit of the report's ranking labelled on a
// histogram: its value (clamped to the floor) and its text.
type rankedLabel struct {
	v    float64
	text string
}

// hardest returns the hardestTop units that the report's ranking of
// col's strategy lists first for col's measure, highlighted puzzles left
// out (they are marked apart): "#id", with its status when it did not
// finish ("#62 (timeout)") and the report's mark when its time is
// unconfirmed.
func (cs *chartSet) hardest(col *column) []rankedLabel {
	st := cs.ranking[col.solver]
	if st == nil {
		return nil
	}
	list := st.ByTime
	if col.measure == measureCalls {
		list = st.ByCalls
	}
	var out []rankedLabel
	for _, u := range list {
		if len(out) == hardestTop {
			break
		}
		if cs.hl[int32(u.Puzzle.ID)] {
			continue
		}
		v := float64(u.NS) / 1e9
		if col.measure == measureCalls {
			v = float64(u.Calls)
		}
		text := u.Puzzle.Label
		if !u.Status.Finished() {
			text += " (" + u.Status.String() + ")"
		}
		if u.Unconfirmed && col.measure == measureTime {
			text += report.UnconfirmedMark
		}
		out = append(out, rankedLabel{v: math.Max(v, col.measure.floor()), text: text})
	}
	return out
}

// anyHighlighted reports whether a column plots a highlighted puzzle.
func (cs *chartSet) anyHighlighted(cols ...*column) bool {
	for _, c := range cols {
		if len(c.find(cs.opt.Highlight)) > 0 {
			return true
		}
	}
	return false
}

// absentHighlights names, for a caption, the highlighted ids that no
// column plots: "#39949 is not in these results".
func (cs *chartSet) absentHighlights(cols ...*column) string {
	var missing []string
	for _, id := range cs.opt.Highlight {
		found := false
		for _, c := range cols {
			if len(c.find([]int{id})) > 0 {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("#%d", id))
		}
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return "highlighted " + missing[0] + " is not plotted here (not in these results or not measured)"
	default:
		return "highlighted " + strings.Join(missing, ", ") + " are not plotted here (not in these results or not measured)"
	}
}

// sentence joins caption parts into one sentence.
func sentence(main string, extra ...string) string {
	var parts []string
	for _, s := range append([]string{main}, extra...) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ") + "."
}
