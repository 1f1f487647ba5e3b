package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
	"sudokubatch/solvers"
)

// The example solvers of examples/ speak docs/PROTOCOL.md. The tests here
// drive each one as the protocol says, line by line, and check every
// answer with solvers.Check and solvers.CountSolutions.

// examplePeer is a running example solver: its standard input, its
// standard output line by line, and its standard error.
type examplePeer struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	hello  []string // the fields of its handshake line
}

// startExample starts argv, writes the handshake and reads the answer to
// it. The process is killed at the end of the test if still running, and
// after a minute whatever happens, so that a hung solver fails the test
// instead of hanging it.
func startExample(t *testing.T, argv ...string) *examplePeer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	p := &examplePeer{cmd: exec.CommandContext(ctx, argv[0], argv[1:]...)}
	p.cmd.Stderr = &p.stderr
	in, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		p.cmd.Wait()
	})
	p.in, p.out = in, bufio.NewReader(out)
	p.hello = strings.Fields(p.ask(t, "sudokubatch 2"))
	return p
}

// ask writes line and returns the answer line, without its newline.
func (p *examplePeer) ask(t *testing.T, line string) string {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("writing %.40q: %v (stderr: %s)", line, err, p.stderr.String())
	}
	answer, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %.40q: %v (stderr: %s)", line, err, p.stderr.String())
	}
	return strings.TrimRight(answer, "\r\n")
}

// close closes the solver's standard input and waits for it to exit,
// which it must do at once and with status 0.
func (p *examplePeer) close(t *testing.T) {
	t.Helper()
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("the solver did not exit cleanly at the end of its input: %v (stderr: %s)", err, p.stderr.String())
	}
}

// exampleAnswer is an answer line taken apart: the ID, the verb, the
// fields after it that are not KEY=VALUE, and the KEY=VALUE pairs.
type exampleAnswer struct {
	id, verb string
	args     []string
	keys     map[string]int64
}

func parseExampleAnswer(t *testing.T, line string) exampleAnswer {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("answer %.60q: fewer than two fields", line)
	}
	a := exampleAnswer{id: f[0], verb: f[1], keys: map[string]int64{}}
	for _, s := range f[2:] {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			a.args = append(a.args, s)
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			t.Fatalf("answer %.60q: %s is not a non-negative integer", line, s)
		}
		a.keys[k] = n
	}
	return a
}

// examplePuzzles reads a testdata file of solvers: name,puzzle[,solution]
// lines, '#' for a comment.
func examplePuzzles(t *testing.T, name string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "solvers/testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, strings.Split(line, ","))
		}
	}
	return out
}

// exampleTwoSolutions is corpus puzzle 0 with its last three givens
// removed (the test checks that it has two solutions or more).
const exampleTwoSolutions = "000000010400000000020000000000050407008000300001090000300400200050100000000000000"

