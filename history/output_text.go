package history

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"sudokubatch/report"
)

// TextWidth is the width of trend's terminal output: every line fits it,
// but for a word longer than the width (a long path).
const TextWidth = 80

// WriteText prints the history h for a terminal, each line within
// TextWidth columns: the refresh of the index, then per series its nights
// (the last `last` of them; 0: all) with the other work's share of each,
// the newest night's figures, the detectors' verdict per strategy, the
// alarms, the steps and the notes, wrapped; then the runs skipped.
// reports[i] is the report of h.Series[i] (nil: the detectors did not
// run); root names the bisect scripts.
func WriteText(w io.Writer, root string, refresh *Refresh, h *History, reports []*Report, last int) error {
	var b bytes.Buffer
	wrap(&b, "", "  ", "history: "+refresh.String())
	fmt.Fprintf(&b, "%s, %s skipped\n", report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs"))
	for i, s := range h.Series {
		var r *Report
		if i < len(reports) {
			r = reports[i]
		}
		fmt.Fprintf(&b, "\nseries %d/%d %s: %s\n", i+1, len(h.Series), s.ID, report.Count(len(s.Nights), "night", "nights"))
		wrap(&b, "  ", "  ", s.Key)
		writeNightsText(&b, s, r, last)
		writeNewestText(&b, s, r)
		writeDetectorsText(&b, root, r)
	}
	if len(h.Skipped) > 0 {
		b.WriteString("\nskipped:\n")
		for _, sk := range h.Skipped {
			wrap(&b, "  ", "      ", sk.Run+": "+sk.Reason)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeNightsText lists the last nights of s: date, revision, the other
// work's share (marked busy beyond the detectors' -busy), run.
func writeNightsText(b *bytes.Buffer, s *Series, r *Report, last int) {
	busy := DefaultBusy
	if r != nil {
		busy = r.Options.Busy
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  night\tdate (UTC)\trevision\tother work\trun")
	nights := s.Nights
	if last > 0 && len(nights) > last {
		fmt.Fprintf(tw, "  ...\t%s earlier\t\t\t\n", report.Count(len(nights)-last, "night", "nights"))
		nights = nights[len(nights)-last:]
	}
	for j, n := range nights {
		other, busy := otherCell(n.OtherShare, busy)
		switch {
		case other == "":
			other = "-"
		case busy:
			other += " busy"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", len(s.Nights)-len(nights)+j+1, fmtMinute(n.Start),
			ShortRevision(n.Revision), other, n.Run)
	}
	tw.Flush()
}

// writeNewestText prints the newest night's figures per strategy: its
// median with its interval, the gate's baseline median, p99, timeouts and
// the drift since the series began.
func writeNewestText(b *bytes.Buffer, s *Series, r *Report) {
	n := s.Newest()
	fmt.Fprintf(b, "  newest night %s (%s, %s):\n", n.Run, fmtDay(n.Start), ShortRevision(n.Revision))
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  strategy\tmedian\t95% interval\tbaseline\tp99\ttimeouts\tdrift\t")
	for _, st := range n.Strategy {
		base, drift := "-", "-"
		if tr := trendNamed(r, st.Solver); tr != nil {
			if tr.Gate != nil {
				base = FormatEstimateNS(tr.Gate.BaseNS)
			}
			if tr.Drift != nil {
				drift = fmt.Sprintf("x%.3f", tr.Drift.Value)
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t[%s, %s]\t%s\t%s\t%d\t%s\t\n", st.Solver, FormatQuantile(st.Median),
			report.FormatDuration(time.Duration(st.Median.Lo)), report.FormatDuration(time.Duration(st.Median.Hi)),
			base, FormatQuantile(st.P99), st.TimedOut, drift)
	}
	tw.Flush()
}

// trendNamed returns the trend of strategy solver in r, or nil.
func trendNamed(r *Report, solver string) *StrategyTrend {
	if r == nil {
		return nil
	}
	for _, st := range r.Strategies {
		if st.Solver == solver {
			return st
		}
	}
	return nil
}

// writeDetectorsText prints what the detectors found of a series' newest
// night: a line per strategy, the alarms, the steps and the notes.
func writeDetectorsText(b *bytes.Buffer, root string, r *Report) {
	if r == nil {
		return
	}
	head := fmt.Sprintf("against the baseline (up to the previous %d nights as busy as it; an alarm beyond %s",
		r.Options.Baseline, FormatShare(r.Options.Threshold))
	if m := r.Machine; m != nil {
		head += fmt.Sprintf("; common to the %d strategies, the machine's x%.3f", m.Strategies, m.Ratio)
		if !m.Used {
			head += ", not taken out"
		}
	}
	wrap(b, "  ", "  ", head+"):")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  strategy\tchange\t95% interval\tcounters\tverdict")
	for _, st := range r.Strategies {
		change, iv := "-", "-"
		if g := st.Gate; g != nil {
			change, iv = adjustedCells(g)
			change = "x" + change
		}
		counters := "-"
		if c := st.Counters; c != nil {
			switch {
			case c.Skipped != "":
				counters = "not compared"
			case c.Changed > 0:
				counters = fmt.Sprintf("%d changed", c.Changed)
			default:
				counters = fmt.Sprintf("same %d", c.Compared)
			}
		}
		verdict := st.Verdict
		if st.Since != nil {
			verdict += fmt.Sprintf(" (since night %d)", st.Since.Index)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", st.Solver, change, iv, counters, verdict)
	}
	tw.Flush()
	for _, a := range r.Alarms {
		var tag string
		switch {
		case a.Ack != nil:
			tag = "acknowledged (" + a.Ack.Why + ")"
		case a.New:
			tag = "NEW ALARM"
		case a.Delivered != nil:
			tag = "known (told " + fmtDay(*a.Delivered) + ")"
		default:
			tag = "known"
		}
		text := a.Text
		if a.Night.Index != r.Newest.index(r.Series) {
			text = fmt.Sprintf("night %d (%s): %s", a.Night.Index, a.Night.Run, text)
		}
		wrap(b, "  ", "    ", fmt.Sprintf("%s [%s]: %s", tag, a.Kind, text))
		if len(a.Puzzles) > 0 {
			var ids []string
			for _, p := range a.Puzzles {
				ids = append(ids, p.Label)
			}
			wrap(b, "    ", "      ", "puzzles: "+strings.Join(ids, " "))
		}
		if a.Good != nil {
			wrap(b, "    ", "      ", fmt.Sprintf("last good night: %d %s (%s)", a.Good.Index, a.Good.Run, ShortRevision(a.Good.Revision)))
		}
		if a.Bisect != "" {
			wrap(b, "    ", "      ", "bisect: "+filepath.Join(root, a.Bisect)+" (its first lines say how to run it)")
		}
	}
	for _, st := range r.Steps {
		state := ""
		switch {
		case st.Ack != nil:
			state = " (acknowledged: " + st.Ack.Why + ")"
		case st.New:
			state = " (new)"
		}
		if st.SameBuild {
			state += " (same build on both sides: the machine's)"
		}
		wrap(b, "  ", "    ", fmt.Sprintf("step: %s x%.3f from night %d (%s, %s, %s)%s", st.Solver, st.Ratio, st.Night.Index, st.Night.Run,
			fmtDay(st.Night.Start), ShortRevision(st.Night.Revision), state))
	}
	for _, n := range r.Notes {
		wrap(b, "  ", "    ", "note: "+n)
	}
}

// index returns the 1-based place of n in s, or 0.
func (n *Night) index(s *Series) int {
	for i, m := range s.Nights {
		if m == n {
			return i + 1
		}
	}
	return 0
}

// wrap writes text to b in lines of at most TextWidth columns, words kept
// whole: the first line after first, the others after rest.
func wrap(b *bytes.Buffer, first, rest, text string) {
	line := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len([]rune(line))+1+len([]rune(word)) > TextWidth {
			b.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(line + "\n")
}
