package solvers

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestChoose: a -solvers list gives the registry's names in its order
// (case-insensitive), the external solvers' names beside them, all for
// every one; an empty list, an unknown name and a name given twice are
// refused, saying which and what is known.
func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		list  string
		extra []string
		want  []string
		err   string
	}{
		{"dlx,NORVIG", nil, []string{"dlx", "norvig"}, ""},
		{" bitboard , py", []string{"py"}, []string{"bitboard", "py"}, ""},
		{"all", []string{"py"}, append(Names(), "py"), ""},
		{"", nil, nil, "-solvers is empty: name the strategies (known: backtrack, "},
		{" ", []string{"py"}, nil, "py), or all for every one"},
		{"nope", nil, nil, `-solvers: unknown strategy "nope" (known: backtrack, bruteforce, singles, randmrv, norvig, dlx, bitboard); a program of yours is added with -ext NAME=COMMAND`},
		{"nope", []string{"py"}, nil, `unknown strategy "nope" (known: backtrack, bruteforce, singles, randmrv, norvig, dlx, bitboard, py)`},
		{"dlx,DLX", nil, nil, "-solvers: dlx is given twice"},
	} {
		got, err := Choose(tc.list, tc.extra)
		switch {
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("Choose(%q, %q) = %q, %v; want %q", tc.list, tc.extra, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Choose(%q, %q): error %v, want one with %q", tc.list, tc.extra, err, tc.err)
		}
	}
	if got := DefaultList([]string{"py"}); got != strings.Join(Defaults(), ",")+",py" {
		t.Errorf("DefaultList = %q", got)
	}
}

// named is a solver of another package (an external one) by its name.
type named string

func (n named) Name() string                               { return string(n) }
func (named) Solve(context.Context, Puzzle, Limits) Result { return Result{} }

// TestResolve: each name gives its strategy in order, an external
// solver by its name before the registry, and a name neither has is an
// error.
func TestResolve(t *testing.T) {
	py := named("py")
	got, err := Resolve([]string{"py", "dlx", "bitboard"}, []Solver{py})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != Solver(py) || got[1].Name() != "dlx" || got[2].Name() != "bitboard" {
		t.Errorf("Resolve = %v", got)
	}
	if _, err := Resolve([]string{"py"}, nil); err == nil || !strings.Contains(err.Error(), `unknown strategy "py"`) {
		t.Errorf("an external solver not started: %v, want an error", err)
	}
}
