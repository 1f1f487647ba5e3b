package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
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

// fmtDelta formats a ratio NEW/OLD as benchstat prints a change:
// +12.1%, -3.0%, +178%; a ratio of 11 or more as a multiple, ×17.8.
func fmtDelta(x float64) string {
	switch pct := 100 * (x - 1); {
	case x >= 11:
		return fmtMultiple(x)
	case math.Abs(pct) < 99.95:
		return fmt.Sprintf("%+.1f%%", pct)
	default:
		return fmt.Sprintf("%+.0f%%", pct)
	}
}

// fmtRatioDelta formats a ratio as a change, marked when it is a bound:
// ≥+12.1% (it can only be higher), ≤-3.0% (only lower), ?+1.2% (either
// side).
func fmtRatioDelta(r Ratio) string {
	switch {
	case r.Either:
		return "?" + fmtDelta(r.Value)
	case r.Bound == BoundLower:
		return "≥" + fmtDelta(r.Value)
	case r.Bound == BoundUpper:
		return "≤" + fmtDelta(r.Value)
	}
	return fmtDelta(r.Value)
}

// fmtVerdictDelta is a strategy's change of median time as benchstat
// shows it: the change when the verdict is slower or faster, "~" when it
// is no change (within the noise, or no difference the test finds), "?"
// when undecided.
func fmtVerdictDelta(d *StrategyDiff) string {
	switch d.Verdict {
	case VerdictSlower, VerdictFaster:
		return fmtRatioDelta(d.MedianRatio)
	case VerdictUndecided:
		return "?"
	}
	return "~"
}

// fmtCallsTest formats the verdict on a strategy's calls for the
// counters table: "=" when no compared unit changed them, else the
// verdict and p.
func fmtCallsTest(d *StrategyDiff) string {
	switch {
	case d.Compared == 0:
		return "–"
	case d.Changed.Calls == 0:
		return "="
	case d.CallsVerdict == VerdictChanged:
		return "≠ " + fmtP(d.CallsTest.P)
	}
	return d.CallsVerdict + " " + fmtP(d.CallsTest.P)
}

// WriteText writes the comparison for a terminal, every line within
// width columns (0: DefaultTextWidth; a table too wide is split into
// blocks of columns, the sentences folded): the runs; per strategy the
// median times and their change as benchstat prints it (+12.1%, "~"
// within the noise) with its 95% interval and the p of the paired test,
// and their geometric mean; the counters' changes and the calls' test;
// the totals of time; the largest changes of calls and the time
// regressions beyond the noise; what is in one run only, and the
// threshold's verdict. Warnings are not written (the caller prints them
// on stderr).
func (c *Comparison) WriteText(w io.Writer, width int) error {
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

	c.writeVerdicts(&b, width)
	c.writeCounters(&b, width)
	c.writeTotals(&b, width)
	c.writeBases(&b)
	c.writeLargest(&b, width)
	c.writeRegressions(&b, width)
	c.writeOnlyOne(&b)
	if c.Threshold > 0 {
		c.writeThreshold(&b)
	}
	if _, err := io.WriteString(w, Wrap(b.String(), width)); err != nil {
		return fmt.Errorf("writing comparison: %w", err)
	}
	return nil
}

// writeCounters writes the table of counter changes, unit by unit, with
// the test of the calls; when no counter changed, the units compared and
// stopped only, and a line that says so.
func (c *Comparison) writeCounters(b *bytes.Buffer, width int) {
	b.WriteString("\nCounters, unit by unit over the puzzles in both runs (units a timeout stopped in either run, " +
		"OLD/NEW, are not compared: where a timeout stops depends on the machine)")
	changed := 0
	for _, d := range c.Strategies {
		changed += d.Changed.Any
	}
	if changed == 0 {
		b.WriteString(":\n\n")
		rows := [][]string{{"strategy", "common", "compared", "timeouts"}}
		for _, d := range c.Strategies {
			rows = append(rows, []string{d.Solver, strconv.Itoa(d.Common), strconv.Itoa(d.Compared), oldNew(d.TimeoutOld, d.TimeoutNew)})
		}
		writeTextTable(b, rows, 1, 1, width)
		b.WriteString("No counter changed: every compared unit has the same status, calls, guesses and backtracks.\n")
		return
	}
	b.WriteString("; the units changed, and which of their counters:\n\n")
	rows := [][]string{{"strategy", "compared", "changed", "status", "calls", "guesses", "backtracks", "timeouts"}}
	var tests []string
	for _, d := range c.Strategies {
		rows = append(rows, []string{d.Solver, strconv.Itoa(d.Compared), strconv.Itoa(d.Changed.Any),
			strconv.Itoa(d.Changed.Status), strconv.Itoa(d.Changed.Calls), strconv.Itoa(d.Changed.Guesses),
			strconv.Itoa(d.Changed.Backtracks), oldNew(d.TimeoutOld, d.TimeoutNew)})
		if d.Changed.Calls > 0 {
			tests = append(tests, d.Solver+" "+fmtCallsTest(d))
		}
	}
	writeTextTable(b, rows, 1, 1, width)
	if len(tests) > 0 {
		fmt.Fprintf(b, "Calls, the signed-rank test of those that changed (more, fewer or ≠: no clear direction): %s.\n",
			strings.Join(tests, ", "))
	}
}

