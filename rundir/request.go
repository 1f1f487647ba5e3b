package rundir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sudokubatch/solvers"
)

// Request is a sweep as the flags of `batch run` ask for it, before any
// check: Settings checks it, with the parsers that check a run.json, and
// returns the settings the run records.
type Request struct {
	// Solvers is the -solvers list as given (solvers.Choose), External the
	// names of the external solvers (-ext), known beside the registry's.
	// Without SolversGiven the run sweeps the default strategies and
	// every external one; the list is checked all the same.
	Solvers      string
	SolversGiven bool
	External     []string
	Timeout      time.Duration
	MaxCalls     uint64
	Seed         uint64
	IDs          string // -ids as given: "39949,2018"
	Range        string // a:b
	Limit        int
	Shard        string // k/n, or auto or auto/N (resolved by AutoShard)
	Unique       bool
	Runs         int
	Corpora      []string // the default corpus when none was named (the caller's)
}

// Settings checks r and returns the settings of the run it asks for.
// -shard auto (IsAutoShard) is resolved from getenv: Settings.Shard is
// the shard k/n. An error names the flag and what it wants.
func (r Request) Settings(getenv func(string) string) (Settings, error) {
	if r.Runs < 1 || r.Runs > MaxRuns {
		return Settings{}, fmt.Errorf("-runs %d: want 1 to %d", r.Runs, MaxRuns)
	}
	if IsAutoShard(r.Shard) {
		shard, err := AutoShard(r.Shard, getenv)
		if err != nil {
			return Settings{}, fmt.Errorf("-shard %v", err)
		}
		r.Shard = shard
	}
	s := Settings{TimeoutNS: int64(r.Timeout), Timeout: r.Timeout.String(), MaxCalls: r.MaxCalls, Seed: r.Seed,
		Range: r.Range, Limit: r.Limit, Shard: r.Shard, Unique: r.Unique, Corpora: r.Corpora, Runs: r.Runs}
	if r.Timeout < 0 {
		return s, fmt.Errorf("-timeout %s: want a duration >= 0", r.Timeout)
	}
	if r.Limit < 0 {
		return s, fmt.Errorf("-limit %d: want a number >= 0", r.Limit)
	}
	list := r.Solvers
	if !r.SolversGiven {
		list = solvers.DefaultList(r.External)
	}
	names, err := solvers.Choose(list, r.External)
	if err != nil {
		return s, err
	}
	s.Solvers = names
	if r.IDs != "" {
		if s.IDs, err = ParseIDs(r.IDs); err != nil {
			return s, fmt.Errorf("-ids: %w", err)
		}
	}
	if r.Range != "" {
		if a, b, ok := strings.Cut(r.Range, ":"); ok && a != "" && a == b {
			return s, fmt.Errorf("the selection matches no puzzle: -range %s is empty (a:b selects a <= id < b)", r.Range)
		}
		if _, _, err := ParseRange(r.Range); err != nil {
			return s, fmt.Errorf("-range: %w", err)
		}
	}
	if r.Shard != "" {
		if _, _, err := ParseShard(r.Shard); err != nil {
			return s, fmt.Errorf("-shard: %w; or auto: the shard of a Slurm job array's task or a Kubernetes Indexed Job's pod", err)
		}
	}
	seen := map[string]bool{}
	for _, c := range s.Corpora {
		// A path that run.json or results.csv could not record as given
		// (a line break, bytes that are not UTF-8) is refused up front:
		// a run over it could not be resumed.
		if err := CheckCorpusPath(c); err != nil {
			return s, err
		}
		if seen[c] {
			return s, fmt.Errorf("corpus %s is given twice", c)
		}
		seen[c] = true
	}
	return s, s.Validate() // the checks above catch what it would
}

