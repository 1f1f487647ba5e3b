package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// fmtRatio formats a ratio as a multiple: ×1.02, ≥×3.10, ~×0.98.
func fmtRatio(r Ratio) string {
	if r.Either {
		return "~" + fmtMultiple(r.Value)
	}
	return fmtEstimate(Estimate{r.Value, r.Bound}, fmtMultiple)
}

// WriteJSON writes the comparison as indented JSON: times in integer ns,
// counts as integers, ratios unrounded.
func (c *Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("writing comparison: %w", err)
	}
	return nil
}

// WriteText writes the comparison for a terminal: the runs, a table of
// counter changes and a table of time ratios per strategy, the largest
// changes, what is in one run only, and the threshold's verdict.
// Warnings are not written (the caller prints them on stderr).
func (c *Comparison) WriteText(w io.Writer) error {
	var b bytes.Buffer
	for _, r := range []struct {
		label string
		ref   RunRef
	}{{"OLD", c.Old}, {"NEW", c.New}} {
		fmt.Fprintf(&b, "%s %s:", r.label, r.ref.Path)
		if r.ref.RunID != "" {
			fmt.Fprintf(&b, " run %s (%s),", r.ref.RunID, r.ref.Status)
		}
		fmt.Fprintf(&b, " %d %s of %s, %d %s\n", r.ref.Puzzles, plural(r.ref.Puzzles, "puzzle", "puzzles"),
			strings.Join(r.ref.Corpora, ", "), r.ref.Rows, plural(r.ref.Rows, "row", "rows"))
	}

	b.WriteString("\nCounters, unit by unit over the puzzles in both runs (units a timeout stopped in either run are\n" +
		"not compared: where a timeout stops depends on the machine):\n\n")
	rows := [][]string{{"strategy", "common", "compared", "changed", "status", "calls", "guesses", "backtracks", "timeouts OLD", "timeouts NEW"}}
	for _, d := range c.Strategies {
		rows = append(rows, []string{d.Solver, strconv.Itoa(d.Common), strconv.Itoa(d.Compared), strconv.Itoa(d.Changed.Any),
			strconv.Itoa(d.Changed.Status), strconv.Itoa(d.Changed.Calls), strconv.Itoa(d.Changed.Guesses),
			strconv.Itoa(d.Changed.Backtracks), strconv.Itoa(d.TimeoutOld), strconv.Itoa(d.TimeoutNew)})
	}
	writeTextTable(&b, rows, 1)

	b.WriteString("\nTime, NEW/OLD over the units measured in both runs (above ×1: NEW is slower):\n\n")
	head := []string{"strategy", "units", "stopped OLD", "stopped NEW", "median OLD", "median NEW", "ratio", "total OLD", "total NEW", "ratio"}
	if c.Threshold > 0 {
		head = append(head, "slower (> ×"+strconv.FormatFloat(c.Threshold, 'f', -1, 64)+")")
	}
	rows = [][]string{head}
	for _, d := range c.Strategies {
		if d.Timed == 0 {
			r := []string{d.Solver, "0", "–", "–", "–", "–", "–", "–", "–", "–"}
			if c.Threshold > 0 {
				r = append(r, "–")
			}
			rows = append(rows, r)
			continue
		}
		r := []string{d.Solver, strconv.Itoa(d.Timed), strconv.Itoa(d.StoppedOld), strconv.Itoa(d.StoppedNew),
			fmtEstimate(d.MedianOldNS, fmtNS), fmtEstimate(d.MedianNewNS, fmtNS), fmtRatio(d.MedianRatio),
			fmtEstimate(Estimate{float64(d.TotalOldNS), boundIf(d.StoppedOld > 0)}, fmtNS),
			fmtEstimate(Estimate{float64(d.TotalNewNS), boundIf(d.StoppedNew > 0)}, fmtNS), fmtRatio(d.TotalRatio)}
		if c.Threshold > 0 {
			verdict := "no"
			if d.Slower {
				verdict = "YES"
			}
			r = append(r, verdict)
		}
		rows = append(rows, r)
	}
	writeTextTable(&b, rows, 1)
	stopped := false
	for _, d := range c.Strategies {
		stopped = stopped || d.StoppedOld+d.StoppedNew > 0
	}
	if stopped {
		b.WriteString("Units stopped by a timeout or a call limit enter at the time they had reached (a lower bound),\n" +
			"so ≥ marks a ratio that can only be higher, ≤ one that can only be lower, ~ one that may lie either side.\n")
	}

	c.writeLargest(&b)
	c.writeOnlyOne(&b)
	if c.Threshold > 0 {
		thr := "×" + strconv.FormatFloat(c.Threshold, 'f', -1, 64)
		if len(c.Slower) == 0 {
			fmt.Fprintf(&b, "\nNo strategy is slower than %s (median time NEW/OLD).\n", thr)
		} else {
			var what []string
			for _, d := range c.Strategies {
				if d.Slower {
					what = append(what, fmt.Sprintf("%s (%s)", d.Solver, fmtRatio(d.MedianRatio)))
				}
			}
			fmt.Fprintf(&b, "\nSlower than %s (median time NEW/OLD): %s.\n", thr, strings.Join(what, ", "))
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing comparison: %w", err)
	}
	return nil
}

func boundIf(lower bool) Bound {
	if lower {
		return BoundLower
	}
	return BoundExact
}

func (c *Comparison) writeLargest(b *bytes.Buffer) {
	changed := 0
	for _, d := range c.Strategies {
		changed += d.Changed.Any
	}
	if changed == 0 {
		b.WriteString("\nNo counter changed: every compared unit has the same status, calls, guesses and backtracks.\n")
		return
	}
	fmt.Fprintf(b, "\nLargest changes of calls (at most %d per strategy, by |log NEW/OLD|):\n\n", c.Top)
	rows := [][]string{{"strategy", "puzzle", "status", "calls OLD", "calls NEW", "NEW/OLD", "guesses OLD", "guesses NEW"}}
	for _, d := range c.Strategies {
		for _, u := range d.Largest {
			status := u.OldStatus
			if u.NewStatus != u.OldStatus {
				status += " → " + u.NewStatus
			}
			rows = append(rows, []string{d.Solver, u.Puzzle.Label, status,
				strconv.FormatUint(u.OldCalls, 10), strconv.FormatUint(u.NewCalls, 10), fmtMultiple(u.CallsRatio),
				strconv.FormatUint(u.OldGuesses, 10), strconv.FormatUint(u.NewGuesses, 10)})
		}
	}
	if len(rows) > 1 {
		writeTextTable(b, rows, 3)
	}
	var other []string
	for _, d := range c.Strategies {
		if n := d.Changed.Any - d.Changed.Calls; n > 0 {
			other = append(other, fmt.Sprintf("%s %d", d.Solver, n))
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(b, "Units changed with the same calls (status, guesses or backtracks only): %s.\n", strings.Join(other, ", "))
	}
}

func (c *Comparison) writeOnlyOne(b *bytes.Buffer) {
	var lines []string
	if len(c.OnlyOld) > 0 {
		lines = append(lines, fmt.Sprintf("Strategies only in OLD: %s.", strings.Join(c.OnlyOld, ", ")))
	}
	if len(c.OnlyNew) > 0 {
		lines = append(lines, fmt.Sprintf("Strategies only in NEW: %s.", strings.Join(c.OnlyNew, ", ")))
	}
	list := func(refs []PuzzleRef, n int) string {
		var labels []string
		for _, r := range refs {
			labels = append(labels, r.Label)
		}
		s := strings.Join(labels, " ")
		if n > len(refs) {
			s += " …"
		}
		return s
	}
	for _, d := range c.Strategies {
		if d.OnlyOld > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d %s only in OLD: %s", d.Solver, d.OnlyOld,
				plural(d.OnlyOld, "puzzle", "puzzles"), list(d.OnlyOldPuzzles, d.OnlyOld)))
		}
		if d.OnlyNew > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d %s only in NEW: %s", d.Solver, d.OnlyNew,
				plural(d.OnlyNew, "puzzle", "puzzles"), list(d.OnlyNewPuzzles, d.OnlyNew)))
		}
	}
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
}
