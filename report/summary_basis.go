package report

import (
	"bytes"
	"fmt"
	"strings"
)

// basisMatters reports whether some strategy of the summary says more
// about its time than a built-in one: an external solver (from run.json),
// or a strategy with times of its own (results.csv's self_ns).
func (s *Summary) basisMatters() bool {
	for _, st := range s.Strategies {
		if st.External != nil || st.BasisNote != "" {
			return true
		}
	}
	return false
}

// basisSentence says in a sentence which time st is ranked by and why:
// "ranked by its own time (self_ns), which each of its 6 answers
// reported".
func (st *StrategySummary) basisSentence() string {
	if s, ok := strings.CutPrefix(st.BasisNote, st.Solver+" is "); ok {
		if st.TimeBasis == BasisSelf {
			s = strings.Replace(s, "its own time", "its own time (self_ns)", 1)
		}
		return s
	}
	if st.External != nil {
		return "ranked by the round trip: it reported no time of its own"
	}
	return "ranked by the tool's time of each Solve"
}

// programLine names an external solver's program and its null round
// trip: "Program pysolver 1.0 (sha256 0123456789ab), null round trip
// 21.4µs median, 48.0µs p99 over 9,812 samples during the sweep"; "" for
// a built-in strategy.
func (st *StrategySummary) programLine() string {
	x := st.External
	if x == nil {
		return ""
	}
	return fmt.Sprintf("Program %s, %s", x.Program(), x.nullText())
}

// nullText says what the null round trip was: "null round trip 21.4µs
// median, 48.0µs p99 over 9812 samples during the sweep".
func (x *ExternalSummary) nullText() string {
	if x.NullSamples == 0 { // a run written before the null was measured during the sweep
		return fmt.Sprintf("null round trip %s median, %s p99", fmtNS(float64(x.NullNS)), fmtNS(float64(x.NullP99NS)))
	}
	return fmt.Sprintf("null round trip %s median, %s p99 over %d samples during the sweep", fmtNS(float64(x.NullNS)),
		fmtNS(float64(x.NullP99NS)), x.NullSamples)
}

// writeBasisMarkdown writes summary.md's section on the time each
// strategy is ranked by, when a strategy is external or reported times
// of its own (nothing otherwise: every time is then the tool's).
func (s *Summary) writeBasisMarkdown(b *bytes.Buffer) {
	if !s.basisMatters() {
		return
	}
	b.WriteString("\n### Time basis\n\n")
	b.WriteString("An external solver (`-ext`, docs/PROTOCOL.md) is ranked, charted and summarized by the time it " +
		"reports for each unit (self) when every unit it answered (solved, unsolvable, stuck or wrong) has one. " +
		"Otherwise by the round trip the tool measured: less the null round trip measured during the sweep " +
		"when its median round trip is at least twice the null's and above it by more than the null's spread " +
		"(p10 to p90), else the round trip itself, the null beside. A unit with no time of its own (a timeout, " +
		"an error) keeps its round trip.\n\n")
	for _, st := range s.Strategies {
		if st.External == nil && st.BasisNote == "" {
			continue
		}
		fmt.Fprintf(b, "- %s: %s", mdCode(st.Solver), mdText(st.basisSentence()))
		if x := st.External; x != nil {
			fmt.Fprintf(b, ". Program %s, version %s, SHA-256 %s…, command %s; %s",
				mdCode(x.Reported), mdCode(x.Version), mdCode(x.Short), mdCode(x.Command), mdText(x.nullText()))
		}
		b.WriteString(".\n")
	}
	var builtin []string
	for _, st := range s.Strategies {
		if st.External == nil && st.BasisNote == "" {
			builtin = append(builtin, mdCode(st.Solver))
		}
	}
	if len(builtin) > 0 {
		fmt.Fprintf(b, "- %s: the tool's time of each Solve.\n", strings.Join(builtin, ", "))
	}
}

// writeBasisText writes, for a terminal, a line per external strategy
// (or strategy with times of its own) saying which time ranks it.
func (s *Summary) writeBasisText(b *bytes.Buffer) {
	for _, st := range s.Strategies {
		if st.External == nil && st.BasisNote == "" {
			continue
		}
		fmt.Fprintf(b, "%s: %s", st.Solver, st.basisSentence())
		if l := st.programLine(); l != "" {
			fmt.Fprintf(b, ". %s", l)
		}
		b.WriteString(".\n")
	}
}

// pageBasis is a strategy's line of the page's time basis note.
type pageBasis struct{ Solver, Text string }

// basisLines says, per external strategy (or strategy with times of its
// own), which time ranks it and what program it ran: the page's note
// under its headline. None for a run of built-in strategies.
func (s *Summary) basisLines() []pageBasis {
	var out []pageBasis
	for _, st := range s.Strategies {
		if st.External == nil && st.BasisNote == "" {
			continue
		}
		l := st.basisSentence()
		if p := st.programLine(); p != "" {
			l += ". " + p
		}
		out = append(out, pageBasis{st.Solver, l})
	}
	return out
}

// basisTag is the word under an external strategy's name in the page's
// headline: "own time" or "round trip"; "" for a built-in one.
func (st *StrategySummary) basisTag() string {
	switch {
	case st.TimeBasis == BasisSelf:
		return "own time"
	case st.External != nil || st.BasisNote != "":
		return "round trip"
	}
	return ""
}

// basisTitle is the hover text of an external strategy's name in the
// page's headline: its program; "" for a built-in one.
func (st *StrategySummary) basisTitle() string {
	if st.External == nil {
		return ""
	}
	return "external solver " + st.External.Program() + ": " + st.External.Command
}
