// Package progress is what a command shows on stderr while it works:
// the progress of a sweep (or of batch variants' solves) as a bar on a
// terminal, drawn by progressbar/v3 and fitted to the terminal's width,
// or as a plain line every few seconds in a file or a pipe; and the
// first lines of a corpus that are not puzzles, as they come.
//
// The data flow:
//  1. the command makes the display (New) before the sweep starts, on a
//     terminal or not (IsTerminal), and hands it to the pipeline as its
//     pipeline.Progress;
//  2. the pipeline tells it of every unit done (Add) from its writer,
//     and whoever counts the units tells it the total (SetTotal), before,
//     during or after the sweep, from any goroutine;
//  3. Finish ends it: the bar's line is cleared, and calls after it are
//     ignored.
//
// progressbar/v3 draws the bar wherever it can (bar.go); this package
// draws the line itself only where the library cannot: a terminal too
// narrow for its percentage and a bar of 10 columns, or one narrowed
// during the sweep below the fields the bar was made with
// (docs/DESIGN.md, "The terminal").
package progress

import (
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/term"

	"sudokubatch/pipeline"
)

// Display is the progress display of a sweep: the pipeline reports to it
// (pipeline.Progress), and whoever knows the number of units tells it the
// total, before, during or after the run, from any goroutine. Everything
// a display shows is created by New, before the run can report to it;
// calls after Finish are ignored.
type Display interface {
	pipeline.Progress
	SetTotal(total int) // units in the run; -1 while unknown
}

// New returns the progress display for a run started now: on a
// terminal, a bar drawn by progressbar/v3 fitted to the terminal's
// width; a plain line every `every` otherwise. The total is unknown (-1)
// until SetTotal.
func New(w io.Writer, terminal bool, every time.Duration) Display {
	now := time.Now()
	if terminal {
		return newBar(w, func() int { return Columns(w) }, now)
	}
	return &lineProgress{w: w, every: every, total: -1, start: now, last: now}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// StdoutColumns is the width of the process's stdout, which the human
// output is fitted to: the terminal's when it is one, else $COLUMNS
// when it is set (as ls reads it: a pipe to a pager), else 0.
func StdoutColumns() int {
	if c := Columns(os.Stdout); c > 0 {
		return c
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return c
	}
	return 0
}

// Columns returns the width in columns of the terminal w is, or 0 when w
// is not a terminal or its width is unknown.
func Columns(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 0
}
