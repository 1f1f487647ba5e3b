package rundir

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// plainRow encodes r as results.csv's line of cols columns the plain way
// (strconv for the numbers, appendField for the text, a slice of fields
// joined by commas): what Writer.Write must write, byte for byte.
func plainRow(r *Row, cols int) string {
	num := func(v int64) string { return strconv.FormatInt(v, 10) }
	text := func(s string) string { return string(appendField(nil, s)) }
	solutions := ""
	if r.Solutions >= 0 {
		solutions = num(int64(r.Solutions))
	}
	unstable, self := "0", ""
	if r.Unstable {
		unstable = "1"
	}
	if r.SelfNS > 0 {
		self = num(r.SelfNS)
	}
	f := []string{num(int64(r.ID)), num(int64(r.Line)), text(r.Solver), r.Status.String(), num(r.NS),
		strconv.FormatUint(r.Calls, 10), strconv.FormatUint(r.Guesses, 10), strconv.FormatUint(r.Backtracks, 10),
		num(int64(r.Filled)), num(int64(r.Clues)), solutions, strconv.FormatUint(r.Seed, 10),
		text(r.Solution), text(r.Error), text(r.Corpus),
		num(int64(r.Runs)), num(r.NSMin), num(r.NSMedian), text(r.Retimed), unstable, self}
	return strings.Join(f[:cols], ",") + "\n"
}

// randomRows returns n rows whose numbers have every length (negative
// ones too, as an edited file may hold), whose text fields are plain,
// hostile (formulas, quotes, commas, line breaks) or long, and whose
// corpus, seed, solver and times repeat from row to row or not, as the
// Writer caches the encoding of some of them.
func randomRows(rng *rand.Rand, n int) []Row {
	num := func() uint64 {
		if rng.IntN(8) == 0 {
			return uint64(rng.IntN(3)) // 0, 1, 2
		}
		return rng.Uint64() >> rng.IntN(64)
	}
	signed := func() int64 {
		v := int64(num() >> 1)
		if rng.IntN(16) == 0 {
			v = -v
		}
		return v
	}
	text := func() string {
		switch rng.IntN(6) {
		case 0:
			return ""
		case 1:
			return hostile[rng.IntN(len(hostile))]
		case 2:
			return strings.Repeat("ab,\"\n", rng.IntN(40))
		default:
			return "693784512487512936125963874932651487568247391741398625319475268856129743274836159"[:rng.IntN(82)]
		}
	}
	statuses := []solvers.Status{solvers.StatusSolved, solvers.StatusUnsolvable, solvers.StatusTimeout, solvers.StatusInvalid, solvers.StatusError}
	rows := make([]Row, n)
	for i := range rows {
		r := &rows[i]
		*r = Row{ID: int(signed()), Line: int(signed()), Solver: []string{"bitboard", "dlx", "=cmd", "a,b"}[rng.IntN(4)],
			Status: statuses[rng.IntN(len(statuses))], NS: signed(), Calls: num(), Guesses: num(), Backtracks: num(),
			Filled: int(signed()), Clues: int(signed()), Solutions: rng.IntN(4) - 1, Seed: num(),
			Solution: text(), Error: text(), Corpus: []string{"data/sudoku17.txt", "-", "=x.txt", "b, c.txt", ""}[rng.IntN(5)],
			Runs: int(signed()), NSMin: signed(), NSMedian: signed(), Retimed: []string{"", RetimedSlow, RetimedNoise, "=1"}[rng.IntN(4)],
			Unstable: rng.IntN(2) == 0, SelfNS: signed()}
		if i > 0 && rng.IntN(3) == 0 { // the same seed, corpus and times as the row before
			p := &rows[i-1]
			r.Seed, r.Corpus, r.Solver, r.NSMin, r.NSMedian = p.Seed, p.Corpus, p.Solver, r.NS, r.NS
		}
	}
	return rows
}

// TestWriterMatchesPlainEncoding writes random rows (randomRows) with a
// Writer of every column count, some of them longer than its buffer, and
// compares the file with the rows encoded the plain way (plainRow). Every
// other column count writes through a bufio.Writer, as an amend does
// (the Writer's buffer is then a small one).
func TestWriterMatchesPlainEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	rows := randomRows(rng, 20000)
	rows[100].Error = strings.Repeat("x", 3*rowsBuffer) // a row longer than the buffer
	rows[101].Solution = strings.Repeat("=\"", rowsBuffer)
	for cols := baseColumns; cols <= len(Header); cols++ {
		var got bytes.Buffer
		var out io.Writer = &got
		bw := bufio.NewWriterSize(&got, writerBuffer)
		if cols%2 == 1 {
			out = bw
		}
		w := NewWriter(out)
		w.SetColumns(cols)
		var want strings.Builder
		want.WriteString(strings.Join(Header[:cols], ",") + "\n")
		if err := w.WriteHeader(); err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			if err := w.Write(&rows[i]); err != nil {
				t.Fatal(err)
			}
			want.WriteString(plainRow(&rows[i], cols))
			if i%5000 == 0 {
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if got.String() != want.String() {
			g, w := got.String(), want.String()
			i := 0
			for i < min(len(g), len(w)) && g[i] == w[i] {
				i++
			}
			t.Fatalf("%d columns: the file differs from the plain encoding at byte %d: %q, want %q",
				cols, i, g[max(i-40, 0):min(i+40, len(g))], w[max(i-40, 0):min(i+40, len(w))])
		}
		if w.n != int64(got.Len()) {
			t.Fatalf("%d columns: the writer counts %d bytes written, the file has %d", cols, w.n, got.Len())
		}
	}
}

// failAfter takes n bytes and then fails every write.
type failAfter struct {
	n     int
	taken bytes.Buffer
}

var errFull = errors.New("no space left")

func (f *failAfter) Write(p []byte) (int, error) {
	k := min(len(p), f.n)
	f.taken.Write(p[:k])
	f.n -= k
	if k < len(p) {
		return k, errFull
	}
	return k, nil
}

// TestWriterKeepsTheFirstError: a write that fails in the middle of the
// rows is reported by the Write or Flush that meets it, as "writing
// results", and by every call after it; what the file took is a prefix of
// the rows.
func TestWriterKeepsTheFirstError(t *testing.T) {
	rows := benchRows(4096)
	var all bytes.Buffer
	full := NewWriter(&all)
	for i := range rows {
		full.Write(&rows[i])
	}
	full.Flush()
	out := &failAfter{n: all.Len() / 2}
	w := NewWriter(out)
	var err error
	for i := range rows {
		if err = w.Write(&rows[i]); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if !errors.Is(err, errFull) || !strings.HasPrefix(err.Error(), "writing results: ") {
		t.Fatalf("the failed write gave %v", err)
	}
	if err2 := w.Write(&rows[0]); err2 == nil || w.Flush() == nil {
		t.Fatal("a Write or Flush after the failure succeeded")
	}
	if !bytes.HasPrefix(all.Bytes(), out.taken.Bytes()) || out.taken.Len() != all.Len()/2 {
		t.Fatalf("the file took %d bytes, not the first %d of the rows", out.taken.Len(), all.Len()/2)
	}
}
