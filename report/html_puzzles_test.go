package report

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// puzzleLine is a 17-clue puzzle: every line of the crafted corpus.
const puzzleLine = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

// craftedPage renders the pages of a small run whose ranks are known:
// dlx over six puzzles (one an error, one a timeout; #2 and #3 tie on
// time) and norvig over the same six, #3 and #4 highlighted. It returns
// the run's page and its puzzles page, the two one after the other.
func craftedPage(t *testing.T, opt PageOptions) (string, *Summary) {
	index, puzzles, s := craftedPages(t, opt)
	return index + puzzles, s
}

// craftedPages is craftedPage with the two pages apart.
func craftedPages(t *testing.T, opt PageOptions) (index, puzzles string, s *Summary) {
	t.Helper()
	t.Chdir(t.TempDir())
	corpus := "c.txt"
	if err := os.WriteFile(corpus, []byte(strings.Repeat(puzzleLine+"\n", 6)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ReadResults(context.Background(), strings.NewReader(craftedRows(corpus)), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s = Summarize(res, SummaryOptions{Top: 2, Highlight: []int{3, 4}})
	opt.Corpora = []string{corpus}
	index, puzzles = renderPages(t, res, s, opt)
	return index, puzzles, s
}

// craftedRows is the crafted run's results.csv, its rows naming corpus.
func craftedRows(corpus string) string {
	lines := []string{strings.Join(rundir.Header[:15], ",")}
	for _, r := range []string{
		"0,1,dlx,solved,5000,50", "1,2,dlx,solved,1000,10", "2,3,dlx,solved,3000,90",
		"3,4,dlx,solved,3000,20", "4,5,dlx,error,7,0", "5,6,dlx,timeout,9000,70",
		"0,1,norvig,solved,100,1", "1,2,norvig,solved,200,2", "2,3,norvig,solved,300,3",
		"3,4,norvig,solved,400,4", "4,5,norvig,solved,500,5", "5,6,norvig,solved,600,6",
	} {
		msg := ""
		if strings.Contains(r, "error") {
			msg = "boom"
		}
		lines = append(lines, r+",0,0,64,17,,1,,"+msg+","+corpus)
	}
	return strings.Join(lines, "\n") + "\n"
}

// puzzleSection returns the entry of the puzzle with the given anchor.
func puzzleSection(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<section class="puzzle" id="` + id + `">.*?</section>`).FindString(page)
	if m == "" {
		t.Fatalf("no puzzle entry %s on the page", id)
	}
	return m
}

// TestPuzzleRanksOnCraftedRun: each strategy's rank of a named puzzle by
// time and by calls among its measured units, ties sharing the best
// rank, an error unit unranked and not counted.
func TestPuzzleRanksOnCraftedRun(t *testing.T) {
	page, _ := craftedPage(t, PageOptions{RunDir: "results/x"})
	p3 := puzzleSection(t, page, "p-3")
	for _, want := range []string{
		`<td class="text">dlx</td><td class="text st-solved">solved</td><td data-v="3000">3.00µs</td><td data-v="3">3rd of 5<small class="tie">tied with 1 other</small></td><td data-v="20">20</td><td data-v="4">4th of 5</td>`,
		`<td class="text">norvig</td><td class="text st-solved">solved</td><td data-v="400">400ns</td><td data-v="3">3rd of 6</td><td data-v="4">4</td><td data-v="3">3rd of 6</td>`,
	} {
		if !strings.Contains(p3, want) {
			t.Errorf("#3's entry lacks %q:\n%s", want, p3)
		}
	}
	p2 := puzzleSection(t, page, "p-2")
	if !strings.Contains(p2, `<td data-v="3">3rd of 5<small class="tie">tied with 1 other</small></td><td data-v="90">90</td><td data-v="1">1st of 5</td>`) {
		t.Errorf("#2 (tied with #3 on time, the most calls) is not 3rd by time and 1st by calls:\n%s", p2)
	}
	p5 := puzzleSection(t, page, "p-5")
	if !strings.Contains(p5, `<td class="text st-timeout">timeout</td><td data-v="9000">≥9.00µs</td><td data-v="1">1st of 5</td>`) {
		t.Errorf("#5 (stopped) does not rank 1st by time at its lower bound:\n%s", p5)
	}
	p4 := puzzleSection(t, page, "p-4")
	if !strings.Contains(p4, `<td class="text">dlx</td><td class="text st-error">error</td><td data-v="7">7.00ns</td><td>–</td>`) {
		t.Errorf("#4 (an error) has a rank:\n%s", p4)
	}
	// The highlight section says where each highlighted puzzle ranks.
	hl := page[strings.Index(page, `<h2 id="highlight">`):strings.Index(page, `<h2 id="several">`)]
	for _, want := range []string{`<section class="puzzle" id="p-3">`, `<a href="#p-3">#3</a>`, `<a href="#p-4">#4</a>`, "3rd of 6", "4th of 5"} {
		if !strings.Contains(hl, want) {
			t.Errorf("the highlight section lacks %q:\n%s", want, hl)
		}
	}
}

// TestEveryPuzzleNamedHasItsEntry: every puzzle the run's page names
// has an entry, on the page itself when highlighted, else on the
// puzzles page; every link to a puzzle has its target, and no "#id" of
// the run is left as text without a link.
func TestEveryPuzzleNamedHasItsEntry(t *testing.T) {
	index, puzzles, s := craftedPages(t, PageOptions{})
	idsOf := func(page string) map[string]bool {
		ids := map[string]bool{}
		for _, m := range regexp.MustCompile(`\sid="([^"]+)"`).FindAllStringSubmatch(page, -1) {
			if ids[m[1]] {
				t.Errorf("id %s twice on a page", m[1])
			}
			ids[m[1]] = true
		}
		return ids
	}
	here, there := idsOf(index), idsOf(puzzles)
	for _, r := range s.NamedPuzzles() {
		if !there[anchor(r)] {
			t.Errorf("%s is named but has no entry %s on the puzzles page", r.Label, anchor(r))
		}
	}
	for _, a := range []string{"p-3", "p-4"} {
		if !here[a] {
			t.Errorf("highlighted %s has no entry on the run's page", a)
		}
	}
	local := regexp.MustCompile(`href="#(p-[^"]*)"`).FindAllStringSubmatch(index, -1)
	far := regexp.MustCompile(`href="puzzles.html#(p-[^"]*)"`).FindAllStringSubmatch(index, -1)
	if len(local)+len(far) < 5 || len(far) == 0 {
		t.Fatalf("%d puzzle links on the page and %d to the puzzles page, want the hardest lists', the several's and the highlights'", len(local), len(far))
	}
	for _, m := range local {
		if !here[m[1]] {
			t.Errorf("link #%s has no target on the page", m[1])
		}
	}
	for _, m := range far {
		if !there[m[1]] {
			t.Errorf("link puzzles.html#%s has no target there", m[1])
		}
	}
	for _, page := range []string{index, puzzles} {
		if bad := unlinkedIDs(page); len(bad) > 0 {
			t.Errorf("puzzle ids as text, not links: %q", bad)
		}
	}
}

// unlinkedIDs returns the "#id" texts of page outside a link to a
// puzzle, code, and the line of highlighted ids not in the run.
func unlinkedIDs(page string) []string {
	for _, re := range []string{`(?s)<a href="(puzzles.html)?#p-[^"]*">.*?</a>`, `(?s)<style>.*?</style>`, `(?s)<code>.*?</code>`,
		`Highlighted but not in this run: [^<]*`, `<[^>]*>`, `&#\d+;`} {
		page = regexp.MustCompile(re).ReplaceAllString(page, " ")
	}
	return regexp.MustCompile(`#\d+`).FindAllString(page, -1)
}

// TestPuzzleGridHasTheGivens: the grid is a 9x9 table of 81 cells with
// the givens where the corpus has them, in three bands of three boxes.
func TestPuzzleGridHasTheGivens(t *testing.T) {
	page, _ := craftedPage(t, PageOptions{})
	grid := regexp.MustCompile(`(?s)<table class="sudoku"[^>]*>(.*?)</table>`).FindStringSubmatch(puzzleSection(t, page, "p-3"))
	if grid == nil {
		t.Fatal("#3 has no grid")
	}
	cells := regexp.MustCompile(`<td>([1-9]?)</td>`).FindAllStringSubmatch(grid[1], -1)
	if len(cells) != 81 || strings.Count(grid[1], "<td") != 81 {
		t.Fatalf("the grid has %d cells, want 81:\n%s", len(cells), grid[1])
	}
	var got strings.Builder
	for _, c := range cells {
		if c[1] == "" {
			c[1] = "0"
		}
		got.WriteString(c[1])
	}
	if got.String() != puzzleLine {
		t.Errorf("the grid reads\n%s, want\n%s", got.String(), puzzleLine)
	}
	if n, m := strings.Count(grid[1], `<colgroup span="3">`), strings.Count(grid[1], "<tbody>"); n != 3 || m != 3 {
		t.Errorf("%d stacks and %d bands of boxes, want 3 and 3", n, m)
	}
	if !strings.Contains(page, "table.sudoku { border: 2px solid") || !strings.Contains(page, "font: bold") {
		t.Error("the page does not draw the boxes' borders or the givens in bold")
	}
}

// TestPuzzleShowCommand: each entry prints the batch show command of
// its puzzle in the run, with the run's strategies and limits; none
// without the run's directory.
func TestPuzzleShowCommand(t *testing.T) {
	page, _ := craftedPage(t, PageOptions{RunDir: "results/a b"})
	want := `Run it again: <code>batch show 3 -run &#39;results/a b&#39; -solvers dlx,norvig</code>`
	if !strings.Contains(puzzleSection(t, page, "p-3"), want) {
		t.Errorf("#3's entry lacks %q", want)
	}
	page, _ = craftedPage(t, PageOptions{})
	if strings.Contains(page, "Run it again") {
		t.Error("a command without the run's directory")
	}
}

// TestPuzzleHistoryTable: the earlier nights' times of a named puzzle,
// per strategy, beside this run's, "–" where a night has no row.
func TestPuzzleHistoryTable(t *testing.T) {
	h := &PuzzleHistory{Series: "c.txt@abc", Nights: []HistoryNight{
		{RunID: "n1", Date: "11-24 23:00", Href: "../n1/index.html"}, {RunID: "n2", Date: "11-25 23:00", Note: "rows not read"}}}
	c := "c.txt"
	h.Units = []HistoryUnit{
		{Night: 0, Corpus: c, ID: 3, Solver: "dlx", Status: solvers.StatusSolved, NS: 2500, Calls: 20},
		{Night: 0, Corpus: c, ID: 3, Solver: "norvig", Status: solvers.StatusTimeout, NS: 1e8, Calls: 7},
		{Night: 1, Corpus: "other.txt", ID: 3, Solver: "dlx", Status: solvers.StatusSolved, NS: 1, Calls: 1},
	}
	page, _ := craftedPage(t, PageOptions{PuzzleHistory: h})
	p3 := puzzleSection(t, page, "p-3")
	for _, want := range []string{`<table class="history">`, `<th>11-24 23:00</th><th>11-25 23:00</th><th>this run</th>`,
		`<td class="text">dlx</td><td title="20 calls">2.50µs</td><td title="no row that night">–</td><td title="20 calls">3.00µs</td>`,
		`<td class="st-timeout" title="timeout, 7 calls">≥100ms</td>`} {
		if !strings.Contains(p3, want) {
			t.Errorf("#3's entry lacks %q:\n%s", want, p3)
		}
	}
	if strings.Contains(puzzleSection(t, page, "p-2"), `class="history"`) {
		t.Error("#2, on no earlier night, has a history")
	}
	if !strings.Contains(page, `<a href="../n1/index.html">11-24 23:00</a>, 11-25 23:00 (rows not read)`) {
		t.Error("the puzzle section does not name the earlier nights")
	}
}

// TestPuzzleAnchorsNeverMeet: anchors are of letters, digits, "-" and
// "_" only, and labels that differ have anchors that differ.
func TestPuzzleAnchorsNeverMeet(t *testing.T) {
	seen := map[string]string{}
	for _, label := range []string{"#12", "#1", "12#0", "a.txt#12", "a-txt#12", "a txt#12", "a_txt#12", "a_2etxt#12",
		"a#1#2", "a-1#2", `<"x">#3`, "été.txt#4"} {
		a := anchor(PuzzleRef{Label: label})
		if !regexp.MustCompile(`^p-[A-Za-z0-9_-]+$`).MatchString(a) {
			t.Errorf("anchor of %q is %q", label, a)
		}
		if other, ok := seen[a]; ok {
			t.Errorf("%q and %q share the anchor %q", label, other, a)
		}
		seen[a] = label
	}
	if a := anchor(PuzzleRef{Label: "#39949"}); a != "p-39949" {
		t.Errorf("anchor of #39949 is %q, want p-39949", a)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th",
		21: "21st", 22: "22nd", 101: "101st", 111: "111th", 49151: "49151st"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestUnstableAndSolutionPuzzlesHaveEntries: the unstable units' puzzles
// and those -unique found with two solutions are links with their
// entries, like every other puzzle named.
func TestUnstableAndSolutionPuzzlesHaveEntries(t *testing.T) {
	res := timedRun(true)
	p, _ := res.puzzleAt(0, 4)
	res.setSolutions(p, 2)
	s := Summarize(res, SummaryOptions{Top: 1})
	index, puzzles := renderPages(t, res, s, PageOptions{})
	for _, id := range []string{"p-3", "p-7", "p-12", "p-4"} {
		if !strings.Contains(index, `href="puzzles.html#`+id+`"`) || !strings.Contains(puzzles, `<section class="puzzle" id="`+id+`">`) {
			t.Errorf("%s is not a link with its entry", id)
		}
	}
	for _, page := range []string{index, puzzles} {
		if bad := unlinkedIDs(page); len(bad) > 0 {
			t.Errorf("puzzle ids as text, not links: %q", bad)
		}
	}
}
