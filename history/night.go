package history

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Night is one finished run as the history holds it: when it ran, which
// build, its signature, and per strategy the figures of its summary.json.
// It is read from the run directory's run.json and summary.json only,
// never from results.csv (which retention may compress or drop).
type Night struct {
	Run string `json:"run"` // the run directory, relative to the results root
	// Dir is the run directory of a run named on the command line outside
	// the results root (Index.Selected); empty for the root's own runs.
	Dir       string    `json:"-"`
	RunID     string    `json:"run_id"`
	Start     time.Time `json:"start"` // the run's start (UTC): the night's date
	End       time.Time `json:"end"`
	Revision  string    `json:"revision"` // VCS revision of the tool that ran it
	GoVersion string    `json:"go_version,omitempty"`
	BuildTags string    `json:"build_tags,omitempty"` // the -tags of the build
	// Binary identifies the program that ran the night (rundir.Machine.Binary):
	// its VCS stamp or its executable's SHA-256; empty for a run.json
	// written before it was recorded.
	Binary    string    `json:"binary,omitempty"`
	Host      string    `json:"host,omitempty"`
	Seed      uint64    `json:"seed"`
	Signature Signature `json:"signature"`
	Rows      int       `json:"rows"`
	Timed     bool      `json:"timed"` // results.csv had the timing columns: times were confirmed
	// OtherShare is the share of the workers' CPU time that other work took
	// while the night's units were timed (rundir.Segment.OtherShare; the
	// largest of its segments); nil when run.json does not record it.
	OtherShare *float64   `json:"other_share,omitempty"`
	Strategy   []Strategy `json:"strategies"`
}

// Strategy is one strategy's figures of one night: its time quantiles
// with their 95% intervals (integer nanoseconds), its status counts, its
// no-guess rate and its total calls and guesses.
type Strategy struct {
	Solver   string   `json:"solver"`
	Units    int      `json:"units"`
	Measured int      `json:"measured"`
	Censored int      `json:"censored"` // measured units stopped by a limit
	Median   Quantile `json:"median_ns"`
	P90      Quantile `json:"p90_ns"`
	P99      Quantile `json:"p99_ns"`
	TotalNS  int64    `json:"total_ns"`
	// Statuses counts the units by status, every status of the summary.
	Statuses   map[string]int `json:"statuses"`
	Solved     int            `json:"solved"`
	TimedOut   int            `json:"timed_out"`
	NoGuess    int            `json:"no_guess"`
	NoGuessPct float64        `json:"no_guess_pct"`
	// Calls and Guesses are the totals over the measured units, stopped
	// ones at their stopping value (lower bounds when Censored > 0).
	Calls   int64 `json:"calls"`
	Guesses int64 `json:"guesses"`
	// TimeBasis is the time the figures are of (report.TimeBasis): "self"
	// for an external solver ranked by its own time; empty for the round
	// trip (every built-in strategy, and summaries written before it).
	TimeBasis string `json:"time_basis,omitempty"`
}

// Basis returns the strategy's time basis: report.BasisRoundTrip when
// TimeBasis is empty.
func (s *Strategy) Basis() report.TimeBasis {
	if s.TimeBasis == "" {
		return report.BasisRoundTrip
	}
	return report.TimeBasis(s.TimeBasis)
}

// Quantile is a time quantile with its interval. Bound is "lower" when
// units stopped by a limit make the value a lower bound (as in
// summary.json), empty when it is exact.
type Quantile struct {
	Value int64  `json:"value"`
	Lo    int64  `json:"lo"`
	Hi    int64  `json:"hi"`
	Bound string `json:"bound,omitempty"`
}

// Build names the build that ran the night, the binary itself whatever
// directory it ran in: its SHA-256 ("sha256:..."), or its VCS stamp
// with the Go version and build tags. A run.json written before the
// binary was recorded names it by its revision when that is the build's
// own stamp; "" when the build is not known well enough to tell two
// apart: an unknown revision, a tree with changes ("+dirty"), or the
// commit of the checkout the binary ran in (" (checkout)"), which says
// nothing of the binary.
func (n *Night) Build() string {
	switch {
	case strings.HasPrefix(n.Binary, "sha256:"):
		return n.Binary
	case n.Binary != "":
		return n.Binary + " " + n.GoVersion + " tags=" + n.BuildTags
	case n.Revision == "" || n.Revision == "unknown" || strings.Contains(n.Revision, "dirty") ||
		strings.Contains(n.Revision, "devel") || strings.Contains(n.Revision, "(checkout)"):
		return ""
	}
	return "vcs:" + n.Revision + " " + n.GoVersion + " tags=" + n.BuildTags
}

// StrategyNamed returns the figures of strategy name, or nil.
func (n *Night) StrategyNamed(name string) *Strategy {
	for i := range n.Strategy {
		if n.Strategy[i].Solver == name {
			return &n.Strategy[i]
		}
	}
	return nil
}

// The reasons an entry of a run being written gives: skipRunning is read
// again at each refresh, since its process may have been killed since
// without changing its run.json.
const (
	skipRunning = "not finished (status running: a process holds its lock)"
	skipKilled  = "killed"
)

