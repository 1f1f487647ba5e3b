package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Hostile text, as a results.csv or a run.json may hold it: HTML, links,
// code spans, emphasis, table pipes (escaped or not), entities, line
// breaks that would start a heading or a table row.
const (
	hostileCorpus = "<script>alert(1)</script>|a`b`[x](javascript:alert(1))\n# h1 & *b* _i_ ~~s~~ $m$ \\|.txt"
	hostilePath2  = "data/<img src=x onerror=alert(2)>.txt"
	hostileError  = "<img src=x onerror=alert(3)> | line\r\n| x | y |\n[x](javascript:alert(4)) &lt;b&gt;"
)

var hostileSolvers = []string{"<img src=x onerror=alert(5)>", "ev|il\n|x|`code`\\|", "[x](javascript:alert(6))&amp;*b*"}

// hostileRun returns the results of three strategies with hostile names
// over the given corpora (puzzle 119 hard for all, one unit stopped by a
// limit), and a run.json whose texts are hostile too.
func hostileRun(corpora ...string) (*Results, *rundir.Manifest) {
	res := &Results{Corpora: corpora}
	for si, name := range hostileSolvers {
		for id := range 120 {
			e := Entry{ID: int32(id), Line: int32(id + 1), Status: solvers.StatusSolved,
				NS: int64(1000 * (id + 1 + si)), Calls: uint64(id + 1), Guesses: uint64(id)}
			if id == 119 {
				e.Calls, e.NS = 1e6, 1e9
			}
			if id == 118 && si == 1 {
				e.Status = solvers.StatusLimit
			}
			res.Add(name, e)
			if len(corpora) > 1 {
				e.Corpus = 1
				res.Add(name, e)
			}
		}
	}
	m := &rundir.Manifest{RunID: "<b>run</b>`x`|y", Status: "failed<script>", DurationNS: 1e9,
		Settings: rundir.Settings{Solvers: hostileSolvers, TimeoutNS: 1, Timeout: "<i>1s</i>|", Seed: 1,
			Range: "|a|b|", Shard: "[s](javascript:alert(7))", Corpora: corpora},
		Segments: []rundir.Segment{{Workers: 2, Machine: rundir.Machine{GOOS: "<os>", GOARCH: "|",
			CPU: "<cpu>\n# x", GoVersion: "`go`", Version: "v<1>&"}}}}
	for _, c := range corpora {
		m.Corpora = append(m.Corpora, rundir.CorpusInfo{Path: c, SHA256: "<sha>", Puzzles: 120})
	}
	m.Corpora[0].Error = hostileError // shown on the corpus line
	return res, m
}

// pipes counts the cell separators of a table line: the pipes not
// escaped by a backslash.
func pipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// ownCode are the code spans summary.md writes itself.
var ownCode = regexp.MustCompile("`(-timeout|-timeout 0|-max-calls|error|20261121-120000)`")

// checkMarkdown checks that a summary.md shows no markup of its input:
// no raw <, every & an entity this escaping wrote, every [ and backtick
// escaped but those of its own code spans, every table with the same
// number of cells on each line, and no heading but its own.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	if i := strings.IndexByte(md, '<'); i >= 0 {
		t.Errorf("a raw < in summary.md: %q", md[max(i-40, 0):min(i+40, len(md))])
	}
	if strings.Contains(md, "javascript:alert(") && regexp.MustCompile(`[^\\]\[[^\]]*\]\(javascript`).MatchString(md) {
		t.Errorf("a link to javascript: in summary.md")
	}
	if strings.Contains(regexp.MustCompile(`&(lt|gt|amp);`).ReplaceAllString(md, ""), "&") {
		t.Errorf("a raw & in summary.md")
	}
	rest := ownCode.ReplaceAllString(md, "")
	seen := map[byte]bool{}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; c {
		case '\\':
			i++
		case '[', '`', '~', '$':
			if !seen[c] {
				seen[c] = true
				t.Errorf("an unescaped %q in summary.md: %q", c, rest[max(i-40, 0):min(i+40, len(rest))])
			}
		}
	}
	cols, tables := -1, 0
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = -1
			if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "# Summary of ") &&
				!strings.HasPrefix(line, "## ") && !strings.HasPrefix(line, "### ") {
				t.Errorf("a heading from the input: %.120q", line)
			}
			continue
		}
		if !strings.HasSuffix(line, " |") {
			t.Errorf("a table line cut: %.120q", line)
		}
		if cols < 0 {
			cols = pipes(line)
			tables++
		} else if n := pipes(line); n != cols {
			t.Errorf("a table line with %d cells, not %d: %.120q", n-1, cols-1, line)
		}
	}
	if tables != 10 { // strategies, intervals, 2 per strategy, several, highlighted
		t.Errorf("%d tables in summary.md, want 10:\n%s", tables, md)
	}
}

