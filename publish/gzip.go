package publish

import (
	"fmt"
	"path/filepath"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

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
