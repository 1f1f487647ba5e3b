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

// corpusSHAs returns CorpusSHA of every corpus of the run, by name: for
// the loops over a run's corpora (a run may have tens of thousands, and
// CorpusSHA looks through them all).
func (r *Run) corpusSHAs() map[string]string {
	m := map[string]string{}
	if r.Manifest == nil {
		return m
	}
	for _, c := range r.Manifest.Corpora {
		if _, seen := m[c.Path]; !seen && c.SHA256 != "" {
			m[c.Path] = c.SHA256
		}
	}
	return m
}

// Corpus match kinds: how RunCorpora.Match found a corpus.
const (
	ByName   = "name"
	BySHA256 = "sha256"
)

// RunCorpora are the corpora of a run (Run.CorpusNames) looked up by
// name and by the SHA-256 run.json records, in maps: a run may have any
// number of corpora. It is not safe for concurrent use.
type RunCorpora struct {
	byName map[string][]string // cleaned name -> names, in order
	bySHA  map[string][]string // SHA-256 -> names not yet passed over, in order
}

// Corpora returns the run's corpora, indexed for Match.
func (r *Run) Corpora() *RunCorpora {
	c := &RunCorpora{byName: map[string][]string{}, bySHA: map[string][]string{}}
	shas := map[string]string{}
	if r.Manifest != nil {
		for _, ci := range r.Manifest.Corpora {
			if _, ok := shas[ci.Path]; !ok && ci.SHA256 != "" {
				shas[ci.Path] = ci.SHA256
			}
		}
	}
	for _, name := range r.CorpusNames() {
		clean := filepath.Clean(name)
		c.byName[clean] = append(c.byName[clean], name)
		if sha := shas[name]; sha != "" {
			c.bySHA[sha] = append(c.bySHA[sha], name)
		}
	}
	return c
}

// Match finds a corpus of the run by name, then by content: the one
// named name (the same path once cleaned), else, when sha is not "", the
// first one whose SHA-256 recorded in run.json is sha. Corpora for which
// taken (nil: none) returns true are passed over; a corpus once taken
// must stay taken from one call to the next. It returns the corpus's
// name in the run and ByName or BySHA256; "" and "" when none matches.
// `batch compare` joins two runs' corpora with it, `batch show` finds a
// puzzle's corpus in the run it ranks in.
func (c *RunCorpora) Match(name, sha string, taken func(name string) bool) (string, string) {
	free := func(n string) bool { return taken == nil || !taken(n) }
	if name != "" {
		for _, n := range c.byName[filepath.Clean(name)] {
			if free(n) {
				return n, ByName
			}
		}
	}
	if sha == "" {
		return "", ""
	}
	list := c.bySHA[sha]
	for len(list) > 0 && !free(list[0]) {
		list = list[1:] // taken stays taken: not looked at again
	}
	c.bySHA[sha] = list
	if len(list) == 0 {
		return "", ""
	}
	return list[0], BySHA256
}
