package main

import (
	"strings"

	"sudokubatch/corpus"
	"sudokubatch/data"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// ClassicID is the default corpus's classic example: the puzzle its
// documentation (data/README.md) names as costing the backtracking
// search over a minute. A run over the default corpus highlights it when
// no -highlight is given.
const ClassicID = 39949

// parseHighlight parses a -highlight value: puzzle ids (rundir.ParseIDs),
// or "none" for no highlighted puzzle at all.
func parseHighlight(s string) (ids []int, none bool, err error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return nil, true, nil
	}
	ids, err = rundir.ParseIDs(s)
	return ids, false, err
}

// resolveHighlight returns the puzzles the report of a run highlights,
// and whether they are the default. The first that says wins:
//
//  1. -highlight of batch report (ids, or none);
//  2. the run's own, recorded in run.json by the sweep's -highlight
//     (Highlight, or NoHighlight for none);
//  3. the default: ClassicID when a corpus of the run is the default
//     17-clue corpus (its SHA-256 is the published list's, whether the
//     run read the embedded copy or a file by any name) and the run has
//     that puzzle of it; else none.
func resolveHighlight(opt reportOptions, info *rundir.Manifest, res *report.Results) (ids []int, isDefault bool) {
	switch {
	case opt.explicit:
		return opt.highlight, false
	case info != nil && (len(info.Highlight) > 0 || info.NoHighlight):
		return info.Highlight, false
	}
	for c, name := range res.Corpora {
		if isDefaultCorpus(name, info) && res.Has(c, ClassicID) {
			return []int{ClassicID}, true
		}
	}
	return nil, false
}

// isDefaultCorpus reports whether the corpus the run names name is the
// default corpus: by its SHA-256 in run.json, else (no run.json) by name.
func isDefaultCorpus(name string, info *rundir.Manifest) bool {
	if info == nil {
		return name == corpus.Default
	}
	for i, c := range info.Corpora {
		path := c.Path
		if i < len(info.Settings.Corpora) && path == "" {
			path = info.Settings.Corpora[i]
		}
		if path == name {
			return c.SHA256 == data.SHA256
		}
	}
	return false
}
