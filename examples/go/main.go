// Command gosolver is a Sudoku solver for `batch -ext`, speaking the line
// protocol of docs/PROTOCOL.md on its standard input and output: an example
// of an external solver in Go, with the standard library only.
//
//	go build -o /tmp/gosolver ./examples/go
//	batch -solvers bitboard,go -ext go=/tmp/gosolver
//
// It solves grids of side 4, 9 and 16. Each empty cell's candidates are a
// bit mask, the values its row, column and box lack. A search node fills
// naked singles (a cell with one candidate) and hidden singles (a value
// with one place left in a unit) until there are none, then tries each
// candidate of the cell with the fewest, on a copy of the grid (a copy is
// a few hundred bytes: cheaper than undoing). It reports
//
//   - calls: search nodes (calls of search), the first included; a
//     request's max_calls=M stops the search before call M+1 (answer
//     limit);
//   - guesses: values tried at cells with two or more candidates;
//   - ns: the time of setting up and searching one grid (time.Now and
//     time.Since, Go's monotonic clock).
package main

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"time"
)

const symbols = "123456789ABCDEFG"

// geometry is the unit tables of one grid side: the row, column and box
// (indexes into grid.used) of each cell, and the cells of each unit.
type geometry struct {
	side, cells, units int
	full               uint16 // a bit for each value: value v is bit v-1
	unit               [256][3]uint8
	members            [48][16]uint8
}

func newGeometry(side, box int) *geometry {
	g := &geometry{side: side, cells: side * side, units: 3 * side, full: uint16(1<<side - 1)}
	var n [48]int
	for i := 0; i < g.cells; i++ {
		r, c := i/side, i%side
		g.unit[i] = [3]uint8{uint8(r), uint8(side + c), uint8(2*side + r/box*box + c/box)}
		for _, u := range g.unit[i] {
			g.members[u][n[u]] = uint8(i)
			n[u]++
		}
	}
	return g
}

var geometries = map[int]*geometry{16: newGeometry(4, 2), 81: newGeometry(9, 3), 256: newGeometry(16, 4)}

// grid is a search state, copied at each guess.
type grid struct {
	cell  [256]uint8 // 0 for empty, else the value
	used  [48]uint16 // the values each unit holds
	empty [256]uint8 // the empty cells, empty[:n]
	n     int
}

// search is one puzzle's search: its geometry, its counters and the first
// solution found.
type search struct {
	g              *geometry
	calls, guesses int
	maxCalls       int  // 0: none
	limited        bool // the search stopped at maxCalls
	solution       *grid
}

// place puts value bit in cell i and reports whether it could: the cell
// holds another value, or a peer holds this one, when it cannot.
func (s *search) place(t *grid, i int, bit uint16) bool {
	u := &s.g.unit[i]
	if t.cell[i] != 0 || (t.used[u[0]]|t.used[u[1]]|t.used[u[2]])&bit != 0 {
		return int(t.cell[i]) == bits.Len16(bit)
	}
	t.cell[i] = uint8(bits.Len16(bit))
	t.used[u[0]] |= bit
	t.used[u[1]] |= bit
	t.used[u[2]] |= bit
	return true
}

// run returns the number of solutions of t, at most limit; it stops
// (limited) rather than make call maxCalls+1.
func (s *search) run(t *grid, limit int) int {
	if s.maxCalls > 0 && s.calls == s.maxCalls {
		s.limited = true
		return 0
	}
	s.calls++
	g := s.g
	var cand [256]uint16 // candidates of the empty cells of the last pass
	for progress := true; progress; {
		progress = false
		n := 0
		for _, c := range t.empty[:t.n] {
			if t.cell[c] != 0 { // a hidden single of the last pass
				cand[c] = 0
				continue
			}
			u := &g.unit[c]
			m := g.full &^ (t.used[u[0]] | t.used[u[1]] | t.used[u[2]])
			switch {
			case m == 0:
				return 0
			case m&(m-1) == 0:
				s.place(t, int(c), m)
				progress = true
				cand[c] = 0
			default:
				cand[c] = m
				t.empty[n] = c
				n++
			}
		}
		t.n = n
		if progress {
			continue
		}
		for u := 0; u < g.units; u++ { // hidden singles
			var once, twice uint16
			for _, c := range g.members[u][:g.side] {
				twice |= once & cand[c]
				once |= cand[c]
			}
			if once|t.used[u] != g.full {
				return 0
			}
			if hidden := once &^ twice; hidden != 0 {
				for _, c := range g.members[u][:g.side] {
					if h := cand[c] & hidden; h != 0 {
						if h&(h-1) != 0 || !s.place(t, int(c), h) {
							return 0
						}
						progress = true
					}
				}
			}
		}
	}
	if t.n == 0 {
		if s.solution == nil {
			sol := *t
			s.solution = &sol
		}
		return 1
	}
	best, fewest := 0, 99
	for k, c := range t.empty[:t.n] {
		if f := bits.OnesCount16(cand[c]); f < fewest {
			best, fewest = k, f
		}
	}
	c := t.empty[best]
	t.n--
	t.empty[best] = t.empty[t.n]
	found := 0
	for m := cand[c]; m != 0 && found < limit && !s.limited; m &= m - 1 {
		s.guesses++
		next := *t
		s.place(&next, int(c), m&-m)
		found += s.run(&next, limit-found)
	}
	return found
}