// checkExampleSolution fails unless sol solves the puzzle text.
func checkExampleSolution(t *testing.T, text, sol string) {
	t.Helper()
	p, err := solvers.ParsePuzzle(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := solvers.ParsePuzzle(sol)
	if err != nil {
		t.Fatalf("solution %.40q of %.40q does not parse: %v", sol, text, err)
	}
	if err := solvers.Check(p, g.Grid); err != nil {
		t.Fatalf("solution %.40q of %.40q: %v", sol, text, err)
	}
}

// exampleSpec is what an example solver says it does.
type exampleSpec struct {
	name   string
	caps   []string     // capabilities its handshake must list
	keys   []string     // the KEY=VALUE pairs of every answer but error
	sizes  map[int]bool // the grid lengths it solves (others: unsupported)
	corpus int          // how many corpus puzzles to solve
}

// checkExampleSpeaks drives an example solver through the protocol: its
// handshake names it and lists its capabilities; it solves the known
// puzzles of its sizes and the first corpus puzzles, reporting its keys;
// it answers the other sizes unsupported, unsolvable puzzles unsolvable,
// counts zero, one and two solutions, answers a bad grid or request with
// an error and goes on, and exits at the end of its input.
func checkExampleSpeaks(t *testing.T, spec exampleSpec, argv ...string) {
	p := startExample(t, argv...)
	if len(p.hello) < 3 || p.hello[0] != "solver" || p.hello[1] != spec.name {
		t.Fatalf("handshake %q, want solver %s VERSION ...", p.hello, spec.name)
	}
	caps := " " + strings.Join(p.hello[3:], " ") + " "
	for _, c := range spec.caps {
		if !strings.Contains(caps, " "+c+" ") {
			t.Errorf("handshake %q lacks the capability %s", p.hello, c)
		}
	}
	n := 0
	request := func(verb, text string, options ...string) exampleAnswer {
		t.Helper()
		n++
		line := strings.Join(append([]string{strconv.Itoa(n), verb, strconv.Itoa(1000 + n), text}, options...), " ")
		a := parseExampleAnswer(t, p.ask(t, line))
		if a.id != strconv.Itoa(n) {
			t.Fatalf("%s %.40q: answered request %s, want %d (the request's number)", verb, text, a.id, n)
		}
		if a.verb != "error" && a.verb != "unsupported" {
			for _, k := range spec.keys {
				if _, ok := a.keys[k]; !ok {
					t.Errorf("%s %.40q: answer %s %v has no %s", verb, text, a.verb, a.args, k)
				}
			}
		}
		return a
	}
	solve := func(text string) {
		t.Helper()
		a := request("solve", text)
		if a.verb != "solved" || len(a.args) != 1 {
			t.Fatalf("solve %.40q: %s %v, want solved SOLUTION", text, a.verb, a.args)
		}
		checkExampleSolution(t, text, a.args[0])
	}
	count := func(text string) {
		t.Helper()
		pz, err := solvers.ParsePuzzle(text)
		if err != nil {
			t.Fatal(err)
		}
		n, err := solvers.CountSolutions(context.Background(), pz, 2)
		if err != nil {
			t.Fatal(err)
		}
		a := request("count", text)
		if a.verb != "count" || len(a.args) < 1 || a.args[0] != strconv.Itoa(n) || len(a.args) != min(n, 1)+1 {
			t.Fatalf("count %.40q: %s %v, want count %d and a solution when there is one", text, a.verb, a.args, n)
		}
		if n > 0 {
			checkExampleSolution(t, text, a.args[1])
		}
	}

	sizes := map[int]bool{}
	for _, k := range examplePuzzles(t, "known.txt") {
		sizes[len(k[1])] = true
		if !spec.sizes[len(k[1])] {
			if a := request("solve", k[1]); a.verb != "unsupported" {
				t.Errorf("solve %s: %s %v, want unsupported", k[0], a.verb, a.args)
			}
			continue
		}
		solve(k[1])
		count(k[1])
	}
	if len(sizes) != 3 {
		t.Fatalf("known.txt has puzzles of %d sizes, want 3 (4x4, 9x9, 16x16)", len(sizes))
	}
	for _, u := range examplePuzzles(t, "unsolvable.txt") {
		if !spec.sizes[len(u[1])] {
			continue
		}
		if a := request("solve", u[1]); a.verb != "unsolvable" {
			t.Errorf("solve %s: %s %v, want unsolvable", u[0], a.verb, a.args)
		}
		count(u[1])
	}
	count(exampleTwoSolutions)
	if a := request("solve", "12345"); a.verb != "error" {
		t.Errorf("a grid of 5 cells: %s %v, want error", a.verb, a.args)
	}
	if a := request("solve", strings.Repeat("0", 80)+"X"); a.verb != "error" {
		t.Errorf("a grid with an X: %s %v, want error", a.verb, a.args)
	}
	if a := request("guess", strings.Repeat("0", 81)); a.verb != "error" {
		t.Errorf("an unknown request: %s %v, want error", a.verb, a.args)
	}
	if slices.Contains(spec.caps, "calls") {
		// A program that reports calls stops at a request's max_calls:
		// #39949 needs more than 2.
		const hard = "010600000000000084000030000403000200000510007800000000200005000000700100000000030"
		for _, verb := range []string{"solve", "count"} {
			if a := request(verb, hard, "max_calls=2"); a.verb != "limit" || a.keys["calls"] > 2 {
				t.Errorf("%s #39949 max_calls=2: %s %v calls=%d, want limit with 2 calls at most", verb, a.verb, a.args, a.keys["calls"])
			}
		}
		solve(hard) // and goes on
	}
	lines := strings.SplitN(string(exampleCorpus(t)), "\n", spec.corpus+1)[:spec.corpus]
	for _, line := range lines {
		solve(strings.TrimSpace(line))
	}
	p.close(t)
}

var exampleCorpusOnce = sync.OnceValues(func() ([]byte, error) {
	return os.ReadFile("../../data/sudoku17.txt")
})

func exampleCorpus(t *testing.T) []byte {
	t.Helper()
	repoRoot(t)
	b, err := exampleCorpusOnce()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// examplePythonExe is the interpreter that python3 runs: a version
// manager's python3 is often a shell script (pyenv's shim takes 0.4 s to
// start the interpreter on a busy machine, against 0.08 s for the
// interpreter itself), so the tests ask it once.
var examplePythonExe = sync.OnceValues(func() (string, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return "", fmt.Errorf("%s -c 'import sys; print(sys.executable)': %v", py, err)
	}
	return strings.TrimSpace(string(out)), nil
})

// examplePython is the command of the Python example, or a skip when
// python3 is missing.
func examplePython(t *testing.T) []string {
	t.Helper()
	py, err := examplePythonExe()
	if err != nil {
		t.Skipf("python3 is needed by the Python example: %v", err)
	}
	return []string{py, filepath.Join(repoRoot(t), "examples/python/solver.py")}
}

// exampleGo builds examples/go into a directory of t and returns the
// program.
func exampleGo(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gosolver")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/go").CombinedOutput(); err != nil {
		t.Fatalf("building examples/go: %v\n%s", err, out)
	}
	return bin
}

