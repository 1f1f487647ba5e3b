package report

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"sudokubatch/rundir"
)

// Chart describes one chart of a run (report/chart draws them), for the
// page that shows them.
type Chart struct {
	File    string // PNG file name, relative to the charts directory
	SVG     string // SVG file name, or "" when none was written
	Title   string // the chart's title
	Caption string // one sentence: what it shows and how to read it
	Solver  string // the strategy drawn, "" for charts of all strategies
	// Width and Height are the PNG's size in pixels (the page gives its
	// images their size, so that nothing moves as they load); 0: unknown.
	Width, Height int
	// Small is the PNG of the chart drawn for a small screen (its text
	// relatively larger), SmallWidth and SmallHeight its size; "": none.
	Small                   string
	SmallWidth, SmallHeight int
	Kind                    string // what it draws: one of report/chart's Kind constants
	// Note says what was asked of the chart but not done, e.g. "scatter
	// norvig vs bitboard: 49151 points, written as PNG only (SVG over
	// 5000 points)"; the command prints it and the page shows it.
	Note string
}

// PageOptions is what the page shows beside the summary.
type PageOptions struct {
	Charts    []Chart // in the order to show them
	ChartsDir string  // directory of the charts relative to the page ("charts")
	// Corpora are the corpus files to read the puzzles' givens from (for
	// the grids of the puzzle table), read with corpus.Each (a .gz, the
	// embedded default corpus); a file that cannot be read, or that is a
	// stream (a FIFO would block, a device never end), leaves its puzzles
	// without a grid.
	Corpora []string
	// Files, when not empty, names for Corpora[i] the file to read in its
	// place: the copy in the run directory of a corpus read from a stream
	// (corpus.InRun); "" reads Corpora[i] itself.
	Files []string
	// RowsFile is the name of the rows file the page links, beside it:
	// results.csv, or results.csv.gz when the rows are (or are about to
	// be, the sweep gzipping them after its report) compressed; "": the
	// page names none.
	RowsFile string
	// Command is the command line that made the run, for people (quoted
	// for a shell); "": none shown.
	Command string
	// Trend is, per strategy, what the history of the run's series says
	// of the run's night (batch trend's gate); nil: the headline has no
	// such column. TrendLine says it in a sentence (the baseline, the
	// alarms), History is the link to the history page ("": none).
	Trend     map[string]TrendCell
	TrendLine string
	History   string
	// RunDir is the run's directory as a command line names it, for the
	// `batch show` command of each puzzle; "": none shown.
	RunDir string
	// PuzzleHistory is the named puzzles on the earlier nights of the
	// run's series; nil: none shown.
	PuzzleHistory *PuzzleHistory
	// DefaultHighlight: the highlighted puzzle is the corpus's classic
	// example, highlighted by default (no -highlight), and the page says
	// so.
	DefaultHighlight bool
	// Previous links the comparison of the run with the previous night of
	// its series (batch compare's page, written in the run directory),
	// its text the one-line verdict; nil: none. NoPrevious says, when
	// there is none, why ("the first night of its series"); "": nothing.
	Previous   *PageLink
	NoPrevious string
	// Busy is the share of the workers' CPU time other work may take
	// before the page warns that the machine was busy (the history's
	// threshold); 0: no warning.
	Busy float64
	// Strips are the strip charts of the run's hard-or-unlucky analysis
	// (Summary.AttachVariants), in ChartsDir: an analysed puzzle's entry
	// shows the one of each of its strategies (by StripFile).
	Strips []Chart
}

//go:embed html.tmpl
var pageTemplate string

//go:embed html_puzzles.tmpl
var puzzlesTemplate string

// pageTmpl is parsed when a page is first written, not at start: a
// sweep that writes no report (or a one-puzzle run) does not pay the
// parse.
//
// Its templates link a puzzle's entry with {{ref ANCHOR}}: each page
// renders a clone of it whose ref gives that page's link (pageRefs).
var pageTmpl = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("page").Funcs(sortFuncs).Funcs(template.FuncMap{"ref": func(string) string { return "" }}).Parse(pageTemplate))
	template.Must(t.New("puzzles.tmpl").Parse(puzzlesTemplate))
	return t
})

// PuzzlesPageFile is the page of the puzzles the run's page names, an
// entry each, beside index.html: the run's page holds the highlighted
// puzzles' entries and links the others there.
const PuzzlesPageFile = rundir.PuzzlesPage

// withRef returns a clone of the page templates whose ref links an
// anchor by href.
func withRef(href func(string) string) (*template.Template, error) {
	t, err := pageTmpl().Clone()
	if err != nil {
		return nil, err
	}
	return t.Funcs(template.FuncMap{"ref": href}), nil
}

