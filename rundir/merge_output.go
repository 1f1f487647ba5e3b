package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// The output of Merge: built aside in MergeTemp, renamed into place.

// MergeTemp is the temporary directory in which Merge builds the run it
// renames to out: a hidden directory beside out.
func MergeTemp(out string) string {
	clean := filepath.Clean(out)
	if abs, err := filepath.Abs(clean); err == nil {
		clean = abs
	}
	return filepath.Join(filepath.Dir(clean), "."+filepath.Base(clean)+".merging")
}

// checkMergeOut refuses an output inside another run's directory, or
// one that holds a run or other files (a lock file and the temporary
// files of a killed creation do not count).
func checkMergeOut(out string) error {
	if run := EnclosingRun(out); run != "" {
		return fmt.Errorf("merge: output %s: %w: %s holds a run (%s); choose a directory outside it", out, ErrInsideRun, run, ManifestFile)
	}
	st, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("merge: output %s: %w", out, err)
	case !st.IsDir():
		return fmt.Errorf("merge: output %s is not a directory", out)
	}
	if err := checkReusable(out); err != nil {
		if errors.Is(err, ErrExists) {
			status := "unknown"
			if m, err := ReadManifest(out); err == nil {
				status = m.Status
			}
			return fmt.Errorf("merge: %s: %w (status %s): choose another -o, or remove it to merge again", out, ErrExists, status)
		}
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}

// clearMergeTemp removes what a merge into out that was killed left in
// tmp. A merge still running holds its lock: it is refused with its pid.
func clearMergeTemp(tmp, out string) error {
	if _, err := os.Lstat(tmp); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	lock, err := LockDir(tmp)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return fmt.Errorf("merge: another merge into %s is under way: %w", out, err)
		}
		return fmt.Errorf("merge: removing the temporary run of an earlier merge: %w", err)
	}
	defer lock.Unlock()
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("merge: removing the temporary run of an earlier merge, %s: %w", tmp, err)
	}
	return nil
}

// renameMerged puts the merged run built in tmp at out. An out that
// exists must be reusable (checkMergeOut); its lock and temporary files
// are removed, under its lock, so that the rename can replace it.
func renameMerged(tmp, out string) error {
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		lock, err := LockDir(out)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		defer lock.Unlock()
		if err := checkMergeOut(out); err != nil {
			return err
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		for _, e := range entries {
			if err := os.Remove(filepath.Join(out, e.Name())); err != nil {
				return fmt.Errorf("merge: clearing %s: %w", out, err)
			}
		}
	}
	// rename(2) replaces an empty directory in one step (os.Rename
	// refuses any directory).
	if err := syscall.Rename(tmp, out); err != nil {
		return fmt.Errorf("merge: %w: putting the merged run in place: %w", ErrWrite, &os.LinkError{Op: "rename", Old: tmp, New: out, Err: err})
	}
	return nil
}

// shardDirs returns the shard directories a merged run was merged from,
// as its segments record them, each once.
func (m *Manifest) shardDirs() []string {
	var dirs []string
	for _, s := range m.Segments {
		if s.Source != "" && !slices.Contains(dirs, s.Source) {
			dirs = append(dirs, s.Source)
		}
	}
	return dirs
}
