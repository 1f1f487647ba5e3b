package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"sudokubatch/rundir"
)

// Run is the model every output of the report is computed from: a run's
// rows and, when there is one, its run.json. The summary, the charts, the
// page, compare and show all read a Run.
type Run struct {
	Path     string           // as given: a run directory or a results.csv[.gz] file
	Results  *Results         // series in the run's -solvers order when Manifest is known
	Manifest *rundir.Manifest // nil when there is no run.json beside results.csv
}

// LoadRun loads a run from path, a run directory or a results.csv file;
// run.json is read from the same directory when it is there. The rows of a
// directory are its results.csv, or its results.csv.gz once the run is
// compressed (rundir.RowsPath, rundir.OpenRows). A missing
// path or rows file gives an error wrapping fs.ErrNotExist; a
// results.csv or run.json that is not a regular file is refused without
// being opened for reading. The rows are read as ReadResults reads them
// and, with run.json, also checked against the corpora it records as
// read whole: an id not below the corpus's count of puzzles is refused.
// LoadRun stops with ctx.Err() (wrapped) soon after ctx is canceled.
func LoadRun(ctx context.Context, path string) (*Run, error) {
	csvPath := path
	st, err := os.Stat(path)
	if err != nil && filepath.Base(path) == rundir.ResultsFile {
		// A results.csv named after its run gzipped it: read the gzip.
		if gst, gerr := os.Stat(path + ".gz"); gerr == nil {
			st, err, csvPath = gst, nil, path+".gz"
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading run %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if st.IsDir() {
		dir = path
		if csvPath, err = rundir.RowsPath(path); err != nil {
			return nil, fmt.Errorf("reading run %w", err)
		}
	}
	rd := &Run{Path: path}
	if _, err := os.Stat(filepath.Join(dir, rundir.ManifestFile)); err == nil {
		if rd.Manifest, err = rundir.ReadManifest(dir); err != nil {
			return nil, fmt.Errorf("reading run %s: %w", path, err)
		}
	}
	rows, strategies := expectedRows(rd.Manifest)
	if rd.Results, err = loadResults(ctx, csvPath, wholeCorpora(rd.Manifest), rows, strategies); err != nil {
		return nil, fmt.Errorf("reading run %s: %w", path, err)
	}
	if rd.Manifest != nil {
		rd.Results.OrderSolvers(rd.Manifest.Settings.Solvers)
		rd.Results.describeExternals(rd.Manifest)
	}
	return rd, nil
}

// wholeCorpora returns the count of puzzles of each corpus that m
// records as read to its end, or nil.
func wholeCorpora(m *rundir.Manifest) map[string]int {
	if m == nil {
		return nil
	}
	counts := map[string]int{}
	for _, c := range m.Corpora {
		if c.Complete {
			counts[c.Path] = c.Puzzles
		}
	}
	return counts
}

// expectedRows returns the rows the run m records and the count of its
// strategies (each has its share of the rows when they all have as
// many), or 0, 0 without m.
func expectedRows(m *rundir.Manifest) (rows, strategies int) {
	if m == nil {
		return 0, 0
	}
	return m.Rows, len(m.Settings.Solvers)
}
