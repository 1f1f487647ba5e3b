package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// craftedVariants is an analysis of the crafted run of craftedPage: dlx
// on #2 (hard) and norvig on #5 (unlucky, under seeds), nothing else.
func craftedVariants() *rundir.Variants {
	dist := rundir.Dist{N: 10, Median: 400, Q1: 300, Q3: 500, P90: 700, Max: 900}
	return &rundir.Variants{
		Settings: rundir.VariantSettings{N: 10, Seeds: 3, HardFactor: 10, UnluckyPct: 90, UnluckyFactor: 4},
		Units:    44, ElapsedNS: 2e9,
		Analyses: []rundir.VariantAnalysis{
			{Corpus: "c.txt", ID: 2, Solver: "dlx", Measure: "calls", Verdict: rundir.VerdictHard, CorpusMedian: 20, CorpusFrom: "run x",
				Original: rundir.VariantUnit{Transform: "id", Status: "solved", Calls: 90}, Calls: dist, Pct: 0, Ratio: 0.225},
			{Corpus: "c.txt", ID: 5, Solver: "norvig", Measure: "calls", Verdict: rundir.VerdictUnlucky, CorpusMedian: 3,
				Original: rundir.VariantUnit{Transform: "id", Status: "solved", Calls: 6}, Calls: rundir.Dist{N: 10, Median: 1, P90: 2, Max: 3},
				Pct: 100, Ratio: 6,
				Seeds: &rundir.SeedLuck{Original: []rundir.VariantUnit{{Status: "solved", Calls: 6}, {Status: "solved", Calls: 1}, {Status: "solved", Calls: 2}},
					Dist: rundir.Dist{N: 3, Median: 2}, Pct: 100, OrientationPct: 97}},
		},
	}
}

// craftedSummary summarises the crafted run's rows (craftedPage) and
// attaches v.
func craftedSummary(t *testing.T, v *rundir.Variants, opt PageOptions) (page, md, js string) {
	t.Helper()
	t.Chdir(t.TempDir())
	res, err := LoadRun(context.Background(), writeCraftedRows(t))
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res.Results, SummaryOptions{Top: 2, Highlight: []int{3, 4}})
	s.AttachVariants(v)
	index, puzzles := renderPages(t, res.Results, s, opt)
	var mb, jb bytes.Buffer
	if err := s.WriteMarkdown(&mb); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	return index + puzzles, mb.String(), jb.String()
}

// writeCraftedRows writes the crafted run's rows (as craftedPage reads
// them) to results.csv in the current directory and returns its path.
func writeCraftedRows(t *testing.T) string {
	t.Helper()
	if err := os.WriteFile(rundir.ResultsFile, []byte(craftedRows("c.txt")), 0o644); err != nil {
		t.Fatal(err)
	}
	return rundir.ResultsFile
}

// TestVariantsInTheReport checks that the verdicts of variants.json reach
// the hard lists of summary.md, summary.json and the page, linked to the
// puzzle's entry, which shows the figures and the strip chart; and that
// a puzzle not analysed, and a report without an analysis, show none.
func TestVariantsInTheReport(t *testing.T) {
	strip := Chart{File: StripFile(&rundir.VariantAnalysis{Corpus: "c.txt", ID: 2, Solver: "dlx"}), Title: "dlx strip", Kind: "strip"}
	page, md, js := craftedSummary(t, craftedVariants(), PageOptions{Strips: []Chart{strip}})

	for _, want := range []string{
		"| rank | puzzle | calls | × median | time | status | variants |",
		"| [hard](puzzles.html#p-2) |",
		"| [unlucky](puzzles.html#p-5) |",
		"## Hard or unlucky",
		"| dlx | 1 | 1 | 0 | 0 | 0 | 0 |",
		"| norvig | 1 | 0 | 1 | 0 | 0 | 0 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}

	var sj struct {
		Variants struct {
			Verdicts []VerdictCounts `json:"verdicts"`
		} `json:"variants"`
		Strategies []struct {
			Solver  string       `json:"solver"`
			ByCalls []RankedUnit `json:"hardest_by_calls"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal([]byte(js), &sj); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, st := range sj.Strategies {
		for _, u := range st.ByCalls {
			got[st.Solver+u.Puzzle.Label] = u.Variants
		}
	}
	if got["dlx#2"] != "hard" || got["norvig#5"] != "unlucky" || got["dlx#5"] != "" || got["norvig#4"] != "" {
		t.Errorf("summary.json verdicts by unit: %q", got)
	}
	if len(sj.Variants.Verdicts) != 2 || sj.Variants.Verdicts[0].Hard != 1 || sj.Variants.Verdicts[1].Unlucky != 1 {
		t.Errorf("summary.json verdict counts: %+v", sj.Variants.Verdicts)
	}

	if !strings.Contains(page, `<th class="text">variants</th>`) || !strings.Contains(page, `<td class="text v-hard"><a href="puzzles.html#p-2">hard</a></td>`) {
		t.Error("the page's hard lists have no verdict linked to its puzzle")
	}
	p2 := puzzleSection(t, page, "p-2")
	for _, want := range []string{"Hard or unlucky", ">hard<", ">90<", "×0.225", `<td title="from run x">20</td>`, "<td>200</td>", `src="charts/` + strip.File + `"`} {
		if !strings.Contains(p2, want) {
			t.Errorf("entry of #2 lacks %q:\n%s", want, p2)
		}
	}
	if strings.Contains(p2, "norvig: ") {
		t.Errorf("entry of #2 shows norvig, which was not analysed on it:\n%s", p2)
	}
	p5 := puzzleSection(t, page, "p-5")
	if !strings.Contains(p5, "under 3 seeds") || strings.Contains(p5, "<img") {
		t.Errorf("entry of #5: no seed luck, or an image with no strip drawn:\n%s", p5)
	}
	if p4 := puzzleSection(t, page, "p-4"); strings.Contains(p4, "Hard or unlucky") {
		t.Errorf("entry of #4, not analysed, shows an analysis:\n%s", p4)
	}

	// Without an analysis: no column, no section, no key.
	plain, s := craftedPage(t, PageOptions{})
	var mb, jb bytes.Buffer
	if err := s.WriteMarkdown(&mb); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, ">variants<") || strings.Contains(plain, "Hard or unlucky") ||
		strings.Contains(mb.String(), "variants") || strings.Contains(jb.String(), `"variants"`) {
		t.Error("a report without variants.json speaks of variants")
	}
}