// writeTotals writes the table of total times, and the threshold's
// column.
func (c *Comparison) writeTotals(b *bytes.Buffer, width int) {
	b.WriteString("\nTotal time over the units measured in both runs (stopped: by a limit, in OLD/NEW")
	if c.Threshold > 0 {
		fmt.Fprintf(b, "; > ×%s: the interval of the median's change lies above -threshold", strconv.FormatFloat(c.Threshold, 'f', -1, 64))
	}
	b.WriteString("):\n\n")
	head := []string{"strategy", "units", "stopped", "total OLD", "total NEW", "vs OLD"}
	if c.Threshold > 0 {
		head = append(head, "> ×"+strconv.FormatFloat(c.Threshold, 'f', -1, 64))
	}
	rows := [][]string{head}
	for _, d := range c.Strategies {
		if d.Timed == 0 {
			r := []string{d.Solver, "0", "–", "–", "–", "–"}
			if c.Threshold > 0 {
				r = append(r, "–")
			}
			rows = append(rows, r)
			continue
		}
		r := []string{d.Solver, strconv.Itoa(d.Timed), oldNew(d.StoppedOld, d.StoppedNew),
			fmtEstimate(Estimate{float64(d.TotalOldNS), boundIf(d.StoppedOld > 0)}, fmtNS),
			fmtEstimate(Estimate{float64(d.TotalNewNS), boundIf(d.StoppedNew > 0)}, fmtNS), fmtRatioDelta(d.TotalRatio)}
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
	writeTextTable(b, rows, 1, 1, width)
	stopped := false
	for _, d := range c.Strategies {
		stopped = stopped || d.StoppedOld+d.StoppedNew > 0
	}
	if stopped {
		b.WriteString("Units stopped by a timeout or a call limit enter at the time they had reached (a lower bound): " +
			"≥ marks a change that can only be higher, ≤ one that can only be lower, ? one that may lie either side.\n")
	}
}

// oldNew is a count in OLD and in NEW: "98/67".
func oldNew(old, new int) string { return strconv.Itoa(old) + "/" + strconv.Itoa(new) }

// geomean returns the geometric mean of xs (each at least 1), and
// whether it is a lower bound (one of them is).
func geomean(xs []Estimate) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	sum, bound := 0.0, BoundExact
	for _, x := range xs {
		sum += math.Log(max(x.Value, 1))
		if x.Bound == BoundLower {
			bound = BoundLower
		}
	}
	return Estimate{math.Exp(sum / float64(len(xs))), bound}
}

// writeVerdicts writes the table of verdicts: per strategy the median
// times, their change as benchstat prints it, its interval and the p of
// the paired test of the times; a geomean row under it.
func (c *Comparison) writeVerdicts(b *bytes.Buffer, width int) {
	noise := "×" + strconv.FormatFloat(c.Noise, 'f', -1, 64)
	b.WriteString("\nMedian time, NEW against OLD, paired by puzzle: its change, with the change's 95% interval " +
		"(a bootstrap over timing blocks of 256 puzzles, or over puzzles when there are fewer than 8 blocks) and the p " +
		"of a Wilcoxon signed-rank test of the times. ")
	if c.Noise > 1 {
		fmt.Fprintf(b, "A change is shown when the interval lies beyond %s either way (-noise: the speed of a machine "+
			"between two runs) and the test agrees (p < 0.05), ~ otherwise, as benchstat prints it.\n\n", noise)
	} else {
		b.WriteString("A change is shown when the interval excludes ×1 and the test agrees (p < 0.05), ~ otherwise, " +
			"as benchstat prints it.\n\n")
	}
	rows := [][]string{{"strategy", "median OLD", "median NEW", "vs OLD", "95% interval", "p"}}
	var olds, news []Estimate
	var within, undecided []string
	for _, d := range c.Strategies {
		if d.Timed == 0 {
			rows = append(rows, []string{d.Solver, "–", "–", "–", "", "no unit measured in both"})
			continue
		}
		olds, news = append(olds, d.MedianOldNS), append(news, d.MedianNewNS)
		rows = append(rows, []string{d.Solver, fmtEstimate(d.MedianOldNS, fmtNS), fmtEstimate(d.MedianNewNS, fmtNS),
			fmtVerdictDelta(d), "[" + fmtDelta(d.TimeCI.Lo) + ", " + fmtDelta(d.TimeCI.Hi) + "]", fmtP(d.TimeTest.P)})
		switch {
		case d.WithinNoise:
			within = append(within, d.Solver)
		case d.Verdict == VerdictUndecided:
			undecided = append(undecided, d.Solver)
		}
	}
	if len(olds) > 1 {
		g := ratio(geomean(news), geomean(olds))
		rows = append(rows, []string{"geomean", fmtEstimate(geomean(olds), fmtNS), fmtEstimate(geomean(news), fmtNS),
			fmtRatioDelta(g), "", ""})
	}
	writeTextTable(b, rows, 1, 1, width)
	if len(within) > 0 {
		fmt.Fprintf(b, "Within the noise (the interval excludes ×1 but not %s): %s.\n", noise, strings.Join(within, ", "))
	}
	if len(undecided) > 0 {
		fmt.Fprintf(b, "?: %s: units stopped by a limit make the ratio a bound (≥ can only be higher, ≤ only lower, "+
			"? either side) that could reverse what the interval says.\n", strings.Join(undecided, ", "))
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
			fmt.Fprintf(b, "%s: %s lies above %s, but units stopped by a limit make the ratio a bound that could "+
				"lie below it: not counted slower.\n", d.Solver, fmtTimeCI(d), thr)
		}
	}
}

