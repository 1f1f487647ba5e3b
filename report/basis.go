package report

import (
	"bytes"
	"fmt"
	"strings"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TimeBasis says which time a strategy is ranked, charted and summarized
// by (docs/PROTOCOL.md, "Times"): its own, as an external solver reports
// it (results.csv's self_ns), or the round trip the tool measured (ns).
type TimeBasis string

const (
	// BasisRoundTrip is the time the tool measured: for a built-in
	// strategy its Solve, for an external solver the round trip less the
	// calibrated null round trip. Every strategy but those of BasisSelf.
	BasisRoundTrip TimeBasis = "round trip"
	// BasisSelf is the time an external solver reported for each unit:
	// the basis of a strategy when every unit of it that answered has one.
	BasisSelf TimeBasis = "self"
)

// answered reports whether a unit of status st answered: finished
// (solved, unsolvable) or gave up (stuck, wrong). A strategy's time
// basis is its own time when every answered unit reported one.
func answered(st solvers.Status) bool { return st.Finished() || st.GaveUp() }

// Basis returns the time basis of s: BasisSelf when some unit answered
// and every unit that answered has a self-reported time (Entry.SelfNS >
// 0), else BasisRoundTrip (always for a built-in strategy, which
// reports none, and for the view RoundTrip returns). Series.NS, At and
// so every statistic, list, chart and comparison read the time of this
// basis: under BasisSelf a unit's own time, and the round trip for a
// unit that has none (a timeout, an error: units that did not answer).
func (s *Series) Basis() TimeBasis {
	if s.selfBasis() {
		return BasisSelf
	}
	return BasisRoundTrip
}

func (s *Series) selfBasis() bool {
	return s.hasSelf && !s.roundTrip && s.answered > 0 && s.answeredNoSelf == 0
}

// SelfNS returns the time the strategy reported for row i, 0 when none.
func (s *Series) SelfNS(i int) int64 {
	if !s.hasSelf {
		return 0
	}
	return int64(s.self.at(i))
}

// RoundTripNS returns the time the tool measured for row i (results.csv's
// ns), whatever the basis.
func (s *Series) RoundTripNS(i int) int64 { return int64(s.ns.at(i)) }

// HasSelf reports whether some row of s has a self-reported time.
func (s *Series) HasSelf() bool { return s.hasSelf }

// RoundTrip returns a view of s whose times are the round trips
// (BasisRoundTrip) whatever the basis of s: what a comparison of two runs
// whose bases differ compares. It shares the rows of s; neither may be
// added to while the view is in use.
func (s *Series) RoundTrip() *Series {
	v := *s
	v.roundTrip = true
	return &v
}

// addSelf records the self-reported time of the row being added (row
// index len(s.puz)-1 once added), and whether it answered.
func (s *Series) addSelf(st solvers.Status, self int64) {
	if self > 0 && !s.hasSelf {
		for range len(s.puz) {
			s.self.add(0)
		}
		s.hasSelf = true
	}
	if s.hasSelf {
		s.self.add(uint64(max(self, 0)))
	}
	if answered(st) {
		s.answered++
		if self <= 0 {
			s.answeredNoSelf++
		}
	}
}

// BasisNote says in a sentence why s has its basis when it is not the
// plain one: "ext is ranked by its own time (every answer reported one)";
// for a strategy that reported a time on some units but not all, why it
// is ranked by the round trip. "" for a strategy that reported none.
func (s *Series) BasisNote() string {
	switch {
	case s.selfBasis():
		return fmt.Sprintf("%s is ranked by its own time: %s reported one", s.Solver,
			eachOf(s.answered, "answer", "answers"))
	case s.hasSelf && s.answeredNoSelf > 0:
		return fmt.Sprintf("%s is ranked by the round trip: %d of its %s reported no time of its own", s.Solver,
			s.answeredNoSelf, Count(s.answered, "answer", "answers"))
	}
	return ""
}

// eachOf says "its answer" for one, "each of its 6 answers" for more.
func eachOf(n int, one, many string) string {
	if n == 1 {
		return "its " + one
	}
	return "each of its " + Count(n, one, many)
}

// ExternalSummary is what a summary says about an external solver
// (settings.external of run.json): the program the tool swept and the
// null round trip it subtracted from each unit.
type ExternalSummary struct {
	Command   string   `json:"command"`
	Reported  string   `json:"reported"` // the name the program gave in its handshake
	Version   string   `json:"version"`
	SHA256    string   `json:"sha256"`       // of its executable, in full
	Short     string   `json:"sha256_short"` // the first 12 hex digits
	Caps      []string `json:"caps"`
	NullNS    int64    `json:"null_ns"`     // the null round trip's median, subtracted from each unit
	NullP99NS int64    `json:"null_p99_ns"` // and its p99
	// NullAloneNS is the null round trip's median with one worker at a
	// time, subtracted from the units re-timed alone.
	NullAloneNS int64 `json:"null_alone_ns"`
}

// externalSummary returns what m records about the external solver
// name, or nil.
func externalSummary(m *rundir.Manifest, name string) *ExternalSummary {
	if m == nil {
		return nil
	}
	e, ok := m.Settings.ExternalNamed(name)
	if !ok {
		return nil
	}
	short := e.SHA256
	if len(short) > 12 {
		short = short[:12]
	}
	return &ExternalSummary{Command: e.Command, Reported: e.Reported, Version: e.Version, SHA256: e.SHA256,
		Short: short, Caps: append([]string{}, e.Caps...), NullNS: e.NullNS, NullP99NS: e.NullP99NS, NullAloneNS: e.NullAloneNS}
}

// Program names the program in a few words: "pysolver 1.0 (sha256 0123456789ab)".
func (x *ExternalSummary) Program() string {
	s := x.Reported
	if x.Version != "" {
		s += " " + x.Version
	}
	if x.Short != "" {
		s += " (sha256 " + x.Short + ")"
	}
	return s
}

// sameBasis returns the series a comparison compares for one strategy:
// oser and nser themselves when their time bases agree, else the round
// trip of both (RoundTrip), like with like, and a warning saying so.
func sameBasis(oser, nser *Series) (o, n *Series, basis TimeBasis, warning string) {
	ob, nb := oser.Basis(), nser.Basis()
	if ob == nb {
		return oser, nser, ob, ""
	}
	return oser.RoundTrip(), nser.RoundTrip(), BasisRoundTrip, fmt.Sprintf("%s is ranked by %s in OLD and by %s in NEW: "+
		"its times are compared by the round trip in both", oser.Solver, basisWords(ob), basisWords(nb))
}

// basisWords names a time basis in a sentence: "its own time", "the
// round trip".
func basisWords(b TimeBasis) string {
	if b == BasisSelf {
		return "its own time"
	}
	return "the round trip"
}

// writeBases writes, under the comparison's table of times, which time
// each strategy was compared by when it is not the plain one: its own
// in both runs, or the round trip of both because the runs rank it by
// different times (the warning says so too). Nothing for built-in
// strategies.
func (c *Comparison) writeBases(b *bytes.Buffer) {
	var self, mixed []string
	for _, d := range c.Strategies {
		switch {
		case d.TimeBasisOld != d.TimeBasisNew:
			mixed = append(mixed, d.Solver)
		case d.TimeBasis == BasisSelf:
			self = append(self, d.Solver)
		}
	}
	if len(self) > 0 {
		fmt.Fprintf(b, "Times of %s: %s own (self_ns) in both runs.\n", strings.Join(self, ", "), Plural(len(self), "its", "their"))
	}
	if len(mixed) > 0 {
		fmt.Fprintf(b, "Times of %s: the round trip in both runs (one run ranks %s by %s own time, the other by the round trip).\n",
			strings.Join(mixed, ", "), Plural(len(mixed), "it", "them"), Plural(len(mixed), "its", "their"))
	}
}