// exampleAll is what the Python and Go examples do.
func exampleAll(name string, corpus int) exampleSpec {
	return exampleSpec{name, []string{"count", "calls", "guesses", "ns", "sizes=4,9,16"}, []string{"calls", "guesses", "ns"},
		map[int]bool{16: true, 81: true, 256: true}, corpus}
}

func TestExamplePythonSpeaksTheProtocol(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	checkExampleSpeaks(t, exampleAll("pysolver", 100), examplePython(t)...)
}

func TestExampleGoSpeaksTheProtocol(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	checkExampleSpeaks(t, exampleAll("gosolver", 2000), exampleGo(t))
}

// exampleTdoku builds the tdoku adapter from the checkout that
// SUDOKUBATCH_TDOKU names into a directory of t, or skips.
func exampleTdoku(t *testing.T) string {
	t.Helper()
	src := os.Getenv("SUDOKUBATCH_TDOKU")
	if src == "" {
		t.Skip("the tdoku adapter is tested when SUDOKUBATCH_TDOKU names a checkout of tdoku " +
			"(git clone https://github.com/t-dillon/tdoku) and clang or gcc is installed")
	}
	bin := filepath.Join(t.TempDir(), "adapter")
	if out, err := exec.Command(filepath.Join(repoRoot(t), "examples/tdoku/build.sh"), src, bin).CombinedOutput(); err != nil {
		t.Fatalf("examples/tdoku/build.sh %s: %v\n%s", src, err, out)
	}
	return bin
}

// Through the binary: batch -ext sweeps each example beside bitboard.

