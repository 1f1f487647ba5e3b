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

// fmtPairedRatio formats a ratio near 1 with three decimals, so that a
// change of a few tenths of a percent shows: ×1.003, ≥×1.210, ×0.987;
// far from 1, with three significant digits.
func fmtPairedRatio(x float64) string {
	if x >= 0.01 && x < 100 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return fmtSig3(x)
}

// fmtTimeCI formats a strategy's ratio of median times with its
// interval: "×1.003 [0.991, 1.015]", the ratio marked ≥, ≤ or ~ when it is
// a bound.
func fmtTimeCI(d *StrategyDiff) string {
	mark := ""
	switch {
	case d.MedianRatio.Either:
		mark = "~"
	case d.MedianRatio.Bound == BoundLower:
		mark = "≥"
	case d.MedianRatio.Bound == BoundUpper:
		mark = "≤"
	}
	return fmt.Sprintf("%s×%s [%s, %s]", mark, fmtPairedRatio(d.MedianRatio.Value), fmtPairedRatio(d.TimeCI.Lo), fmtPairedRatio(d.TimeCI.Hi))
}

// fmtP formats a p-value: p=0.62, p=0.041, p<0.001.
func fmtP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return "p=" + strconv.FormatFloat(p, 'g', 2, 64)
}

// fmtCalls formats the verdict on a strategy's calls: "calls =" when no
// compared unit changed them, else the verdict, how many units and p.
func fmtCalls(d *StrategyDiff) string {
	if d.Compared == 0 {
		return "calls –"
	}
	if d.Changed.Calls == 0 {
		return "calls ="
	}
	what := "≠"
	if d.CallsVerdict != VerdictChanged {
		what = d.CallsVerdict
	}
	return fmt.Sprintf("calls %s in %d %s, %s", what, d.Changed.Calls, Plural(d.Changed.Calls, "unit", "units"), fmtP(d.CallsTest.P))
}

// WriteText writes the comparison for a terminal: the runs, the verdict
// per strategy (ratio of median times with its interval, the tests of
// times and calls), a table of counter changes and a table of time ratios
// per strategy, the largest changes of calls and of time, what is in one
// run only, and the threshold's verdict. Warnings are not written (the
// caller prints them on stderr).
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
		fmt.Fprintf(&b, " %d %s of %s, %d %s\n", r.ref.Puzzles, Plural(r.ref.Puzzles, "puzzle", "puzzles"),
			strings.Join(r.ref.Corpora, ", "), r.ref.Rows, Plural(r.ref.Rows, "row", "rows"))
	}

	c.writeVerdicts(&b)

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
		head = append(head, "interval > ×"+strconv.FormatFloat(c.Threshold, 'f', -1, 64))
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
			switch {
			case d.Slower:
				verdict = "YES"
			case d.ThresholdUndecided:
				verdict = "bound"
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
	c.writeBases(&b)

	c.writeLargest(&b)
	c.writeRegressions(&b)
	c.writeOnlyOne(&b)
	if c.Threshold > 0 {
		c.writeThreshold(&b)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing comparison: %w", err)
	}
	return nil
}

