package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// Sink receives the rows of a run in (corpus, id, solver) order. The
// pipeline calls it from one goroutine only.
type Sink interface {
	Write(*rundir.Row) error
	Flush() error
}

// Progress is told how far a run is. The pipeline calls Add from the
// writer goroutine only, and Finish when the run ends. The command that
// implements it creates it, whole, before it calls Run.
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
	Seed     uint64           // run seed; each puzzle's seed derives from it (PuzzleSeed)
	// SeedOf, if set, gives each puzzle's seed instead (the variants of
	// a puzzle, each solved under a seed of its own).
	SeedOf func(corpus, id int) uint64
	Select Selection
	Unique bool // count solutions (up to 2) once per puzzle
	// Runs is how many times at most a unit whose first run reads slow is
	// timed while its runs take under 50 µs in all (see worker.go); 0:
	// rundir.MaxRuns; 1: once, and no unit is solved again to check it.
	Runs int

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

	// Known, if set, is the identity of each corpus (size, SHA-256,
	// gzip, stream) that Identify gave before the run, or that a resumed
	// run recorded: the bytes of a file are then not hashed again, and a
	// corpus the run does not reach keeps it.
	Known []rundir.CorpusInfo
	// RunDir, if set, is the run directory: a stream corpus (standard
	// input, a pipe, a FIFO) is copied there as it is read
	// (rundir.StreamFile), so that -resume can read it again; a resumed
	// stream must start with the bytes of its copy.
	RunDir string
	// Streams, if set, are the resumed streams opened and checked before
	// the run (OpenStreams); Run reads and closes them. Nil: Run opens
	// them itself.
	Streams *Streams

	// Retime: at the end of a run that was not interrupted, the units far
	// slower than their calls predict and each strategy's slowest units
	// are timed again, alone, and their rows amended (see retime.go);
	// the Sink must implement Amender.
	Retime bool

	// GCPercent, when above 0, is the collector's GOGC from the run's
	// second block of puzzles to its end, when Run puts back the GOGC it
	// found. A run of one block ends before it needs a collection, and
	// setting it at the start would collect the start-up's garbage at
	// once, a cost of the run's own start-up.
	GCPercent int

	Sink     Sink
	Progress Progress      // nil: none
	Stdin    io.Reader     // for "-"; nil: os.Stdin
	Invalid  func(e error) // called (from the reader) for each line that is not a puzzle; may be nil
	Counter  UniqueCounter // for Unique; nil: solvers.CountSolutions

	retime *retimer // set by Run when Retime
	copier bool     // Sink is a RowCopier
	// checkers holds, per strategy of Solvers, its AnswerChecker or nil:
	// asserted once by Run, not once per unit. A strategy that has one is
	// foreign (foreign.go), and has a cacheWatch in caches.
	checkers []solvers.AnswerChecker
	caches   []*cacheWatch
}

// seed returns the seed of puzzle id of corpus ci.
func (cfg *Config) seed(ci, id int) uint64 {
	if cfg.SeedOf != nil {
		return cfg.SeedOf(ci, id)
	}
	return PuzzleSeed(cfg.Seed, ci, id)
}

// setCheckers fills cfg.checkers from cfg.Solvers.
func (cfg *Config) setCheckers() {
	cfg.checkers = make([]solvers.AnswerChecker, len(cfg.Solvers))
	cfg.caches = make([]*cacheWatch, len(cfg.Solvers))
	for i, s := range cfg.Solvers {
		cfg.checkers[i], _ = s.(solvers.AnswerChecker)
		if cfg.checkers[i] != nil {
			cfg.caches[i] = new(cacheWatch)
		}
	}
}

// Amender is a Sink whose rows can be changed after they are written
// (rundir.Dir.Amend): fix is called on every row in order and returns
// whether it changed it.
type Amender interface {
	Amend(fix func(*rundir.Row) bool) (int, error)
}

