package publish

import (
	"sudokubatch/corpus"
	"sudokubatch/data"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// ClassicID is the default corpus's classic example: the puzzle its
// documentation (data/README.md) names as costing the backtracking
// search over a minute. The report of a run over the default corpus
// highlights it when nothing else is asked.
const ClassicID = 39949

// highlighted returns the puzzles the report of a run highlights, and
// whether they are the default. The first that says wins:
//
//  1. opt.Highlight when opt.HighlightGiven (batch report -highlight:
//     ids, or none);
//  2. the run's own, recorded in run.json by the sweep's -highlight
//     (Highlight, or NoHighlight for none);
//  3. the default: ClassicID when a corpus of the run is the default
//     17-clue corpus (its SHA-256 is the published list's, whether the
//     run read the embedded copy or a file by any name) and the run has
//     that puzzle of it; else none.
//
// The default is decided here, when the report is written, not
// recorded: a slice of the corpus without #39949 says nothing of it.
func highlighted(opt Options, m *rundir.Manifest, res *report.Results) (ids []int, isDefault bool) {
	switch {
	case opt.HighlightGiven:
		return opt.Highlight, false
	case m != nil && (len(m.Highlight) > 0 || m.NoHighlight):
		return m.Highlight, false
	}
	for c, name := range res.Corpora {
		if isDefaultCorpus(name, m) && res.Has(c, ClassicID) {
			return []int{ClassicID}, true
		}
	}
	return nil, false
}

// isDefaultCorpus reports whether the corpus that the run m names name
// is the default corpus: by its SHA-256 in run.json, else (no run.json)
// by name.
func isDefaultCorpus(name string, m *rundir.Manifest) bool {
	if m == nil {
		return name == corpus.Default
	}
	for i, c := range m.Corpora {
		path := c.Path
		if i < len(m.Settings.Corpora) && path == "" {
			path = m.Settings.Corpora[i]
		}
		if path == name {
			return c.SHA256 == data.SHA256
		}
	}
	return false
}
