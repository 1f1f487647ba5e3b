package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
)

// reader issues the units of every selected puzzle of every corpus, in
// order, in blocks of puzzles (see blockPuzzles), taking a window slot
// for each block.
type reader struct {
	cfg     *Config
	batches chan<- *unitBatch
	slots   chan struct{}
	ents    []entry // the ring of entries (see units.go)
	nextEnt int
	pace    *pace
	issued  []int64 // per solver, the batches issued
	stats   *Stats
	halt    <-chan struct{} // interrupts a read that waits on a stream
	pre     []*corpus.File  // per corpus, a stream opened (and checked) before the run: Config.Streams
	seq     uint64
	block   []*entry // the puzzles of the block being gathered
	units   []unit   // scratch: the units of a block, strategy by strategy
	blocks  int      // the blocks issued
	// gcPercent is the GOGC found when the reader set Config.GCPercent
	// (see gcLowered), for Run to put back.
	gcPercent int
}

// gcLowered reports whether the reader has set Config.GCPercent: at its
// second block.
func (r *reader) gcLowered() bool { return r.cfg.GCPercent > 0 && r.blocks >= 2 }

// flush issues the block gathered so far: it takes a window slot,
// numbers the block's units in (puzzle, solver) order, and sends them to
// the workers strategy by strategy, in batches. After the first Ctrl-C
// it returns errStopped and issues nothing: no unit of the block has a
// number yet.
func (r *reader) flush(ctx context.Context) error {
	if len(r.block) == 0 {
		return nil
	}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-r.cfg.Stop:
		return errStopped
	}
	if r.blocks++; r.blocks == 2 && r.gcLowered() {
		r.gcPercent = debug.SetGCPercent(r.cfg.GCPercent)
	}
	nsolvers := len(r.cfg.Solvers)
	// The first number of each puzzle's units: unit (i, s) is
	// first[i] + the number of i's solvers before s.
	base := r.seq
	r.units = r.units[:0]
	for si := range nsolvers {
		bit := uint64(1) << si
		seq := base
		for _, ent := range r.block {
			if ent.todo&bit != 0 {
				r.units = append(r.units, unit{seq: seq + uint64(bits.OnesCount64(ent.todo&(bit-1))), ent: ent, solver: si})
			}
			seq += uint64(bits.OnesCount64(ent.todo))
		}
		r.seq = seq
	}
	n := int(r.seq - base)
	r.stats.Issued += n
	for i := range r.units {
		if r.units[i].seq == r.seq-1 {
			r.units[i].last = true
		}
	}
	r.block = r.block[:0]
	for us := r.units; len(us) > 0; {
		si := us[0].solver
		if err := r.waitMean(ctx, si); err != nil {
			return err
		}
		size := batchSize(r.pace.meanNS[si].Load())
		k := 0
		for k < len(us) && k < size && us[k].solver == si {
			k++
		}
		batch := unitPool.get(k)
		copy(batch.s, us[:k])
		us = us[k:]
		select {
		case r.batches <- batch:
		case <-ctx.Done():
			return ctx.Err()
		}
		r.issued[si]++
	}
	return nil
}

// waitMean waits, while the mean time of solver si is unknown, until
// the units of si issued so far are solved (see pace). After the first
// Ctrl-C it does not wait: the workers drop the batches still queued.
func (r *reader) waitMean(ctx context.Context, si int) error {
	for r.pace.meanNS[si].Load() == 0 && r.pace.finished[si].Load() < r.issued[si] {
		select {
		case <-r.pace.ping:
		case <-ctx.Done():
			return ctx.Err()
		case <-r.cfg.Stop:
			return nil
		}
	}
	return nil
}

// add appends a puzzle to the block, and issues the block when it is
// full. It returns errStopped after the first Ctrl-C: the block gathered
// is dropped (none of its units has a number).
func (r *reader) add(ctx context.Context, ent *entry) error {
	if r.cfg.Stop != nil && stopped(r.cfg.Stop) {
		return errStopped
	}
	r.block = append(r.block, ent)
	if len(r.block) >= blockPuzzles {
		return r.flush(ctx)
	}
	return nil
}

// read issues the units of every corpus. A corpus that cannot be opened
// or read to its end (a damaged .gz) does not stop the others: its
// CorpusInfo.Error says what happened and where, and the units of the
// puzzles read before are issued as usual. It returns the corpora's
// descriptions and errStopped (the first Ctrl-C), a fatal error (a
// stream's copy that cannot be written, a stream that is not the one a
// resumed run read, ctx canceled), or nil.
func (r *reader) read(ctx context.Context) ([]rundir.CorpusInfo, error) {
	cfg := r.cfg
	infos := make([]rundir.CorpusInfo, 0, len(cfg.Corpora))
	for ci, path := range cfg.Corpora {
		info, err := r.readCorpus(ctx, ci, path)
		infos = append(infos, info)
		if err != nil {
			if errors.Is(err, errStopped) {
				return infos, err
			}
			if serr := r.flush(ctx); serr != nil {
				return infos, serr
			}
			return infos, err
		}
	}
	return infos, r.flush(ctx)
}

