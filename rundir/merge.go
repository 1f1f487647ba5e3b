package rundir

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrWrite is wrapped by the errors of Merge that come from writing the
// output, as opposed to the inputs it refused.
var ErrWrite = errors.New("write error")

// Merge joins the shard runs in ins (run directories written with
// -shard k/n) into a new run in out: results.csv with every row in
// (corpus, id, solver) order, as a single-machine run writes it, and
// run.json with the shards' segments (each names its machine, its shard
// directory and k/n, and the scheduler's job and task it ran in).
//
// The shards must be finished (an interrupted or killed shard is
// finished with -resume first: the merged run cannot be resumed, its
// units belong to the shards), share their settings (solvers, limits,
// seed, runs, selection, corpora) and the size and SHA-256 of every
// corpus, recorded in their run.json, and cover every shard k of the
// same n exactly once, each with as many rows as its run.json counts (a
// copy cut short is refused). Each shard is locked while it is read, so that no
// process writes it meanwhile. A row that is not a unit of its shard, or
// a unit that appears twice, is an error that names the shard and the
// line. Rows are streamed: memory does not grow with the corpus.
//
// The merge is atomic: the run is built whole in a temporary directory
// next to out (MergeTemp), then renamed into place, so that out is
// either absent (or the empty directory it was) or the whole merged run,
// whenever the process ends. A temporary directory left by a merge that
// was killed is removed by the next merge into out, which builds the run
// again: running the same merge again gives the run an unkilled merge
// gives. out may be absent or an empty directory; one that holds a run
// or other files is refused.
//
// On an error or when ctx is canceled, nothing is left behind. Every
// error names the shard it comes from; errors writing the output wrap
// ErrWrite.
func Merge(ctx context.Context, out string, ins []string) (*Manifest, error) {
	if len(ins) == 0 {
		return nil, errors.New("merge: no input run")
	}
	infos := make([]*Manifest, len(ins))
	for i, dir := range ins {
		if filepath.Clean(dir) == filepath.Clean(out) {
			return nil, fmt.Errorf("merge: %s is both an input and the output", dir)
		}
		for _, prev := range ins[:i] {
			if sameDir(prev, dir) {
				return nil, fmt.Errorf("merge: shard %s is given twice", dir)
			}
		}
		if _, err := RowsPath(dir); err != nil {
			return nil, fmt.Errorf("merge: shard %s: not a run directory: %w", dir, err)
		}
		lock, err := LockDir(dir)
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("merge: shard %w: it is still being swept (or merged): wait for that process to end, then merge again", err)
		}
		if err != nil {
			return nil, fmt.Errorf("merge: shard %w", err)
		}
		defer lock.Unlock()
		ri, err := ReadManifest(dir)
		if err != nil {
			return nil, fmt.Errorf("merge: shard %s: %w", dir, err)
		}
		infos[i] = ri
	}
	merged, err := mergeInfo(ins, infos)
	if err != nil {
		return nil, err
	}
	if err := checkMergeOut(out); err != nil {
		return nil, err
	}
	tmp := MergeTemp(out)
	if err := clearMergeTemp(tmp, out); err != nil {
		return nil, err
	}
	d, err := Create(tmp, merged)
	if err != nil {
		if !errors.Is(err, ErrLocked) { // else another merge's
			os.RemoveAll(tmp)
		}
		return nil, fmt.Errorf("merge: output %s: %w", out, err)
	}
	mergeStep("created")
	if err := mergeRows(ctx, d, ins, infos); err != nil {
		d.remove()
		return nil, err
	}
	// run.json says finished before the rename: the run that appears at
	// out is whole. The lock is kept until it is in place.
	if err := d.finish(Finished, "", true); err != nil {
		d.remove()
		return nil, fmt.Errorf("merge: %w: %w", ErrWrite, err)
	}
	mergeStep("built")
	if err := renameMerged(tmp, out); err != nil {
		d.remove()
		return nil, err
	}
	mergeStep("renamed")
	d.lock.Unlock()
	return merged, nil
}

// mergeStep is called after each step of Merge; the tests make it end
// the process there, as a kill -9 would.
var mergeStep = func(step string) {}

// mergeStepRows is the row after which Merge calls mergeStep("rows").
const mergeStepRows = 1000