// WritePage writes dir/index.html: first the verdict (what changed
// since the previous night, the fastest and slowest strategies, the
// puzzles hard for several), the run's facts (when, which build, where,
// how busy the machine was) and the headline table; then the
// highlighted puzzles' entries (their grids, ranks and history), the
// puzzles hard for several strategies, the hardest lists (by time,
// confirmed times only, the units a timeout stopped tied at the limit),
// every chart as a thumbnail, the full statistics and the timing. Beside
// it, dir/charts.html has the charts full size and dir/puzzles.html an
// entry for every puzzle the page names, which the page links. Each is
// one static file with relative links, readable offline; every text
// that comes from the input (file names, lines, messages) is escaped by
// html/template.
//
// It returns ctx.Err() when ctx is canceled while it reads the corpora.
func WritePage(ctx context.Context, dir string, res *Results, s *Summary, opt PageOptions) error {
	var b bytes.Buffer
	p, err := renderPage(ctx, &b, res, s, opt)
	if err != nil {
		return fmt.Errorf("writing %s: %w", rundir.PageFile, err)
	}
	if err := rundir.WriteFile(filepath.Join(dir, rundir.PageFile), b.Bytes()); err != nil {
		return err
	}
	b.Reset()
	if err := renderPuzzlesPage(&b, p); err != nil {
		return fmt.Errorf("writing %s: %w", PuzzlesPageFile, err)
	}
	if err := rundir.WriteFile(filepath.Join(dir, PuzzlesPageFile), b.Bytes()); err != nil {
		return err
	}
	if len(p.Charts) == 0 {
		return nil
	}
	b.Reset()
	if err := renderChartsPage(&b, p); err != nil {
		return fmt.Errorf("writing %s: %w", ChartsPageFile, err)
	}
	return rundir.WriteFile(filepath.Join(dir, ChartsPageFile), b.Bytes())
}

// renderPuzzlesPage writes the puzzles page of p: every entry, each
// linked on this page.
func renderPuzzlesPage(w io.Writer, p *page) error {
	t, err := withRef(func(a string) string { return "#" + a })
	if err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "puzzlesPage", struct {
		Title, Back string
		History     *PuzzleHistory
		Puzzles     []pagePuzzle
	}{p.Title, rundir.PageFile, p.History, p.Puzzles})
}

// renderPage writes the run's page (index.html) to w: the summary's
// tables, the hardest puzzles, the charts, the highlighted puzzles'
// entries. It returns the page's data, of which renderPuzzlesPage writes
// the puzzles page.
func renderPage(ctx context.Context, w io.Writer, res *Results, s *Summary, opt PageOptions) (*page, error) {
	head, table := s.mainTable()
	p := page{
		Title:    fmt.Sprintf("sudokubatch: %s, %s", s.Corpus, s.countsLine()),
		Summary:  s,
		Run:      s.Run,
		Head:     head,
		Table:    pageRows(table),
		Censored: s.censored(),
		Note:     CensoringNote,
		Spread:   s.anyMeasured(),
		Timing:   pageRows(s.timingRows(true)),
		Missing:  idList(s.HighlightsMissing),
	}
	href := s.pageHref()
	p.Unstable = s.unstableLinks(href)
	p.Running = s.runningLines()
	p.Stopped = s.stoppedLine()
	p.Command = opt.Command
	p.Headline = s.headline(opt.Trend)
	p.Top = s.top(opt, href)
	p.Basis = s.basisLines()
	p.TrendLine, p.HistoryHref = opt.TrendLine, opt.History
	p.TimingLead = s.timingLead()
	p.ChartsPage = ChartsPageFile
	p.PuzzlesPage = PuzzlesPageFile
	p.Previous = opt.Previous
	if vs := s.Variants; vs != nil {
		p.VariantsLead = fmt.Sprintf("The column “variants” is the verdict of the hard-or-unlucky analysis (%s: %s; %s); each links to the puzzle's figures and strip charts.",
			rundir.VariantsFile, vs.settingsLine(), vs.thresholds())
		p.VariantsRule = vs.thresholds()
	}
	p.Data = s.dataLinks(opt.RowsFile)
	p.Solutions = s.solutionsLinks(href)
	for _, st := range s.Strategies {
		p.Solvers = append(p.Solvers, st.Solver)
	}
	p.Hardest = s.hardestLists()
	for _, sh := range s.Several {
		p.Several = append(p.Several, pageSeveral{Label: sh.Puzzle.Label, Anchor: anchor(sh.Puzzle), ID: sh.Puzzle.ID,
			HardFor: strings.Join(sh.HardFor, ", "), GeoMean: fmtEstimate(sh.GeoMeanXMedianCalls, fmtMultiple),
			GeoMeanV: strconv.FormatFloat(sh.GeoMeanXMedianCalls.Value, 'g', 8, 64)})
	}
	p.SeveralTotal = s.SeveralTotal
	p.Charts = pageCharts(opt.Charts, opt.ChartsDir)
	named := s.NamedPuzzles()
	var err error
	if p.Puzzles, err = puzzleTable(ctx, res, s, named, opt); err != nil {
		return nil, err
	}
	linkCells(p.Table, named)
	p.Highlight = highlighted(s, p.Puzzles)
	p.puzzleParts = puzzleParts{History: opt.PuzzleHistory, DefaultHighlight: opt.DefaultHighlight}
	t, err := withRef(href)
	if err != nil {
		return nil, err
	}
	return &p, t.Execute(w, p)
}