// readCorpus issues the units of corpus ci. The error is errStopped or
// one that stops the run (stoppingError); a corpus that cannot be read
// is told by the Error of the CorpusInfo returned.
func (r *reader) readCorpus(ctx context.Context, ci int, path string) (rundir.CorpusInfo, error) {
	cfg := r.cfg
	c := r.pre[ci] // a stream opened before the run, or nil
	r.pre[ci] = nil
	if c == nil {
		var err error
		if c, err = corpus.Open(ctx, path, r.source(ci), r.halt); err != nil {
			info := r.unread(ci)
			info.Error = err.Error()
			return info, stoppingError(err)
		}
	}
	// A stream may pause for any time: the units of the puzzles read so
	// far go to the workers before the reader waits for more.
	c.OnWait(func() error { return r.flush(ctx) })
	sc := c.Scanner(path)
	past := false
	var stop error
	for !past && sc.Scan() {
		e := sc.Current()
		c.Info.Puzzles++
		if e.Err != nil {
			c.Info.Invalid++
			if cfg.Invalid != nil {
				cfg.Invalid(e.Err)
			}
		}
		if cfg.Select.Past(e.ID) {
			past = true
			break
		}
		if !cfg.Select.Match(e.ID) {
			continue
		}
		todo := uint64(1)<<len(cfg.Solvers) - 1
		if cfg.Skip != nil {
			for si := range cfg.Solvers {
				if cfg.Skip(ci, e.ID, si) {
					todo &^= 1 << si
					r.stats.Skipped++
				}
			}
		}
		if todo == 0 {
			continue
		}
		ent := &r.ents[r.nextEnt]
		if r.nextEnt++; r.nextEnt == len(r.ents) {
			r.nextEnt = 0
		}
		// Field by field: the entry is copied once, from the scanner.
		ent.corpus, ent.e, ent.seed, ent.clues, ent.solutions = ci, *e, cfg.seed(ci, e.ID), e.Puzzle.Clues(), -1
		ent.todo = todo
		ent.once = sync.Once{}
		if stop = r.add(ctx, ent); stop != nil {
			break
		}
	}
	if past && !c.Info.Stream {
		// Count the rest of the file without solving it, so that the
		// counts describe the whole file. A stream is left where the
		// selection ends: it may not end at all.
		if !scanRest(c, sc, r.halt) {
			stop = errStopped
		}
	}
	c.Info.Lines = sc.Lines()
	c.Info.Skipped = c.Info.Lines - c.Info.Puzzles // blank lines, comments, a count header
	rerr := sc.Err()
	switch {
	case stop != nil:
	case past && c.Info.Stream:
		// Not read to its end, and not an error.
	case errors.Is(rerr, errStopped):
		stop = errStopped
	case rerr != nil && (errors.Is(rerr, corpus.ErrCopy) || errors.Is(rerr, context.Canceled)):
		stop = rerr
	case rerr != nil:
		c.Info.Error = c.ReadError(sc, rerr)
	default:
		c.Info.Complete = true
	}
	if err := c.Finish(); err != nil && stop == nil && c.Info.Error == "" {
		c.Info.Error = fmt.Sprintf("closing %s: %v", path, err)
		c.Info.Complete = false
	}
	return c.Info, stop
}

// stoppingError returns err when it must stop the run (a Ctrl-C, a
// stream's copy that cannot be written, a resumed stream that changed,
// ctx canceled), or nil: any other error of opening a corpus stops only
// that corpus, and is told in its CorpusInfo.Error.
func stoppingError(err error) error {
	switch {
	case errors.Is(err, errStopped), errors.Is(err, corpus.ErrCopy), errors.Is(err, rundir.ErrCorpusChanged),
		errors.Is(err, context.Canceled):
		return err
	}
	return nil
}

// known returns what Config.Known says of corpus ci, or nil.
func (r *reader) known(ci int) *rundir.CorpusInfo {
	if ci < len(r.cfg.Known) && r.cfg.Known[ci].Path == r.cfg.Corpora[ci] {
		return &r.cfg.Known[ci]
	}
	return nil
}

// source returns how corpus ci is opened: its identity, and for a stream
// of a run with a directory, its copy there.
func (r *reader) source(ci int) corpus.Source {
	src := corpus.Source{Stdin: r.cfg.Stdin, Known: r.known(ci), Hash: true}
	if r.cfg.RunDir != "" {
		src.CopyTo = filepath.Join(r.cfg.RunDir, rundir.StreamFile(ci))
		src.Whole = src.Known != nil && src.Known.Stream && src.Known.Complete
	}
	return src
}