func mergeInfo(ins []string, infos []*Manifest) (*Manifest, error) {
	first := infos[0]
	base := first.Settings
	base.Shard = ""
	n := -1
	seen := map[int]string{}
	// The first shard's -highlight (ids, or none) is the merged run's.
	m := &Manifest{Tool: first.Tool, RunID: "merged", Status: Finished, Settings: base, Corpora: slices.Clone(first.Corpora),
		Highlight: slices.Clone(first.Highlight), NoHighlight: first.NoHighlight}
	for i, ri := range infos {
		s := ri.Settings
		k, of := 0, 1
		if s.Shard != "" {
			k, of, _ = ParseShard(s.Shard) // valid: ReadManifest checked it
		}
		if n < 0 {
			n = of
		}
		if of != n {
			return nil, fmt.Errorf("merge: shard %s is shard %s but %s is shard %s: not the same split", ins[i], s.Shard, ins[0], first.Settings.Shard)
		}
		if prev, dup := seen[k]; dup {
			return nil, fmt.Errorf("merge: shards %s and %s are both shard %d/%d", prev, ins[i], k, n)
		}
		seen[k] = ins[i]
		s.Shard = ""
		if diff := settingsDiff(base, s); diff != "" {
			return nil, fmt.Errorf("merge: shards %s and %s were run with different settings (%s)", ins[0], ins[i], diff)
		}
		if err := sameCorpora(ins[0], first, ins[i], ri); err != nil {
			return nil, err
		}
		if ri.Status != Finished {
			status := "status " + ri.Status
			if ri.Status == Running {
				status = "killed while it ran" // this merge holds its lock: no process writes it
			}
			return nil, fmt.Errorf("merge: shard %s is not finished (%s): finish it with batch -resume -out %s, then merge again",
				ins[i], status, ins[i])
		}
		if m.Start.IsZero() || ri.Start.Before(m.Start) {
			m.Start = ri.Start
		}
		if ri.End.After(m.End) {
			m.End = ri.End
		}
		ri.closeKilled(lastWrite(ins[i]), -1) // the shard is locked by this merge: a running segment's process is gone
		for _, seg := range ri.Segments {
			seg.Source, seg.Shard = ins[i], ri.Settings.Shard
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
		if len(missing) == 1 {
			return nil, fmt.Errorf("merge: missing shard %s (no run given is that shard): give its directory, or sweep it with the other shards' flags and -shard %s (a shard's run.json holds its command), then merge again",
				missing[0], missing[0])
		}
		return nil, fmt.Errorf("merge: missing shards %s (no run given is one of them): give their directories, or sweep each with the other shards' flags and its -shard k/n (a shard's run.json holds its command), then merge again",
			strings.Join(missing, ", "))
	}
	m.Shards = n
	m.sumDurations()
	return m, nil
}

// sameCorpora checks that shard b recorded the same corpora as shard a:
// the same size and SHA-256 for each. A shard that recorded none cannot
// be checked, and is refused.
func sameCorpora(aDir string, a *Manifest, bDir string, b *Manifest) error {
	for _, r := range []struct {
		dir string
		m   *Manifest
	}{{aDir, a}, {bDir, b}} {
		if len(r.m.Corpora) != len(r.m.Settings.Corpora) {
			return fmt.Errorf("merge: shard %s: run.json records no size and checksum of its corpora: cannot tell that the shards read the same ones", r.dir)
		}
		for _, c := range r.m.Corpora {
			if c.SHA256 == "" {
				return fmt.Errorf("merge: shard %s: run.json records no checksum of corpus %s: cannot tell that the shards read the same one", r.dir, c.Path)
			}
		}
	}
	for j, c := range b.Corpora {
		if w := a.Corpora[j]; c.SHA256 != w.SHA256 || c.Size != w.Size {
			return fmt.Errorf("merge: corpus %s differs between shards %s (%d bytes, SHA-256 %s) and %s (%d bytes, SHA-256 %s)",
				c.Path, aDir, w.Size, w.SHA256, bDir, c.Size, c.SHA256)
		}
	}
	return nil
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
	case a.runs() != b.runs():
		return fmt.Sprintf("runs %d vs %d", a.runs(), b.runs())
	case !slices.Equal(a.Corpora, b.Corpora):
		return fmt.Sprintf("corpora %v vs %v", a.Corpora, b.Corpora)
	}
	return externalDiff(a.External, b.External)
}

// externalDiff names the first external solver whose program differs
// between two shards (its executable's or its files' SHA-256; the
// paths may differ from host to host), or "".
func externalDiff(a, b []External) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d external solvers vs %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		same := x.Name == y.Name && x.SHA256 == y.SHA256 && len(x.Files) == len(y.Files)
		for j := 0; same && j < len(x.Files); j++ {
			same = x.Files[j].SHA256 == y.Files[j].SHA256
		}
		if !same {
			return fmt.Sprintf("the program of external solver %s (-ext %s=%s vs %s=%s: its executable or its files differ, by SHA-256)",
				x.Name, x.Name, x.Command, y.Name, y.Command)
		}
	}
	return ""
}

