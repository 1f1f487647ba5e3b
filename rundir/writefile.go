package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// FileMode is the mode of the files the tool writes: 0666 less the
// process's umask, as a file made by open(2) or a shell's redirection
// gets. The group of a shared results root (umask 002) can then resume,
// report and prune its runs, and umask 077 keeps them private. The
// temporary files that WriteFile and the rows' rewrites rename into
// place are made 0600 by os.CreateTemp, and are given this mode.
var FileMode = os.FileMode(0o666 &^ processUmask())

// DirMode is the mode the tool asks for its directories (run
// directories, charts/, the results root): the kernel takes the umask
// off it, as it does for mkdir(1).
const DirMode = 0o777

// WriteFile writes path through a temporary file in the same directory
// and a rename, so that path is either the old file or the new one in
// full, with the mode of the rest of a run directory (FileMode).
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(FileMode) // CreateTemp makes 0600 files: let the others the umask allows read the report
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}

// overwriteInPlace writes data over the file at path, if the blocks the
// file holds can take it: no block is asked of a full disk, and the
// file is not changed when they cannot.
func overwriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || int64(len(data)) > sys.Blocks*512 {
		return errors.New("the new file does not fit in the old one's blocks")
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	return f.Sync()
}
