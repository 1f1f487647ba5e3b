package rundir

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sudokubatch/solvers"
)

// Settings are the parts of a run that decide its rows: two runs with
// equal settings over the same corpora give the same counters.
type Settings struct {
	Solvers   []string `json:"solvers"`
	TimeoutNS int64    `json:"timeout_ns"` // 0: none
	Timeout   string   `json:"timeout"`    // the same, for people
	MaxCalls  uint64   `json:"max_calls"`  // 0: none
	Seed      uint64   `json:"seed"`
	IDs       []int    `json:"ids,omitempty"`
	Range     string   `json:"range,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	Shard     string   `json:"shard,omitempty"` // "k/n"
	Unique    bool     `json:"unique"`
	Corpora   []string `json:"corpora"`
	// Runs is how many times at most a cheap unit is timed (-runs);
	// 0 in a run.json written before it: the default, MaxRuns.
	Runs int `json:"runs,omitempty"`
	// External lists the external solvers among Solvers (-ext), with
	// their provenance: -resume and merge refuse a changed executable.
	External []External `json:"external,omitempty"`
}

// External is an external solver of a run (-ext NAME=COMMAND,
// docs/PROTOCOL.md) and what identifies the program that was swept.
type External struct {
	Name       string   `json:"name"`       // the strategy's name in the run
	Command    string   `json:"command"`    // COMMAND as given
	Args       []string `json:"args"`       // COMMAND split into arguments
	Executable string   `json:"executable"` // the program run: Args[0] looked up in PATH, absolute
	SHA256     string   `json:"sha256"`     // of Executable's contents
	// Files are the arguments that name regular files (a script, a data
	// file) and the files of -ext-files (Named), with their SHA-256: a
	// changed script is a changed solver.
	Files    []FileSum `json:"files,omitempty"`
	Reported string    `json:"reported"` // the name the program gave in its handshake
	Version  string    `json:"version"`  // the version it gave
	Caps     []string  `json:"caps"`     // the capabilities it gave
	// NullNS, NullP99NS and NullAloneNS are set in runs written before
	// the null round trip was measured during the sweep (Timing.Null):
	// the null measured before it, which those runs subtracted from each
	// unit's time (ns), its p99, and its median with one worker at a
	// time (subtracted from the units re-timed alone).
	NullNS      int64 `json:"null_ns,omitempty"`
	NullP99NS   int64 `json:"null_p99_ns,omitempty"`
	NullAloneNS int64 `json:"null_alone_ns,omitempty"`
}

// FileSum is a file and the SHA-256 of its contents; or a directory of
// -ext-files and the SHA-256 of the list of its files' (Files of them).
type FileSum struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Named  bool   `json:"named,omitempty"` // given with -ext-files
	Files  int    `json:"files,omitempty"` // a directory: the files hashed
}

// ExternalNamed returns the external solver of the settings named name.
func (s *Settings) ExternalNamed(name string) (External, bool) {
	for _, e := range s.External {
		if e.Name == name {
			return e, true
		}
	}
	return External{}, false
}

// MaxRuns is the most timed runs of a cheap unit, and -runs's default.
const MaxRuns = 5

// Validate checks the settings as the flags of `batch run` are checked,
// with the same parsers, so that a damaged or edited run.json is refused
// with the name of the field (settings.shard, settings.corpora[2], ...)
// instead of being half applied. Strategies are checked by name against
// the registry only by CheckSolvers: a report can read the rows of a
// strategy that this build no longer has, a resume cannot run it.
func (s *Settings) Validate() error {
	if len(s.Solvers) == 0 {
		return errors.New("settings.solvers: no strategy")
	}
	for i, n := range s.Solvers {
		if n == "" {
			return fmt.Errorf("settings.solvers[%d]: empty name", i)
		}
		if slices.Index(s.Solvers, n) < i {
			return fmt.Errorf("settings.solvers[%d]: %s is given twice", i, n)
		}
	}
	for i, e := range s.External {
		switch {
		case !slices.Contains(s.Solvers, e.Name):
			return fmt.Errorf("settings.external[%d]: %q is not among settings.solvers", i, e.Name)
		case len(e.Args) == 0:
			return fmt.Errorf("settings.external[%d]: no command", i)
		case len(e.SHA256) != 64:
			return fmt.Errorf("settings.external[%d]: sha256 %q is not 64 hex digits", i, e.SHA256)
		}
		if _, ok := solvers.Lookup(e.Name); ok {
			return fmt.Errorf("settings.external[%d]: %q is the name of a built-in strategy", i, e.Name)
		}
		if slices.IndexFunc(s.External, func(x External) bool { return x.Name == e.Name }) < i {
			return fmt.Errorf("settings.external[%d]: %s is given twice", i, e.Name)
		}
	}
	if s.TimeoutNS < 0 {
		return fmt.Errorf("settings.timeout_ns: %d, want a duration >= 0", s.TimeoutNS)
	}
	for i, id := range s.IDs {
		if id < 0 || (i > 0 && id <= s.IDs[i-1]) {
			return fmt.Errorf("settings.ids[%d]: %d, want distinct ids >= 0 in increasing order", i, id)
		}
	}
	if s.Range != "" {
		if _, _, err := ParseRange(s.Range); err != nil {
			return fmt.Errorf("settings.range: %w", err)
		}
	}
	if s.Limit < 0 {
		return fmt.Errorf("settings.limit: %d, want a number >= 0", s.Limit)
	}
	if s.Runs < 0 || s.Runs > MaxRuns {
		return fmt.Errorf("settings.runs: %d, want 1 to %d (0: %d)", s.Runs, MaxRuns, MaxRuns)
	}
	if s.Shard != "" {
		if _, _, err := ParseShard(s.Shard); err != nil {
			return fmt.Errorf("settings.shard: %w", err)
		}
	}
	if len(s.Corpora) == 0 {
		return errors.New("settings.corpora: no corpus")
	}
	seen := make(map[string]bool, len(s.Corpora))
	for i, c := range s.Corpora {
		if err := CheckCorpusPath(c); err != nil {
			return fmt.Errorf("settings.corpora[%d]: %w", i, err)
		}
		if seen[c] {
			return fmt.Errorf("settings.corpora[%d]: %s is given twice", i, c)
		}
		seen[c] = true
	}
	return nil
}

// CheckSolvers checks that this build has every strategy of the settings,
// under the name the registry gives it.
func (s *Settings) CheckSolvers() error {
	for i, n := range s.Solvers {
		if _, ok := s.ExternalNamed(n); ok {
			continue
		}
		if sv, ok := solvers.Lookup(n); !ok || sv.Name() != n {
			return fmt.Errorf("settings.solvers[%d]: unknown strategy %q (known: %s)", i, n, strings.Join(solvers.Names(), ", "))
		}
	}
	return nil
}

// CheckCorpusPath refuses a corpus path that a run could not record
// faithfully: empty, not UTF-8 (JSON would store another name in
// run.json, and -resume would look for a file that is not there), or
// holding a control character such as a line break (results.csv keeps
// every row on one line).
func CheckCorpusPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty corpus path")
	case !utf8.ValidString(p):
		return fmt.Errorf("corpus path %q is not UTF-8: rename the file, or give it as - (standard input)", p)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("corpus path %q holds a control character (%U): rename the file, or give it as - (standard input)", p, r)
		}
	}
	return nil
}

// ParseIDs parses "39949,2018" (or "#39949") into sorted, distinct ids.
func ParseIDs(s string) ([]int, error) {
	var ids []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		f = strings.TrimPrefix(f, "#")
		id, err := strconv.Atoi(f)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("bad puzzle id %q: want a number >= 0", f)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no puzzle id in %q", s)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// ParseRange parses "a:b" (a <= id < b; either side may be empty).
func ParseRange(s string) (from, to int, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("bad range %q: want a:b (a <= id < b)", s)
	}
	if a != "" {
		if from, err = strconv.Atoi(a); err != nil || from < 0 {
			return 0, 0, fmt.Errorf("bad range %q: %q is not an id", s, a)
		}
	}
	if b != "" {
		if to, err = strconv.Atoi(b); err != nil || to <= from {
			return 0, 0, fmt.Errorf("bad range %q: the end must be a number above the start", s)
		}
	}
	return from, to, nil
}

// ParseShard parses "k/n" with 0 <= k < n.
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("bad shard %q: want k/n with 0 <= k < n", s)
	}
	return k, n, nil
}

// runs is Runs, a run.json written before it (0) meaning MaxRuns.
func (s *Settings) runs() int {
	if s.Runs == 0 {
		return MaxRuns
	}
	return s.Runs
}
