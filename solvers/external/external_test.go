package external

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/solvers"
)

// refBin is testdata/refsolver, built once (TestMain).
var refBin string

func TestMain(m *testing.M) {
	if code, played := Role(); played {
		os.Exit(code) // the guard or the echo peer of a solver the tests started
	}
	dir, err := os.MkdirTemp("", "refsolver")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	refBin = filepath.Join(dir, "refsolver")
	if out, err := exec.Command("go", "build", "-o", refBin, "./testdata/refsolver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building refsolver: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"python3 solver.py", []string{"python3", "solver.py"}},
		{"  a\tb  ", []string{"a", "b"}},
		{`sh -c 'echo $HOME | cat'`, []string{"sh", "-c", "echo $HOME | cat"}},
		{`a "b c" d\ e`, []string{"a", "b c", "d e"}},
		{`"a\"b\\c\d"`, []string{`a"b\c\d`}},
		{`x''y ""`, []string{"xy", ""}},
		{"*.py >out", []string{"*.py", ">out"}},
	} {
		got, err := SplitCommand(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`, `a \`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q): no error", bad)
		}
	}
}

func TestParseSpec(t *testing.T) {
	sp, err := ParseSpec("py=python3 'my solver.py' -v")
	if err != nil || sp.Name != "py" || !slices.Equal(sp.Args, []string{"python3", "my solver.py", "-v"}) {
		t.Errorf("ParseSpec: %+v, %v", sp, err)
	}
	for _, bad := range []string{"py", "=x", "Py=x", "1a=x", "a b=x", "py=", "py=  ", strings.Repeat("a", 33) + "=x"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q): no error", bad)
		}
	}
}

// corpusPuzzles returns the first n puzzles of the 17-clue corpus.
func corpusPuzzles(t *testing.T, n int) []solvers.Puzzle {
	t.Helper()
	f, err := os.Open("../../data/sudoku17.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []solvers.Puzzle
	sc := bufio.NewScanner(f)
	for len(ps) < n && sc.Scan() {
		p, err := solvers.ParsePuzzle(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// marked returns the running processes whose command line holds token.
func marked(token string) []string {
	var found []string
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && strings.Contains(string(b), token) {
			found = append(found, filepath.Dir(d))
		}
	}
	return found
}

// noneLeft fails t when a process with token is left running: it waits
// for them to go (their killer and the reaping take a moment; a process
// left behind stays for good, and testenv.Await's bound turns it into a
// failure).
func noneLeft(t *testing.T, token string) {
	t.Helper()
	testenv.Await(t, "no solver process left", func() bool { return len(marked(token)) == 0 })
}

func start(t *testing.T, args string, opt Options) (*Solver, string) {
	t.Helper()
	token := fmt.Sprintf("tok%d", time.Now().UnixNano())
	sp, err := ParseSpec("ref=" + refBin + " -marker " + token + " " + args)
	if err != nil {
		t.Fatal(err)
	}
	if opt.MaxRestarts == 0 {
		opt.MaxRestarts = 10
	}
	s, err := Start(context.Background(), sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, token
}

// TestSolveFaults: every answer of the reference solver is a right
// solution but on the puzzles where it is told to crash, answer garbage,
// hang, answer a wrong grid or claim no solution; each of those gets its
// status, the process is started again, and Close leaves none running.
func TestSolveFaults(t *testing.T) {
	s, token := start(t, "-crash 5 -garbage 7 -hang 9 -wrong 11 -unsolvable 12", Options{Workers: 1, Grace: 200 * time.Millisecond})
	ps := corpusPuzzles(t, 14)
	want := map[int]solvers.Status{5: solvers.StatusError, 7: solvers.StatusError, 9: solvers.StatusTimeout,
		11: solvers.StatusWrong, 12: solvers.StatusWrong}
	errText := map[int]string{5: "crashing on purpose", 7: "protocol", 11: "wrong solution", 12: "said unsolvable"}
	for id, p := range ps {
		lim := solvers.Limits{ID: id, Deadline: time.Now().Add(2 * time.Second)}
		if id == 9 {
			lim.Deadline = time.Now().Add(300 * time.Millisecond)
		}
		res := s.Solve(context.Background(), p, lim)
		s.CheckAnswer(context.Background(), p, &res)
		if res.Status == solvers.StatusSolved {
			if err := solvers.Check(p, res.Solution); err != nil {
				res.Status, res.Err = solvers.StatusWrong, fmt.Errorf("wrong solution: %v", err)
			}
		}
		w, ok := want[id]
		if !ok {
			w = solvers.StatusSolved
		}
		if res.Status != w {
			t.Errorf("#%d: %s (%v), want %s", id, res.Status, res.Err, w)
		}
		if txt := errText[id]; txt != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), txt)) {
			t.Errorf("#%d: error %v, want it to say %q", id, res.Err, txt)
		}
		if w == solvers.StatusSolved && (res.SelfNS <= 0 || res.Calls == 0) {
			t.Errorf("#%d: self %d ns, calls %d: want both set", id, res.SelfNS, res.Calls)
		}
	}
	if n := s.Restarts(); n != 3 {
		t.Errorf("%d restarts, want 3 (after the crash, the garbage and the hang)", n)
	}
	if in := s.Program(); in.Reported != "refsolver" || in.Version != "1" || len(in.SHA256) != 64 {
		t.Errorf("Program: %+v", in)
	}
	if null := s.Null(); null.Samples == 0 || null.MedianNS <= 0 {
		t.Errorf("no null round trip measured: %+v", null)
	}
	s.Close()
	noneLeft(t, token)
}

func TestHandshakeTooSlow(t *testing.T) {
	token := fmt.Sprintf("tok%d", time.Now().UnixNano())
	sp, _ := ParseSpec("ref=" + refBin + " -marker " + token + " -start 5s")
	_, err := Start(context.Background(), sp, Options{Workers: 2, StartTimeout: 300 * time.Millisecond, Grace: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no handshake within 300ms") {
		t.Errorf("Start: %v, want no handshake within 300ms", err)
	}
	noneLeft(t, token)
}

func TestRestartCap(t *testing.T) {
	s, token := start(t, "-crash-all", Options{Workers: 1, MaxRestarts: 2, Grace: 100 * time.Millisecond})
	p := corpusPuzzles(t, 1)[0]
	var errs []string
	for i := range 5 {
		res := s.Solve(context.Background(), p, solvers.Limits{ID: i})
		errs = append(errs, fmt.Sprint(res.Err))
	}
	for i, e := range errs {
		capped := strings.Contains(e, "restart cap reached")
		if capped != (i >= 3) {
			t.Errorf("request %d: %s; want the cap from the fourth", i, e)
		}
	}
	s.Close()
	noneLeft(t, token)
}

// TestCount: under -unique a program that can count gets count requests,
// and its counts are checked.
func TestCount(t *testing.T) {
	s, token := start(t, "", Options{Workers: 1, Count: true})
	defer noneLeft(t, token)
	defer s.Close()
	for _, tt := range []struct {
		grid string
		want int
	}{
		{"0000000000000000", 2},
		{"1200340000000000", 2},
		{"1234341221434321", 1},
		{"1100000000000000", -1}, // not a valid puzzle: refused by the parser
	} {
		p, err := solvers.ParsePuzzle(tt.grid)
		if tt.want < 0 {
			if err == nil {
				t.Errorf("%s parsed", tt.grid)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		res := s.Solve(context.Background(), p, solvers.Limits{})
		s.CheckAnswer(context.Background(), p, &res)
		if !res.Counted || res.Count != tt.want || res.Status != solvers.StatusSolved {
			t.Errorf("%s: %+v, want counted %d, solved", tt.grid, res, tt.want)
		}
	}
}
