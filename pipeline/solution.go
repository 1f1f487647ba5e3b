package pipeline

import (
	"encoding/binary"
	"unsafe"

	"sudokubatch/solvers"
)

// RowCopier is a Sink whose Write keeps nothing of a row but copies
// (rundir.Dir encodes the row into results.csv). Run hands such a Sink
// rows whose Solution shares the memory of their batch of results, which
// is reused once the batch's rows are written: a sweep then allocates
// nothing per unit, and the collector seldom runs. Any other Sink gets
// a Solution of its own, which it may keep.
type RowCopier interface {
	Sink
	CopiesRows()
}

// solutionText returns g as g.String() does: in *buf, which it appends
// to, when buf is not nil and has room (the string shares buf's memory
// and is valid until buf is reused), else as a new string. buf never
// grows: a grid it has no room for gets a new string.
func solutionText(g *solvers.Grid, buf *[]byte) string {
	n := g.Len()
	if buf == nil || g.IsZero() || cap(*buf)-len(*buf) < n {
		return g.String()
	}
	start := len(*buf)
	b := (*buf)[start : start+n]
	*buf = (*buf)[:start+n]
	// Eight cells at a time while they are all 0..9 (every 9x9 grid),
	// then one at a time, as Grid.String writes them.
	const low, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= n; i += 8 {
		w := binary.LittleEndian.Uint64(g.Cells[i:])
		if (w&(0x7f*low)+(0x7f-9)*low|w)&high != 0 {
			break // a cell above 9
		}
		binary.LittleEndian.PutUint64(b[i:], w+'0'*low)
	}
	for ; i < n; i++ {
		b[i] = solvers.Symbol(g.Cells[i])
	}
	return unsafe.String(&b[0], n)
}

// textCells is the room for a 9x9 grid's text per result of a batch
// (solutionText).
const textCells = 81
