package history

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTextAndPageShareTheirCells: trend's terminal text and the history
// page (and trend.md, which shows the page's cells) show a night's date
// in UTC and its other work's share alike, whatever zone the night's
// start was read in: a run.json may write its start with an offset.
func TestTextAndPageShareTheirCells(t *testing.T) {
	s := Group(synthNights(10, []string{"norvig", "dlx", "bitboard"}, slowDLX))[0]
	east := time.FixedZone("UTC+2", 2*3600)
	for _, n := range s.Nights {
		n.Start = n.Start.In(east) // 23:05 UTC is 01:05 the next day here
	}
	share := 0.1234
	s.Nights[8].OtherShare = &share
	r := synthReport(s, "known")
	var b bytes.Buffer
	if err := WriteText(&b, "root", &Refresh{}, &History{Series: []*Series{s}}, []*Report{r}, 0); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	views := nightViews("root", s, r)
	if len(views) != len(s.Nights) {
		t.Fatalf("%d night views, want %d", len(views), len(s.Nights))
	}
	for _, v := range views {
		line := regexp.MustCompile(`(?m)^  \d+ .* ` + regexp.QuoteMeta(v.Run) + `$`).FindString(text)
		if !strings.Contains(line, v.Date) {
			t.Errorf("night %s: the text's row %q lacks the page's date %q", v.Run, line, v.Date)
		}
		if v.Other != "–" && !strings.Contains(line, v.Other) {
			t.Errorf("night %s: the text's row %q lacks the page's share %q", v.Run, line, v.Other)
		}
	}
	if !strings.Contains(text, "newest night n10 (2026-11-10,") {
		t.Errorf("the text's newest night is not dated in UTC:\n%s", text)
	}
	if !strings.Contains(text, "from night 7 (n7, 2026-11-07,") {
		t.Errorf("the text's step is not dated in UTC:\n%s", text)
	}
}
