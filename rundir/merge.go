package rundir

import (
	"container/heap"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Merge joins the shard runs in ins (run directories written with
// -shard k/n) into one run in out: results.csv with every row in
// (corpus, id, solver) order, as a single-machine run writes it, and
// run.json with the shards' segments (each names its machine).
//
// The shards must share their settings (solvers, limits, seed, corpora
// and their checksums) and cover every shard k of the same n exactly
// once; a unit that appears twice is an error. Rows are streamed: memory
// does not grow with the corpus.
func Merge(out string, ins []string) (*Manifest, error) {
	if len(ins) == 0 {
		return nil, errors.New("merge: no input run")
	}
	infos := make([]*Manifest, len(ins))
	for i, dir := range ins {
		ri, err := ReadManifest(dir)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		infos[i] = ri
	}
	merged, err := mergeInfo(ins, infos)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(out, ResultsFile)); err == nil {
		return nil, fmt.Errorf("merge: %s already holds a %s: choose another -o", out, ResultsFile)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	lock, err := LockDir(out)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	defer lock.Unlock()
	f, err := os.OpenFile(filepath.Join(out, ResultsFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	defer f.Close()
	w := NewWriter(f)
	if err := w.WriteHeader(); err != nil {
		return nil, err
	}
	rows, err := mergeRows(w, ins, merged.Settings)
	if err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	merged.Rows = rows
	if err := WriteManifest(out, merged); err != nil {
		return nil, err
	}
	return merged, nil
}

func mergeInfo(ins []string, infos []*Manifest) (*Manifest, error) {
	first := infos[0]
	base := first.Settings
	base.Shard = ""
	n := -1
	seen := map[int]string{}
	m := &Manifest{Tool: first.Tool, RunID: "merged", Status: Finished, Settings: base, Corpora: first.Corpora}
	for i, ri := range infos {
		s := ri.Settings
		k, of := -1, 0
		if s.Shard != "" {
			if _, err := fmt.Sscanf(s.Shard, "%d/%d", &k, &of); err != nil {
				return nil, fmt.Errorf("merge: %s: bad shard %q in run.json", ins[i], s.Shard)
			}
		}
		if of == 0 {
			of, k = 1, 0
		}
		if n < 0 {
			n = of
		}
		if of != n {
			return nil, fmt.Errorf("merge: %s is shard %s but %s is shard %s: not the same split", ins[i], s.Shard, ins[0], first.Settings.Shard)
		}
		if prev, dup := seen[k]; dup {
			return nil, fmt.Errorf("merge: %s and %s are both shard %d/%d", prev, ins[i], k, n)
		}
		seen[k] = ins[i]
		s.Shard = ""
		if diff := settingsDiff(base, s); diff != "" {
			return nil, fmt.Errorf("merge: %s and %s were run with different settings (%s)", ins[0], ins[i], diff)
		}
		for j, c := range ri.Corpora {
			if j < len(first.Corpora) && c.SHA256 != first.Corpora[j].SHA256 {
				return nil, fmt.Errorf("merge: corpus %s differs between %s and %s (SHA-256)", c.Path, ins[0], ins[i])
			}
		}
		if ri.Status != Finished {
			m.Status = ri.Status
		}
		if m.Start.IsZero() || ri.Start.Before(m.Start) {
			m.Start = ri.Start
		}
		if ri.End.After(m.End) {
			m.End = ri.End
		}
		m.DurationNS += ri.DurationNS
		for _, seg := range ri.Segments {
			seg.Source = ins[i]
			m.Segments = append(m.Segments, seg)
		}
	}
	if len(seen) != n {
		var missing []string
		for k := 0; k < n; k++ {
			if _, ok := seen[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		return nil, fmt.Errorf("merge: missing shard %s", strings.Join(missing, ", "))
	}
	m.Duration = time.Duration(m.DurationNS).Round(time.Millisecond).String()
	return m, nil
}

// settingsDiff names the first setting that differs, or "".
func settingsDiff(a, b Settings) string {
	switch {
	case !slices.Equal(a.Solvers, b.Solvers):
		return fmt.Sprintf("solvers %v vs %v", a.Solvers, b.Solvers)
	case a.TimeoutNS != b.TimeoutNS:
		return fmt.Sprintf("timeout %s vs %s", a.Timeout, b.Timeout)
	case a.MaxCalls != b.MaxCalls:
		return fmt.Sprintf("max-calls %d vs %d", a.MaxCalls, b.MaxCalls)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d vs %d", a.Seed, b.Seed)
	case !slices.Equal(a.IDs, b.IDs) || a.Range != b.Range || a.Limit != b.Limit:
		return "puzzle selection"
	case a.Unique != b.Unique:
		return "unique"
	case !slices.Equal(a.Corpora, b.Corpora):
		return fmt.Sprintf("corpora %v vs %v", a.Corpora, b.Corpora)
	}
	return ""
}

// shardCursor is the next row of one shard.
type shardCursor struct {
	rd   *Reader
	row  Row
	file *os.File
	ord  [3]int
}

type cursorHeap []*shardCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	a, b := h[i].ord, h[j].ord
	return slices.Compare(a[:], b[:]) < 0
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*shardCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// mergeRows k-way merges the shards' rows into w and returns the count.
func mergeRows(w *Writer, ins []string, s Settings) (int, error) {
	order := func(r *Row) ([3]int, error) {
		c := slices.Index(s.Corpora, r.Corpus)
		k := slices.Index(s.Solvers, r.Solver)
		if c < 0 || k < 0 {
			return [3]int{}, fmt.Errorf("row (%s, %d, %s) is not part of the run's corpora and solvers", r.Corpus, r.ID, r.Solver)
		}
		return [3]int{c, r.ID, k}, nil
	}
	var h cursorHeap
	defer func() {
		for _, c := range h {
			c.file.Close()
		}
	}()
	advance := func(c *shardCursor) (bool, error) {
		if !c.rd.Scan() {
			c.file.Close()
			if err := c.rd.Err(); err != nil {
				return false, fmt.Errorf("merge: %w", err)
			}
			return false, nil
		}
		row, err := c.rd.Row()
		if err != nil {
			c.file.Close()
			return false, fmt.Errorf("merge: %w", err)
		}
		ord, err := order(row)
		if err != nil {
			c.file.Close()
			return false, fmt.Errorf("merge: %s:%d: %w", c.file.Name(), c.rd.Line(), err)
		}
		if slices.Compare(ord[:], c.ord[:]) <= 0 {
			c.file.Close()
			return false, fmt.Errorf("merge: %s:%d: rows out of order", c.file.Name(), c.rd.Line())
		}
		c.row, c.ord = *row, ord
		return true, nil
	}
	for _, dir := range ins {
		path := filepath.Join(dir, ResultsFile)
		f, err := os.Open(path)
		if err != nil {
			return 0, fmt.Errorf("merge: %w", err)
		}
		rd, err := NewReader(f, path)
		if err != nil {
			f.Close()
			return 0, fmt.Errorf("merge: %w", err)
		}
		c := &shardCursor{rd: rd, file: f, ord: [3]int{-1, -1, -1}}
		ok, err := advance(c)
		if err != nil {
			return 0, err
		}
		if ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	n := 0
	var last [3]int
	for h.Len() > 0 {
		c := h[0]
		if n > 0 && c.ord == last {
			return n, fmt.Errorf("merge: unit (%s, %d, %s) appears in more than one shard", c.row.Corpus, c.row.ID, c.row.Solver)
		}
		last = c.ord
		if err := w.Write(&c.row); err != nil {
			return n, err
		}
		n++
		ok, err := advance(c)
		if err != nil {
			return n, err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return n, nil
}
