package external

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// TestSpecsFlag: -ext values are parsed in order; a built-in strategy's
// name, a name given twice and a bad value are refused.
func TestSpecsFlag(t *testing.T) {
	var l Specs
	for _, v := range []string{"py=python3 s.py", "go=./gosolver -v"} {
		if err := l.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
	}
	if !slices.Equal(l.Names(), []string{"py", "go"}) || l.String() != "py=python3 s.py go=./gosolver -v" {
		t.Errorf("Names %q, String %q", l.Names(), l.String())
	}
	for v, want := range map[string]string{
		"dlx=./x":   "dlx is a built-in strategy",
		"py=./x":    "py is given twice",
		"noequals":  "want NAME=COMMAND",
		"Bad=./x":   "name \"Bad\"",
		"empty=   ": "empty command",
	} {
		if err := l.Set(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Set(%q): %v, want an error with %q", v, err, want)
		}
	}
	if len(l) != 2 {
		t.Errorf("a refused value was kept: %q", l.Names())
	}
}

// TestStartAllStartsTheNamed: of three specs, the one -solvers does not
// name is not started and warn says so; a command run by a shell gets
// its warning before it starts; started is told of each program started,
// in order; Close leaves no process behind.
func TestStartAllStartsTheNamed(t *testing.T) {
	token := fmt.Sprintf("tok%d", time.Now().UnixNano())
	var specs Specs
	for _, v := range []string{
		"one=" + refBin + " -marker " + token,
		"left=" + refBin + " -marker " + token,
		"shell=sh -c 'exec " + refBin + " -marker " + token + "'",
	} {
		if err := specs.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	var events []string
	xs, err := StartAll(context.Background(), specs, []string{"dlx", "one", "shell"}, Options{Workers: 2, NoNull: true},
		func(w string) { events = append(events, "warn: "+w) },
		func(x *Solver, took time.Duration) { events = append(events, "started "+x.Name()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(marked(token)) == 0 {
		t.Errorf("no process of the programs started is running")
	}
	xs.Close()
	noneLeft(t, token)
	want := []string{"started one", "warn: -ext left is not run: -solvers does not name it", "warn: -ext shell runs a shell (sh -c)", "started shell"}
	if len(events) != len(want) {
		t.Fatalf("events %q, want %q", events, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(events[i], w) {
			t.Errorf("event %d: %q, want %q...", i, events[i], w)
		}
	}
	if names := []string{xs[0].Name(), xs[1].Name()}; len(xs) != 2 || !slices.Equal(names, []string{"one", "shell"}) {
		t.Errorf("started %q", names)
	}
}

// named is a strategy of that name, for ReplayFlags.
type named string

func (n named) Name() string { return string(n) }
func (n named) Solve(context.Context, solvers.Puzzle, solvers.Limits) solvers.Result {
	return solvers.Result{}
}

// TestReplayFlags: the -ext and -ext-files of the specs among the
// strategies, as given, in the specs' order; none of a spec left out.
func TestReplayFlags(t *testing.T) {
	var l Specs
	for _, v := range []string{"py=python3 's.py'", "go=./gosolver -v"} {
		if err := l.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := AddFiles(l, []string{"py=lib", "py=data.txt"}); err != nil {
		t.Fatal(err)
	}
	got := l.ReplayFlags([]solvers.Solver{named("norvig"), named("py")})
	want := []string{"-ext", "py=python3 's.py'", "-ext-files", "py=lib", "-ext-files", "py=data.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("ReplayFlags = %q, want %q", got, want)
	}
	if got := l.ReplayFlags([]solvers.Solver{named("norvig")}); got != nil {
		t.Errorf("no external strategy: %q", got)
	}
}