// exampleQuote quotes s for -ext's COMMAND (docs/PROTOCOL.md: '...' is
// taken literally).
func exampleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exampleSweep runs batch over the first limit puzzles of the corpus with
// the built-in strategy builtin and the external strategy name=argv, then
// checks what every sweep of an example must give: exit 0; one row per
// puzzle and strategy; each of name's rows with builtin's status and
// count of solutions, its solution checked again with solvers.Check, its
// calls and guesses as the program itself reports them for the puzzle
// (0 for a counter it does not report), and self_ns set (none for
// builtin's rows); run.json's settings.external naming the program, its
// version, its executable and that file's SHA-256. It returns the rows.
func exampleSweep(t *testing.T, builtin, name, reported string, argv []string, corpus string, limit int, extra ...string) []rundir.Row {
	t.Helper()
	dir := t.TempDir()
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = exampleQuote(a)
	}
	args := append([]string{"-solvers", builtin + "," + name, "-ext", name + "=" + strings.Join(quoted, " "),
		"-limit", strconv.Itoa(limit), "-timeout", "0", "-quiet", "-out", "run"}, extra...)
	if !testenv.HeavyEnabled() {
		// Quick: one process, each unit timed once, no report.
		args = append(args, "-workers", "1", "-runs", "1", "-report=false")
	}
	r := batch(t, dir, append(args, corpus)...)
	mustOK(t, r)
	out := filepath.Join(dir, "run")
	rows := readRows(t, filepath.Join(out, "results.csv"))
	if len(rows) != 2*limit {
		t.Fatalf("%d rows, want %d", len(rows), 2*limit)
	}

	ref := map[int]rundir.Row{}
	for _, row := range rows {
		if row.Solver == builtin {
			ref[row.ID] = row
			if row.SelfNS != 0 {
				t.Errorf("%s's row %d: self_ns %d, want none", builtin, row.ID, row.SelfNS)
			}
		}
	}
	texts := strings.Split(string(exampleRead(t, corpus)), "\n")
	var ext []rundir.Row
	for _, row := range rows {
		if row.Solver != name {
			continue
		}
		ext = append(ext, row)
		b := ref[row.ID]
		if row.Status != b.Status || row.Solutions != b.Solutions {
			t.Errorf("%s's row %d: %s with %d solutions, %s %s with %d", name, row.ID, row.Status, row.Solutions, builtin, b.Status, b.Solutions)
		}
		if row.SelfNS <= 0 {
			t.Errorf("%s's row %d: self_ns %d, want its own time", name, row.ID, row.SelfNS)
		}
		if row.Solution != "" {
			checkExampleSolution(t, strings.TrimSpace(texts[row.ID]), row.Solution)
		}
	}
	if len(ext) != limit {
		t.Fatalf("%d rows of %s, want %d", len(ext), name, limit)
	}
	// Every answer had its own time, by which the report ranks it: the
	// null round trip is no part of it (before, the note said it was
	// "part of each unit's time").
	if strings.Contains(r.stdout, "null round trip") && !strings.Contains(r.stdout, "not of a time the solver reports (self_ns)") {
		t.Errorf("the note of the null round trip does not say it is no part of %s's own time:\n%s", name, r.stdout)
	}
	if testenv.HeavyEnabled() {
		// ... and the report believes it (the Python example's median
		// self_ns over a unit's runs is above its round trips': no
		// reason to refuse it).
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		var sum struct {
			Strategies []struct {
				Solver        string `json:"solver"`
				TimeBasis     string `json:"time_basis"`
				TimeBasisNote string `json:"time_basis_note"`
			} `json:"strategies"`
		}
		if err == nil {
			err = json.Unmarshal(b, &sum)
		}
		for _, st := range sum.Strategies {
			if st.Solver == name && st.TimeBasis != "self" {
				t.Errorf("%s ranked by %q, not its own time: %s", name, st.TimeBasis, st.TimeBasisNote)
			}
		}
		if err != nil {
			t.Error(err)
		}
	}

	// The counters are the program's own: ask it again for a few puzzles.
	verb := "solve"
	if slices.Contains(extra, "-unique") {
		verb = "count"
	}
	p := startExample(t, argv...)
	for k := 0; k < len(ext); k += max(1, len(ext)/10) {
		row := ext[k]
		a := parseExampleAnswer(t, p.ask(t, fmt.Sprintf("%d %s %d %s", k+1, verb, row.ID, strings.TrimSpace(texts[row.ID]))))
		if a.keys["calls"] != int64(row.Calls) || a.keys["guesses"] != int64(row.Guesses) {
			t.Errorf("%s's row %d: calls %d, guesses %d; the program reports calls %d, guesses %d",
				name, row.ID, row.Calls, row.Guesses, a.keys["calls"], a.keys["guesses"])
		}
	}
	p.close(t)

	m := manifest(t, out)
	e, ok := m.Settings.ExternalNamed(name)
	if !ok {
		t.Fatalf("run.json's settings.external has no %s: %+v", name, m.Settings.External)
	}
	if e.Reported != reported || e.Version == "" || !slices.Equal(e.Args, argv) {
		t.Errorf("settings.external: reported %q version %q args %q; want %q, a version, args %q", e.Reported, e.Version, e.Args, reported, argv)
	}
	want, err := os.Stat(argv[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.Stat(e.Executable); err != nil || !os.SameFile(got, want) {
		t.Errorf("settings.external: executable %q (%v), want %q", e.Executable, err, argv[0])
	}
	sum := sha256.Sum256(exampleRead(t, argv[0]))
	if e.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("settings.external: sha256 %s, want %x (of %s)", e.SHA256, sum, argv[0])
	}
	for _, arg := range argv[1:] { // a script: its file and SHA-256
		sum := sha256.Sum256(exampleRead(t, arg))
		if !slices.ContainsFunc(e.Files, func(f rundir.FileSum) bool {
			return f.Path == arg && f.SHA256 == hex.EncodeToString(sum[:])
		}) {
			t.Errorf("settings.external.files %+v lacks %s with SHA-256 %x", e.Files, arg, sum)
		}
	}
	return rows
}

