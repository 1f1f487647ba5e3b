package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"sudokubatch/internal/quantile"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TimeBasis says which time a strategy is ranked, charted and summarized
// by (docs/PROTOCOL.md, "Times"): its own, as an external solver reports
// it (results.csv's self_ns), or the round trip the tool measured (ns),
// less the null round trip when the difference is the program's own time.
type TimeBasis string

const (
	// BasisRoundTrip is the time the tool measured: for a built-in
	// strategy its Solve, for an external solver the round trip of its
	// request, the null round trip included (shown beside it).
	BasisRoundTrip TimeBasis = "round trip"
	// BasisLessNull is an external solver's round trip less the median
	// null round trip of its sweep: its basis when it reported no time of
	// its own and its round trips are far enough above the null that the
	// difference is its own time (lessNullMeaningful).
	BasisLessNull TimeBasis = "round trip less null"
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
// 0); else, for an external solver whose round trips are far above its
// null round trip, BasisLessNull; else BasisRoundTrip (always for a
// built-in strategy, and for the view RoundTrip returns). Series.NS, At
// and so every statistic, list, chart and comparison read the time of
// this basis: under BasisSelf a unit's own time, and the round trip for
// a unit that has none (a timeout, an error: units that did not answer).
func (s *Series) Basis() TimeBasis {
	switch {
	case s.selfBasis():
		return BasisSelf
	case s.lessNull():
		return BasisLessNull
	}
	return BasisRoundTrip
}

func (s *Series) selfBasis() bool {
	return s.hasSelf && !s.roundTrip && s.answered > 0 && s.answeredNoSelf == 0 && (s.ext == nil || s.ext.selfDoubt == "")
}

// lessNull reports whether the times of s are its round trips less the
// null round trip measured during its sweep.
func (s *Series) lessNull() bool { return !s.roundTrip && s.ext != nil && s.ext.lessNull }

// externalView is what run.json tells of an external solver's series
// (LoadRun, describeExternals): the counters it declared, the null round
// trip measured during its sweep, and whether the null is worth taking
// off its round trips.
type externalView struct {
	uncounted uint8 // the counters it does not report (countCalls, ...)
	null      rundir.NullRoundTrip
	// legacy: a run written before the null was measured during the
	// sweep, whose ns are already less the null measured before it (its
	// basis is the round trip: as recorded).
	legacy     bool
	lessNull   bool  // lessNullMeaningful: the basis is BasisLessNull
	medianRTNS int64 // the median round trip of its answered units
	cached     int   // units whose re-timing was not taken: it caches (rundir.RetimedCache)
	// selfDoubt says why the times the program reported are not taken
	// (selfDoubtOf); "" when they are, or when it reported none.
	selfDoubt string
}

// selfTrust is how much shorter than its round trips less the null an
// external solver's own times may be and still be taken: a program's own
// time leaves out only its reading and writing of one line, which the
// round trip less the null keeps.
const selfTrust = 10

// selfDoubtOf says why an external solver's own times, whose median over
// its answered units is self, cannot be its times beside its median
// round trip rt and its null round trip: when the round trip less the
// null is its own time (lessNullMeaningful), under a selfTrust-th of it.
// "" when they can, or when it reported none. (A median over the round
// trip is not refused: self_ns is the median over a unit's runs, its
// repeats included, ns its first request's or its re-timing's, and the
// example Python solver's are 882µs and 736µs.) Without this, a program that
// reports ns=1 for answers that take a millisecond is ranked faster than
// every built-in strategy.
func selfDoubtOf(self, rt int64, null rundir.NullRoundTrip, lessNull bool) string {
	switch {
	case self <= 0:
		return ""
	case lessNull && self*selfTrust < rt-null.MedianNS:
		return fmt.Sprintf("the median time it reported (%s) is under a %dth of its median round trip less the null (%s)", fmtNS(float64(self)), selfTrust, fmtNS(float64(rt-null.MedianNS)))
	}
	return ""
}

// The counters of a strategy, as bits of externalView.uncounted.
const (
	countCalls uint8 = 1 << iota
	countGuesses
	countBacktracks
)

// Counts reports whether s counts calls, guesses and backtracks: a
// built-in strategy counts all three; an external solver those its
// handshake declared (run.json's caps). A counter not counted reads 0 in
// results.csv, and the summary shows its figures as absent.
func (s *Series) Counts(counter uint8) bool { return s.ext == nil || s.ext.uncounted&counter == 0 }

// lessNullMeaningful reports whether a strategy whose median round trip
// is rt has a time of its own in the difference with its null round
// trip: its median round trip is at least twice the null's median, and
// the difference is more than the null's own spread in the sweep (p10 to
// p90). Else the difference is mostly the null's noise (a program that
// answers in a few microseconds, on a machine whose null round trip moves
// between 6 and 37 µs from run to run), and the strategy is ranked by the
// round trip itself, the null beside.
func lessNullMeaningful(rt int64, null rundir.NullRoundTrip) bool {
	return null.Samples > 0 && rt >= 2*null.MedianNS && rt-null.MedianNS > null.P90NS-null.P10NS
}

// describeExternals sets, for each series that m records as an external
// solver, what run.json tells of it (externalView).
func (res *Results) describeExternals(m *rundir.Manifest) {
	for _, ser := range res.Series {
		e, ok := m.Settings.ExternalNamed(ser.Solver)
		if !ok {
			continue
		}
		v := &externalView{null: nullOf(m, ser.Solver)}
		for bit, c := range map[uint8]string{countCalls: "calls", countGuesses: "guesses", countBacktracks: "backtracks"} {
			if !slices.Contains(e.Caps, c) {
				v.uncounted |= bit
			}
		}
		v.legacy = v.null.Samples == 0 && e.NullNS > 0
		var rts, selfs []int64
		for i := range ser.Len() {
			if answered(ser.Status(i)) {
				rts = append(rts, int64(ser.ns.at(i)))
				if v := ser.SelfNS(i); v > 0 {
					selfs = append(selfs, v)
				}
			}
			if ser.Timing(i)&Cached != 0 {
				v.cached++
			}
		}
		if len(rts) > 0 {
			slices.Sort(rts)
			v.medianRTNS = quantile.Median(rts)
		}
		v.lessNull = !v.legacy && lessNullMeaningful(v.medianRTNS, v.null)
		if len(selfs) > 0 {
			slices.Sort(selfs)
			v.selfDoubt = selfDoubtOf(quantile.Median(selfs), v.medianRTNS, v.null, v.lessNull)
		}
		ser.ext = v
	}
}

// nullOf returns the null round trip of the external solver name over
// the segments of m that measured one: one segment's, or their figures
// averaged, weighted by their samples.
func nullOf(m *rundir.Manifest, name string) rundir.NullRoundTrip {
	out := rundir.NullRoundTrip{Name: name}
	var med, p10, p90, p99 float64
	for _, seg := range m.Segments {
		if seg.Timing == nil {
			continue
		}
		for _, n := range seg.Timing.Null {
			if n.Name != name || n.Samples == 0 {
				continue
			}
			w := float64(n.Samples)
			out.Samples += n.Samples
			med, p10, p90, p99 = med+w*float64(n.MedianNS), p10+w*float64(n.P10NS), p90+w*float64(n.P90NS), p99+w*float64(n.P99NS)
		}
	}
	if out.Samples > 0 {
		w := float64(out.Samples)
		out.MedianNS, out.P10NS, out.P90NS, out.P99NS = int64(med/w), int64(p10/w), int64(p90/w), int64(p99/w)
	}
	return out
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
// plain one: "ext is ranked by its own time: each of its 6 answers
// reported one"; for an external solver, why it is ranked by the round
// trip, less the null or with the null beside, and, when it answered
// repeated requests as a cache does, that its times are its first
// requests'. "" for a built-in strategy (and a run without run.json
// whose strategy reported no time).
func (s *Series) BasisNote() string {
	var note string
	noSelf := "it reported no time of its own"
	if s.hasSelf && s.answeredNoSelf > 0 {
		noSelf = fmt.Sprintf("%d of its %s reported no time of its own", s.answeredNoSelf, Count(s.answered, "answer", "answers"))
	}
	x := s.ext
	switch {
	case s.selfBasis():
		note = fmt.Sprintf("%s is ranked by its own time: %s reported one", s.Solver, eachOf(s.answered, "answer", "answers"))
	case x != nil && x.selfDoubt != "" && !s.roundTrip:
		note = fmt.Sprintf("%s is ranked by %s, not by the times it reported: %s", s.Solver, basisWords(s.Basis()), x.selfDoubt)
	case x != nil && x.legacy:
		note = fmt.Sprintf("%s is ranked by the round trip less the null round trip: %s", s.Solver, noSelf)
	case x != nil && x.lessNull:
		note = fmt.Sprintf("%s is ranked by the round trip less the null round trip (%s median during the sweep): %s, and its median round trip (%s) is far above the null",
			s.Solver, fmtNS(float64(x.null.MedianNS)), noSelf, fmtNS(float64(x.medianRTNS)))
	case x != nil && x.null.Samples > 0:
		note = fmt.Sprintf("%s is ranked by the round trip, the null round trip beside (%s median during the sweep, p10 %s, p90 %s): %s, and its median round trip (%s) is too near the null for the difference to be its own time",
			s.Solver, fmtNS(float64(x.null.MedianNS)), fmtNS(float64(x.null.P10NS)), fmtNS(float64(x.null.P90NS)), noSelf, fmtNS(float64(x.medianRTNS)))
	case x != nil || s.hasSelf && s.answeredNoSelf > 0:
		note = fmt.Sprintf("%s is ranked by the round trip: %s", s.Solver, noSelf)
	}
	if x != nil && x.cached > 0 {
		note += fmt.Sprintf("; it answered repeated requests at least %d times faster than first ones, as a cache does: its times are those of first requests (the re-timing of %s not taken)",
			cacheFactor, Count(x.cached, "unit", "units"))
	}
	return note
}

// cacheFactor is the pipeline's: how much faster a cache answers repeated
// requests (pipeline/foreign.go).
const cacheFactor = 4

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
	Command  string   `json:"command"`
	Reported string   `json:"reported"` // the name the program gave in its handshake
	Version  string   `json:"version"`
	SHA256   string   `json:"sha256"`       // of its executable, in full
	Short    string   `json:"sha256_short"` // the first 12 hex digits
	Caps     []string `json:"caps"`
	// NullNS and NullP99NS are the null round trip's median and p99
	// during the sweep (of a run written before it was measured there,
	// before the sweep), NullP10NS and NullP90NS its spread, NullSamples
	// the round trips measured (0 for such an older run).
	NullNS      int64 `json:"null_ns"`
	NullP10NS   int64 `json:"null_p10_ns,omitempty"`
	NullP90NS   int64 `json:"null_p90_ns,omitempty"`
	NullP99NS   int64 `json:"null_p99_ns"`
	NullSamples int   `json:"null_samples,omitempty"`
	// NullAloneNS is, in a run written before the null was measured
	// during the sweep, its median with one worker at a time.
	NullAloneNS int64 `json:"null_alone_ns,omitempty"`
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
	x := &ExternalSummary{Command: e.Command, Reported: e.Reported, Version: e.Version, SHA256: e.SHA256,
		Short: short, Caps: append([]string{}, e.Caps...), NullNS: e.NullNS, NullP99NS: e.NullP99NS, NullAloneNS: e.NullAloneNS}
	if n := nullOf(m, name); n.Samples > 0 {
		x.NullNS, x.NullP10NS, x.NullP90NS, x.NullP99NS, x.NullSamples, x.NullAloneNS = n.MedianNS, n.P10NS, n.P90NS, n.P99NS, n.Samples, 0
	}
	return x
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
	legacy := func(s *Series) bool { return s.ext != nil && s.ext.legacy }
	if ob == nb && legacy(oser) != legacy(nser) && ob != BasisSelf {
		old := "OLD"
		if legacy(nser) {
			old = "NEW"
		}
		return oser, nser, ob, fmt.Sprintf("%s: %s was written before the null round trip was measured during the sweep, "+
			"and its times are round trips less the null measured before it: the other run's include the null (about %s), "+
			"so the times differ by it", oser.Solver, old, fmtNS(float64(max(nullMedian(oser), nullMedian(nser)))))
	}
	if ob == nb {
		return oser, nser, ob, ""
	}
	return oser.RoundTrip(), nser.RoundTrip(), BasisRoundTrip, fmt.Sprintf("%s is ranked by %s in OLD and by %s in NEW: "+
		"its times are compared by the round trip in both", oser.Solver, basisWords(ob), basisWords(nb))
}

// nullMedian returns the median null round trip of an external solver's
// sweep, 0 when none is known.
func nullMedian(s *Series) int64 {
	if s.ext == nil {
		return 0
	}
	return s.ext.null.MedianNS
}

// basisWords names a time basis in a sentence: "its own time", "the
// round trip".
func basisWords(b TimeBasis) string {
	switch b {
	case BasisSelf:
		return "its own time"
	case BasisLessNull:
		return "the round trip less the null round trip"
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
