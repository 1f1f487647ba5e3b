package variants

import (
	"context"

	"sudokubatch/pipeline"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// MinSampleCorpus is the fewest puzzles a corpus is sampled from for the
// corpus medians: a corpus of a few puzzles (one's own hard puzzle) has
// no median worth the name, and the default corpus's is the reference.
const MinSampleCorpus = 50

// Sample is where the strategies that no run gives a corpus median get
// theirs (SampleMedians): Missing, sampled from the corpus file From of
// Count puzzles. From is "-" when that corpus is standard input, read
// once: no sample can be taken.
type Sample struct {
	Missing []string
	From    string
	Count   int
}

// PlanSample says which strategies of names have no corpus median in
// have, and which corpus gives theirs: file, of count puzzles, unless it
// has fewer than MinSampleCorpus, then defaultCorpus (its puzzles
// counted). With none missing, or k (the puzzles to sample) 0, it
// returns a Sample with nothing Missing.
func PlanSample(ctx context.Context, names []string, have map[string]CorpusMedian, k int, file string, count int, defaultCorpus string) (Sample, error) {
	var s Sample
	for _, n := range names {
		if _, ok := have[n]; !ok {
			s.Missing = append(s.Missing, n)
		}
	}
	if len(s.Missing) == 0 || k <= 0 {
		return Sample{}, nil
	}
	s.From, s.Count = file, count
	if count < MinSampleCorpus {
		s.From = defaultCorpus
		var err error
		s.Count, err = pipeline.CountUnits(ctx, pipeline.Config{Corpora: []string{s.From}, Solvers: []solvers.Solver{solvers.All()[0].Solver}})
		if err != nil {
			return Sample{}, err
		}
	}
	return s, nil
}

// Wrong returns the first strategy of v that gave a wrong answer, on the
// original or on a variant (a bug: the command exits 1), or "".
func Wrong(v *rundir.Variants) string {
	wrong := solvers.StatusWrong.String()
	for _, a := range v.Analyses {
		if a.Original.Status == wrong {
			return a.Solver
		}
		for _, u := range a.Variants {
			if u.Status == wrong {
				return a.Solver
			}
		}
	}
	return ""
}
