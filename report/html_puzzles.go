package report

import (
	"context"

	"sudokubatch/corpus"
)

// puzzleTable returns a row per referenced puzzle with every strategy's
// outcome, and the puzzle's grid when its corpus can be read.
func puzzleTable(ctx context.Context, res *Results, s *Summary, order []PuzzleRef, corpora, files []string) ([]pagePuzzle, error) {
	type key struct {
		corpus string
		id     int
	}
	want := map[key]int{}
	rows := make([]pagePuzzle, len(order))
	for i, r := range order {
		want[key{r.Corpus, r.ID}] = i
		rows[i] = pagePuzzle{Label: r.Label, Anchor: anchor(r), Line: r.Line, Cells: make([]pageUnit, len(s.Strategies))}
		for j := range rows[i].Cells {
			rows[i].Cells[j] = pageUnit{Status: "–"}
		}
	}
	for j, st := range s.Strategies {
		ser := res.Solver(st.Solver)
		if ser == nil {
			continue
		}
		for k := range ser.Len() {
			e := ser.At(k)
			if i, ok := want[key{res.Corpora[e.Corpus], int(e.ID)}]; ok {
				rows[i].Cells[j] = pageUnit{Status: e.Status.String(), Calls: fmtCount(float64(e.Calls)) + " " + Plural(min(int(e.Calls), 2), "call", "calls"), Time: fmtNS(float64(e.NS))}
			}
		}
	}
	for ci, path := range corpora {
		last := -1
		for k := range want {
			if k.corpus == path {
				last = max(last, k.id)
			}
		}
		file := path
		if ci < len(files) && files[ci] != "" {
			file = files[ci]
		}
		if last < 0 || file == "-" {
			continue
		}
		// A corpus that cannot be read, or a stream, leaves its puzzles
		// without a grid.
		err := corpus.Each(ctx, file, path, func(e *corpus.Entry) bool {
			if i, ok := want[key{path, e.ID}]; ok && e.Err == nil {
				rows[i].Givens = e.Puzzle.String()
				rows[i].Grid = e.Puzzle.Format()
			}
			return e.ID < last
		})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return rows, nil
}
