package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/solvers"
)

// PageFile is the name of the run's HTML page.
const PageFile = "index.html"

// PageOptions is what the page shows beside the summary.
type PageOptions struct {
	Charts    []Chart // in the order to show them
	ChartsDir string  // directory of the charts relative to the page ("charts")
	// Corpora are the corpus files to read the puzzles' givens from (for
	// the grids of the puzzle table); a file that cannot be read leaves
	// its puzzles without a grid.
	Corpora []string
}

//go:embed html.tmpl
var pageTemplate string

var pageTmpl = template.Must(template.New("page").Parse(pageTemplate))

// WritePage writes dir/index.html: the summary table, the hardest lists
// (each puzzle links to its row in the puzzle table, which shows its
// grid), the puzzles hard for several strategies, and every chart. It is
// one static file with relative links to the charts, readable offline;
// every text that comes from the input (file names, lines, messages) is
// escaped by html/template.
func WritePage(dir string, res *Results, s *Summary, opt PageOptions) error {
	return writePage(dir, resultsPageRows(res, s), s, opt)
}

// WritePage writes dir/index.html for the stream's rows, as WritePage
// does for a Results holding them.
func (st *Stream) WritePage(dir string, s *Summary, opt PageOptions) error {
	rows := func(fn func(j int, corpus string, e *Entry)) error {
		return st.scan(func(r *spillRow) {
			e := r.entry()
			fn(r.si, st.shell.Corpora[r.corpus], &e)
		})
	}
	return writePage(dir, rows, s, opt)
}

// pageRows calls fn with the rows of each strategy of a summary (j: its
// index in Summary.Strategies), each strategy's in file order.
type pageRows func(fn func(j int, corpus string, e *Entry)) error

func resultsPageRows(res *Results, s *Summary) pageRows {
	return func(fn func(j int, corpus string, e *Entry)) error {
		for j, st := range s.Strategies {
			series := res.Solver(st.Solver)
			if series == nil {
				continue
			}
			for k := range series.Len() {
				e := series.At(k)
				fn(j, res.Corpora[e.Corpus], &e)
			}
		}
		return nil
	}
}

func writePage(dir string, rows pageRows, s *Summary, opt PageOptions) error {
	var b bytes.Buffer
	if err := renderPageRows(&b, rows, s, opt); err != nil {
		return fmt.Errorf("writing %s: %w", PageFile, err)
	}
	return writeFileAtomic(filepath.Join(dir, PageFile), b.Bytes())
}

// page is the template's data.
type page struct {
	Title     string
	Summary   *Summary
	Run       *RunSummary
	Table     [][]string
	Censored  int
	Note      string
	Hardest   []pageHardest
	Several   []pageSeveral
	Solvers   []string
	Charts    []pageChart
	Puzzles   []pagePuzzle
	Highlight []pagePuzzle
}

type pageUnit struct {
	Label, Anchor string
	Status        string
	Calls, Time   string
	XCalls, XTime string
	Rank          int
}

type pageHardest struct {
	Solver          string
	ByCalls, ByTime []pageUnit
}

type pageSeveral struct {
	Label, Anchor string
	HardFor       string
	GeoMean       string
}

type pageChart struct {
	Chart
	Src, SVGSrc string
}

type pagePuzzle struct {
	Label, Anchor string
	Line          int
	Givens        string
	Grid          string
	Cells         []pageUnit // one per strategy, in Solvers order
}

func anchor(r PuzzleRef) string {
	return "p-" + strings.NewReplacer("#", "-", "/", "-", ".", "-", " ", "-").Replace(r.Label)
}

func pageUnitOf(u RankedUnit, rank int) pageUnit {
	return pageUnit{
		Label: u.Puzzle.Label, Anchor: anchor(u.Puzzle), Status: u.Status.String(), Rank: rank,
		Calls: fmtCount(float64(u.Calls)), Time: fmtNS(float64(u.NS)),
		XCalls: fmtMultiple(u.XMedianCalls), XTime: fmtMultiple(u.XMedianTime),
	}
}

func renderPage(w io.Writer, res *Results, s *Summary, opt PageOptions) error {
	return renderPageRows(w, resultsPageRows(res, s), s, opt)
}

