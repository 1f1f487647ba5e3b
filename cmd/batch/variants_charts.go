package main

import (
	"path/filepath"

	"sudokubatch/report/chart"
	"sudokubatch/rundir"
)

// stripCharts writes a strip chart per strategy of v into dir
// (chart.WriteStrips) and returns the files written, in dir.
func stripCharts(dir string, v *rundir.Variants, svg bool) ([]string, error) {
	files, err := chart.WriteStrips(dir, v, svg)
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	return files, err
}
