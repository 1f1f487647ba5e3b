package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

func TestPageEscapesInputAndLinksPuzzles(t *testing.T) {
	// A corpus name and an error message with markup, as a hostile input file would have.
	csv := strings.Join([]string{
		strings.Join(rundir.Header, ","),
		`0,1,norvig,solved,1000,1,0,0,64,17,,1,,,"<script>alert(1)</script>.txt"`,
		`1,2,norvig,invalid,0,0,0,0,0,0,,1,,"x.txt:2: bad symbol ""<b>""","<script>alert(1)</script>.txt"`,
		`2,3,norvig,solved,5000,9,8,3,64,17,,1,,,"<script>alert(1)</script>.txt"`,
	}, "\n") + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{Highlight: []int{2}})
	charts := []Chart{{File: "ecdf-time.png", Title: `time <"ECDF">`, Caption: "a & b", Kind: "ecdf-time"}}
	var b bytes.Buffer
	if err := renderPage(context.Background(), &b, res, s, PageOptions{Charts: charts}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<script>alert") || strings.Contains(page, `<"ECDF">`) {
		t.Fatal("input text reached the page unescaped")
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;.txt", `src="charts/ecdf-time.png"`, "a &amp; b", "Highlighted puzzles"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every link to a puzzle has its row in the puzzle table.
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<tr id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]] = true
	}
	links := regexp.MustCompile(`href="#(p-[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(links) == 0 {
		t.Fatal("no puzzle links")
	}
	for _, m := range links {
		if !ids[m[1]] {
			t.Errorf("link #%s has no row", m[1])
		}
	}
}

func TestWritePageWithGrids(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c.txt")
	os.WriteFile(corpus, []byte("000000010400000000020000000000050407008000300001090000300400200050100000000806000\n"), 0o644)
	csv := strings.Join(rundir.Header, ",") + "\n0,1,dlx,solved,1000,65,64,0,64,17,,1,,," + corpus + "\n"
	res, err := ReadResults(context.Background(), strings.NewReader(csv), "results.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(res, SummaryOptions{})
	if err := WritePage(context.Background(), dir, res, s, PageOptions{Corpora: []string{corpus}}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "| . . . | . . . | . 1 . |") {
		t.Errorf("the puzzle's grid is not on the page:\n%s", page)
	}
}