func renderPageRows(w io.Writer, rows pageRows, s *Summary, opt PageOptions) error {
	p := page{
		Title:    fmt.Sprintf("sudokubatch: %s, %s", s.Corpus, s.countsLine()),
		Summary:  s,
		Run:      s.Run,
		Table:    s.mainTable(),
		Censored: s.censored(),
		Note:     CensoringNote,
	}
	refs := map[PuzzleRef]bool{}
	var order []PuzzleRef
	ref := func(r PuzzleRef) {
		if !refs[r] {
			refs[r] = true
			order = append(order, r)
		}
	}
	for _, st := range s.Strategies {
		p.Solvers = append(p.Solvers, st.Solver)
		h := pageHardest{Solver: st.Solver}
		for i, u := range st.ByCalls {
			h.ByCalls = append(h.ByCalls, pageUnitOf(u, i+1))
			ref(u.Puzzle)
		}
		for i, u := range st.ByTime {
			h.ByTime = append(h.ByTime, pageUnitOf(u, i+1))
			ref(u.Puzzle)
		}
		p.Hardest = append(p.Hardest, h)
	}
	for _, sh := range s.Several {
		p.Several = append(p.Several, pageSeveral{Label: sh.Puzzle.Label, Anchor: anchor(sh.Puzzle),
			HardFor: strings.Join(sh.HardFor, ", "), GeoMean: fmtEstimate(sh.GeoMeanXMedianCalls, fmtMultiple)})
		ref(sh.Puzzle)
	}
	for _, h := range s.Highlights {
		if len(h.Units) > 0 {
			ref(h.Units[0].Puzzle)
		}
	}
	dir := opt.ChartsDir
	if dir == "" {
		dir = "charts"
	}
	for _, c := range opt.Charts {
		pc := pageChart{Chart: c, Src: dir + "/" + c.File}
		if c.SVG != "" {
			pc.SVGSrc = dir + "/" + c.SVG
		}
		p.Charts = append(p.Charts, pc)
	}
	slices.SortFunc(order, func(a, b PuzzleRef) int {
		if c := strings.Compare(a.Corpus, b.Corpus); c != 0 {
			return c
		}
		return a.ID - b.ID
	})
	var err error
	if p.Puzzles, err = puzzleTable(rows, s, order, opt.Corpora); err != nil {
		return err
	}
	for _, h := range s.Highlights {
		for _, pz := range p.Puzzles {
			if len(h.Units) > 0 && pz.Label == h.Units[0].Puzzle.Label {
				p.Highlight = append(p.Highlight, pz)
			}
		}
	}
	return pageTmpl.Execute(w, p)
}

// puzzleTable returns a row per referenced puzzle with every strategy's
// outcome, and the puzzle's grid when its corpus can be read.
func puzzleTable(all pageRows, s *Summary, order []PuzzleRef, corpora []string) ([]pagePuzzle, error) {
	type key struct {
		corpus string
		id     int
	}
	want := map[key]int{}
	rows := make([]pagePuzzle, len(order))
	for i, r := range order {
		want[key{r.Corpus, r.ID}] = i
		rows[i] = pagePuzzle{Label: r.Label, Anchor: anchor(r), Line: r.Line, Cells: make([]pageUnit, len(s.Strategies))}
		for j := range rows[i].Cells {
			rows[i].Cells[j] = pageUnit{Status: "–"}
		}
	}
	err := all(func(j int, corpus string, e *Entry) {
		if i, ok := want[key{corpus, int(e.ID)}]; ok {
			rows[i].Cells[j] = pageUnit{Status: e.Status.String(), Calls: fmtCount(float64(e.Calls)), Time: fmtNS(float64(e.NS))}
		}
	})
	if err != nil {
		return nil, err
	}
	for _, path := range corpora {
		f, err := os.Open(path)
		if err != nil || path == "-" {
			continue
		}
		sc := solvers.NewScanner(f, path)
		last := -1
		for k := range want {
			if k.corpus == path {
				last = max(last, k.id)
			}
		}
		for last >= 0 && sc.Scan() && sc.Entry().ID <= last {
			e := sc.Entry()
			if i, ok := want[key{path, e.ID}]; ok && e.Err == nil {
				rows[i].Givens = e.Puzzle.String()
				rows[i].Grid = e.Puzzle.Format()
			}
		}
		f.Close()
	}
	return rows, nil
}
