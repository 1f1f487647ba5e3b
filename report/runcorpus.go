package report

import "path/filepath"

// CorpusNames returns the run's corpora as the run was given them, in
// the order their puzzles' seeds derive from: run.json's, else those of
// its rows in order of first appearance.
func (r *Run) CorpusNames() []string {
	if r.Manifest != nil && len(r.Manifest.Settings.Corpora) > 0 {
		return r.Manifest.Settings.Corpora
	}
	return r.Results.Corpora
}

// CorpusSHA returns the SHA-256 that run.json records for the named
// corpus, or "" (no run.json, or a stream the run did not read).
func (r *Run) CorpusSHA(name string) string {
	if r.Manifest == nil {
		return ""
	}
	for _, c := range r.Manifest.Corpora {
		if c.Path == name && c.SHA256 != "" {
			return c.SHA256
		}
	}
	return ""
}

// Corpus match kinds: how MatchCorpus found a corpus.
const (
	ByName   = "name"
	BySHA256 = "sha256"
)

// MatchCorpus finds a corpus among the run's (CorpusNames) by name, then
// by content: the one named name (the same path once cleaned), else,
// when sha is not "", the first one whose SHA-256 recorded in run.json
// is sha. Corpora for which taken (nil: none) returns true are passed
// over. It returns the corpus's name in the run and ByName or BySHA256;
// "" and "" when none matches. `batch compare` joins two runs' corpora
// with it, `batch show` finds a puzzle's corpus in the run it ranks in.
func (r *Run) MatchCorpus(name, sha string, taken func(name string) bool) (string, string) {
	names := r.CorpusNames()
	free := func(c string) bool { return taken == nil || !taken(c) }
	if name != "" {
		for _, c := range names {
			if free(c) && filepath.Clean(c) == filepath.Clean(name) {
				return c, ByName
			}
		}
	}
	if sha != "" {
		for _, c := range names {
			if free(c) && r.CorpusSHA(c) == sha {
				return c, BySHA256
			}
		}
	}
	return "", ""
}
