package rundir

import "path/filepath"

// Locate returns the results root that holds the run directory dir, and
// the run's name in it: dir made absolute and followed through its
// symbolic links, then split at its last element. results/latest is the
// run it points at (its root the one of that run, its name the run id),
// "." the directory's own name, a results root reached through a link
// the directory it is. Everything that looks beside a run (the history
// of its root, its previous night, a puzzle's earlier nights) finds the
// root here, so that a run named by its id, through latest or from
// inside finds the same root and the same night. A path that is not
// there is located as far as it goes: made absolute, its links followed
// when they can be.
func Locate(dir string) (root, name string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir) // no working directory: the path as named
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return filepath.Dir(abs), filepath.Base(abs)
}
