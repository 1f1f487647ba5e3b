package solvers

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTransformCorpus: a random transform of every corpus puzzle (a
// sample under the race detector) is a valid puzzle with as many givens,
// the same transform of its solution solves it (by Check, which shares
// no code with the transforms), and it has one solution, as the original
// has.
func TestTransformCorpus(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	every := 1
	if raceEnabled || testing.Short() {
		every = 50
	}
	n := 0
	eachCorpus(t, func(e corpusEntry) bool {
		if e.ID%every != 0 {
			return true
		}
		tr := RandomTransform(r, 3)
		v := tr.ApplyPuzzle(e.Puzzle)
		if err := v.validate(); err != nil {
			t.Fatalf("#%d under %s: %v", e.ID, tr, err)
		}
		if v.Clues() != e.Puzzle.Clues() {
			t.Fatalf("#%d under %s: %d clues, want %d", e.ID, tr, v.Clues(), e.Puzzle.Clues())
		}
		res := (&bitboard{}).Solve(context.Background(), e.Puzzle, Limits{})
		if res.Status != StatusSolved {
			t.Fatalf("#%d: bitboard says %s", e.ID, res.Status)
		}
		if err := Check(v, tr.Apply(res.Solution)); err != nil {
			t.Fatalf("#%d under %s: the transformed solution does not solve the variant: %v", e.ID, tr, err)
		}
		if c, err := CountSolutions(context.Background(), v, 2); err != nil || c != 1 {
			t.Fatalf("#%d under %s: %d solutions (%v), want 1", e.ID, tr, c, err)
		}
		n++
		return true
	})
	if n == 0 {
		t.Fatal("no puzzle checked")
	}
}

// TestTransformSolutionCount: puzzles of every size with 0, 1 and 2 or
// more solutions keep their count under random transforms.
func TestTransformSolutionCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var ps []Puzzle
	for _, k := range loadKnown(t) {
		ps = append(ps, k.puzzle)
		// Fewer givens: several solutions.
		q := k.puzzle
		for i, removed := 0, 0; i < q.Len() && removed < q.Len()/4; i++ {
			if q.Cells[i] != 0 {
				q.Cells[i] = 0
				removed++
			}
		}
		ps = append(ps, q)
	}
	ps = append(ps, MustParse("1200000000000012")) // no solution: 1 2 in row 0 and 1 2 in row 3 clash in the columns' 2x2 boxes
	for _, p := range ps {
		ctx := context.Background()
		want, err := CountSolutions(ctx, p, 2)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			tr := RandomTransform(r, p.Box)
			v := tr.ApplyPuzzle(p)
			if err := v.validate(); err != nil {
				t.Fatalf("%s under %s: %v", p.String(), tr, err)
			}
			if got, err := CountSolutions(ctx, v, 2); err != nil || got != want {
				t.Fatalf("%s under %s: %d solutions (%v), want %d", p.String(), tr, got, err, want)
			}
		}
	}
}

// TestTransformReplay: a transform's string parses back to the same
// transform, which gives the same variant; random transforms of every
// size draw both orientations.
func TestTransformReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, box := range []int{2, 3, 4} {
		transposed := 0
		for range 200 {
			tr := RandomTransform(r, box)
			if tr.Transpose {
				transposed++
			}
			s := tr.String()
			back, err := ParseTransform(s, box)
			if err != nil {
				t.Fatalf("box %d: %s does not parse: %v", box, s, err)
			}
			if back != tr {
				t.Fatalf("box %d: %s parses to %s", box, s, back)
			}
			if low, err := ParseTransform(strings.ToLower(s), box); err != nil || low != tr {
				t.Fatalf("box %d: lower case %s: %v", box, strings.ToLower(s), err)
			}
		}
		if transposed < 60 || transposed > 140 {
			t.Errorf("box %d: %d of 200 random transforms transpose, want about half", box, transposed)
		}
	}
	p := knownByName(t, "langer-hard").puzzle
	tr, err := ParseTransform("R876543210C876543210", 3)
	if err != nil {
		t.Fatal(err)
	}
	turned := tr.ApplyPuzzle(p)
	for i := range 81 {
		if turned.Cells[i] != p.Cells[80-i] {
			t.Fatalf("R876543210C876543210 is not the 180-degree turn: cell %d", i)
		}
	}
	q, err := ParseTransform("TC876543210", 3)
	if err != nil {
		t.Fatal(err)
	}
	quarter := q.ApplyPuzzle(p)
	for i := range 9 {
		for j := range 9 {
			// Clockwise: the left column, read upwards, becomes the top row.
			if quarter.Cells[i*9+j] != p.Cells[(8-j)*9+i] {
				t.Fatalf("TC876543210 is not a quarter turn clockwise: cell (%d, %d)", i, j)
			}
		}
	}
	if s := Identity(3).String(); s != "id" {
		t.Errorf("identity prints %q, want id", s)
	}
}

