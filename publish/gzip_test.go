package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestGzipRows: the rows of a finished run are gzipped, with a line that
// says where and how small; a second time there is nothing to say.
func TestGzipRows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	sweepRun(t, dir, night, "0:20", "dlx")
	line, err := GzipRows(dir)
	if err != nil || !strings.HasPrefix(line, "rows gzipped: "+filepath.Join(dir, rundir.ResultsGzip)+" (") || !strings.Contains(line, " as results.csv) in ") {
		t.Errorf("GzipRows: %q, %v", line, err)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.ResultsFile)); err == nil {
		t.Error("results.csv is still there")
	}
	if line, err := GzipRows(dir); line != "" || err != nil {
		t.Errorf("gzipped again: %q, %v", line, err)
	}
}

// TestAfterSweep: the analysis of a finished run only, the rows named
// gzipped for a finished run with gzip.
func TestAfterSweep(t *testing.T) {
	v := VariantsRequest{N: 10, Seeds: 2}
	if o := AfterSweep(true, v, true, rundir.Finished, false); !o.SVG || o.Variants == nil || *o.Variants != v || o.RowsFile != rundir.ResultsGzip {
		t.Errorf("a finished run: %+v", o)
	}
	if o := AfterSweep(false, v, true, rundir.Finished, true); o.Variants != nil || o.RowsFile != rundir.ResultsGzip {
		t.Errorf("a finished run, interrupted during its retiming: %+v", o)
	}
	if o := AfterSweep(false, v, true, rundir.Interrupted, true); o.Variants != nil || o.RowsFile != "" {
		t.Errorf("an interrupted run: %+v", o)
	}
	if o := AfterSweep(false, VariantsRequest{}, false, rundir.Finished, false); o.Variants != nil || o.RowsFile != "" {
		t.Errorf("no analysis, no gzip: %+v", o)
	}
}
