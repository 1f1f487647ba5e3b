package history

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// Series is the nights of one signature, oldest first. Its nights were
// measured under the same conditions and may be compared; nights of
// another series never are.
type Series struct {
	ID        string // Signature.ID
	Key       string // Signature.Key
	Signature Signature
	Nights    []*Night
}

// Newest returns the series' newest night.
func (s *Series) Newest() *Night { return s.Nights[len(s.Nights)-1] }

// Skipped is a run that is in no series, and why.
type Skipped struct {
	Run    string // relative to the results root; as named, for runs named
	Reason string
}

// History is what trend works on: the series found and the runs skipped.
type History struct {
	Series  []*Series // the series of the newest night first
	Skipped []Skipped // in run order
}

// All returns the history of every run of the index: every night in the
// series of its signature, every other run skipped with its reason.
func (idx *Index) All() *History {
	h := &History{}
	var nights []*Night
	for _, e := range idx.Entries {
		if e.Night != nil {
			nights = append(nights, e.Night)
		} else {
			h.Skipped = append(h.Skipped, Skipped{e.Run, e.Skip})
		}
	}
	nights = h.dropCopies(nights, nil)
	h.Series = Group(nights)
	return h
}

// dropCopies returns nights without the copies of a run: the nights of
// other directories with the run id of one of them (a run directory
// copied by hand, cp -r, holds the same run and rows). Each is added to
// h's runs skipped, named as named (by named, else by its directory),
// with the night it copies. Of the directories of one run, the night
// kept is the one named as its run id (a run directory's default name),
// else the first by name.
func (h *History) dropCopies(nights []*Night, named map[nightKey]string) []*Night {
	kept := map[string]*Night{}
	for _, n := range nights {
		if k := kept[n.RunID]; n.RunID != "" && (k == nil || path.Base(n.Run) == n.RunID && path.Base(k.Run) != k.RunID) {
			kept[n.RunID] = n
		}
	}
	name := func(n *Night) string {
		if r, ok := named[keyOf(n)]; ok {
			return r
		}
		return n.Run
	}
	out := nights[:0:0]
	for _, n := range nights {
		if k := kept[n.RunID]; k != nil && k != n && !(k.Run == n.Run && k.Dir == n.Dir) {
			h.Skipped = append(h.Skipped, Skipped{name(n), fmt.Sprintf("a copy of %s (the same run id, %s): one run is one night", name(k), n.RunID)})
			continue
		}
		out = append(out, n)
	}
	return out
}

// Selected returns the history of the runs named (directories, as given
// on the command line): the series of the newest of them, and the others
// skipped with their reason, "other signature" for a night of another
// series. A run inside root that the index holds is taken from the
// index; any other is read from its directory.
func (idx *Index) Selected(root string, runs []string) (*History, error) {
	h := &History{}
	var nights []*Night
	named := map[nightKey]string{} // the run as named on the command line
	realRoot := filepath.Join(rundir.Locate(root))
	for _, run := range runs {
		in, name := rundir.Locate(run) // results/latest is the run it points at
		abs := filepath.Join(in, name)
		var e *Entry
		if in == realRoot {
			e = idx.Lookup(name)
		}
		if e == nil {
			entry := readEntry(filepath.Dir(abs), filepath.Base(abs), stampOf(abs))
			entry.Run = run
			e = &entry
		}
		if e.Night == nil {
			h.Skipped = append(h.Skipped, Skipped{run, e.Skip})
			continue
		}
		if idx.Lookup(e.Night.Run) != e {
			n := *e.Night // a run outside the root: its rows are where it was named
			n.Dir = abs
			e.Night = &n
		}
		nights = append(nights, e.Night)
		named[keyOf(e.Night)] = run
	}
	series := Group(h.dropCopies(nights, named))
	if len(series) == 0 {
		return h, nil
	}
	h.Series = series[:1]
	for _, s := range series[1:] {
		for _, n := range s.Nights {
			h.Skipped = append(h.Skipped, Skipped{named[keyOf(n)], fmt.Sprintf("other signature (%s) than the newest run's", s.Key)})
		}
	}
	return h, nil
}

// Group puts nights into series by signature, each series oldest night
// first (ties by run), the series of the newest night first. Two nights
// of one run directory (a run named twice) are one.
func Group(nights []*Night) []*Series {
	byID := map[string]*Series{}
	var out []*Series
	for _, n := range nights {
		id := n.Signature.ID()
		s := byID[id]
		if s == nil {
			s = &Series{ID: id, Key: n.Signature.Key(), Signature: n.Signature}
			byID[id] = s
			out = append(out, s)
		}
		s.Nights = append(s.Nights, n)
	}
	for _, s := range out {
		slices.SortFunc(s.Nights, func(a, b *Night) int {
			return cmp.Or(a.Start.Compare(b.Start), strings.Compare(a.Run, b.Run))
		})
		s.Nights = slices.CompactFunc(s.Nights, func(a, b *Night) bool { return a.Run == b.Run && a.RunID == b.RunID })
		s.splitBases()
	}
	slices.SortFunc(out, func(a, b *Series) int {
		return cmp.Or(b.Newest().Start.Compare(a.Newest().Start), strings.Compare(a.ID, b.ID))
	})
	return out
}

// nightKey names a night whatever copy of it (splitBases copies the
// nights it changes).
type nightKey struct{ dir, run, runID string }

func keyOf(n *Night) nightKey { return nightKey{n.Dir, n.Run, n.RunID} }

// splitBases keeps the nights of each strategy whose time basis
// (Strategy.TimeBasis: an external solver ranked by its own time or by
// the round trip) is the one of the strategy's newest night: the
// strategy is left out of the other nights, which are replaced by copies,
// so that no detector, chart or table compares its own times with round
// trips. Built-in strategies have one basis and are never left out.
func (s *Series) splitBases() {
	newest := map[string]report.TimeBasis{}
	for k := len(s.Nights) - 1; k >= 0; k-- {
		n := s.Nights[k]
		keep := n.Strategy[:0:0]
		for _, st := range n.Strategy {
			b, seen := newest[st.Solver]
			if !seen {
				newest[st.Solver], b = st.Basis(), st.Basis()
			}
			if st.Basis() == b {
				keep = append(keep, st)
			}
		}
		if len(keep) < len(n.Strategy) {
			c := *n
			c.Strategy = keep
			s.Nights[k] = &c
		}
	}
}

// ownTime marks the figures of a strategy ranked by its own time (an
// external solver's self_ns) in trend's tables: " (own time)"; "".
func ownTime(st *Strategy) string {
	if st.Basis() == report.BasisSelf {
		return " (own time)"
	}
	return ""
}