// Streams are the streams of a resumed run, opened and compared with
// their copies in the run directory before the run (OpenStreams), so
// that a different input is refused before anything is recorded.
type Streams struct {
	files []*corpus.File // per corpus; nil for those not opened
}

// OpenStreams opens the streams of which the resumed run in cfg.RunDir
// kept a copy (cfg.Known says which corpora are streams): each must start
// with the bytes of its copy, or the error wraps rundir.ErrCorpusChanged.
// A read that waits on a stream ends when ctx is canceled. Pass the
// result to Run in Config.Streams (Run closes them), or Close it.
func OpenStreams(ctx context.Context, cfg *Config) (*Streams, error) {
	r := &reader{cfg: cfg}
	s := &Streams{files: make([]*corpus.File, len(cfg.Corpora))}
	if cfg.RunDir == "" {
		return s, nil
	}
	for ci, path := range cfg.Corpora {
		src := r.source(ci)
		if src.Known == nil || !src.Known.Stream || src.Whole {
			continue
		}
		if st, err := os.Stat(src.CopyTo); errors.Is(err, fs.ErrNotExist) || (err == nil && st.Size() == 0) {
			continue
		}
		c, err := corpus.Open(ctx, path, src, ctx.Done())
		if err != nil {
			s.Close()
			if errors.Is(err, errStopped) {
				err = ctx.Err()
			}
			return nil, err
		}
		s.files[ci] = c
	}
	return s, nil
}

// Close closes the streams that a run has not taken. It may be called on
// a nil *Streams.
func (s *Streams) Close() {
	if s == nil {
		return
	}
	for i, c := range s.files {
		if c != nil {
			c.Close()
			s.files[i] = nil
		}
	}
}

// infos returns a description of every corpus of the run: those read
// (in order, from read), then, for the corpora the run did not reach (it
// was stopped), what was known of them before the run.
func (r *reader) infos(read []rundir.CorpusInfo) []rundir.CorpusInfo {
	out := make([]rundir.CorpusInfo, len(r.cfg.Corpora))
	for ci := range r.cfg.Corpora {
		if ci < len(read) {
			out[ci] = read[ci]
		} else {
			out[ci] = r.unread(ci)
		}
	}
	return out
}

// unread is corpus ci as known before it is read: its identity, no counts.
func (r *reader) unread(ci int) rundir.CorpusInfo {
	if k := r.known(ci); k != nil {
		return k.Identity()
	}
	return rundir.CorpusInfo{Path: r.cfg.Corpora[ci]}
}

// scanRest reads the rest of corpus c with sc, counting its puzzle lines
// and the invalid ones, until the end (true) or halt (false).
func scanRest(c *corpus.File, sc *corpus.Scanner, halt <-chan struct{}) bool {
	for sc.Scan() {
		e := sc.Current()
		if c.Info.Puzzles++; c.Info.Puzzles%4096 == 0 && halt != nil && stopped(halt) {
			return false
		}
		if e.Err != nil {
			c.Info.Invalid++
		}
	}
	return true
}

// PuzzleSeed derives a puzzle's seed from the run seed, the corpus index
// and the puzzle id (splitmix64), so that it does not depend on the
// worker count or on which shard ran the puzzle.
func PuzzleSeed(run uint64, corpus, id int) uint64 {
	z := run ^ uint64(corpus)<<40 ^ uint64(id)*0x9e3779b97f4a7c15
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// CountUnits counts the units a run of cfg will issue (selected puzzle
// lines times solvers, less those cfg.Skip leaves out) by reading the
// corpora once more, for a progress display. It reads files only: a
// stream can be read only once, by the run, so with a stream among the
// corpora the count is unknown (an error). ctx ends it early.
func CountUnits(ctx context.Context, cfg Config) (int, error) {
	for _, path := range cfg.Corpora {
		if kind, err := corpus.Classify(path); err != nil || kind == corpus.KindStream {
			return -1, fmt.Errorf("counting units: %s is a stream, read only once (by the run)", path)
		}
	}
	n := 0
	for ci, path := range cfg.Corpora {
		err := corpus.Each(ctx, path, path, func(e *corpus.Entry) bool {
			if cfg.Select.Past(e.ID) {
				return false
			}
			if cfg.Select.Match(e.ID) {
				for si := range cfg.Solvers {
					if cfg.Skip == nil || !cfg.Skip(ci, e.ID, si) {
						n++
					}
				}
			}
			return true
		})
		if err != nil {
			return -1, err
		}
	}
	return n, nil
}
