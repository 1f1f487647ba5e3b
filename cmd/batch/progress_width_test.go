package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestProgressFitsNarrowTerminal: in a terminal of 40 or 60 columns, with
// the results on the terminal or redirected, no line the bar draws is as
// wide as the terminal, and in 60 columns no line the sweep prints is
// wider (the table of statuses split into blocks, the sentences folded).
// Before, the bar took its width from standard output (80 when
// redirected) and its words did not shrink: its 79 columns wrapped in
// 60, and each redraw, going back to the start of the last row only,
// scrolled the screen; and the sweep's lines were up to 182 columns
// wide. Through script(1): the width is a terminal's.
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
	}{{40, " >/dev/null"}, {60, ""}} {
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
		if tc.redirect == "" {
			if over := overWidth(string(b), tc.cols); len(over) > 0 {
				t.Errorf("%d columns: lines wider:\n%s\n\nall of it:\n%s", tc.cols, strings.Join(over, "\n"), b)
			}
		}
	}
}
