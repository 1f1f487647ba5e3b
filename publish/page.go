package publish

import (
	"fmt"
	"path/filepath"

	"sudokubatch/corpus"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// The run's facts its page shows, from its directory and run.json.

// corpusFiles returns, for each corpus of the run in dir, the file to
// read its puzzles from (corpus.InRun: the copy the run keeps of a
// stream), or nil without a run.json.
func corpusFiles(dir string, m *rundir.Manifest) []string {
	if m == nil {
		return nil
	}
	files := make([]string, len(m.Settings.Corpora))
	for i := range files {
		files[i] = corpus.InRun(dir, m, i)
	}
	return files
}

// rowsFile is the name of the rows file of the run in dir for its page:
// name when given, else the file there is.
func rowsFile(dir, name string) string {
	if name != "" {
		return name
	}
	if path, err := rundir.RowsPath(dir); err == nil {
		return filepath.Base(path)
	}
	return ""
}

// commandOf is the command line of the run's first segment as a reader
// can run it again (report.RerunCommand: batch and its flags, or go run
// ./cmd/batch for a binary go run built), with how many segments
// (resumes, merged shards) followed; "" without one.
func commandOf(m *rundir.Manifest) string {
	if m == nil || len(m.Segments) == 0 || len(m.Segments[0].Command) == 0 {
		return ""
	}
	c := report.RerunCommand(m.Segments[0].Command)
	if n := len(m.Segments) - 1; n > 0 {
		c += fmt.Sprintf("  (then %s)", report.Count(n, "more segment", "more segments"))
	}
	return c
}

// showDir is the run directory dir as the page's `batch show` commands
// name it: results/latest as the run it points at now, which stays
// when latest moves on.
func showDir(dir string) string {
	if filepath.Base(dir) == rundir.LatestLink {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return real
		}
	}
	return dir
}