// placedAmender is an Amender that says where in its file each row it
// wrote starts (rundir.Dir.LastRowAt, asked right after the row's Write)
// and amends the rows it finds at such offsets (rundir.Dir.AmendAt),
// copying the rest of the file unread: the re-timing of a sweep of
// microsecond units amends a few hundred rows of a file of megabytes.
type placedAmender interface {
	LastRowAt() int64
	AmendAt(at []int64, fix func(*rundir.Row) bool) (int, error)
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
	Corpora []rundir.CorpusInfo `json:"corpora"`
	Solvers []*SolverStats      `json:"solvers"`
	Issued  int                 `json:"issued"`  // units issued to the workers by this run
	Units   int                 `json:"units"`   // rows written by this run
	Skipped int                 `json:"skipped"` // units already done (resume)
	Wrong   int                 `json:"wrong"`
	Invalid int                 `json:"invalid_lines"`
	// Interrupted is set when cfg.Stop was closed before Run returned:
	// the run is interrupted, whether or not units were left out.
	Interrupted bool          `json:"interrupted"`
	Elapsed     time.Duration `json:"elapsed_ns"`
	// Timing: the timer's overhead subtracted from each run, the units
	// whose runs disagreed, the re-timing, and the garbage collector's
	// share of the run (see gcShare).
	TimerNS  int64       `json:"timer_ns"`
	Unstable int         `json:"unstable"`
	Retime   RetimeStats `json:"retime"`
	GC       GCStats     `json:"gc"`
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
	nworkers := cfg.Workers
	if nworkers <= 0 {
		nworkers = runtime.GOMAXPROCS(0)
	}
	if len(cfg.Solvers) > 64 {
		return &Stats{}, fmt.Errorf("%d strategies: at most 64 run at once", len(cfg.Solvers))
	}
	block := blockPuzzles * max(len(cfg.Solvers), 1) // the units of a block, at most
	window := windowSize(cfg.Window, block, nworkers)
	if cfg.Counter == nil {
		cfg.Counter = solvers.CountSolutions
	}
	stats := &Stats{}
	cfg.setCheckers()
	_, cfg.copier = cfg.Sink.(RowCopier)
	for _, s := range cfg.Solvers {
		stats.Solvers = append(stats.Solvers, &SolverStats{Name: s.Name(), Statuses: map[string]int{}})
	}
	g, gctx := errgroup.WithContext(ctx)
	ended := make(chan struct{})
	defer close(ended)
	halt := haltOn(cfg.Stop, gctx.Done(), ended)
	// The channels hold every batch that the window lets out (a batch
	// has a unit at least), so that neither the reader nor a worker ever
	// waits to send. Woken by a worker's channel operation, the reader
	// and the writer wait on that worker's P behind it; with a worker on
	// every P they run only when a worker blocks or is preempted. With
	// room for only one batch per worker, the workers would run out of
	// batches between two such turns and their Ps idle while the reader
	// fills one.
	slots := make(chan struct{}, window/block) // blocks between the reader and the writer
	batches := make(chan *unitBatch, window)
	results := make(chan *resultBatch, window)
	pc := newPace(len(cfg.Solvers))
	r := &reader{cfg: &cfg, batches: batches, slots: slots, ents: make([]entry, window+blockPuzzles),
		pace: pc, issued: make([]int64, len(cfg.Solvers)), stats: stats, halt: halt}
	streams, err := r.openStreams(ctx)
	if err != nil {
		stats.Corpora = r.infos(nil)
		stats.Elapsed = time.Since(start)
		return stats, err
	}
	var read []rundir.CorpusInfo
	g.Go(func() error {
		defer close(batches)
		var err error
		read, err = r.read(gctx)
		if errors.Is(err, errStopped) {
			return nil // not an error: the units issued go on
		}
		return err
	})
	stopCtx, cancelStop := stopContext(gctx, cfg.Stop)
	defer cancelStop()
	w := &workers{cfg: &cfg, epoch: start, batches: batches, results: results, pace: pc,
		overhead: timerOverhead(start), runs: runsOf(cfg.Runs), stopCtx: stopCtx}
	stats.TimerNS = w.overhead
	amender, _ := cfg.Sink.(Amender)
	if cfg.Retime && amender != nil {
		cfg.retime = newRetimer(&cfg)
		cfg.retime.epoch, cfg.retime.timerNS = start, w.overhead
	}
	gc0 := readGC()
	var wg sync.WaitGroup
	for range nworkers {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			return w.work(gctx)
		})
	}
	g.Go(func() error {
		wg.Wait()
		close(results)
		return nil
	})
	g.Go(func() error { return write(gctx, &cfg, results, slots, window, stats) })

	err = g.Wait()
	stats.GC = readGC().since(gc0) // the sweep's, without the re-timing
	streams.Close()                // those the run did not reach
	stats.count(r.infos(read))
	if cfg.Progress != nil {
		cfg.Progress.Finish()
	}
	err = stats.afterSweep(ctx, &cfg, amender, start, err)
	if r.gcLowered() {
		debug.SetGCPercent(r.gcPercent) // the reader has ended: nothing sets it again
	}
	stats.Elapsed = time.Since(start)
	return stats, err
}