// answer answers one request line: "N solve|count ID GRID [max_calls=M]".
// The answer starts with N; a request it does not know is an error.
func answer(line string) string {
	f := strings.Fields(line)
	if len(f) < 4 || f[1] != "solve" && f[1] != "count" {
		return f[0] + " error unknown request: " + line[:min(len(line), 40)]
	}
	n, verb, text := f[0], f[1], f[3]
	maxCalls := 0
	for _, kv := range f[4:] {
		if v, ok := strings.CutPrefix(kv, "max_calls="); ok {
			maxCalls, _ = strconv.Atoi(v)
		}
	}
	g := geometries[len(text)]
	if g == nil {
		return n + " error not a grid of side 4, 9 or 16"
	}
	start := time.Now()
	s := &search{g: g, maxCalls: maxCalls}
	var t grid
	ok := true
	for i := 0; i < g.cells; i++ {
		ch := text[i]
		switch v := strings.IndexByte(symbols[:g.side], ch) + 1; {
		case ch == '0' || ch == '.':
			t.empty[t.n] = uint8(i)
			t.n++
		case v == 0:
			return fmt.Sprintf("%s error cell %d: %q is not a value of a grid of side %d", n, i+1, ch, g.side)
		default:
			ok = ok && s.place(&t, i, 1<<(v-1))
		}
	}
	limit := map[string]int{"solve": 1, "count": 2}[verb]
	found := 0
	if ok {
		found = s.run(&t, limit)
	}
	ns := time.Since(start).Nanoseconds()
	sol := ""
	if s.solution != nil {
		b := make([]byte, g.cells)
		for i := range b {
			b[i] = symbols[s.solution.cell[i]-1]
		}
		sol = string(b) + " "
	}
	stats := fmt.Sprintf("calls=%d guesses=%d ns=%d", s.calls, s.guesses, ns)
	switch {
	case s.limited && (verb == "count" || found == 0):
		return fmt.Sprintf("%s limit %s", n, stats)
	case verb == "count":
		return fmt.Sprintf("%s count %d %s%s", n, found, sol, stats)
	case found > 0:
		return fmt.Sprintf("%s solved %s%s", n, sol, stats)
	default:
		return fmt.Sprintf("%s unsolvable %s", n, stats)
	}
}

// serve speaks the protocol: the handshake, then one answer a request,
// each flushed at once.
func serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1024)
	w := bufio.NewWriter(out)
	line, err := r.ReadString('\n')
	if strings.Join(strings.Fields(line), " ") != "sudokubatch 2" {
		return fmt.Errorf("expected the handshake %q (protocol 2), read %q (%v)", "sudokubatch 2", line, err)
	}
	fmt.Fprintln(w, "solver gosolver 1.0 count calls guesses ns sizes=4,9,16")
	for {
		if err := w.Flush(); err != nil {
			return err
		}
		line, err := r.ReadString('\n')
		if strings.TrimSpace(line) != "" {
			fmt.Fprintln(w, answer(strings.TrimSpace(line)))
		}
		if err == io.EOF {
			return w.Flush()
		} else if err != nil {
			return err
		}
	}
}

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gosolver:", err)
		os.Exit(1)
	}
}
