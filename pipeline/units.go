package pipeline

import (
	"sync"
	"time"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

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
	row    rundir.Row
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
// Ctrl-C that is at most about batchTarget of work, or one unit. Each
// batch's send wakes the writer: smaller batches of the microsecond
// strategies cost more CPU per unit (BenchmarkSweep).
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
