package pipeline

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"sudokubatch/corpus"
	"sudokubatch/rundir"
)

// entry is one selected puzzle line, shared by the units of its solvers.
type entry struct {
	corpus    int
	e         corpus.Entry
	seed      uint64
	clues     int
	once      sync.Once
	solutions int
	todo      uint64 // the solvers (bit i: Config.Solvers[i]) that run on it: those not done yet
}

// unit is one (puzzle, solver) pair with its place in the output order.
type unit struct {
	seq    uint64
	ent    *entry
	solver int
	last   bool // the last unit of its block in the output order
}

// result is a finished unit.
type result struct {
	seq    uint64
	row    rundir.Row
	solver int    // index in Config.Solvers
	ent    *entry // valid until the row is written
	last   bool   // the last unit of its block: its window slot is given back after its row is written
	// batch is set on the last unit of its batch (and is the batch): the
	// batch goes back to its pool after its row is written.
	batch *resultBatch
	// skip: the unit was cut short by the stop (a foreign strategy's,
	// see foreign.go) and has no row.
	skip bool
}

// batch holds a batch of units or of results; a batchPool keeps them by
// size class (a power of two up to maxBatch), so that the memory in
// flight is that of the units in flight, whatever the batch sizes: the
// window may hold thousands of one-unit batches (a slow strategy, or any
// strategy before its mean time is known).
type batch[T any] struct {
	s    []T
	text []byte // a batch of results: its solutions' text (solutionText), when the Sink is a RowCopier
}

type (
	unitBatch   = batch[unit]
	resultBatch = batch[result]
)

const sizeClasses = 9 // 1, 2, 4, ..., 256 = maxBatch

type batchPool[T any] [sizeClasses]sync.Pool

var (
	unitPool   batchPool[unit]
	resultPool batchPool[result]
)

// sizeClass returns the pool of batches of n units (1 <= n <= maxBatch).
func sizeClass(n int) int { return bits.Len(uint(n - 1)) }

// get returns a batch of n elements.
func (p *batchPool[T]) get(n int) *batch[T] {
	c := sizeClass(n)
	b, _ := p[c].Get().(*batch[T])
	if b == nil {
		b = &batch[T]{s: make([]T, 1<<c)}
	}
	b.s = b.s[:n]
	return b
}

// put clears b and keeps it for another get.
func (p *batchPool[T]) put(b *batch[T]) {
	clear(b.s)
	p[sizeClass(cap(b.s))].Put(b)
}

// Recycling, so that a sweep allocates little per unit (about 500 bytes
// otherwise, which kept the collector busy):
//   - The entries live in a ring of Window+blockPuzzles places that the
//     reader fills in turn (TestOrderWithRandomDelays fails with a
//     smaller one). The puzzles of at most Window/(blockPuzzles*solvers)
//     blocks are in flight (a window slot each, given back when the
//     block's last row is written, in order), and the reader fills one
//     more block: when a place comes round again, the block of its old
//     entry is written.
//   - The batches go back to pools: a batch of units when its worker has
//     solved it, a batch of results when its last row is written.

// Blocks and batches: the reader gathers up to blockPuzzles selected
// puzzles into a block, numbers the block's units in (puzzle, solver)
// order, and hands them to the workers one strategy at a time: a batch
// holds units of one strategy only, so that a worker runs one strategy
// over many puzzles before it switches, and each strategy is timed with
// its own code and data in the caches and its own branches in the
// predictors (a fast strategy timed right after a slow one on the same
// core runs cold: docs/TIMING.md). A batch holds about batchTarget of
// work, judged from the mean time of the strategy's units so far (each
// as its row records it: a cheap unit's first run preempted by a CPU hog
// was repeated, and its median stands for it), and at most maxBatch units: the strategies of tens of
// microseconds a unit or less go a whole block at a time, which their
// repeats need (see minPass), even when the mean is that of the first
// unit, which runs cold and reads several times its strategy's usual
// time; units that take batchTarget or more go one by one. A worker always finishes the batch it
// took: after the first Ctrl-C that is at most about batchTarget of
// work (plus 50 µs a unit of repeats), or one unit. Batches make the channel operations
// cost little per unit when units take microseconds; each batch's send
// wakes the writer, so smaller batches of the microsecond strategies
// cost more CPU per unit (BenchmarkSweep).
const (
	blockPuzzles = rundir.TimingBlock
	maxBatch     = blockPuzzles
	batchTarget  = 16 * time.Millisecond
)

// pace is what the reader learns from the workers to size batches.
//
// Until a strategy's mean is known, its units go one at a time, and the
// reader waits for each to be solved before it issues the next: it
// would otherwise issue a whole block or more of one-unit batches (too
// small to repeat, see minPass) in the time a worker takes to solve the
// first. The wait is one unit per strategy at the start of a run (one
// more for each unit that did not run, an entry that is not a puzzle).
type pace struct {
	meanNS   []atomic.Int64 // per solver, the running mean of its units' times as their rows record them (0: unknown)
	finished []atomic.Int64 // per solver, the batches solved
	ping     chan struct{}  // a batch was solved (capacity 1: a ping waits for the reader)

	mu     sync.Mutex
	weight []int64 // per solver, the units behind meanNS, at most paceMemory
}

// paceMemory is the number of units the running mean stands for: a
// batch moves the mean in proportion to its units, so that the first
// unit, which runs cold (on a loaded machine or under the race detector
// 10 to 100 times the later ones), weighs as one unit and the batches
// reach their size within a block; the cap lets the mean follow a
// strategy whose puzzles grow harder along the corpus.
const paceMemory = 4 * blockPuzzles

func newPace(nsolvers int) *pace {
	return &pace{
		meanNS:   make([]atomic.Int64, nsolvers),
		finished: make([]atomic.Int64, nsolvers),
		ping:     make(chan struct{}, 1),
		weight:   make([]int64, nsolvers),
	}
}

// solved records a solved batch of solver si whose n units that ran
// (n may be 0) took sum in all, as their rows record them.
func (p *pace) solved(si int, sum int64, n int) {
	if n > 0 {
		// The mean moves once per batch, not per unit (a word that every
		// worker wrote per unit would go from core to core at each write),
		// under a lock taken once per batch.
		p.mu.Lock()
		w := p.weight[si]
		mean := max((p.meanNS[si].Load()*w+sum)/(w+int64(n)), 1)
		p.weight[si] = min(w+int64(n), paceMemory)
		p.meanNS[si].Store(mean)
		p.mu.Unlock()
	}
	p.finished[si].Add(1)
	select {
	case p.ping <- struct{}{}:
	default:
	}
}

// batchSize returns the number of units of the next batch, given the
// running mean time of a unit (0 when unknown).
func batchSize(meanNS int64) int {
	if meanNS <= 0 {
		return 1
	}
	return int(min(max(int64(batchTarget)/meanNS, 1), maxBatch))
}
