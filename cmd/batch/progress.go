package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"sudokubatch/pipeline"
	"sudokubatch/report"
)

// display is the progress display of a sweep: the pipeline reports to it
// (pipeline.Progress), and whoever knows the number of units tells it the
// total, before, during or after the run, from any goroutine. Everything
// a display shows is created by newProgress, before the run can report
// to it; calls after Finish are ignored.
type display interface {
	pipeline.Progress
	SetTotal(total int) // units in the run; -1 while unknown
}

// newProgress returns the progress display for a run started now: a
// bar with rate and ETA fitted to the terminal's width when w is a
// terminal, a plain line every `every` otherwise. The total is unknown
// (-1) until SetTotal.
func newProgress(w io.Writer, terminal bool, every time.Duration) display {
	now := time.Now()
	if terminal {
		return newBar(w, terminalWidth(w), now)
	}
	return &lineProgress{w: w, every: every, total: -1, start: now, last: now}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth returns a function that gives the width of the terminal
// w is, in columns, asked again at each call (the terminal may be
// resized), or 80 when it cannot be known.
func terminalWidth(w io.Writer) func() int {
	f, ok := w.(interface{ Fd() uintptr })
	return func() int {
		if ok {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
		}
		return 80
	}
}

// barThrottle is the least time between two draws of the bar.
const barThrottle = 100 * time.Millisecond

// barProgress draws one line on a terminal, redrawn in place:
//
//	units  43% |████████              | (17408/40000, 28222 units/s) [1s:2s]
//
// (elapsed:ETA in the brackets; without a total, the count, the rate and
// the elapsed time). The line is fitted to the terminal's width at each
// draw: a line longer than the terminal wraps, and the next draw, which
// goes back to the start of its last row only, scrolls the screen. The
// bar takes the columns the words leave, and is dropped, then the words
// from the end, when too few are left.
type barProgress struct {
	w        io.Writer
	width    func() int // the terminal's columns
	mu       sync.Mutex
	total    int // -1 while unknown
	done     int
	start    time.Time
	drawn    time.Time // of the last draw; zero before the first
	finished bool
}

func newBar(w io.Writer, width func() int, start time.Time) *barProgress {
	return &barProgress{w: w, width: width, total: -1, start: start}
}

func (p *barProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

func (p *barProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done += n
	if now := time.Now(); p.drawn.IsZero() || now.Sub(p.drawn) >= barThrottle {
		p.drawn = now
		// \r goes back to the start of the line, \x1b[K clears what
		// a longer line before left to the right.
		fmt.Fprintf(p.w, "\r%s\x1b[K", barLine(p.done, p.total, now.Sub(p.start), p.width()))
	}
}

// Finish clears the bar's line and ends it.
func (p *barProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.finished = true
		if !p.drawn.IsZero() {
			fmt.Fprint(p.w, "\r\x1b[K")
		}
		fmt.Fprintln(p.w)
	}
}

// barLine returns the bar's line for done of total units (-1: unknown)
// after elapsed, in at most width-1 columns (a line that fills the last
// column leaves some terminals' cursor on the next row).
func barLine(done, total int, elapsed time.Duration, width int) string {
	cols := max(width-1, 1)
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	el := elapsed.Round(time.Second).String()
	if total <= 0 {
		return fitWords(cols, fmt.Sprintf("units %d", done), fmt.Sprintf("%.0f units/s", rate), el)
	}
	pct := 100 * min(done, total) / total
	eta := "?"
	if rate > 0 {
		eta = time.Duration(float64(max(total-done, 0)) / rate * float64(time.Second)).Round(time.Second).String()
	}
	head := fmt.Sprintf("units %3d%% ", pct)
	// The words after the bar, the longest first.
	tails := []string{
		fmt.Sprintf(" (%d/%d, %.0f units/s) [%s:%s]", done, total, rate, el, eta),
		fmt.Sprintf(" (%d/%d, %.0f units/s)", done, total, rate),
		fmt.Sprintf(" (%d/%d)", done, total),
	}
	const minBar = 10 // inner columns: fewer say nothing the percentage does not
	for _, tail := range tails {
		inner := cols - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail) - 2
		if inner >= minBar {
			full := inner * min(done, total) / total
			return head + "|" + strings.Repeat("█", full) + strings.Repeat(" ", inner-full) + "|" + tail
		}
	}
	return fitWords(cols, fmt.Sprintf("units %d%%", pct), fmt.Sprintf("%d/%d", done, total), eta+" left")
}

// fitWords joins words with commas, leaving out words from the end until
// the line fits in cols columns; a first word too long is cut.
func fitWords(cols int, words ...string) string {
	for n := len(words); n > 1; n-- {
		if line := strings.Join(words[:n], ", "); utf8.RuneCountInString(line) <= cols {
			return line
		}
	}
	r := []rune(words[0])
	return string(r[:min(len(r), cols)])
}

// lineProgress prints "progress: done/total units (x%), rate, ETA" at
// most once per `every`; without a total, the count and the rate.
type lineProgress struct {
	w        io.Writer
	every    time.Duration
	mu       sync.Mutex
	total    int
	done     int
	start    time.Time
	last     time.Time
	finished bool
}

func (p *lineProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

func (p *lineProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done += n
	if now := time.Now(); now.Sub(p.last) >= p.every {
		p.last = now
		p.print(now)
	}
}

func (p *lineProgress) print(now time.Time) {
	el := now.Sub(p.start)
	rate := float64(p.done) / el.Seconds()
	if p.total > 0 {
		eta := "?"
		if rate > 0 {
			eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
		}
		fmt.Fprintf(p.w, "progress: %d/%s (%.1f%%), %.0f units/s, elapsed %s, ETA %s\n",
			p.done, report.Count(p.total, "unit", "units"), 100*float64(p.done)/float64(p.total), rate, el.Round(time.Second), eta)
		return
	}
	fmt.Fprintf(p.w, "progress: %s, %.0f units/s, elapsed %s\n", report.Count(p.done, "unit", "units"), rate, el.Round(time.Second))
}

func (p *lineProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = true
}
