package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// BisectDir is the directory of the results root where trend writes its
// files, the bisect scripts among them.
const BisectDir = "trend"

// The exit codes of a bisect script, as `git bisect run` reads them.
const (
	BisectGood  = 0   // the commit is as the good night
	BisectBad   = 1   // the commit shows the alarm's change
	BisectSkip  = 125 // the commit cannot be tested: it does not build, or its sweep failed
	BisectAbort = 255 // nothing can be tested: no reference to compare with (git bisect run stops)
)

// WriteBisect writes the `git bisect run` script of alarm a of report r
// into root/BisectDir, executable, and returns its path relative to root
// (slash-separated: the caller records it in a.Bisect). An alarm with no
// good night or no puzzle has no script: WriteBisect says so.
//
// The script, run from the repository's work tree at each commit git
// bisect checks out, builds the tool there (exit 125, skip, when it does
// not build), sweeps the alarm's puzzles with its strategy under the
// series' settings (limits, -unique, -runs, workers, seed, and the
// corpora the alarm's night recorded in run.json, whose SHA-256 it
// checks: another corpus at that commit is a skip), and compares the
// sweep with the reference:
//
//   - a time alarm (AlarmTime, AlarmStep): `batch compare -threshold
//     1+Threshold REF NEW`, bad (1) when compare exits 1 (surely slower),
//     good (0) when it exits 0, skip otherwise;
//   - a counters alarm: `batch compare -json REF NEW`, bad when a compared
//     unit changed status, calls or guesses, good when none did, skip
//     when no unit could be compared.
//
// The reference is the good night's run directory while it holds its
// rows. Once `batch prune` removed them, or when the environment has
// BISECT_REFERENCE=revision (a time alarm bisected on another machine,
// or after the machine's speed changed), the script builds the good
// night's revision (git archive, into the repository's git directory,
// once for the whole bisection) and sweeps the puzzles with it: the
// counters are deterministic, and the times are then measured on the
// same machine, minutes apart. Without a known good revision (a build
// with no VCS stamp) there is nothing to compare with, and the script
// exits 255, which stops git bisect run.
//
// Every value in the script is single-quoted unless it is plainly safe:
// run names, paths and ids may hold spaces, quotes or $.
func WriteBisect(root string, r *Report, a *Alarm) (rel string, err error) {
	if err := checkBisect(r, a); err != nil {
		return "", err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	badDir, goodDir := nightDir(absRoot, r.Series, a.Night), nightDir(absRoot, r.Series, *a.Good)
	m, err := rundir.ReadManifest(badDir)
	if err != nil {
		return "", fmt.Errorf("writing the bisect script of %s on %s: %w", a.Solver, a.Night.Run, err)
	}
	name := bisectName(r.Series.ID, a)
	script := bisectScript(absRoot, name, r, a, m, badDir, goodDir)
	dir := filepath.Join(root, BisectDir)
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return "", fmt.Errorf("writing the bisect script: %w", err)
	}
	path := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", fmt.Errorf("writing the bisect script: %w", err)
	}
	_, err = tmp.WriteString(script)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), rundir.FileMode|(rundir.FileMode&0o444)>>2) // executable where readable, under the umask
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("writing the bisect script %s: %w", path, err)
	}
	return BisectDir + "/" + name, nil
}

// nightDir returns the absolute run directory of the night ref names:
// the directory of a run named outside the results root (Night.Dir),
// else the run under absRoot.
func nightDir(absRoot string, s *Series, ref NightRef) string {
	for _, n := range s.Nights {
		if n.Run == ref.Run && n.Dir != "" {
			return n.Dir
		}
	}
	return filepath.Join(absRoot, filepath.FromSlash(ref.Run))
}

// checkBisect says why no script can be written for a, if it cannot.
func checkBisect(r *Report, a *Alarm) error {
	switch {
	case r == nil || r.Series == nil:
		return errors.New("writing a bisect script: no series")
	case a == nil:
		return errors.New("writing a bisect script: no alarm")
	case a.Kind != AlarmTime && a.Kind != AlarmStep && a.Kind != AlarmCounters:
		return fmt.Errorf("writing the bisect script of %s on %s: unknown alarm kind %q", a.Solver, a.Night.Run, a.Kind)
	case a.Good == nil:
		return fmt.Errorf("writing the bisect script of %s on %s: the alarm has no good night", a.Solver, a.Night.Run)
	case len(a.Puzzles) == 0:
		return fmt.Errorf("writing the bisect script of %s on %s: the alarm names no puzzle", a.Solver, a.Night.Run)
	case a.Solver == "" || a.Night.Run == "" || a.Good.Run == "":
		return errors.New("writing a bisect script: the alarm lacks its strategy or its nights")
	}
	return nil
}

// bisectName is the script's file name: the series, the strategy, the
// kind of alarm and the night, each made safe in a file name as the
// report makes its charts' (report.SafeFileName).
func bisectName(series string, a *Alarm) string {
	clean := report.SafeFileName
	return fmt.Sprintf("bisect-%s-%s-%s-%s.sh", clean(series), clean(a.Solver), clean(a.Kind), clean(a.Night.Run))
}