// pageHref returns the link to a puzzle's entry by its anchor: the
// highlighted puzzles have their entries on the run's page, every other
// named puzzle on the puzzles page.
func (s *Summary) pageHref() func(anchor string) string {
	local := map[string]bool{}
	for _, h := range s.Highlights {
		for _, u := range h.Units {
			local[anchor(u.Puzzle)] = true
		}
	}
	return func(a string) string {
		if local[a] {
			return "#" + a
		}
		return PuzzlesPageFile + "#" + a
	}
}

// dataLinks lists the run's files the page links: its rows (rowsFile,
// "" when none), run.json when there is one, and the summary's files.
func (s *Summary) dataLinks(rowsFile string) []pageLink {
	var data []pageLink
	if rowsFile != "" {
		data = append(data, pageLink{rowsFile, rowsFile})
	}
	if s.Run != nil {
		data = append(data, pageLink{rundir.ManifestFile, rundir.ManifestFile})
	}
	for _, f := range []string{rundir.SummaryMarkdown, rundir.SummaryJSON, rundir.HardCSV, rundir.SummaryBench} {
		data = append(data, pageLink{f, f})
	}
	return data
}

// hardestLists lists each strategy's hardest units by calls and by time,
// with the note on its times and the symbols its figures use; a
// strategy that measured units and solved none has a line of its own
// instead (Top.NoSolve).
func (s *Summary) hardestLists() []pageHardest {
	var out []pageHardest
	for _, st := range s.Strategies {
		if !st.Solved() && st.Measured > 0 {
			continue
		}
		h := pageHardest{Solver: st.Solver}
		var texts []string
		for _, u := range st.ByCalls {
			h.ByCalls = append(h.ByCalls, pageUnitOf(u, u.RankCalls))
			texts = append(texts, h.ByCalls[len(h.ByCalls)-1].Calls, h.ByCalls[len(h.ByCalls)-1].XCalls)
		}
		for _, u := range st.ByTime {
			h.ByTime = append(h.ByTime, pageUnitOf(u, u.RankTime))
			pu := h.ByTime[len(h.ByTime)-1]
			texts = append(texts, pu.Time, pu.XTime, pu.Tied)
		}
		h.Variants = s.variantsLine(st.Solver)
		if s.Timed {
			h.TimeNote = s.timeListNote(st)
		} else {
			h.TimeNote = "times unconfirmed (each measured once)"
		}
		h.Symbols = capitalize(h.TimeNote) + "." + symbolsNote(texts...)
		out = append(out, h)
	}
	return out
}

// pageCharts are the charts as the page shows them, their files in dir
// relative to the page (rundir.ChartsDir when "").
func pageCharts(charts []Chart, dir string) []pageChart {
	if dir == "" {
		dir = rundir.ChartsDir
	}
	var out []pageChart
	for _, c := range charts {
		pc := pageChart{Chart: c, Src: dir + "/" + c.File, Name: strings.TrimSuffix(c.File, filepath.Ext(c.File)), Lead: chartLead(c.Caption)}
		pc.Short, _, _ = strings.Cut(c.Title, " — ")
		if c.SVG != "" {
			pc.SVGSrc = dir + "/" + c.SVG
		}
		if c.Small != "" {
			pc.SmallSrc = dir + "/" + c.Small
		}
		out = append(out, pc)
	}
	return out
}

// capitalize returns s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// symbolsNote explains the symbols the texts of a table use, " ≥: …"
// (a space first), "" when they use none: so that each table's symbols
// are explained right under it.
func symbolsNote(texts ...string) string {
	all := strings.Join(texts, " ")
	var out []string
	if strings.Contains(all, "≥") {
		out = append(out, "≥: a lower bound, a unit stopped by a limit (its value where it was stopped; by time, the units a timeout stopped tie at the limit)")
	}
	if strings.Contains(all, "≤") {
		out = append(out, "≤: an upper bound")
	}
	if strings.Count(all, "±") > strings.Count(all, "±?") {
		out = append(out, "±: the larger half of the 95% interval, relative to the figure (hover for the interval)")
	}
	if strings.Contains(all, "±?") {
		out = append(out, "±?: an end of the 95% interval the units do not bound (too few of them, or stopped ones)")
	}
	if strings.Contains(all, "†") {
		out = append(out, UnconfirmedMark+": a time measured once, in the sweep, that the re-timing did not reach")
	}
	if strings.Contains(all, "tied") || strings.Contains(all, "others") {
		out = append(out, "tied, =: a rank shared by units of equal value")
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, "; ") + "."
}
