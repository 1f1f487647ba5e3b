package history

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// nightRows is the rows of one night, loaded for the detectors that work
// puzzle by puzzle (the counters and the time gate): the run as report
// loads it, and per strategy its rows sorted by puzzle key, so that two
// nights' units are joined by walking both lists.
type nightRows struct {
	run   *report.Run
	units map[string][]unitKey // per strategy, sorted by key
}

// unitKey is a row of a series and its puzzle's key: the corpus's place
// among the run's corpora (by base name) in the high 32 bits, the id in
// the low ones.
type unitKey struct {
	key uint64
	row int32
}

// rowCache loads the rows of nights once each.
type rowCache struct {
	ctx    context.Context
	root   string
	nights map[*Night]*nightRows
	gone   map[*Night]error
}

func newRowCache(ctx context.Context, root string) *rowCache {
	return &rowCache{ctx: ctx, root: root, nights: map[*Night]*nightRows{}, gone: map[*Night]error{}}
}

// dir returns the run directory of night n.
func (c *rowCache) dir(n *Night) string {
	if n.Dir != "" {
		return n.Dir
	}
	return filepath.Join(c.root, filepath.FromSlash(n.Run))
}

// errNoRows is wrapped by rows' error for a night whose rows are gone
// (pruned, or the directory removed): the detectors say so and go on.
var errNoRows = errors.New("rows gone")

// rows returns the rows of night n. A night whose results.csv (gzipped
// or not) is gone returns an error wrapping errNoRows; a damaged one an
// error naming the file.
func (c *rowCache) rows(n *Night) (*nightRows, error) {
	if r, ok := c.nights[n]; ok {
		return r, nil
	}
	if err, ok := c.gone[n]; ok {
		return nil, err
	}
	run, err := report.LoadRun(c.ctx, c.dir(n))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w: %s has no %s: %w", errNoRows, c.dir(n), rundir.ResultsFile, err)
		}
		if c.ctx.Err() != nil {
			return nil, c.ctx.Err()
		}
		c.gone[n] = err
		return nil, err
	}
	if run.Manifest == nil || run.Manifest.RunID != n.RunID {
		err := fmt.Errorf("%w: %s is no longer the run the history holds (run id %s)", errNoRows, c.dir(n), n.RunID)
		c.gone[n] = err
		return nil, err
	}
	r := &nightRows{run: run, units: map[string][]unitKey{}}
	res := run.Results
	ordinal := make([]uint64, len(res.Corpora))
	for i, name := range res.Corpora {
		ordinal[i] = uint64(len(res.Corpora)) // a corpus the manifest does not name: after the others
		for j, c := range run.Manifest.Settings.Corpora {
			if filepath.Base(c) == filepath.Base(name) {
				ordinal[i] = uint64(j)
				break
			}
		}
		if len(res.Corpora) == 1 {
			ordinal[i] = 0
		}
	}
	for _, ser := range res.Series {
		u := make([]unitKey, ser.Len())
		for i := range ser.Len() {
			e := ser.At(i)
			u[i] = unitKey{ordinal[e.Corpus]<<32 | uint64(uint32(e.ID)), int32(i)}
		}
		slices.SortFunc(u, func(a, b unitKey) int { return cmp.Compare(a.key, b.key) })
		r.units[ser.Solver] = u
	}
	c.nights[n] = r
	return r, nil
}

// puzzleRef names the puzzle of row i of ser, as report names it.
func puzzleRef(res *report.Results, ser *report.Series, i int) report.PuzzleRef {
	e := ser.At(i)
	return report.PuzzleRef{Corpus: res.Corpora[e.Corpus], ID: int(e.ID), Line: int(e.Line), Label: res.PuzzleLabel(&e)}
}