// readNight reads the night of the run in root/rel from its run.json and
// summary.json. A run that is no night (not finished, no summary, a
// summary written before the run ended, a shard, mixed machines) returns
// a nil Night and the reason; a file that cannot be read or decoded
// returns an error naming it.
func readNight(root, rel string) (*Night, string, error) {
	dir := filepath.Join(root, rel)
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		return nil, "", err
	}
	if m.Status == rundir.Running {
		if held, ok := rundir.LockHeld(dir); ok && !held {
			return nil, fmt.Sprintf("%s: its run.json says running, but no process holds its lock (killed, or the machine went down); batch -resume -out %s finishes it", skipKilled, dir), nil
		}
		return nil, skipRunning, nil
	}
	if m.Status != rundir.Finished {
		return nil, "not finished (status " + m.Status + ")", nil
	}
	if m.Settings.Shard != "" {
		return nil, "a shard (" + m.Settings.Shard + "): trend reads the merged run", nil
	}
	sig, why := signatureOf(m)
	if why != "" {
		return nil, why, nil
	}
	path := filepath.Join(dir, rundir.SummaryJSON)
	f, err := rundir.OpenRegular(path)
	if err != nil {
		return nil, "no summary.json (batch report " + dir + " writes it)", nil
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", path, err)
	}
	var sum report.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, "", fmt.Errorf("not a summary.json: %w", decodeError(path, b, err))
	}
	if sum.Run == nil || sum.Run.RunID != m.RunID {
		return nil, "summary.json is not this run's (batch report " + dir + " rewrites it)", nil
	}
	if sum.Run.Status != rundir.Finished {
		return nil, "summary.json was written before the run finished (batch report " + dir + " rewrites it)", nil
	}
	first := m.Segments[0].Machine
	n := &Night{
		Run: filepath.ToSlash(rel), RunID: m.RunID, Start: m.Start.UTC(), End: m.End.UTC(),
		Revision: first.Version, GoVersion: first.GoVersion, BuildTags: first.BuildTags, Binary: first.Binary, Host: first.Host,
		Seed: m.Settings.Seed, Signature: sig, Rows: m.Rows, Timed: sum.Timed,
	}
	for _, g := range m.Segments {
		if share, ok := g.OtherShare(); ok && g.Rows > 0 && (n.OtherShare == nil || share > *n.OtherShare) {
			n.OtherShare = &share
		}
	}
	for _, g := range m.Segments[1:] {
		if g.Machine.Version != n.Revision && g.Rows > 0 {
			return nil, fmt.Sprintf("its segments ran builds of two revisions (%s, %s)", n.Revision, g.Machine.Version), nil
		}
		if g.Machine.Binary != n.Binary && g.Rows > 0 {
			return nil, fmt.Sprintf("its segments ran two builds (%s, %s)", n.Binary, g.Machine.Binary), nil
		}
	}
	for _, st := range sum.Strategies {
		n.Strategy = append(n.Strategy, strategyOf(st))
	}
	return n, "", nil
}

// strategyOf returns the figures of one strategy of a summary. The
// totals of calls and guesses are the summary's means times the measured
// units, rounded: exact for any total below 2^53.
func strategyOf(st *report.StrategySummary) Strategy {
	s := Strategy{
		Solver: st.Solver, Units: st.Units, Measured: st.Measured, Censored: st.Censored,
		Median:  quantileOf(st.TimeNS.Median, st.TimeNS.MedianCI),
		P90:     quantileOf(st.TimeNS.P90, st.TimeNS.P90CI),
		P99:     quantileOf(st.TimeNS.P99, st.TimeNS.P99CI),
		TotalNS: st.TotalNS, Statuses: map[string]int{},
		Solved: st.Count(solvers.StatusSolved), TimedOut: st.Count(solvers.StatusTimeout),
		NoGuess: st.NoGuess, NoGuessPct: st.NoGuessPct.Value,
		Calls:   int64(math.Round(st.Calls.Mean.Value * float64(st.Measured))),
		Guesses: int64(math.Round(st.GuessesPerPuzzle.Value * float64(st.Measured))),
	}
	if st.TimeBasis != "" && st.TimeBasis != report.BasisRoundTrip {
		s.TimeBasis = string(st.TimeBasis)
	}
	for k, v := range st.Statuses {
		if v != 0 {
			s.Statuses[k.String()] = v
		}
	}
	return s
}

func quantileOf(e report.Estimate, iv report.Interval) Quantile {
	q := Quantile{Value: int64(math.Round(e.Value)), Lo: int64(math.Round(iv.Lo.Value)), Hi: int64(math.Round(iv.Hi.Value))}
	if e.Bound != report.BoundExact {
		q.Bound = e.Bound.String()
	}
	return q
}

// ShortBuild is a build (Night.Build) for people: its SHA-256 or VCS
// revision cut to 12 digits, then its Go version and tags when it has
// them: "sha256:7b91116b1406", "vcs:ae4344f0a1b2 go1.26.0".
func ShortBuild(b string) string {
	id, rest, _ := strings.Cut(b, " ")
	if kind, digits, ok := strings.Cut(id, ":"); ok && len(digits) > 12 {
		id = kind + ":" + digits[:12]
	}
	rest = strings.TrimSpace(strings.TrimSuffix(rest, "tags="))
	if rest == "" {
		return id
	}
	return id + " " + rest
}
