package pipeline

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// TestSolutionTextIsGridString: solutionText writes a grid as
// Grid.String does, for every size, into the buffer while it has room and
// as a string of its own after.
func TestSolutionTextIsGridString(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 0, 3*81)
	for _, box := range []int{2, 3, 4, 3, 3, 3} {
		g := solvers.NewGrid(box)
		for i := range g.Len() {
			g.Cells[i] = uint8(rng.IntN(box*box + 1))
		}
		want := g.String()
		before := len(buf)
		if got := solutionText(&g, &buf); got != want {
			t.Errorf("box %d: %q, want %q", box, got, want)
		}
		if room := cap(buf) - before; room >= g.Len() && len(buf) != before+g.Len() {
			t.Errorf("box %d: %d bytes of room, the text not in the buffer", box, room)
		}
		if got := solutionText(&g, nil); got != want {
			t.Errorf("box %d without a buffer: %q, want %q", box, got, want)
		}
	}
	var zero solvers.Grid
	if got := solutionText(&zero, &buf); got != "" {
		t.Errorf("zero grid: %q", got)
	}
}

// copySink is a RowCopier that keeps copies of the rows' text.
type copySink struct{ memSink }

func (c *copySink) Write(r *rundir.Row) error {
	row := *r
	row.Solution = strings.Clone(r.Solution)
	return c.memSink.Write(&row)
}
func (c *copySink) CopiesRows() {}

// TestSolutionsWhetherSinksCopyOrKeep: the rows a RowCopier is given have
// their solutions (in memory the pipeline reuses) right when Write is
// called, and the rows another Sink keeps keep theirs after the run:
// every solution solves its puzzle.
func TestSolutionsWhetherSinksCopyOrKeep(t *testing.T) {
	path := corpusHead(t, 3000)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var puzzles []solvers.Puzzle
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var p solvers.Puzzle
		if err := solvers.ParseLine(&p, sc.Bytes()); err != nil {
			t.Fatal(err)
		}
		puzzles = append(puzzles, p)
	}
	f.Close()
	bb, _ := solvers.Lookup("bitboard")
	for _, sink := range []interface {
		Sink
		all() []rundir.Row
	}{&copySink{}, &memSink{}} {
		if _, err := Run(context.Background(), Config{Corpora: []string{path}, Solvers: []solvers.Solver{bb}, Workers: 2, Sink: sink}); err != nil {
			t.Fatal(err)
		}
		rows := sink.all()
		if len(rows) != len(puzzles) {
			t.Fatalf("%T: %d rows, want %d", sink, len(rows), len(puzzles))
		}
		for _, r := range rows {
			sol, err := solvers.ParsePuzzle(r.Solution)
			if err == nil {
				err = solvers.Check(puzzles[r.ID], sol.Grid)
			}
			if err != nil {
				t.Fatalf("%T: row %d: solution %q: %v", sink, r.ID, r.Solution, err)
			}
		}
	}
}

func (m *memSink) all() []rundir.Row { return m.rows }
