package rundir

import (
	"fmt"
	"os"
	"syscall"
)

// OpenRegular opens path for reading if it is a regular file: run.json,
// results.csv and the files a report reads. The open does not wait for a
// writer when path is a FIFO (O_NONBLOCK), and the file is checked once
// open, so that nothing can swap it in between.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): refused, as reading it could block or never end", path, fileKind(st.Mode()))
	}
	return f, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}
