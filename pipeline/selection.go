package pipeline

import (
	"slices"

	"sudokubatch/rundir"
)

// Selection picks puzzles by id. Every criterion applies to the ids of
// each corpus file, and all of them must hold, so `-limit 300 -shard 1/3`
// is shard 1 of the first 300 puzzles and the shards of a selection
// together make the whole selection.
type Selection struct {
	IDs       []int // only these ids (sorted); nil: all
	From, To  int   // From <= id < To; To 0: no upper bound
	Limit     int   // id < Limit (the first Limit puzzles of each file); 0: none
	Shard, Of int   // id % Of == Shard; Of 0: no sharding
}

// Match reports whether the puzzle with this id is selected.
func (s *Selection) Match(id int) bool {
	if id < s.From || (s.To > 0 && id >= s.To) || (s.Limit > 0 && id >= s.Limit) {
		return false
	}
	if s.Of > 0 && id%s.Of != s.Shard {
		return false
	}
	if s.IDs != nil {
		_, ok := slices.BinarySearch(s.IDs, id)
		return ok
	}
	return true
}

// Past reports whether no id at or above id can match, so that reading
// can stop.
func (s *Selection) Past(id int) bool {
	if (s.To > 0 && id >= s.To) || (s.Limit > 0 && id >= s.Limit) {
		return true
	}
	return s.IDs != nil && (len(s.IDs) == 0 || id > s.IDs[len(s.IDs)-1])
}

// NewSelection returns the selection of the run settings s (ids, range,
// limit, shard), parsed as rundir parses them.
func NewSelection(s rundir.Settings) (Selection, error) {
	sel := Selection{IDs: s.IDs, Limit: s.Limit}
	var err error
	if s.Range != "" {
		if sel.From, sel.To, err = rundir.ParseRange(s.Range); err != nil {
			return sel, err
		}
	}
	if s.Shard != "" {
		if sel.Shard, sel.Of, err = rundir.ParseShard(s.Shard); err != nil {
			return sel, err
		}
	}
	return sel, nil
}
