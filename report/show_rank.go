package report

import (
	"fmt"
	"strings"
)

// PlaceIn finds the shown puzzle's corpus (s.Corpus, whose SHA-256 now
// is sha; "" when unknown) among the corpora of run, in the run at
// runDir, by name then by SHA-256 (RunCorpora.Match). Found, it sets
// s.Run and s.RunLabel (the corpus's name in the run when it differs)
// and returns the corpus's index in run.CorpusNames() and warnings (the
// corpus changed since the run); not found, it sets s.RunNote and
// returns -1.
func (s *PuzzleShow) PlaceIn(run *Run, runDir, sha string) (int, []string) {
	name, _ := run.Corpora().Match(s.Corpus, sha, nil)
	if name == "" {
		s.Run = ""
		s.RunNote = fmt.Sprintf("No ranks: %s is a run over %s, not %s (rank in another run with -run DIR).",
			runDir, strings.Join(run.CorpusNames(), ", "), s.Corpus)
		return -1, nil
	}
	s.Run = runDir
	if name != s.Corpus {
		s.RunLabel = name
	}
	var warns []string
	if was := run.CorpusSHA(name); was != "" && sha != "" && was != sha {
		warns = append(warns, fmt.Sprintf("%s has changed since run %s (SHA-256 differs): the run's #%d may be another puzzle",
			s.Corpus, runDir, s.Entry.ID))
	}
	for i, c := range run.CorpusNames() {
		if c == name {
			return i, warns
		}
	}
	return -1, warns
}

// RankIn sets s.Ranks and s.RunSize: where the shown puzzle ranks among
// each strategy's units of run (RankPuzzle), its corpus being named
// corpusName there. It returns a warning when the run has the puzzle on
// another line than the corpus now (it may be another puzzle), or "".
func (s *PuzzleShow) RankIn(run *Run, corpusName string) string {
	s.Ranks = RankPuzzle(run.Results, corpusName, s.Entry.ID)
	s.RunSize = run.Results.Puzzles
	for _, r := range s.Ranks {
		if r.Found && r.Unit.Puzzle.Line != s.Entry.Line {
			return fmt.Sprintf("run %s has #%d of %s on line %d, the corpus now on line %d: it may be another puzzle",
				s.Run, s.Entry.ID, corpusName, r.Unit.Puzzle.Line, s.Entry.Line)
		}
	}
	return ""
}
