package solvers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

const corpus0 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"

func TestParsePuzzle(t *testing.T) {
	dots := strings.ReplaceAll(corpus0, "0", ".")
	tests := []struct {
		name    string
		line    string
		box     int
		clues   int
		wantErr string // substring; empty means no error
	}{
		{"9x9 zeros", corpus0, 3, 17, ""},
		{"9x9 dots", dots, 3, 17, ""},
		{"CRLF", corpus0 + "\r", 3, 17, ""},
		{"BOM", "\uFEFF" + corpus0, 3, 17, ""},
		{"colon suffix", corpus0 + ":1:" + corpus0, 3, 17, ""},
		{"comma suffix", corpus0 + ",rated hard", 3, 17, ""},
		{"space suffix", corpus0 + "  # a comment", 3, 17, ""},
		{"tab suffix", corpus0 + "\t17", 3, 17, ""},
		{"leading space", "  " + corpus0, 3, 17, ""},
		{"4x4", "4000300200040020", 2, 5, ""},
		{"16x16 lower case", "g" + strings.Repeat("0", 255), 4, 1, ""},
		{"16x16 upper case", "G" + strings.Repeat(".", 255), 4, 1, ""},
		{"too short", corpus0[:80], 0, 0, "80 symbols"},
		{"too long", corpus0 + "0", 0, 0, "82 symbols"},
		{"empty", "", 0, 0, "empty"},
		{"letter in 9x9", "A" + corpus0[1:], 0, 0, `bad symbol "A" at position 1`},
		{"5 in 4x4", "5000000000000000", 0, 0, `bad symbol "5"`},
		{"H in 16x16", "H" + strings.Repeat("0", 255), 0, 0, `bad symbol "H"`},
		{"non-ASCII", "é" + corpus0[2:], 0, 0, `bad symbol "é"`},
		{"row conflict", "11" + strings.Repeat("0", 79), 0, 0, "1 twice in row 1"},
		{"column conflict", "1" + strings.Repeat("0", 8) + "1" + strings.Repeat("0", 71), 0, 0, "1 twice in column 1"},
		{"box conflict", "1" + strings.Repeat("0", 9) + "1" + strings.Repeat("0", 70), 0, 0, "1 twice in box 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePuzzle(tt.line)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Box != tt.box || p.Clues() != tt.clues {
				t.Fatalf("box %d clues %d, want %d and %d", p.Box, p.Clues(), tt.box, tt.clues)
			}
		})
	}
}

func TestGridStringRoundTrip(t *testing.T) {
	for _, k := range loadKnown(t) {
		for _, g := range []Grid{k.puzzle.Grid, k.solution} {
			p, err := ParsePuzzle(g.String())
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			if p.Grid != g {
				t.Fatalf("%s: round trip changed the grid", k.name)
			}
		}
	}
}

func TestGridFormat(t *testing.T) {
	g := MustParse("4000300200040020").Grid
	want := `+-----+-----+
| 4 . | . . |
| 3 . | . 2 |
+-----+-----+
| . . | . 4 |
| . . | 2 . |
+-----+-----+
`
	if got := g.Format(); got != want {
		t.Fatalf("Format() =\n%s\nwant\n%s", got, want)
	}
}

