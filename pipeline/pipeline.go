package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

// Sink receives the rows of a run in (corpus, id, solver) order. The
// pipeline calls it from one goroutine only.
type Sink interface {
	Write(*report.Row) error
	Flush() error
}

// Progress is told how far a run is. The pipeline calls Add from the
// writer goroutine only, and Finish when the run ends; the display must
// exist before Run starts (see NewProgress).
type Progress interface {
	Add(n int) // units completed
	Finish()
}

// Config is one run.
type Config struct {
	Corpora  []string         // corpus files; "-" is standard input
	Solvers  []solvers.Solver // strategies, in output order
	Workers  int              // goroutines solving; 0: GOMAXPROCS
	Timeout  time.Duration    // per (puzzle, solver); 0: none
	MaxCalls uint64           // per (puzzle, solver); 0: none
	Seed     uint64           // run seed; each puzzle's seed derives from it
	Select   Selection
	Unique   bool // count solutions (up to 2) once per puzzle

	// Window bounds the units in flight between the reader and the writer
	// (and so memory: the reader's ring of entries, about 350 bytes a
	// place, is allocated at the start); 0: 32 full batches (4096 units),
	// or 2 per worker if more. It is rounded up to a power of two.
	Window int
	// Skip, if set, tells units already done (resume); they are not run
	// and not written.
	Skip func(corpus, id, solver int) bool
	// Stop, if set, is closed to stop issuing units (the first Ctrl-C):
	// the batches being solved end and their rows are written, the
	// batches still queued are dropped, and Run returns with
	// Stats.Interrupted set.
	Stop <-chan struct{}

	Sink     Sink
	Progress Progress      // nil: none
	Stdin    io.Reader     // for "-"; nil: os.Stdin
	Invalid  func(e error) // called (from the reader) for each line that is not a puzzle; may be nil
	Counter  UniqueCounter // for Unique; nil: solvers.CountSolutions
}

// UniqueCounter counts the solutions of p, stopping at max.
type UniqueCounter func(ctx context.Context, p solvers.Puzzle, max int) (int, error)

// SolverStats counts the outcomes of one solver in a run.
type SolverStats struct {
	Name     string         `json:"name"`
	Units    int            `json:"units"`
	Statuses map[string]int `json:"statuses"`
	NS       int64          `json:"ns"` // total Solve time
	byStatus [16]int
}

// Stats is what a run did.
type Stats struct {
	Corpora     []report.CorpusInfo `json:"corpora"`
	Solvers     []*SolverStats      `json:"solvers"`
	Units       int                 `json:"units"`   // rows written by this run
	Skipped     int                 `json:"skipped"` // units already done (resume)
	Wrong       int                 `json:"wrong"`
	Invalid     int                 `json:"invalid_lines"`
	Interrupted bool                `json:"interrupted"`
	Elapsed     time.Duration       `json:"elapsed_ns"`
}

// entry is one selected puzzle line, shared by the units of its solvers.
type entry struct {
	corpus    int
	e         solvers.Entry
	seed      uint64
	clues     int
	once      sync.Once
	solutions int
}

// unit is one (puzzle, solver) pair with its place in the output order.
type unit struct {
	seq    uint64
	ent    *entry
	solver int
}

// result is a finished unit.
type result struct {
	seq    uint64
	row    report.Row
	solver int // index in Config.Solvers
	// batch is set on the last unit of its batch (and is the batch): the
	// batch's window slot is given back after its row is written.
	batch *[maxBatch]result
}

// Recycling, so that a sweep allocates little per unit (about 500 bytes
// otherwise, which kept the collector busy):
//   - The entries live in a ring of Window+maxBatch places that the reader
//     fills in turn (TestOrderWithRandomDelays fails with a smaller one).
//     When a place comes round again, at least Window+maxBatch units were
//     issued since the last unit of its old entry, in batches of at most
//     maxBatch: more batches than there are window slots. The reader took
//     the slot of the latest only after the writer gave one back, which it
//     does when a batch's rows are written, in order: the old entry's rows
//     are written.
//   - The batches go back to pools: a batch of units when its worker has
//     solved it, a batch of results when its last row is written.
var (
	unitPool   = sync.Pool{New: func() any { return new([maxBatch]unit) }}
	resultPool = sync.Pool{New: func() any { return new([maxBatch]result) }}
)

// Batching: the reader hands units to the workers, and the workers hand
// rows to the writer, a batch at a time, so that the channel operations
// cost little per unit when units take microseconds. A batch holds about
// batchTarget of work, judged from the mean time of the units done so far,
// and at most maxBatch units; units that take a millisecond or more go one
// by one. A worker always finishes the batch it took: after the first
// Ctrl-C that is at most about batchTarget of work, or one unit.
// batchTarget was 200µs: a batch's send wakes the writer, and with the
// 17-µs units of norvig, dlx and bitboard, batches of a dozen units cost
// 1-2.5µs of CPU per unit more at -workers 1 (BenchmarkSweep).
const (
	maxBatch    = 128
	batchTarget = time.Millisecond
)