// TestSummaryEscapesHostileText renders summary.md for runs whose
// corpus paths, strategy names, corpus error and run.json texts are
// hostile, with one corpus and with two (puzzle labels then hold the
// corpus path), and checks that none of it is markup in the output.
func TestSummaryEscapesHostileText(t *testing.T) {
	for _, corpora := range [][]string{{hostileCorpus}, {hostileCorpus, hostilePath2}} {
		res, m := hostileRun(corpora...)
		s := Summarize(res, SummaryOptions{Top: 3, Highlight: []int{119, 118}, Manifest: m})
		var b bytes.Buffer
		if err := s.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		checkMarkdown(t, md)
		for _, want := range []string{
			"### &lt;img src=x onerror=alert(5)&gt;\n",
			"### ev\\|il \\|x\\|\\`code\\`\\\\\\|\n",
			"### \\[x\\](javascript:alert(6))&amp;amp;\\*b\\*\n",
			"Run &lt;b&gt;run&lt;/b&gt;\\`x\\`\\|y, failed&lt;script&gt;,",
			"not read to its end: &lt;img src=x onerror=alert(3)&gt; \\| line \\| x \\| y \\| \\[x\\](javascript:alert(4)) &amp;lt;b&amp;gt;.",
		} {
			if !strings.Contains(md, want) {
				t.Errorf("%d corpora: summary.md has no %q:\n%s", len(corpora), want, md)
			}
		}
		if len(corpora) == 1 && !strings.Contains(md, "# Summary of &lt;script&gt;alert(1)&lt;/script&gt;\\|a\\`b\\`\\[x\\](javascript:alert(1)) # h1 &amp; \\*b\\* \\_i\\_ \\~\\~s\\~\\~ \\$m\\$ \\\\\\|.txt\n") {
			t.Errorf("title not escaped:\n%s", md)
		}
	}
}

// TestSummaryOrdinaryTextUnchanged: text with nothing to escape is written
// as it is, a plain run id and corpus path as code.
func TestSummaryOrdinaryTextUnchanged(t *testing.T) {
	for _, s := range []string{"data/sudoku17.txt", "bitboard", "#39949", "a.txt#12", "AMD EPYC 7B13 (64-Core)", "≥1.20 ms", "44.6%"} {
		if got := mdText(s); got != s {
			t.Errorf("mdText(%q) = %q", s, got)
		}
	}
	if got := mdCode("20261121-230501"); got != "`20261121-230501`" {
		t.Errorf("mdCode = %q", got)
	}
}

// TestHardCSVEscapesFormulas: hard.csv cells that a spreadsheet would run as a
// formula (corpus, strategy) get a single quote in front.
func TestHardCSVEscapesFormulas(t *testing.T) {
	corpus := `=HYPERLINK("http://evil.example","x")`
	var us []unit
	for _, solver := range []string{"@SUM(1)", "-2+3", "+x", "\t=1", "-"} {
		for i := range 200 {
			us = append(us, unit{solver, i, solvers.StatusSolved, int64(i + 1), uint64(i + 1), 0})
		}
	}
	res := mkResults(us...)
	res.Corpora[0] = corpus
	recs := hardRecords(t, Summarize(res, SummaryOptions{}))
	if len(recs) != 1+5*2 {
		t.Fatalf("%d records, want 11: %q", len(recs), recs)
	}
	solverCells := map[string]bool{}
	for _, rec := range recs[1:] {
		for j, cell := range rec {
			if len(cell) > 1 && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("column %s: cell %q runs as a formula", HardCSVHeader[j], cell)
			}
		}
		if rec[0] != "'"+corpus {
			t.Errorf("corpus cell %q, want %q", rec[0], "'"+corpus)
		}
		solverCells[rec[3]] = true
	}
	for _, want := range []string{"'@SUM(1)", "'-2+3", "'+x", "'\t=1", "-"} {
		if !solverCells[want] {
			t.Errorf("no solver cell %q in %v", want, solverCells)
		}
	}
}
