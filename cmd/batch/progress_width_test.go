package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestBarLineFitsTheWidth: the bar's line is at most width-1 columns for
// every terminal width, count and total (unknown, small, the size of ten
// corpora), and keeps the count while there is room for it.
func TestBarLineFitsTheWidth(t *testing.T) {
	for _, tc := range []struct{ done, total int }{
		{0, -1}, {123456, -1}, {0, 40000}, {17408, 40000}, {491510, 491510}, {4, 3}, {9_999_999, 10_000_000},
	} {
		for width := 1; width <= 200; width++ {
			line := barLine(tc.done, tc.total, 83*time.Second, width)
			if n := utf8.RuneCountInString(line); n > max(width-1, 1) {
				t.Fatalf("%d of %d units at width %d: %d columns: %q", tc.done, tc.total, width, n, line)
			}
			if width >= 40 && !strings.Contains(line, "units") {
				t.Errorf("%d of %d units at width %d: no count: %q", tc.done, tc.total, width, line)
			}
		}
	}
	if line := barLine(17408, 40000, 2*time.Second, 80); !strings.Contains(line, "|") || !strings.Contains(line, "(17408/40000, 8704 units/s) [2s:3s]") {
		t.Errorf("at 80 columns the bar lacks the bar or the words: %q", line)
	}
}

// TestProgressFitsNarrowTerminal: in a terminal of 40 or 60 columns, with
// the results on the terminal or redirected, no line the bar draws is as
// wide as the terminal. Before, the bar took its width from standard
// output (80 when redirected) and its words did not shrink: its 79
// columns wrapped in 60, and each redraw, going back to the start of the
// last row only, scrolled the screen. Through script(1): the width is a
// terminal's.
func TestProgressFitsNarrowTerminal(t *testing.T) {
	needsBinary(t)
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is missing (Debian package bsdutils)")
	}
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, 2000))
	erase := regexp.MustCompile(`\x1b\[K`)
	for _, tc := range []struct {
		cols     int
		redirect string
	}{{40, ""}, {60, " >/dev/null"}} {
		out := filepath.Join(dir, "run"+strconv.Itoa(tc.cols))
		cmd := exec.Command("script", "-qec", "stty cols "+strconv.Itoa(tc.cols)+"; "+batchBin+
			" -solvers norvig,bitboard -report=false -out "+out+" "+corpus+tc.redirect, "/dev/null")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		drawn := 0
		for _, seg := range regexp.MustCompile(`[\r\n]`).Split(erase.ReplaceAllString(string(b), ""), -1) {
			if !strings.HasPrefix(seg, "units") {
				continue
			}
			drawn++
			if n := utf8.RuneCountInString(seg); n >= tc.cols {
				t.Errorf("%d columns%s: a line of %d columns: %q", tc.cols, tc.redirect, n, seg)
			}
		}
		if drawn == 0 {
			t.Errorf("%d columns%s: no bar drawn:\n%q", tc.cols, tc.redirect, b)
		}
	}
}
