package corpus

import (
	"io"
	"io/fs"
	"os"
)

// HoldsInput reports whether standard input looks like input a user
// meant to sweep: a pipe (a FIFO) or a regular file that is not empty. A
// terminal, /dev/null and other devices, a socket, an empty file or no
// standard input at all do not: a run from a shell, cron or systemd is
// not told about them. A reader that is not a file (a test's) holds
// input when it has bytes left, if it can say so.
func HoldsInput(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		if l, ok := r.(interface{ Len() int }); ok {
			return l.Len() > 0
		}
		return r != nil
	}
	if f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	switch mode := st.Mode(); {
	case mode&fs.ModeNamedPipe != 0:
		return true
	case mode.IsRegular():
		return st.Size() > 0
	}
	return false
}