// CheckResume checks the flags given to -resume against s, the settings
// of the run in dir: a flag that decides rows may be given again but
// must agree. flags are the settings the flags make, their External the
// programs -ext names (Name, Command, Args and the Files -ext-files
// names: the run's records are compared on those), given says which
// flags were given, and corpora are the corpora named (none: the run's).
func (s *Settings) CheckResume(dir string, flags Settings, given func(flag string) bool, corpora []string) error {
	sameExt := sameExternals(flags.External, s.External)
	for _, c := range []struct {
		flag string
		same bool
	}{
		{"solvers", slices.Equal(flags.Solvers, s.Solvers)},
		{"timeout", flags.TimeoutNS == s.TimeoutNS},
		{"max-calls", flags.MaxCalls == s.MaxCalls},
		{"seed", flags.Seed == s.Seed},
		{"ids", slices.Equal(flags.IDs, s.IDs)},
		{"range", flags.Range == s.Range},
		{"limit", flags.Limit == s.Limit},
		{"shard", flags.Shard == s.Shard},
		{"unique", flags.Unique == s.Unique},
		{"runs", flags.Runs == s.Runs || (s.Runs == 0 && flags.Runs == MaxRuns)},
		{"ext", sameExt},
		{"ext-files", sameExt},
	} {
		if given(c.flag) && !c.same {
			return fmt.Errorf("-resume: -%s differs from the run's setting in %s/%s; resume with the run's settings (omit -%s)", c.flag, dir, ManifestFile, c.flag)
		}
	}
	if len(corpora) > 0 && !slices.Equal(corpora, s.Corpora) {
		return fmt.Errorf("-resume: corpora %v differ from the run's %v", corpora, s.Corpora)
	}
	return nil
}

// sameExternals reports whether the programs named (an External of each
// -ext: the files named with -ext-files) are those of the run's records:
// the same names, commands and named files, in order.
func sameExternals(named, was []External) bool {
	namedFiles := func(e External) []string {
		var paths []string
		for _, f := range e.Files {
			if f.Named {
				paths = append(paths, f.Path)
			}
		}
		return paths
	}
	return slices.EqualFunc(named, was, func(a, b External) bool {
		return a.Name == b.Name && slices.Equal(a.Args, b.Args) && slices.Equal(namedFiles(a), namedFiles(b))
	})
}

// CreateNew creates the run directory of a new sweep started at m.Start
// (Create): out, or a new DefaultRoot/<run id> (NewRunID) when out is "".
// The run's id, m.RunID, is the directory's name.
func CreateNew(out string, m *Manifest) (*Dir, error) {
	if out == "" {
		if err := os.MkdirAll(DefaultRoot, DirMode); err != nil {
			return nil, fmt.Errorf("creating %s: %w", DefaultRoot, err)
		}
		out = filepath.Join(DefaultRoot, NewRunID(DefaultRoot, m.Start))
	}
	m.RunID = filepath.Base(out)
	return Create(out, m)
}

// Latest returns the run directory that root's LatestLink points at, or
// the link's path when it points at none.
func Latest(root string) string {
	out := filepath.Join(root, LatestLink)
	if target, err := filepath.EvalSymlinks(out); err == nil {
		return target
	}
	return out
}

// ResumeTarget returns the run directory that -resume without -out
// finishes: root's LatestLink target (Latest), unless a run under root
// that started after it was left running by a process that is gone (a
// SIGKILL, the OOM killer, a reboot: its lock is free). LatestLink moves
// to a new run only when its sweep ends, so such a run is never its
// target, and resuming the target would check the night before instead.
// The newest such run is returned, with a line saying why it was chosen;
// the line is "" when the target is Latest's.
func ResumeTarget(root string) (dir, why string) {
	latest := Latest(root)
	var after time.Time
	if m, err := ReadManifest(latest); err == nil {
		after = m.Start
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return latest, ""
	}
	var best *Manifest
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		cand := filepath.Join(root, e.Name())
		m, err := ReadManifest(cand)
		if err != nil || m.Status != Running || !m.Start.After(after) {
			continue
		}
		if best != nil && !m.Start.After(best.Start) {
			continue
		}
		if held, ok := LockHeld(cand); held && ok {
			continue // in use: a sweep still running, not ours to finish
		}
		best, dir = m, cand
	}
	if best == nil {
		return latest, ""
	}
	return dir, fmt.Sprintf("%s was left running by a process that ended without closing it (killed?), and started after %s (%s): resuming it",
		dir, filepath.Join(root, LatestLink), latest)
}
