package main

import "sudokubatch/rundir"

// stripCharts writes a strip chart per strategy of v into dir (report/chart).
func stripCharts(dir string, v *rundir.Variants, svg bool) ([]string, error) {
	return nil, nil // TEMPORARY until the chart lands
}
