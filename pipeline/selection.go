package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// ParseIDs parses "39949,2018" into sorted, distinct ids.
func ParseIDs(s string) ([]int, error) {
	var ids []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		f = strings.TrimPrefix(f, "#")
		id, err := strconv.Atoi(f)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("bad puzzle id %q: want a number >= 0", f)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no puzzle id in %q", s)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// ParseRange parses "a:b" (a <= id < b; either side may be empty).
func ParseRange(s string) (from, to int, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("bad range %q: want a:b (a <= id < b)", s)
	}
	if a != "" {
		if from, err = strconv.Atoi(a); err != nil || from < 0 {
			return 0, 0, fmt.Errorf("bad range %q: %q is not an id", s, a)
		}
	}
	if b != "" {
		if to, err = strconv.Atoi(b); err != nil || to <= from {
			return 0, 0, fmt.Errorf("bad range %q: the end must be a number above the start", s)
		}
	}
	return from, to, nil
}

// ParseShard parses "k/n" with 0 <= k < n.
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("bad shard %q: want k/n with 0 <= k < n", s)
	}
	return k, n, nil
}