// batchSize returns the number of units of the next batch, given the
// running mean unit time (0 when unknown).
func batchSize(meanNS int64) int {
	if meanNS <= 0 {
		return 1
	}
	return int(min(max(int64(batchTarget)/meanNS, 1), maxBatch))
}

// Run streams the corpora through the solvers and writes every row to
// cfg.Sink in order. It returns the stats and the first error that
// stopped the run (a corpus that cannot be opened or read, a write
// error, ctx canceled).
//
// Shape: one errgroup holds the reader, cfg.Workers workers and the
// writer. Units travel in batches (see batchSize). The reader takes a
// window slot before it issues a batch, the writer gives it back when the
// batch's last row is written, so at most Window units are between them;
// the writer keeps finished units in a ring of Window places until their
// turn comes.
func Run(ctx context.Context, cfg Config) (*Stats, error) {
	start := time.Now()
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	window := cfg.Window
	if window <= 0 {
		window = max(32*maxBatch, 2*maxBatch*workers)
	}
	window = max(window, 2*maxBatch)       // room for two batches at least
	window = 1 << bits.Len(uint(window-1)) // a power of two: the writer's ring is indexed with a mask
	if cfg.Counter == nil {
		cfg.Counter = solvers.CountSolutions
	}
	stats := &Stats{}
	for _, s := range cfg.Solvers {
		stats.Solvers = append(stats.Solvers, &SolverStats{Name: s.Name(), Statuses: map[string]int{}})
	}
	g, gctx := errgroup.WithContext(ctx)
	// The channels hold every batch that the window lets out, so that
	// neither the reader nor a worker ever waits to send. Woken by a
	// worker's channel operation, the reader and the writer wait on that
	// worker's P behind it; with a worker on every P they run only when a
	// worker blocks or is preempted. With room for one batch per worker,
	// the workers ran out of batches between two such turns, and their Ps
	// idled while the reader filled one (each P 92-94% busy with bitboard
	// at 2 workers on 2 cores; 97.7% with these channels).
	slots := make(chan struct{}, window/maxBatch) // batches between the reader and the writer
	batches := make(chan []unit, cap(slots))
	results := make(chan []result, cap(slots))
	var meanNS atomic.Int64 // running mean unit time, for batchSize
	var readerInfo []report.CorpusInfo

	var readErr error
	g.Go(func() error {
		defer close(batches)
		var err error
		readerInfo, err = read(gctx, &cfg, batches, slots, make([]entry, window+maxBatch), &meanNS, stats)
		var ce *CorpusError
		switch {
		case errors.Is(err, errStopped):
			return nil // not an error: the units issued go on
		case errors.As(err, &ce):
			// A corpus that cannot be read stops the issuing of units, but
			// the units already issued finish and are written.
			readErr = err
			return nil
		}
		return err
	})
	// next hands a worker the next batch, or tells it to stop: at the end
	// of the batches, or once cfg.Stop is closed, when the batches still
	// queued are dropped (their units are not run and not written: the
	// queue can hold a window of slow units). Receiving and checking
	// cfg.Stop under one lock orders the batches started before the stop
	// ahead of those dropped, so the rows written stay a complete prefix
	// and no unit that ran is lost.
	var nextMu sync.Mutex
	next := func() ([]unit, bool) {
		nextMu.Lock()
		defer nextMu.Unlock()
		batch, ok := <-batches
		if ok && cfg.Stop != nil && stopped(cfg.Stop) {
			return nil, false
		}
		return batch, ok
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			for {
				batch, ok := next()
				if !ok {
					return nil
				}
				arr := resultPool.Get().(*[maxBatch]result)
				out := arr[:len(batch)]
				var sum int64
				for i, u := range batch {
					out[i].seq, out[i].solver = u.seq, u.solver
					solve(gctx, &cfg, u, start, &out[i].row)
					if i == len(batch)-1 {
						out[i].batch = arr
					}
					sum += out[i].row.NS
				}
				// The running mean moves once per batch: a word that every
				// worker wrote per unit went from core to core at each write.
				// Racy, and good enough to size batches.
				mean := max(sum/int64(len(batch)), 1)
				if m := meanNS.Load(); m > 0 {
					mean = m + (mean-m)/4
				}
				meanNS.Store(mean)
				clear(batch)
				unitPool.Put((*[maxBatch]unit)(batch[:maxBatch]))
				select {
				case results <- out:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
		})
	}
	g.Go(func() error {
		wg.Wait()
		close(results)
		return nil
	})
	g.Go(func() error { return write(gctx, &cfg, results, slots, window, stats) })

	err := g.Wait()
	stats.Corpora = readerInfo
	for _, c := range readerInfo {
		stats.Invalid += c.Invalid
	}
	for _, s := range stats.Solvers {
		for _, st := range solvers.Statuses() {
			if n := s.byStatus[st]; n > 0 {
				s.Statuses[st.String()] = n
			}
		}
	}
	if cfg.Progress != nil {
		cfg.Progress.Finish()
	}
	stats.Elapsed = time.Since(start)
	if err == nil {
		err = readErr
	}
	return stats, err
}