func TestCheck(t *testing.T) {
	k := knownByName(t, "corpus-0")
	if err := Check(k.puzzle, k.solution); err != nil {
		t.Fatalf("valid solution rejected: %v", err)
	}
	swap := k.solution
	// Swap two cells of row 1 that are not givens: rows stay permutations, columns do not.
	i, j := -1, -1
	for c := 0; c < 9 && j < 0; c++ {
		if k.puzzle.Cells[c] == 0 {
			if i < 0 {
				i = c
			} else {
				j = c
			}
		}
	}
	swap.Cells[i], swap.Cells[j] = swap.Cells[j], swap.Cells[i]
	given := k.solution
	for c := range 81 {
		if k.puzzle.Cells[c] != 0 {
			// Relabel two digits everywhere: still a valid grid, but a given changes.
			swapDigits(&given, k.solution.Cells[c], k.solution.Cells[c]%9+1)
			break
		}
	}
	incomplete := k.solution
	incomplete.Cells[80] = 0
	tests := []struct {
		name string
		g    Grid
		want string
	}{
		{"swapped", swap, "column"},
		{"given changed", given, "but the given is"},
		{"incomplete", incomplete, "r9c9 holds 0"},
		{"zero grid", Grid{}, "box size 0"},
		{"wrong size", MustParse("4231314223141423").Grid, "box size 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(k.puzzle, tt.g)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestStatusNames(t *testing.T) {
	for _, s := range Statuses() {
		got, err := ParseStatus(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStatus(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseStatus("none"); err == nil {
		t.Error("ParseStatus(none) accepted the zero status")
	}
}

func FuzzParsePuzzle(f *testing.F) {
	for _, s := range []string{corpus0, "4000300200040020", "G" + strings.Repeat(".", 255),
		corpus0 + ":1:x", "\uFEFF" + corpus0 + "\r", "11" + strings.Repeat("0", 79), "", "#", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		p, err := ParsePuzzle(line)
		if err != nil {
			if !p.IsZero() {
				t.Fatalf("error %v with a non-zero puzzle", err)
			}
			return
		}
		// A parsed puzzle is valid, round-trips, and its givens never conflict.
		if err := p.validate(); err != nil {
			t.Fatalf("parsed puzzle fails validate: %v", err)
		}
		q, err := ParsePuzzle(p.String())
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %v", p.String(), err)
		}
		if n := p.Len(); n != 16 && n != 81 && n != 256 {
			t.Fatalf("Len() = %d", n)
		}
	})
}

func ExampleParsePuzzle() {
	p, err := ParsePuzzle("4000300200040020:a 4x4 puzzle")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Side(), p.Clues())
	fmt.Print(p.Format())
	// Output:
	// 4 5
	// +-----+-----+
	// | 4 . | . . |
	// | 3 . | . 2 |
	// +-----+-----+
	// | . . | . 4 |
	// | . . | 2 . |
	// +-----+-----+
}

// TestCheckMutations compares Check with fault, a plain count of every
// value in every unit, on the known solutions and many corruptions of them
// (a cell changed, two cells swapped): both must agree on validity and on
// the fault named.
func TestCheckMutations(t *testing.T) {
	reference := func(p Puzzle, g Grid) error { return fault(&p, &g, p.Box) }
	rng := rand.New(rand.NewPCG(1, 2))
	faults := 0
	for _, k := range loadKnown(t) {
		if k.solution.Box == 0 {
			continue
		}
		side := k.puzzle.Side()
		cells := side * side
		for trial := range 800 {
			g := k.solution
			n := k.puzzle.Box
			switch trial % 8 {
			case 4:
				// Another valid grid: two digits exchanged everywhere, or
				// two rows (columns) of one band (stack) exchanged. Only
				// the givens tell it from a solution.
				swapDigits(&g, uint8(1+rng.IntN(side)), uint8(1+rng.IntN(side)))
			case 5, 6:
				// Rows (trial 5) or columns (6) of different bands: rows and
				// columns stay permutations, the boxes do not.
				x := rng.IntN(n)
				y := (x + n + rng.IntN(side-n)) % side
				if trial%8 == 5 {
					for c := range side {
						g.Cells[x*side+c], g.Cells[y*side+c] = g.Cells[y*side+c], g.Cells[x*side+c]
					}
				} else {
					for r := range side {
						g.Cells[r*side+x], g.Cells[r*side+y] = g.Cells[r*side+y], g.Cells[r*side+x]
					}
				}
			case 0, 2:
				g.Cells[rng.IntN(cells)] = uint8(1 + rng.IntN(side))
			case 1:
				// A byte that is not a value: 0, just past the side, or
				// one whose bit would land in another cell's lane.
				odd := [...]uint8{0, uint8(side + 1), 16, 17, 33, 65, 255, uint8(rng.IntN(256))}
				g.Cells[rng.IntN(cells)] = odd[rng.IntN(len(odd))]
			default:
				i, j := rng.IntN(cells), rng.IntN(cells)
				g.Cells[i], g.Cells[j] = g.Cells[j], g.Cells[i]
			}
			got, want := Check(k.puzzle, g), reference(k.puzzle, g)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s trial %d: Check = %v, reference = %v", k.name, trial, got, want)
			}
			if want != nil {
				faults++
			}
		}
	}
	if faults == 0 {
		t.Fatal("no corruption was a fault: the test compares nothing")
	}
}

// TestCheckEachGiven gives one cell only, and offers a valid grid that
// differs from the solution in that cell's digit (two digits exchanged
// everywhere): Check must see the given, wherever it is (the fast 9x9
// check reads the givens eight at a time, and the last cell on its own).
func TestCheckEachGiven(t *testing.T) {
	for _, k := range loadKnown(t) {
		if k.solution.Box != 3 {
			continue
		}
		for i := range 81 {
			p := Puzzle{Grid{Box: 3}}
			p.Cells[i] = k.solution.Cells[i]
			g := k.solution
			swapDigits(&g, g.Cells[i], g.Cells[i]%9+1)
			if err := Check(p, k.solution); err != nil {
				t.Fatalf("%s: given at cell %d: Check of the solution = %v", k.name, i, err)
			}
			if err := Check(p, g); err == nil || !strings.Contains(err.Error(), "but the given is") {
				t.Fatalf("%s: given at cell %d changed: Check = %v, want the given named", k.name, i, err)
			}
		}
		return
	}
	t.Fatal("no known 9x9 solution")
}

// TestGridStringSymbols compares String, which converts eight cells at a
// time while they are all 0..9, with Symbol cell by cell, on grids of
// every size holding values, then bytes of any kind.
func TestGridStringSymbols(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		g := Grid{Box: 2 + trial%3}
		for i := range g.Len() {
			switch {
			case trial < 1500:
				g.Cells[i] = uint8(rng.IntN(g.Side() + 1))
			case rng.IntN(8) == 0:
				g.Cells[i] = uint8(rng.IntN(256))
			default:
				g.Cells[i] = uint8(rng.IntN(10))
			}
		}
		want := make([]byte, g.Len())
		for i := range want {
			want[i] = Symbol(g.Cells[i])
		}
		if got := g.String(); got != string(want) {
			t.Fatalf("trial %d: String = %q, want %q", trial, got, want)
		}
	}
}

