package report

import (
	"cmp"
	"context"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// NamedPuzzles returns the puzzles the page of s names, each once, by
// corpus then id: the hardest of each strategy by calls and by time (the
// headline's hardest among them; none of a strategy that solved
// nothing, which has no lists), the puzzles hard for several
// strategies, the highlighted puzzles, the unstable units listed and the
// puzzles with other than one solution. The page gives each an anchor;
// the caller reads their earlier nights (PageOptions.History) for these.
func (s *Summary) NamedPuzzles() []PuzzleRef {
	seen := map[PuzzleRef]bool{}
	var out []PuzzleRef
	add := func(r PuzzleRef) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, st := range s.Strategies {
		if st.Solved() || st.Measured == 0 {
			// A strategy that solved nothing has no lists on the page.
			for _, u := range st.ByCalls {
				add(u.Puzzle)
			}
			for _, u := range st.ByTime {
				add(u.Puzzle)
			}
		}
		for _, r := range []PuzzleRef{st.TimeNS.MaxAt, st.Calls.MaxAt} {
			if r.Label != "" {
				add(r)
			}
		}
		if t := st.Timing; t != nil {
			for _, r := range t.UnstableAt {
				add(r)
			}
		}
	}
	for _, sh := range s.Several {
		add(sh.Puzzle)
	}
	for _, h := range s.Highlights {
		for _, u := range h.Units {
			add(u.Puzzle)
		}
	}
	if c := s.Solutions; c != nil {
		for _, r := range c.SeveralAt {
			add(r)
		}
		for _, r := range c.NoneAt {
			add(r)
		}
	}
	slices.SortFunc(out, func(a, b PuzzleRef) int {
		return cmp.Or(strings.Compare(a.Corpus, b.Corpus), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// anchor is the id of puzzle r's entry in the puzzle section: "p-" and
// its label, without a leading "#", other "#" as "-", letters and digits kept, any other byte as
// "_hh" (hex): "#39949" is p-39949, "a.txt#12" p-a_2etxt-12. Two labels
// never share an anchor, and it needs no escaping in a URL, in HTML or
// in a CSS selector.
func anchor(r PuzzleRef) string {
	b := []byte("p-")
	// "#12" (one corpus) is p-12; a label with a corpus, "a#12", always
	// has a "-" after the prefix, so the two never meet.
	for _, c := range []byte(strings.TrimPrefix(r.Label, "#")) {
		switch {
		case c == '#':
			b = append(b, '-')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			b = append(b, c)
		default:
			b = append(b, '_', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		}
	}
	return string(b)
}

// linkCells makes each cell of rows that names one of the puzzles (its
// label, as the rows "time max at" and "hardest (calls)" give it) a link
// to the puzzle's entry.
func linkCells(rows []pageRow, named []PuzzleRef) {
	byLabel := map[string]string{}
	for _, r := range named {
		byLabel[r.Label] = anchor(r)
	}
	for i := range rows {
		for j := range rows[i].Cells {
			if a, ok := byLabel[rows[i].Cells[j].Value]; ok {
				rows[i].Cells[j].Anchor = a
			}
		}
	}
}

// refLinks names puzzles as links to their entries (href gives the link
// of an anchor), "#3, #17", with "and N more" when they are the first of
// total; the labels are escaped.
func refLinks(refs []PuzzleRef, total int, href func(string) string) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = `<a href="` + template.HTMLEscapeString(href(anchor(r))) + `">` + template.HTMLEscapeString(r.Label) + `</a>`
	}
	if total > len(refs) {
		parts = append(parts, fmt.Sprintf("and %d more", total-len(refs)))
	}
	return strings.Join(parts, ", ")
}

// unstableLinks is Summary.unstable with the puzzles as links.
func (s *Summary) unstableLinks(href func(string) string) []template.HTML {
	var out []template.HTML
	for _, st := range s.Strategies {
		if t := st.Timing; t != nil && t.Unstable > 0 {
			out = append(out, template.HTML(fmt.Sprintf("%s %d (%s)", template.HTMLEscapeString(st.Solver), t.Unstable, refLinks(t.UnstableAt, t.Unstable, href))))
		}
	}
	return out
}

// solutionsLinks is the page's sentence on what -unique found, the
// puzzles as links; "" when solutions were not counted.
func (s *Summary) solutionsLinks(href func(string) string) template.HTML {
	c := s.Solutions
	if c == nil {
		return ""
	}
	return template.HTML(fmt.Sprintf("Solutions counted (-unique) for %d %s: %s.", c.Counted,
		Plural(c.Counted, "puzzle", "puzzles"), c.sentence(func(refs []PuzzleRef, total int) string { return refLinks(refs, total, href) })))
}

// puzzleParts is the page's data for the puzzle parts beyond the
// puzzles themselves.
type puzzleParts struct {
	History *PuzzleHistory // the earlier nights; nil
	// DefaultHighlight: the highlight is the default corpus's classic
	// example (PageOptions.DefaultHighlight).
	DefaultHighlight bool
}

// nightCell is a strategy's time on one night of the history: its
// status when not solved (a class of the cell), its calls on hover.
type nightCell struct{ Text, Title, Status string }

// historyCell is the cell of a unit of status st, time text and calls
// (as shown, and the number for the word).
func historyCell(st solvers.Status, text, calls string, n uint64) nightCell {
	c := nightCell{Text: text, Title: calls + " " + Plural(min(int(n), 2), "call", "calls")}
	if st != solvers.StatusSolved {
		c.Status = st.String()
		c.Title = c.Status + ", " + c.Title
	}
	return c
}

// historyRow is a strategy's times on the earlier nights and in this run.
type historyRow struct {
	Solver string
	Cells  []nightCell // one per PuzzleHistory night, then this run
}

// puzzleTable returns an entry per named puzzle (order) with every
// strategy's outcome and ranks, its earlier nights (hist, may be nil),
// the command that reproduces it, and its grid when its corpus can be
// read.
func puzzleTable(ctx context.Context, res *Results, s *Summary, order []PuzzleRef, opt PageOptions) ([]pagePuzzle, error) {
	type key struct {
		corpus string
		id     int
	}
	want := map[key]int{}
	rows := make([]pagePuzzle, len(order))
	for i, r := range order {
		want[key{r.Corpus, r.ID}] = i
		rows[i] = pagePuzzle{Label: r.Label, Anchor: anchor(r), Line: r.Line,
			Ranks: make([]pageRank, len(s.Strategies)), Show: showCommand(r, res, s, opt), Variants: s.pageVariants(r, opt)}
		if opt.PuzzleHistory != nil {
			rows[i].Nights = opt.PuzzleHistory.Nights
		}
		if s.Variants != nil {
			rows[i].Rule = s.Variants.thresholds()
		}
		for j, st := range s.Strategies {
			rows[i].Ranks[j] = pageRank{Solver: st.Solver, Status: "–"}
		}
	}
	setPageRanks(res, s, rows, order)
	if h := opt.PuzzleHistory; h != nil {
		for i, r := range order {
			rows[i].History = h.rowsOf(r, s, rows[i].Ranks)
		}
	}
	for i := range rows {
		var texts []string
		for _, r := range rows[i].Ranks {
			texts = append(texts, r.Time, r.Calls, r.TiedTime, r.TiedCalls)
		}
		rows[i].Symbols = strings.TrimSpace(symbolsNote(texts...))
	}
	// The last id wanted of each corpus, in one pass: the reading of a
	// corpus stops there (a loop over want per corpus took minutes for a
	// run of 65,540 corpora with an id highlighted in each).
	lastOf := map[string]int{}
	for k := range want {
		if l, ok := lastOf[k.corpus]; !ok || k.id > l {
			lastOf[k.corpus] = k.id
		}
	}
	for ci, path := range opt.Corpora {
		last, ok := lastOf[path]
		if !ok {
			last = -1
		}
		file := path
		if ci < len(opt.Files) && opt.Files[ci] != "" {
			file = opt.Files[ci]
		}
		if last < 0 || file == "-" {
			continue
		}
		// A corpus that cannot be read, or a stream, leaves its puzzles
		// without a grid.
		err := corpus.Each(ctx, file, path, func(e *corpus.Entry) bool {
			if i, ok := want[key{path, e.ID}]; ok && e.Err == nil {
				rows[i].Givens = e.Puzzle.String()
				rows[i].Box, rows[i].Bands = e.Puzzle.Box, gridBands(e.Puzzle.Grid)
			}
			return e.ID < last
		})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return rows, nil
}

// highlighted returns the entries of puzzles of the highlighted
// puzzles, in the order asked (an id in several corpora: each).
func highlighted(s *Summary, puzzles []pagePuzzle) []pagePuzzle {
	var out []pagePuzzle
	at := make(map[string][]int, len(puzzles)) // anchor -> entries (a map: a loop per unit took 25 s for 65,540 highlighted units)
	for i, pz := range puzzles {
		at[pz.Anchor] = append(at[pz.Anchor], i)
	}
	seen := map[string]bool{}
	for _, h := range s.Highlights {
		for _, u := range h.Units {
			a := anchor(u.Puzzle)
			if seen[a] {
				continue
			}
			seen[a] = true
			for _, i := range at[a] {
				out = append(out, puzzles[i])
			}
		}
	}
	return out
}

// gridBands returns g as bands of Box rows of symbols ("" for an empty
// cell), for the page to draw as a table with a tbody per band and a
// colgroup per stack of boxes, their borders the boxes'.
func gridBands(g solvers.Grid) [][][]string {
	side := g.Side()
	out := make([][][]string, g.Box)
	for r := range side {
		row := make([]string, side)
		for c := range side {
			if v := g.Cells[r*side+c]; v != 0 {
				row[c] = string(solvers.Symbol(v))
			}
		}
		out[r/g.Box] = append(out[r/g.Box], row)
	}
	return out
}

// showCommand is the `batch show` command line that runs puzzle r again
// as the run did (its strategies, limits and seed) and ranks it in the
// run: "" when the page does not know the run's directory.
func showCommand(r PuzzleRef, res *Results, s *Summary, opt PageOptions) string {
	if opt.RunDir == "" {
		return ""
	}
	args := []string{"batch", "show", strconv.Itoa(r.ID), "-run", opt.RunDir}
	if len(res.Corpora) > 1 || (len(opt.Corpora) > 0 && opt.Corpora[0] != r.Corpus) {
		args = append(args, "-corpus", r.Corpus)
	}
	names := make([]string, len(res.Series))
	for i, ser := range res.Series {
		names[i] = ser.Solver
	}
	args = append(args, "-solvers", strings.Join(names, ","))
	if run := s.Run; run != nil {
		args = append(args, run.Settings.ReplayFlags(rundir.ReplayShowRun)...)
	}
	return ShellCommand(args)
}

// RankText is a rank among n units, tied ones said so: "12th of
// 49151", "1st of 600, tied with 238 others".
func RankText(rank, tied, n int) string {
	s := ordinal(rank) + " of " + strconv.Itoa(n)
	if tied > 1 {
		s += ", tied with " + Count(tied-1, "other", "others")
	}
	return s
}

// tiedWith says with how many others a unit shares its rank: "tied with
// 238 others"; "" when none.
func tiedWith(tied int) string {
	if tied < 2 {
		return ""
	}
	return "tied with " + Count(tied-1, "other", "others")
}

// ordinal is n as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch n % 100 {
	case 11, 12, 13:
	default:
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// PuzzleHistory is what the page shows of the named puzzles on the
// earlier nights of the run's series (results/history.json): the nights,
// oldest first, and the units of the named puzzles on them. The caller
// reads them (cmd/batch, through the history package); the page only
// lays them out.
type PuzzleHistory struct {
	Series string         // the series, for people (history.Signature.Key)
	Nights []HistoryNight // oldest first
	Units  []HistoryUnit  // in any order
}

// HistoryNight is an earlier night of the series.
type HistoryNight struct {
	RunID string
	Date  string // the night's start, "2026-11-25"
	Href  string // its page relative to this page; "" for none
	Note  string // why it has no units ("rows gone"); "" when it has
}

// HistoryUnit is a unit of a named puzzle on an earlier night.
type HistoryUnit struct {
	Night  int    // index in PuzzleHistory.Nights
	Corpus string // the corpus as this run names it (PuzzleRef.Corpus)
	ID     int
	Solver string
	Status solvers.Status
	NS     int64
	Calls  uint64
}

// rowsOf returns puzzle r's history, a row per strategy of the run
// (ranks: its units in this run), or nil when no earlier night has it.
func (h *PuzzleHistory) rowsOf(r PuzzleRef, s *Summary, ranks []pageRank) []historyRow {
	units := map[string][]nightCell{}
	found := false
	for _, u := range h.Units {
		if u.Corpus != r.Corpus || u.ID != r.ID || u.Night < 0 || u.Night >= len(h.Nights) {
			continue
		}
		cells := units[u.Solver]
		if cells == nil {
			cells = make([]nightCell, len(h.Nights))
			units[u.Solver] = cells
		}
		cells[u.Night] = historyCell(u.Status, unitTime(RankedUnit{Status: u.Status, NS: u.NS}), fmtCount(float64(u.Calls)), u.Calls)
		found = true
	}
	if !found {
		return nil
	}
	var out []historyRow
	for j, st := range s.Strategies {
		cells := units[st.Solver]
		if cells == nil {
			cells = make([]nightCell, len(h.Nights))
		}
		for k := range cells {
			if cells[k].Text == "" {
				cells[k] = nightCell{Text: "–", Title: "no row that night"}
			}
		}
		now := nightCell{Text: "–", Title: "no row"}
		if rk := ranks[j]; rk.Time != "" {
			st, _ := solvers.ParseStatus(rk.Status)
			now = historyCell(st, rk.Time, rk.Calls, rk.CallsN)
		}
		out = append(out, historyRow{Solver: st.Solver, Cells: append(cells, now)})
	}
	return out
}

// Has reports whether the results hold a row of puzzle id of corpus c
// (an index in Corpora).
func (r *Results) Has(c, id int) bool {
	_, ok := r.puzzleAt(c, id)
	return ok
}
