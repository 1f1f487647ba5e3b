package progress

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestBarLineFitsTheWidth: the line this code draws where the library's
// bar does not fit is at most width-1 columns for every terminal width,
// count and total (unknown, small, the size of ten corpora), and keeps
// the count while there is room for it.
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
}

// TestBarDrawnByTheLibraryFits drives the display with progressbar/v3
// drawing, in terminals of 20 to 200 columns, over a run of 294,906
// units (a default sweep) that the display learns the total of after
// its first units, and through a resize from 120 to 50 columns: every
// line drawn is under the terminal's width, the library draws the bar
// from 26 columns on (at 80: the count and the times, the bar in the
// columns they leave), and this code the line below that.
func TestBarDrawnByTheLibraryFits(t *testing.T) {
	const total = 294_906
	// draw returns the lines drawn from step from on, the terminal
	// widths(i) columns wide at step i.
	draw := func(widths func(i int) int, from int) []string {
		var out syncBuffer
		i := 0
		p := newBar(&out, func() int { return widths(i) }, time.Now().Add(-time.Minute))
		mark := 0
		for i = range 150 {
			if i == 3 {
				p.SetTotal(total)
			}
			if i == from {
				mark = len(out.String())
			}
			p.mu.Lock()
			p.measured = time.Time{} // ask the width at every call
			p.mu.Unlock()
			p.Add(737)
			time.Sleep(time.Millisecond)
		}
		p.Finish()
		var lines []string
		for _, seg := range regexp.MustCompile(`[\r\n]`).Split(regexp.MustCompile(`\x1b\[K`).ReplaceAllString(out.String()[mark:], ""), -1) {
			if seg != "" {
				lines = append(lines, seg)
			}
		}
		return lines
	}
	const libraryFrom = 26 // "units  43% |", 10 columns of bar, "| " and a space
	for _, width := range []int{20, 25, 26, 30, 41, 50, 60, 80, 120, 200} {
		lines := draw(func(int) int { return width }, 0)
		if len(lines) == 0 {
			t.Fatalf("%d columns: nothing drawn", width)
		}
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n >= width {
				t.Errorf("%d columns: a line of %d: %q", width, n, l)
			}
		}
		last := lines[len(lines)-1]
		if library := strings.Contains(last, "|"); library != (width >= libraryFrom) {
			t.Errorf("%d columns: drawn by the library %v, want %v: %q", width, library, width >= libraryFrom, last)
		}
		if width == 80 && !regexp.MustCompile(`^units +\d+% \|█* *\| \(\d+/294906\) \[[0-9hms]+:[0-9hms]+\]$`).MatchString(last) {
			t.Errorf("80 columns: not the percentage, the bar, the count and the times: %q", last)
		}
	}
	// Resized from 120 to 50 columns: the lines after it fit 50.
	lines := draw(func(i int) int {
		if i < 75 {
			return 120
		}
		return 50
	}, 75)
	if len(lines) == 0 {
		t.Fatal("nothing drawn after the resize")
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n >= 50 {
			t.Errorf("after the resize to 50 columns: a line of %d: %q", n, l)
		}
	}
}
