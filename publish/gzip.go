package publish

import (
	"fmt"
	"path/filepath"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// AfterSweep returns the options of the report that ends a sweep whose
// run ended with status (interrupted: stopped by a signal): the charts as
// SVG too with svg; the analysis v (N 0: none) of a finished run only,
// an unfinished run's hard lists not being the run's; RowsFile
// results.csv.gz with gzip when the run is finished, its rows gzipped
// once the report is written (GzipRows). The highlight is run.json's.
func AfterSweep(svg bool, v VariantsRequest, gzip bool, status string, interrupted bool) Options {
	opt := Options{SVG: svg, Top: report.DefaultTop}
	if v.N > 0 && status == rundir.Finished && !interrupted {
		opt.Variants = &v
	}
	if gzip && status == rundir.Finished {
		opt.RowsFile = rundir.ResultsGzip
	}
	return opt
}

// GzipRows gzips the rows of the finished run in dir once its report is
// written (rundir.Compress) and returns the line that says so: "rows
// gzipped: DIR/results.csv.gz (1.20 MB, was 9.80 MB as results.csv) in
// 120ms"; "" when they were gzipped already. On an error the rows stay
// whole in results.csv.
func GzipRows(dir string) (string, error) {
	start := time.Now()
	c, err := rundir.Compress(dir)
	if err != nil || c.Plain == 0 {
		return "", err
	}
	return fmt.Sprintf("rows gzipped: %s (%s, was %s as %s) in %s", filepath.Join(dir, rundir.ResultsGzip),
		report.FormatBytes(c.Gzip), report.FormatBytes(c.Plain), rundir.ResultsFile, report.FormatDuration(time.Since(start))), nil
}