// writeRegressions writes the units whose time grew most, per strategy,
// beyond the noise (StrategyDiff.Regressions).
func (c *Comparison) writeRegressions(b *bytes.Buffer, width int) {
	rows := [][]string{{"strategy", "puzzle", "time OLD", "time NEW", "vs OLD", "calls OLD", "calls NEW"}}
	ranked := 0
	for _, d := range c.Strategies {
		ranked += d.Ranked
		for _, u := range d.Regressions {
			rows = append(rows, []string{d.Solver, u.Puzzle.Label, fmtNS(float64(u.OldNS)), fmtNS(float64(u.NewNS)),
				fmtDelta(u.Ratio), strconv.FormatUint(u.OldCalls, 10), strconv.FormatUint(u.NewCalls, 10)})
		}
	}
	noise := "×" + strconv.FormatFloat(c.Noise, 'f', -1, 64)
	switch {
	case c.TimesConfirmed && ranked == 0:
		b.WriteString("\nNo unit finished in both runs with its time confirmed in both (measured more than once): " +
			"no time regression is listed.\n")
		return
	case len(rows) == 1:
		fmt.Fprintf(b, "\nNo time regression beyond the noise: none of the units finished in both runs%s %s.\n",
			confirmedBoth(c.TimesConfirmed), beyondNoise(noise))
		return
	}
	fmt.Fprintf(b, "\nLargest time regressions beyond the noise (at most %d per strategy, by NEW/OLD): units finished "+
		"in both runs%s that %s.", c.Top, confirmedBoth(c.TimesConfirmed), beyondNoise(noise))
	if !c.TimesConfirmed {
		b.WriteString(" The times are not confirmed: a run without the timing columns measured each once, " +
			"and a single time can be noise (a preemption, a collection).")
	}
	b.WriteString("\n\n")
	writeTextTable(b, rows, 2, 2, width)
}

// beyondNoise is what makes a unit's time a regression beyond the noise
// (regressionFloor): "took longer, past ... changes".
func beyondNoise(noise string) string {
	return "took longer, past their strategy's median change when that is slower, by more than " + noise +
		" (-noise) and than 3 robust standard deviations of its units' changes"
}

// confirmedBoth is " with times confirmed in both (measured more than
// once)" when the regressions rank confirmed times only.
func confirmedBoth(confirmed bool) string {
	if confirmed {
		return " with times confirmed in both (measured more than once)"
	}
	return ""
}

func boundIf(lower bool) Bound {
	if lower {
		return BoundLower
	}
	return BoundExact
}

// writeLargest writes the units whose calls changed most, per strategy.
func (c *Comparison) writeLargest(b *bytes.Buffer, width int) {
	changed := 0
	for _, d := range c.Strategies {
		changed += d.Changed.Any
	}
	if changed == 0 {
		return // writeCounters said so
	}
	fmt.Fprintf(b, "\nLargest changes of calls (at most %d per strategy, by |log NEW/OLD|):\n\n", c.Top)
	rows := [][]string{{"strategy", "puzzle", "status", "calls OLD", "calls NEW", "vs OLD", "guesses"}}
	for _, d := range c.Strategies {
		for _, u := range d.Largest {
			status := u.OldStatus
			if u.NewStatus != u.OldStatus {
				status += " → " + u.NewStatus
			}
			rows = append(rows, []string{d.Solver, u.Puzzle.Label, status,
				strconv.FormatUint(u.OldCalls, 10), strconv.FormatUint(u.NewCalls, 10), fmtDelta(u.CallsRatio),
				strconv.FormatUint(u.OldGuesses, 10) + " → " + strconv.FormatUint(u.NewGuesses, 10)})
		}
	}
	if len(rows) > 1 {
		writeTextTable(b, rows, 3, 2, width)
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