// exampleRead returns the contents of path.
func exampleRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exampleLimit is how many corpus puzzles a sweep of an example takes:
// at most 100, enough for the sweep's default flags (the repeats, the
// re-timing, the report) to meet the program, in a second or two.
func exampleLimit(n int) int { return min(n, 100) }

func TestExamplePythonSweptByBatch(t *testing.T) {
	testenv.Heavy(t, "the Python example swept through the binary: 1 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	py := examplePython(t)
	exampleSweep(t, "bitboard", "py", "pysolver", py, filepath.Join(repoRoot(t), "data/sudoku17.txt"), exampleLimit(300))
}

func TestExampleGoSweptByBatch(t *testing.T) {
	testenv.Heavy(t, "the Go example swept through the binary: 1 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	gosolver := exampleGo(t)
	exampleSweep(t, "bitboard", "go", "gosolver", []string{gosolver}, filepath.Join(repoRoot(t), "data/sudoku17.txt"), exampleLimit(300))

	// -unique: count requests, over 4x4 and 16x16 grids too (beside dlx:
	// bitboard solves 9x9 grids only).
	exampleUnique(t, "dlx", "go", "gosolver", gosolver, true)
}

// TestExampleGoStable: a deterministic program's units sent again (the
// repeats, the re-timing's fillers and units) answer as the first time,
// so no row is unstable. The re-timing compared its answers with a
// solution text the sweep's batches had reused for other rows since
// (107 of 300 rows unstable before the fix): 300 puzzles, so that the
// batches' memory is reused before the re-timing.
func TestExampleGoStable(t *testing.T) {
	testenv.Heavy(t, "the Go example swept through the binary over 300 puzzles: 1 s")
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	gosolver := exampleGo(t)
	dir := t.TempDir()
	r := batch(t, dir, "-solvers", "bitboard,go", "-ext", "go="+exampleQuote(gosolver), "-limit", "300", "-timeout", "0",
		"-quiet", "-report=false", "-out", "run", filepath.Join(repoRoot(t), "data/sudoku17.txt"))
	mustOK(t, r)
	n := 0
	for _, row := range readRows(t, filepath.Join(dir, "run", "results.csv")) {
		if row.Unstable {
			n++
		}
	}
	m := manifest(t, filepath.Join(dir, "run"))
	if tm := m.Segments[len(m.Segments)-1].Timing; n > 0 || tm == nil || tm.Unstable > 0 {
		t.Errorf("%d rows unstable, run.json's timing %+v; want none of a deterministic program\nstderr: %s", n, tm, r.stderr)
	}
}

// exampleUnique sweeps name=program beside builtin with -unique (count
// requests) over a puzzle with one solution, one with two or more, one
// with none, and, when all, the 4x4 and 16x16 puzzles of known.txt.
func exampleUnique(t *testing.T, builtin, name, reported, program string, all bool) {
	t.Helper()
	var lines []string
	for _, k := range examplePuzzles(t, "known.txt") {
		if k[0] == "corpus-0" || all && len(k[1]) != 81 {
			lines = append(lines, k[1])
		}
	}
	lines = append(lines, exampleTwoSolutions, examplePuzzles(t, "unsolvable.txt")[1][1])
	corpus := filepath.Join(t.TempDir(), "few.txt")
	if err := os.WriteFile(corpus, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := exampleSweep(t, builtin, name, reported, []string{program}, corpus, len(lines), "-unique")
	seen := map[int]bool{}
	for _, row := range rows {
		if row.Solver == name {
			seen[row.Solutions] = true
		}
	}
	if !seen[0] || !seen[1] || !seen[2] {
		t.Errorf("the counts of solutions seen: %v, want 0, 1 and 2", seen)
	}
}

// TestExampleTdoku builds the tdoku adapter (4 s), drives it through the
// protocol and then through batch beside bitboard.
func TestExampleTdoku(t *testing.T) {
	adapter := exampleTdoku(t)
	t.Run("protocol", func(t *testing.T) {
		spec := exampleSpec{"tdoku", []string{"count", "guesses", "ns"}, []string{"guesses", "ns"}, map[int]bool{81: true}, 2000}
		checkExampleSpeaks(t, spec, adapter)
	})
	t.Run("batch", func(t *testing.T) {
		exampleSweep(t, "bitboard", "tdoku", "tdoku", []string{adapter}, filepath.Join(repoRoot(t), "data/sudoku17.txt"), exampleLimit(500))
	})
	t.Run("unique", func(t *testing.T) {
		exampleUnique(t, "bitboard", "tdoku", "tdoku", adapter, false)
	})
}

// TestExampleTdokuLibrary builds tdoku's libraries from the checkout that
// SUDOKUBATCH_TDOKU names, with tdoku's CMake (libtdoku_static.a,
// libtdoku_shared.so), builds the adapter against each (build.sh --lib),
// and drives each through the protocol and through batch; the adapter
// of the shared library with -ext-files naming it, so that run.json
// hashes the library.
func TestExampleTdokuLibrary(t *testing.T) {
	src := os.Getenv("SUDOKUBATCH_TDOKU")
	if src == "" {
		t.Skip("the tdoku adapter is tested when SUDOKUBATCH_TDOKU names a checkout of tdoku")
	}
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Skip("building tdoku's library needs cmake")
	}
	build := t.TempDir()
	for _, args := range [][]string{{"cmake", "-S", src, "-B", build}, {"make", "-C", build, "tdoku_static", "tdoku_shared"}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	for _, lib := range []string{"libtdoku_static.a", "libtdoku_shared.so"} {
		t.Run(lib, func(t *testing.T) {
			path := filepath.Join(build, lib)
			adapter := filepath.Join(t.TempDir(), "adapter")
			cmd := exec.Command(filepath.Join(repoRoot(t), "examples/tdoku/build.sh"), "--lib", path, "--include", filepath.Join(src, "include"), adapter)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("build.sh --lib %s: %v\n%s", path, err, out)
			}
			spec := exampleSpec{"tdoku", []string{"count", "guesses", "ns"}, []string{"guesses", "ns"}, map[int]bool{81: true}, 200}
			checkExampleSpeaks(t, spec, adapter)
			var extra []string
			if strings.HasSuffix(lib, ".so") {
				extra = []string{"-ext-files", "tdoku=" + path}
			}
			exampleSweep(t, "bitboard", "tdoku", "tdoku", []string{adapter}, filepath.Join(repoRoot(t), "data/sudoku17.txt"), exampleLimit(100), extra...)
		})
	}
}

// TestProtocolSessionExample replays docs/PROTOCOL.md's example session
// to the Python example: each answer must be the one the document shows,
// but for the times (ns=), so that the document cannot drift from what a
// solver of the protocol says.
func TestProtocolSessionExample(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting on its solver: beside the others
	doc := string(exampleRead(t, filepath.Join(repoRoot(t), "docs/PROTOCOL.md")))
	_, session, ok := strings.Cut(doc, "## An example session")
	if !ok {
		t.Fatal("docs/PROTOCOL.md has no example session")
	}
	_, session, _ = strings.Cut(session, "```\n")
	session, _, _ = strings.Cut(session, "```")
	var p *examplePeer
	var sent string
	noNS := func(s string) string { return regexp.MustCompile(` ns=\d+`).ReplaceAllString(s, "") }
	for _, line := range strings.Split(strings.TrimSpace(session), "\n") {
		switch {
		case strings.HasPrefix(line, "> sudokubatch "):
			if line != "> sudokubatch 2" {
				t.Fatalf("the session's handshake %q, want sudokubatch 2", line)
			}
		case p == nil && strings.HasPrefix(line, "< "):
			p = startExample(t, examplePython(t)...) // writes the handshake
			if got := strings.Join(p.hello, " "); got != line[2:] {
				t.Errorf("handshake %q, the document says %q", got, line[2:])
			}
		case strings.HasPrefix(line, "> "):
			sent = line[2:]
		case strings.HasPrefix(line, "< "):
			if got := p.ask(t, sent); noNS(got) != noNS(line[2:]) {
				t.Errorf("to %.30q the solver answers\n  %s\nthe document says\n  %s", sent, got, line[2:])
			}
		}
	}
	if p == nil {
		t.Fatal("the session has no exchange")
	}
	p.close(t)
}
