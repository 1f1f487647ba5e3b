package report

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubatch/rundir"
)

// Run is the model every output of the report is computed from: a run's
// rows and, when there is one, its run.json. The summary, the charts, the
// page, compare and show all read a Run.
type Run struct {
	Path     string           // as given: a run directory or a results.csv file
	Results  *Results         // series in the run's -solvers order when Manifest is known
	Manifest *rundir.Manifest // nil when there is no run.json beside results.csv
}

// LoadRun loads a run from path, a run directory or a results.csv file;
// run.json is read from the same directory when it is there. A missing
// path or results.csv gives an error wrapping fs.ErrNotExist.
func LoadRun(path string) (*Run, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading run %s: %w", path, err)
	}
	dir, csvPath := filepath.Dir(path), path
	if st.IsDir() {
		dir, csvPath = path, filepath.Join(path, rundir.ResultsFile)
		if _, err := os.Stat(csvPath); err != nil {
			return nil, fmt.Errorf("reading run %s: no %s in it: %w", path, rundir.ResultsFile, fs.ErrNotExist)
		}
	}
	res, err := LoadResults(csvPath)
	if err != nil {
		return nil, fmt.Errorf("reading run %s: %w", path, err)
	}
	rd := &Run{Path: path, Results: res}
	if _, err := os.Stat(filepath.Join(dir, rundir.ManifestFile)); err == nil {
		if rd.Manifest, err = rundir.ReadManifest(dir); err != nil {
			return nil, fmt.Errorf("reading run %s: %w", path, err)
		}
		res.OrderSolvers(rd.Manifest.Settings.Solvers)
	}
	return rd, nil
}
