package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"sudokubatch/rundir"
)

// checkEvery is how many lines a read goes between two looks at its
// context.
const checkEvery = 4096

// Each reads the corpus at path (a file, a .gz, or the embedded default
// corpus when path is data.Name and there is no such file) and calls fn
// with each entry in order until fn returns false; name names the corpus
// in the entries' errors. The entry is overwritten by the next one. It
// never reads a stream (standard input, a pipe, a FIFO, a device: they
// can be read only once, by a run, and may never end): that is an error.
// The error is also for a corpus that cannot be opened or read to its
// end, or ctx.Err() when ctx is canceled.
func Each(ctx context.Context, path, name string, fn func(*Entry) bool) error {
	kind, err := Classify(path)
	if err != nil {
		return err
	}
	if kind == KindStream {
		return fmt.Errorf("corpus %s is a stream: it is read only once, by a run", path)
	}
	c, err := Open(ctx, path, Source{}, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	sc := c.Scanner(name)
	for n := 1; sc.Scan(); n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if !fn(sc.Current()) {
			return nil
		}
	}
	return sc.Err()
}

// Find reads the corpus at path ("-": stdin, which may be nil for
// os.Stdin; a gzip file is read through gzip; data.Name is the embedded
// default corpus when there is no such file) up to the entry with the
// given id and returns it, whether there is one, and what is known of the
// corpus: a file's size and SHA-256 (the bytes are hashed first, as a run
// records them), and, when the id is not there, its puzzle count. An
// entry whose line is not a puzzle is found too, with Err set to its
// *SyntaxError. A stream is read only as far as the id, and a read that
// waits on it ends when ctx is canceled. The error is for a corpus that
// cannot be opened or read.
func Find(ctx context.Context, path string, stdin io.Reader, id int) (Entry, bool, rundir.CorpusInfo, error) {
	info, err := identify(ctx, path, false)
	if err != nil {
		return Entry{}, false, info, err
	}
	c, err := Open(ctx, path, Source{Stdin: stdin, Known: &info}, nil)
	if err != nil {
		return Entry{}, false, info, err
	}
	defer c.Close()
	sc := c.Scanner(path)
	for n := 0; sc.Scan(); n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			return Entry{}, false, c.Info, ctx.Err()
		}
		c.Info.Puzzles++
		e := sc.Current()
		if e.ID == id {
			return *e, true, c.Info, nil
		}
		if e.Err != nil {
			c.Info.Invalid++
		}
	}
	c.Info.Lines = sc.Lines()
	if err := sc.Err(); err != nil {
		if errors.Is(err, ErrStopped) {
			return Entry{}, false, c.Info, ctx.Err()
		}
		return Entry{}, false, c.Info, err
	}
	c.Info.Complete = true
	c.Info.Skipped = c.Info.Lines - c.Info.Puzzles
	return Entry{}, false, c.Info, nil
}

// InRun returns the file to read corpus i of the run in dir from: the
// copy the run keeps (rundir.StreamFile) when the corpus was a stream
// (standard input, a pipe), else the corpus's own path as the run
// recorded it. m is the run's run.json; nil or an index it does not
// describe gives "".
func InRun(dir string, m *rundir.Manifest, i int) string {
	if m == nil || i < 0 || i >= len(m.Settings.Corpora) {
		return ""
	}
	if i < len(m.Corpora) && m.Corpora[i].Stream || m.Settings.Corpora[i] == "-" {
		return filepath.Join(dir, rundir.StreamFile(i))
	}
	return m.Settings.Corpora[i]
}
