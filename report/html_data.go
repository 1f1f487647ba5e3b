package report

import (
	"html/template"
	"strconv"
)

// page is the template's data.
type page struct {
	Title     string
	Summary   *Summary
	Run       *RunSummary
	Head      []string // strategy names
	Table     []pageRow
	Censored  int
	Note      string
	Spread    bool // the table shows spreads
	Timing    []pageRow
	Unstable  []template.HTML // per strategy with unstable units: "norvig 2 (#3, #9)", the puzzles linked
	Missing   string          // highlighted ids not in the run: "#99, #100"
	Solutions template.HTML   // what -unique found, a sentence, the puzzles linked; "" when not counted
	Hardest   []pageHardest
	Several   []pageSeveral
	Solvers   []string
	Charts    []pageChart
	Puzzles   []pagePuzzle
	Highlight []pagePuzzle
	Running   []string // a run still being written: how long so far, and its corpora (runningLines)
	Stopped   string   // a run interrupted or failed: only its rows so far are summarized (stoppedLine)
	Data      []pageLink
	Command   string

	Top          pageTop // the verdict, the run's facts, the strategies that solved nothing
	Headline     pageHeadline
	Basis        []pageBasis // under the headline: which time ranks each external strategy (Summary.basisLines)
	TrendLine    string
	HistoryHref  string
	TimingLead   string
	ChartsPage   string // the page of the full-size charts, beside this one
	PuzzlesPage  string // the page of the puzzles' entries, beside this one
	SeveralTotal int    // the puzzles hard for several strategies, listed or not
	puzzleParts
	Previous *PageLink
	// VariantsLead says how the hard-or-unlucky analysis was made and its
	// thresholds; "" without one (and the hard lists have no column
	// "variants").
	VariantsLead string
	VariantsRule string // the verdicts' thresholds, a sentence
}

// pageLink is a link to a file of the run.
type pageLink struct{ Name, Href string }

type pageUnit struct {
	Label, Anchor string
	Status        string
	Calls, Time   string
	XCalls, XTime string
	Rank          int
	// The numbers the sortable tables sort by: calls, ns, the multiples.
	CallsV, NSV, XCallsV, XTimeV string
	// Variants is the unit's verdict of the hard-or-unlucky analysis
	// (RankedUnit.Variants), VariantsClass its CSS class; "" when not
	// analysed.
	Variants, VariantsClass string
	// Tied says with how many others the unit shares its rank by time:
	// "238 others"; "".
	Tied string
}

type pageHardest struct {
	Solver          string
	ByCalls, ByTime []pageUnit
	TimeNote        string // which units the list by time ranks
	Variants        string // what the analysis found of the strategy: "3 hard, 5 unlucky, 2 typical of 10"; ""
	Symbols         string // the lists' symbols explained
}

// pageRow is a row of a summary table: a label and a cell per column.
type pageRow struct {
	Label string
	Cells []pageCell
}

// pageCell is a figure, with its spread and the interval the spread is
// of (shown on hover) when it has one.
type pageCell struct {
	Value, Spread, Interval string
	Anchor                  string // the puzzle Value names (linkCells); ""
}

// pageRows returns rows for the page.
func pageRows(rows []tableRow) []pageRow {
	out := make([]pageRow, len(rows))
	for i, r := range rows {
		out[i].Label = r.Label
		for j, v := range r.Cells {
			c := pageCell{Value: v}
			if r.Spread != nil {
				c.Spread = r.Spread[j]
				c.Interval = "95% confidence interval: " + r.Interval[j]
			}
			out[i].Cells = append(out[i].Cells, c)
		}
	}
	return out
}

type pageSeveral struct {
	Label, Anchor string
	ID            int
	HardFor       string
	GeoMean       string
	GeoMeanV      string
}

type pageChart struct {
	Chart
	Src, SVGSrc string
	SmallSrc    string // the small PNG, for a small screen; ""
	Name        string // the file's name without its extension: the anchor chart-NAME
	Lead        string // the caption's first clause, under the thumbnail
	Short       string // the title without what every chart of the run shares (" — corpus, run, puzzles")
}

type pagePuzzle struct {
	Label, Anchor string
	Symbols       string         // the ranks table's symbols explained; ""
	Nights        []HistoryNight // the earlier nights History's cells are of
	Rule          string         // the hard-or-unlucky verdicts' thresholds, a sentence
	Line          int
	Givens        string
	Box           int           // the grid's box size (3 for 9x9)
	Bands         [][][]string  // the grid drawn as a table (gridBands); nil when its corpus cannot be read
	Ranks         []pageRank    // one per strategy, in Solvers order
	History       []historyRow  // a row per strategy; nil without earlier nights
	Show          string        // the batch show command; ""
	Variants      []pageVariant // the hard-or-unlucky analysis, per strategy analysed; nil when none
}

func pageUnitOf(u RankedUnit, rank int) pageUnit {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	return pageUnit{
		Label: u.Puzzle.Label, Anchor: anchor(u.Puzzle), Status: u.Status.String(), Rank: rank,
		Calls: unitValue(u, float64(u.Calls), fmtCount), Time: unitTime(u),
		XCalls: unitValue(u, u.XMedianCalls, fmtMultiple), XTime: unitValue(u, u.XMedianTime, fmtMultiple),
		CallsV: strconv.FormatUint(u.Calls, 10), NSV: strconv.FormatInt(u.NS, 10), XCallsV: num(u.XMedianCalls), XTimeV: num(u.XMedianTime),
		Variants: u.Variants, VariantsClass: verdictClass(u.Variants), Tied: tiedText(u.TiedTime),
	}
}

// tiedText is how many others share a rank: "238 others"; "" for none.
func tiedText(tied int) string {
	if tied < 2 {
		return ""
	}
	return Count(tied-1, "other", "others")
}
