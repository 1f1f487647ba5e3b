package pipeline

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// read issues the units of every selected puzzle of every corpus, in
// order, in batches (see batchSize). It takes a window slot for each batch.
func read(ctx context.Context, cfg *Config, batches chan<- []unit, slots chan struct{}, ents []entry, meanNS *atomic.Int64, stats *Stats) ([]rundir.CorpusInfo, error) {
	var infos []rundir.CorpusInfo
	nextEnt := 0 // the place in ents of the next entry
	var seq uint64
	var cur []unit
	size := 1
	// send hands the current batch to a worker. Units that have a seq must
	// all be sent, so every return after the first unit goes through it.
	send := func() error {
		if len(cur) == 0 {
			return nil
		}
		select {
		case batches <- cur:
			cur = nil
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// add appends a unit, taking a slot when it starts a batch and sending
	// the batch when it is full. It returns errStopped after the first
	// Ctrl-C (the units already numbered are sent).
	add := func(ent *entry, si int) error {
		if cfg.Stop != nil && stopped(cfg.Stop) {
			stats.Interrupted = true
			if err := send(); err != nil {
				return err
			}
			return errStopped
		}
		if len(cur) == 0 {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			case <-cfg.Stop:
				stats.Interrupted = true
				return errStopped
			}
			size = batchSize(meanNS.Load())
			cur = unitPool.Get().(*[maxBatch]unit)[:0]
		}
		cur = append(cur, unit{seq: seq, ent: ent, solver: si})
		seq++
		if len(cur) >= size {
			return send()
		}
		return nil
	}
	for ci, path := range cfg.Corpora {
		c, err := openCorpus(path, cfg.Stdin)
		if err != nil {
			if serr := send(); serr != nil {
				return infos, serr
			}
			return infos, &CorpusError{path, err}
		}
		drain := path != "-"
		sc := solvers.NewScanner(c.text, path)
		past := false
		for !past && sc.Scan() {
			e := sc.Current()
			c.info.Puzzles++
			if e.Err != nil {
				c.info.Invalid++
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
			last := len(cfg.Solvers) - 1 // the last solver to run on e
			for cfg.Skip != nil && last >= 0 && cfg.Skip(ci, e.ID, last) {
				last--
			}
			stats.Skipped += len(cfg.Solvers) - 1 - last
			if last < 0 {
				continue
			}
			ent := &ents[nextEnt]
			if nextEnt++; nextEnt == len(ents) {
				nextEnt = 0
			}
			// Field by field: the entry is copied once, from the scanner.
			ent.corpus, ent.e, ent.seed, ent.clues, ent.solutions = ci, *e, puzzleSeed(cfg.Seed, ci, e.ID), e.Puzzle.Clues(), -1
			ent.once = sync.Once{}
			for si := range last + 1 {
				if cfg.Skip != nil && cfg.Skip(ci, e.ID, si) {
					stats.Skipped++
					continue
				}
				if err := add(ent, si); err != nil {
					c.finish(drain && errors.Is(err, errStopped))
					return append(infos, c.info), err
				}
			}
		}
		if past {
			// Count the rest of the file without solving it, so that the
			// corpus size, checksum and puzzle count describe the whole file.
			c.scanRest(sc, nil)
		}
		rerr := c.end(sc, drain)
		infos = append(infos, c.info)
		if rerr != nil {
			if serr := send(); serr != nil {
				return infos, serr
			}
			return infos, &CorpusError{path, rerr}
		}
	}
	return infos, send()
}

// puzzleSeed derives a puzzle's seed from the run seed, the corpus index
// and the puzzle id (splitmix64), so that it does not depend on the
// worker count or on which shard ran the puzzle.
func puzzleSeed(run uint64, corpus, id int) uint64 {
	z := run ^ uint64(corpus)<<40 ^ uint64(id)*0x9e3779b97f4a7c15
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// CountUnits counts the units a run of cfg will issue (selected puzzle
// lines times solvers, less those cfg.Skip leaves out) by reading the
// corpora once. It does not read standard input.
func CountUnits(cfg Config) (int, error) {
	n := 0
	for ci, path := range cfg.Corpora {
		if path == "-" {
			return -1, errors.New("counting units: standard input can be read only once")
		}
		c, err := openCorpus(path, nil)
		if err != nil {
			return -1, err
		}
		sc := solvers.NewScanner(c.text, path)
		for sc.Scan() {
			id := sc.Entry().ID
			if cfg.Select.Past(id) {
				break
			}
			if !cfg.Select.Match(id) {
				continue
			}
			for si := range cfg.Solvers {
				if cfg.Skip == nil || !cfg.Skip(ci, id, si) {
					n++
				}
			}
		}
		c.finish(false)
		if err := sc.Err(); err != nil {
			return -1, err
		}
	}
	return n, nil
}