// CorpusError is a corpus that could not be opened or read to its end.
// The rows of the puzzles read before it are still written.
type CorpusError struct {
	Path string
	Err  error
}

func (e *CorpusError) Error() string { return e.Err.Error() }
func (e *CorpusError) Unwrap() error { return e.Err }

// errStopped is not an error: the reader saw cfg.Stop.
var errStopped = errors.New("stopped")

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// read issues the units of every selected puzzle of every corpus, in
// order, in batches (see batchSize). It takes a window slot for each batch.
func read(ctx context.Context, cfg *Config, batches chan<- []unit, slots chan struct{}, ents []entry, meanNS *atomic.Int64, stats *Stats) ([]report.CorpusInfo, error) {
	var infos []report.CorpusInfo
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

// solve runs one unit into row (a zero Row): times Solve, recovers a
// panic, checks the answer. Times are read on the monotonic clock as
// durations since epoch, one clock read before Solve and one after.
func solve(ctx context.Context, cfg *Config, u unit, epoch time.Time, row *report.Row) {
	ent, s := u.ent, cfg.Solvers[u.solver]
	*row = report.Row{
		ID: ent.e.ID, Line: ent.e.Line, Solver: s.Name(), Clues: ent.clues,
		Seed: ent.seed, Corpus: cfg.Corpora[ent.corpus], Solutions: -1,
	}
	if ent.e.Err != nil {
		row.Status = solvers.StatusInvalid
		row.Error = ent.e.Err.Error()
		row.Clues = 0
		return
	}
	if cfg.Unique {
		ent.once.Do(func() {
			n, err := cfg.Counter(ctx, ent.e.Puzzle, 2)
			if err == nil {
				ent.solutions = n
			}
		})
		row.Solutions = ent.solutions
	}
	lim := solvers.Limits{MaxCalls: cfg.MaxCalls, Seed: ent.seed}
	t0 := time.Since(epoch)
	if cfg.Timeout > 0 {
		lim.Deadline = epoch.Add(t0 + cfg.Timeout)
	}
	var res solvers.Result
	panicked := safeSolve(ctx, s, &ent.e.Puzzle, lim, &res)
	row.NS = (time.Since(epoch) - t0).Nanoseconds()
	row.Status = res.Status
	row.Calls, row.Guesses, row.Backtracks = res.Calls, res.Guesses, res.Backtracks
	row.Filled = res.Filled
	if res.Err != nil {
		row.Error = res.Err.Error()
	}
	if panicked {
		return
	}
	if res.Status == solvers.StatusSolved {
		if err := solvers.Check(ent.e.Puzzle, res.Solution); err != nil {
			row.Status = solvers.StatusWrong
			row.Error = "wrong solution: " + err.Error()
		}
		row.Solution = res.Solution.String()
	}
}

// safeSolve calls Solve into *res and turns a panic into StatusError. The
// puzzle and the result go by pointer: each is over 260 bytes, and copying
// them in and out of safeSolve's frame cost 213 instructions a unit
// (cachegrind, BenchmarkPipeline: 696 -> 483 in solve and safeSolve).
func safeSolve(ctx context.Context, s solvers.Solver, p *solvers.Puzzle, lim solvers.Limits, res *solvers.Result) (panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			*res = solvers.Result{Status: solvers.StatusError, Err: fmt.Errorf("panic: %v", v)}
			panicked = true
		}
	}()
	*res = s.Solve(ctx, *p, lim)
	return false
}

// flushEvery is how often the writer flushes rows while the run goes on.
const flushEvery = 250 * time.Millisecond

// write receives finished batches and writes their rows in order,
// giving back a batch's window slot when its last row is written.
func write(ctx context.Context, cfg *Config, results <-chan []result, slots chan struct{}, window int, stats *Stats) error {
	ring := make([]*result, window)
	mask := uint64(window - 1) // window is a power of two
	var next uint64
	dirty := false
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case rs, ok := <-results:
			if !ok {
				return cfg.Sink.Flush()
			}
			if cfg.Progress != nil {
				cfg.Progress.Add(len(rs))
			}
			for i := range rs {
				ring[rs[i].seq&mask] = &rs[i]
			}
			for {
				p := ring[next&mask]
				if p == nil || p.seq != next {
					break
				}
				ring[next&mask] = nil
				if err := cfg.Sink.Write(&p.row); err != nil {
					return err // cancels the group: the run stops
				}
				account(stats, p)
				dirty = true
				next++
				if b := p.batch; b != nil {
					// The batch's last row: the batch is written.
					<-slots
					clear(b[:]) // p too
					resultPool.Put(b)
				}
			}
		case <-tick.C:
			if dirty {
				if err := cfg.Sink.Flush(); err != nil {
					return err
				}
				dirty = false
			}
		case <-ctx.Done():
			cfg.Sink.Flush()
			return ctx.Err()
		}
	}
}

func account(stats *Stats, r *result) {
	stats.Units++
	s := stats.Solvers[r.solver]
	s.Units++
	s.byStatus[r.row.Status]++
	s.NS += r.row.NS
	if r.row.Status == solvers.StatusWrong {
		stats.Wrong++
	}
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
