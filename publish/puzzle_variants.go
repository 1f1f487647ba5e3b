package publish

import (
	"os"
	"path/filepath"
	"strconv"

	"sudokubatch/report"
	"sudokubatch/report/chart"
	"sudokubatch/rundir"
)

// VariantsDir is where batch variants writes the analysis of puzzle id of
// corpus by default: root/variants/ID, or root/variants/CORPUS-ID for
// another corpus than defaultCorpus, the corpus named as the strip
// charts name it (report.CorpusFileName: hard for x/hard.txt.gz, every
// byte a file name cannot hold written '_').
func VariantsDir(root, corpus, defaultCorpus string, id int) string {
	name := strconv.Itoa(id)
	if corpus != defaultCorpus {
		name = report.CorpusFileName(corpus) + "-" + name
	}
	return filepath.Join(root, "variants", name)
}

// WriteVariants writes the analysis v of batch variants into dir, made if
// need be: variants.json and a strip chart per strategy (chart.WriteStrips,
// PNG, and SVG too with svg). It returns the charts written, their paths
// in dir.
func WriteVariants(dir string, v *rundir.Variants, svg bool) ([]string, error) {
	if err := os.MkdirAll(dir, rundir.DirMode); err != nil {
		return nil, err
	}
	if err := rundir.WriteVariants(filepath.Join(dir, rundir.VariantsFile), v); err != nil {
		return nil, err
	}
	files, err := chart.WriteStrips(dir, v, svg)
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	return files, err
}