// TestValidateMutations compares validate with a plain count of each
// unit's values on corpus puzzles with one cell changed to every value, to
// 0, and to bytes out of range: the 9x9 fast path gathers the givens
// eight cells at a time, so every position is tried.
func TestValidateMutations(t *testing.T) {
	plain := func(p *Puzzle) bool {
		for u := range 27 {
			var count [256]int
			for k := range 9 {
				var i int
				switch {
				case u < 9:
					i = u*9 + k
				case u < 18:
					i = k*9 + u - 9
				default:
					b := u - 18
					i = (b/3*3+k/3)*9 + b%3*3 + k%3
				}
				if v := p.Cells[i]; v != 0 {
					if v > 9 || count[v] > 0 {
						return false
					}
					count[v]++
				}
			}
		}
		return true
	}
	n, faults := 0, 0
	eachCorpus(t, func(e corpusEntry) bool {
		for i := range 81 {
			for _, v := range []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 255} {
				q := e.Puzzle
				q.Cells[i] = v
				want := plain(&q)
				if got := q.validate() == nil; got != want {
					t.Fatalf("puzzle %d, cell %d set to %d: validate says valid=%v, the plain count %v", e.ID, i, v, got, want)
				}
				if !want {
					faults++
				}
			}
		}
		n++
		return n < 300
	})
	if faults == 0 {
		t.Fatal("no mutation was a fault: the test compares nothing")
	}
}

// swapDigits exchanges digits a and b everywhere in g: a valid grid stays
// valid.
func swapDigits(g *Grid, a, b uint8) {
	for i := range g.Len() {
		switch g.Cells[i] {
		case a:
			g.Cells[i] = b
		case b:
			g.Cells[i] = a
		}
	}
}

// TestGridEmpty compares Empty, which counts eight cells at a time (and a
// 9x9 grid without a loop), with a plain count, on grids of every size
// with every cell empty or filled at random, and with bytes of any value.
func TestGridEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 6000 {
		g := Grid{Box: 2 + trial%3}
		for i := range g.Len() {
			if rng.IntN(2) == 0 {
				g.Cells[i] = uint8(1 + rng.IntN(255))
			}
		}
		want := 0
		for _, v := range g.Cells[:g.Len()] {
			if v == 0 {
				want++
			}
		}
		if got := g.Empty(); got != want {
			t.Fatalf("trial %d (%dx%d): Empty = %d, want %d", trial, g.Side(), g.Side(), got, want)
		}
		if got := g.Filled(); got != g.Len()-want {
			t.Fatalf("trial %d: Filled = %d, want %d", trial, got, g.Len()-want)
		}
	}
}

// TestParse81 compares parseInto, which takes 81 digits or dots by a fast
// path (parse81), with the general parser alone (parseSymbols) on corpus
// lines with a byte changed at every position, cut or lengthened around
// 81 symbols, and followed by separators and text: same puzzle, same
// error.
func TestParse81(t *testing.T) {
	general := func(line string) (Puzzle, error) {
		var p Puzzle
		l, start := trimStart(line)
		err := parseSymbols(&p, l, start)
		return p, err
	}
	same := func(line string) {
		t.Helper()
		var p Puzzle
		err := parseInto(&p, line)
		q, gerr := general(line)
		if (err == nil) != (gerr == nil) || err != nil && err.Error() != gerr.Error() {
			t.Fatalf("%q: parseInto error %v, the general parser %v", line, err, gerr)
		}
		if err == nil && p != q {
			t.Fatalf("%q: parseInto and the general parser disagree:\n%v\n%v", line, p.String(), q.String())
		}
	}
	var lines []string
	n := 0
	eachCorpus(t, func(e corpusEntry) bool {
		lines = append(lines, e.Puzzle.String())
		n++
		return n < 40
	})
	fast := 0
	for _, base := range lines {
		for _, tail := range []string{"", ":1:x", " 17", "\t", ",", ";", "\r", "1", "A", "x", ".:"} {
			for _, head := range []string{"", " ", "\uFEFF"} {
				same(head + base + tail)
				same(head + base[:80] + tail)
				var p Puzzle
				if l, start := trimStart(head + base + tail); parse81(&p, l, start) {
					fast++
				}
			}
		}
		for i := range 81 {
			for _, c := range []byte{'0', '.', '5', '9', 'A', 'g', ':', ',', ' ', '\t', '/', 0x80, 0xff, 0} {
				b := []byte(base)
				b[i] = c
				same(string(b))
				same(string(b) + ":y")
			}
		}
	}
	if fast == 0 {
		t.Fatal("the fast path never ran: the test compares the general parser with itself")
	}
}