// afterSweep ends a sweep that ended with err, started at start: it
// notes whether it was interrupted, checks that every unit issued
// wrote its row, re-times units alone when the sweep finished
// (Config.Retime; amender amends their rows) and reports the faults its
// rows found late (lateFaults). It returns the run's error.
func (stats *Stats) afterSweep(ctx context.Context, cfg *Config, amender Amender, start time.Time, err error) error {
	stats.Interrupted = cfg.Stop != nil && stopped(cfg.Stop)
	if err == nil && !stats.Interrupted {
		err = stats.rowsMissing()
	}
	if err == nil && !stats.Interrupted && cfg.retime != nil {
		rctx, cancel := stopContext(ctx, cfg.Stop)
		stats.Retime = cfg.retime.runAndAmend(rctx, cfg.Stop, amender, time.Since(start))
		cancel()
		stats.retimed(cfg)
		stats.Interrupted = cfg.Stop != nil && stopped(cfg.Stop)
	}
	if err == nil && amender != nil {
		err = stats.lateFaults(cfg, amender)
	}
	return err
}

// openStreams opens the run's streams (cfg.Streams when the caller
// opened them) for the reader, and lets halt stop their reads. A resumed
// stream is compared with its copy here, before any row is written: a
// different input stops the run.
func (r *reader) openStreams(ctx context.Context) (*Streams, error) {
	streams := r.cfg.Streams
	if streams == nil {
		var err error
		if streams, err = OpenStreams(ctx, r.cfg); err != nil {
			return nil, err
		}
	}
	r.pre = streams.files
	for _, c := range r.pre {
		if c != nil {
			c.StopOn(r.halt)
		}
	}
	return streams, nil
}

// windowSize returns the reorder window, in units: configured (a
// positive want) or four blocks at least, so that a block's slow unit
// does not leave the workers idle while the reader waits for its slot,
// and two of the largest batches per worker (no more: the reader holds
// an entry, a puzzle, per unit of the window). It is two blocks at
// least, and a power of two: the writer's ring is indexed with a mask.
func windowSize(want, block, nworkers int) int {
	window := want
	if window <= 0 {
		window = max(2*maxBatch*nworkers, 4*block)
	}
	window = max(window, 2*block)
	return 1 << bits.Len(uint(window-1))
}

// haltOn returns a channel closed at the first of stop (the first
// Ctrl-C), done (the group stops) and ended (Run returns). It interrupts
// a read that waits on a stream (a slow pipe, a FIFO without a writer),
// so that neither waits for the next byte of the input.
func haltOn(stop <-chan struct{}, done, ended <-chan struct{}) chan struct{} {
	halt := make(chan struct{})
	go func() {
		select {
		case <-stop:
		case <-done:
		case <-ended:
		}
		close(halt)
	}()
	return halt
}

// rowsMissing returns an error when a unit issued has no row. Every
// unit issued must have its row unless the run was stopped (the batches
// still queued at the first Ctrl-C are dropped): anything else is a bug,
// and the run is not finished.
func (stats *Stats) rowsMissing() error {
	if stats.Units == stats.Issued {
		return nil
	}
	return fmt.Errorf("%d %s issued but %d %s written", stats.Issued,
		map[bool]string{true: "unit was", false: "units were"}[stats.Issued == 1], stats.Units,
		map[bool]string{true: "row", false: "rows"}[stats.Units == 1])
}

// count sets the corpora's accounting and each strategy's counts by
// status name from what the writer counted.
func (stats *Stats) count(corpora []rundir.CorpusInfo) {
	stats.Corpora = corpora
	for _, c := range corpora {
		stats.Invalid += c.Invalid
	}
	for _, s := range stats.Solvers {
		for _, st := range solvers.Statuses() {
			if n := s.byStatus[st]; n > 0 {
				s.Statuses[st.String()] = n
			}
		}
	}
}

// Timing returns how the run timed its units, as run.json records it
// for the run's segment.
func (s *Stats) Timing() rundir.Timing {
	r := s.Retime
	return rundir.Timing{TimerNS: s.TimerNS, Unstable: s.Unstable,
		Retimed: r.Retimed, Slow: r.Slow, Noise: r.Noise, Confirmed: r.Confirmed, Left: r.Left,
		RetimeNS: r.NS, RetimeErr: r.Error,
		GCCycles: s.GC.Cycles, GCPauseNS: s.GC.PauseNS, GCCPUShare: s.GC.CPUShare}
}

// Complete reports whether the run did all it was asked: every corpus
// read to its end, no unit left out, and not interrupted.
func (s *Stats) Complete() bool {
	if s.Interrupted || s.Units != s.Issued {
		return false
	}
	for _, c := range s.Corpora {
		if c.Error != "" {
			return false
		}
	}
	return true
}

// CorpusErrors returns the errors of the corpora that could not be read
// to their end (CorpusInfo.Error), one per corpus.
func (s *Stats) CorpusErrors() []string {
	var errs []string
	for _, c := range s.Corpora {
		if c.Error != "" {
			errs = append(errs, c.Error)
		}
	}
	return errs
}

// errStopped is not an error: the reader saw cfg.Stop (or a read that
// waited on a stream was halted).
var errStopped = corpus.ErrStopped

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}