// TestTransformGroup: a transform then its inverse (either way round)
// is the identity, and composing transforms composes their variants.
func TestTransformGroup(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range loadKnown(t) {
		p := k.puzzle
		for range 20 {
			a, b := RandomTransform(r, p.Box), RandomTransform(r, p.Box)
			if id := a.Then(a.Inverse()); !id.IsIdentity() {
				t.Fatalf("%s then its inverse %s is %s", a, a.Inverse(), id)
			}
			if id := a.Inverse().Then(a); !id.IsIdentity() {
				t.Fatalf("the inverse of %s then it is %s", a, id)
			}
			if back := a.Inverse().ApplyPuzzle(a.ApplyPuzzle(p)); back != p {
				t.Fatalf("%s: the inverse does not give the puzzle back", a)
			}
			if got, want := a.Then(b).ApplyPuzzle(p), b.ApplyPuzzle(a.ApplyPuzzle(p)); got != want {
				t.Fatalf("%s then %s: the composite's variant differs", a, b)
			}
		}
	}
}

func TestParseTransformErrors(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"X012345678", "unknown part"},
		{"R01234567", "has 8 symbols, want 9"},
		{"R012345677", "not a permutation"},
		{"R312045678", "splits a band"},
		{"C012346578", "splits a stack"},
		{"D023456789", "not a permutation of the symbols 1 to 9"},
		{"TT", "given twice"},
	} {
		_, err := ParseTransform(c.s, 3)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.s, err, c.want)
		}
	}
	if _, err := ParseTransform("R3210", 2); err != nil {
		t.Errorf("R3210 on 4x4: %v", err)
	}
}

// FuzzParseTransform: any string either is refused with an error or
// parses to a transform of the grid's group: its string parses back to
// it, it maps a valid puzzle to a valid puzzle with as many clues, and
// its inverse undoes it.
func FuzzParseTransform(f *testing.F) {
	for _, s := range []string{"id", "", "T", "R876543210C876543210", "TC876543210", "D234567891",
		"R3210", "tr1032c2301d4321", "R01234567", "RR", "TR89AB2031EDCF6547CDCFE6547B9A83021DB394EFA568CG2D71"} {
		for _, box := range []int{2, 3, 4} {
			f.Add(s, box)
		}
	}
	puzzles := map[int]Puzzle{
		2: MustParse("4000300200040020"),
		3: MustParse("000000000000003085001020000000507000004000100090000000500000073002010000000040009"),
	}
	f.Fuzz(func(t *testing.T, s string, box int) {
		tr, err := ParseTransform(s, box)
		if err != nil {
			return
		}
		back, err := ParseTransform(tr.String(), box)
		if err != nil || back != tr {
			t.Fatalf("%q parses to %s, which parses back to %s (%v)", s, tr, back, err)
		}
		if !tr.Then(tr.Inverse()).IsIdentity() {
			t.Fatalf("%s then its inverse is not the identity", tr)
		}
		p, ok := puzzles[box]
		if !ok {
			return
		}
		v := tr.ApplyPuzzle(p)
		if err := v.validate(); err != nil || v.Clues() != p.Clues() {
			t.Fatalf("%s: the variant is not valid (%v) or has %d clues, want %d", tr, err, v.Clues(), p.Clues())
		}
		if tr.Inverse().ApplyPuzzle(v) != p {
			t.Fatalf("%s: the inverse does not give the puzzle back", tr)
		}
	})
}
