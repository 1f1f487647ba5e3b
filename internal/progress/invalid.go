package progress

import (
	"fmt"
	"io"
	"sync"
)

// Invalid prints the first Show lines of a sweep that are not puzzles on
// W as the pipeline reports them (its Config.Invalid: Report), and at the
// end how many more there were (Rest). It is safe for concurrent use.
type Invalid struct {
	W    io.Writer
	Show int
	mu   sync.Mutex
	n    int
}

// Report prints the error of an invalid line while fewer than Show were.
func (l *Invalid) Report(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n++; l.n <= l.Show {
		fmt.Fprintf(l.W, "batch: invalid line: %v\n", err)
	}
}

// Rest says how many invalid lines were not printed, if any.
func (l *Invalid) Rest() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n > l.Show {
		fmt.Fprintf(l.W, "batch: %d more invalid lines (status invalid in results.csv)\n", l.n-l.Show)
	}
}