// writeVerdicts writes a line per strategy: its ratio of median times
// with the interval, the p of the times' test, the verdict, and the calls.
func (c *Comparison) writeVerdicts(b *bytes.Buffer) {
	noise := "×" + strconv.FormatFloat(c.Noise, 'f', -1, 64)
	b.WriteString("\nNEW/OLD paired by puzzle: the ratio of median times with its 95% interval (bootstrap over\n" +
		"timing blocks of 256 puzzles, so that the machine's drift is in it; over puzzles when there are\n" +
		"fewer than 8) and the Wilcoxon signed-rank test of the times, then of the calls, puzzle by puzzle.\n")
	if c.Noise > 1 {
		fmt.Fprintf(b, "Slower or faster: the interval lies beyond %s either way, the speed of a machine between two\n"+
			"runs (-noise); a smaller change the test finds is within noise:\n\n", noise)
	} else {
		b.WriteString("Slower or faster: the interval lies beyond ×1 and the test agrees (p < 0.05):\n\n")
	}
	var rows [][]string
	for _, d := range c.Strategies {
		if d.Timed == 0 {
			rows = append(rows, []string{d.Solver, "time –", "", "", fmtCalls(d)})
			continue
		}
		verdict := d.Verdict
		if d.WithinNoise {
			verdict += " (within noise)"
		}
		rows = append(rows, []string{d.Solver, "time " + fmtTimeCI(d), fmtP(d.TimeTest.P), verdict, fmtCalls(d)})
	}
	var t bytes.Buffer
	writeTextTable(&t, rows, 5)
	for line := range strings.Lines(t.String()) {
		b.WriteString(strings.TrimRight(line, " \n") + "\n")
	}
	for _, d := range c.Strategies {
		if d.Verdict == VerdictUndecided {
			b.WriteString("undecided: units stopped by a limit make the ratio a bound (≥ can only be higher, ≤ only\n" +
				"lower, ~ either side) that could reverse what the interval says.\n")
			break
		}
	}
}

// writeThreshold writes the threshold's verdict.
func (c *Comparison) writeThreshold(b *bytes.Buffer) {
	thr := "×" + strconv.FormatFloat(c.Threshold, 'f', -1, 64)
	if len(c.Slower) == 0 {
		fmt.Fprintf(b, "\nNo strategy is surely slower than %s: no 95%% interval of the median time NEW/OLD lies above it.\n", thr)
	} else {
		var what []string
		for _, d := range c.Strategies {
			if d.Slower {
				what = append(what, d.Solver+" "+fmtTimeCI(d))
			}
		}
		fmt.Fprintf(b, "\nSlower than %s (the 95%% interval of the median time NEW/OLD lies above it): %s.\n", thr, strings.Join(what, ", "))
	}
	for _, d := range c.Strategies {
		if d.ThresholdUndecided {
			fmt.Fprintf(b, "%s: %s lies above %s, but units stopped by a limit make the ratio a bound that could\n"+
				"lie below it: not counted slower.\n", d.Solver, fmtTimeCI(d), thr)
		}
	}
}

// writeRegressions writes the units whose time grew most, per strategy.
func (c *Comparison) writeRegressions(b *bytes.Buffer) {
	rows := [][]string{{"strategy", "puzzle", "time OLD", "time NEW", "NEW/OLD", "calls OLD", "calls NEW"}}
	ranked := 0
	for _, d := range c.Strategies {
		ranked += d.Ranked
		for _, u := range d.Regressions {
			rows = append(rows, []string{d.Solver, u.Puzzle.Label, fmtNS(float64(u.OldNS)), fmtNS(float64(u.NewNS)),
				fmtMultiple(u.Ratio), strconv.FormatUint(u.OldCalls, 10), strconv.FormatUint(u.NewCalls, 10)})
		}
	}
	switch {
	case c.TimesConfirmed && ranked == 0:
		b.WriteString("\nNo unit finished in both runs with its time confirmed in both (measured more than once):\n" +
			"no time regression is listed.\n")
		return
	case len(rows) == 1:
		return
	case c.TimesConfirmed:
		fmt.Fprintf(b, "\nLargest time regressions (at most %d per strategy, by NEW/OLD, among the units finished in\n"+
			"both runs whose times are confirmed in both: measured more than once):\n\n", c.Top)
	default:
		fmt.Fprintf(b, "\nLargest time regressions (at most %d per strategy, by NEW/OLD, among the units finished in\n"+
			"both runs). The times are not confirmed: a run without the timing columns measured each once,\n"+
			"and a single time can be noise (a preemption, a collection):\n\n", c.Top)
	}
	writeTextTable(b, rows, 2)
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
				Plural(d.OnlyOld, "puzzle", "puzzles"), list(d.OnlyOldPuzzles, d.OnlyOld)))
		}
		if d.OnlyNew > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d %s only in NEW: %s", d.Solver, d.OnlyNew,
				Plural(d.OnlyNew, "puzzle", "puzzles"), list(d.OnlyNewPuzzles, d.OnlyNew)))
		}
	}
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
}