// shardCursor is the next row of one shard.
type shardCursor struct {
	dir  string
	rd   *Reader
	row  Row
	file io.Closer // the rows file
	name string    // its path
	ord  [3]int
	k, n int   // the shard k/n
	read int   // rows read so far
	want int   // rows its run.json counts (Manifest.Rows)
	max  []int // per corpus, the puzzle count when the shard read it whole, else -1
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

// mergeOrder gives each row its place in the merged run: the indices of
// its corpus and strategy in the run's settings.
type mergeOrder struct {
	corpus, solver map[string]int
}

func newMergeOrder(s Settings) *mergeOrder {
	o := &mergeOrder{corpus: make(map[string]int, len(s.Corpora)), solver: make(map[string]int, len(s.Solvers))}
	for i, c := range s.Corpora {
		o.corpus[c] = i
	}
	for i, n := range s.Solvers {
		o.solver[n] = i
	}
	return o
}

// advance reads the next row of c: false at the end of its rows. A row
// that is not a unit of c's shard, or that is not after the one before,
// is an error naming the shard and the line.
func (o *mergeOrder) advance(c *shardCursor) (bool, error) {
	if !c.rd.Scan() {
		c.file.Close()
		if err := c.rd.Err(); err != nil {
			return false, fmt.Errorf("merge: shard %s: %w", c.dir, err)
		}
		if c.read != c.want {
			// A finished shard's run.json counts its rows: fewer were read
			// when the rows file was cut short (a copy that stopped), more
			// when rows were added to it by hand.
			return false, fmt.Errorf("merge: shard %s: %s holds %d rows, its run.json counts %d: the rows file is not the shard's whole (a copy cut short?): copy the shard again, or sweep its missing units with batch -resume -out %s, then merge again",
				c.dir, c.name, c.read, c.want, c.dir)
		}
		return false, nil
	}
	c.read++
	row, err := c.rd.Row()
	if err != nil {
		c.file.Close()
		return false, fmt.Errorf("merge: shard %s: %w", c.dir, err)
	}
	ci, okc := o.corpus[row.Corpus]
	k, oks := o.solver[row.Solver]
	var bad string
	switch {
	case !okc || !oks:
		bad = "not one of the run's corpora and strategies"
	case row.ID < 0 || (c.max[ci] >= 0 && row.ID >= c.max[ci]):
		bad = fmt.Sprintf("id out of range: the corpus has %d puzzles", c.max[ci])
	case row.ID%c.n != c.k:
		bad = fmt.Sprintf("not a puzzle of shard %d/%d", c.k, c.n)
	}
	ord := [3]int{ci, row.ID, k}
	if bad == "" && slices.Compare(ord[:], c.ord[:]) <= 0 {
		bad = "rows out of order (or a unit twice)"
	}
	if bad != "" {
		c.file.Close()
		return false, fmt.Errorf("merge: shard %s: %s:%d: row (%s, %d, %s): %s",
			c.dir, c.name, c.rd.Line(), row.Corpus, row.ID, row.Solver, bad)
	}
	c.row, c.ord = *row, ord
	return true, nil
}

// openShard opens the rows of the shard in dir, whose run.json is info.
func openShard(dir string, info *Manifest) (*shardCursor, error) {
	rows, err := OpenRows(dir)
	if err != nil {
		return nil, fmt.Errorf("merge: shard %s: %w", dir, err)
	}
	r := rows.Reader
	if f, ok := r.(*os.File); ok {
		// Complete lines only, as Resume reads them: a shard killed
		// mid-write ends with a torn line, which is no row. (Only a
		// finished run is gzipped, and its last line is whole.)
		good, err := completeLines(f)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("merge: shard %s: %w", dir, err)
		}
		r = io.NewSectionReader(f, 0, good)
	}
	rd, err := NewReader(r, rows.Name)
	if err != nil {
		rows.Close()
		return nil, fmt.Errorf("merge: shard %s: %w", dir, err)
	}
	c := &shardCursor{dir: dir, rd: rd, file: rows, name: rows.Name, ord: [3]int{-1, -1, -1}, k: 0, n: 1, want: info.Rows}
	if sh := info.Settings.Shard; sh != "" {
		c.k, c.n, _ = ParseShard(sh)
	}
	for _, ci := range info.Corpora {
		if ci.Complete {
			c.max = append(c.max, ci.Puzzles)
		} else {
			c.max = append(c.max, -1)
		}
	}
	return c, nil
}

// mergeRows k-way merges the shards' rows into d.
func mergeRows(ctx context.Context, d *Dir, ins []string, infos []*Manifest) error {
	o := newMergeOrder(d.Manifest.Settings)
	var h cursorHeap
	defer func() {
		for _, c := range h {
			c.file.Close()
		}
	}()
	for i, dir := range ins {
		c, err := openShard(dir, infos[i])
		if err != nil {
			return err
		}
		ok, err := o.advance(c)
		if err != nil {
			return err
		}
		if ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	n := 0
	var last [3]int
	var lastDir string
	for h.Len() > 0 {
		if n%4096 == 0 && ctx.Err() != nil {
			return fmt.Errorf("merge: %w", ctx.Err())
		}
		c := h[0]
		if n > 0 && c.ord == last {
			return fmt.Errorf("merge: unit (%s, %d, %s) is in shard %s and in shard %s", c.row.Corpus, c.row.ID, c.row.Solver, lastDir, c.dir)
		}
		last, lastDir = c.ord, c.dir
		if err := d.Write(&c.row); err != nil {
			return fmt.Errorf("merge: %w: %w", ErrWrite, err)
		}
		n++
		if n == mergeStepRows {
			mergeStep("rows")
		}
		ok, err := o.advance(c)
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, erra := os.Stat(a)
	sb, errb := os.Stat(b)
	return erra == nil && errb == nil && os.SameFile(sa, sb)
}
