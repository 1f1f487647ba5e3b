package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/data"
	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// The reliability of a run as a user meets it: streams, damaged corpora
// and run directories, kills, resumes, many corpora, exit codes. Each
// test here failed on the code before its fix (85732d3); those that run
// the binary show it with BATCH_BIN=<a build of 85732d3>.

// proc is the binary running in the background.
type proc struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser  // nil unless started with a stdin pipe
	stdout, stderr *testenv.Output // readable while it runs
	done           chan struct{}
	res            result
}

// start runs the binary in dir with args in the background; with pipe,
// its standard input is a pipe that the test writes.
func start(t *testing.T, dir string, pipe bool, args ...string) *proc {
	t.Helper()
	return startOn(t, dir, pipe, nil, args...)
}

// startOn is start with the process's stderr on the terminal tty (nil: a
// pipe): what the process writes there is read into p.stderr.
func startOn(t *testing.T, dir string, pipe bool, tty *pty, args ...string) *proc {
	t.Helper()
	needsBinary(t)
	p := &proc{cmd: exec.Command(batchBin, args...), stdout: new(testenv.Output), stderr: new(testenv.Output), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if tty != nil {
		p.cmd.Stderr = tty.slave
	}
	if pipe {
		w, err := p.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		p.stdin = w
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	copied := make(chan struct{})
	if tty != nil {
		tty.slave.Close() // the process's now: the master reads until it closes it
		go func() {
			io.Copy(p.stderr, tty.master)
			close(copied)
		}()
	} else {
		close(copied)
	}
	go func() {
		err := p.cmd.Wait()
		<-copied
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			p.res.code = ee.ExitCode()
		}
		p.res.stdout, p.res.stderr = p.stdout.String(), p.stderr.String()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if tty != nil {
			tty.master.Close()
		}
	})
	return p
}

// wait returns the process's result, or fails the test if it has not
// ended within d.
func (p *proc) wait(t *testing.T, d time.Duration) result {
	t.Helper()
	select {
	case <-p.done:
		return p.res
	case <-time.After(d):
		p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("still running after %s; stderr:\n%s", d, p.stderr.String())
	}
	return p.res
}

// awaitStderr waits until the process has written text on its stderr,
// and fails t if it ends first.
func (p *proc) awaitStderr(t *testing.T, text string) {
	t.Helper()
	p.stderr.Await(t, text, p.done)
}

// waitForRows waits until path holds at least n complete rows.
func waitForRows(t *testing.T, path string, n int) {
	t.Helper()
	testenv.Await(t, fmt.Sprintf("%d rows in %s", n, path), func() bool {
		b, err := readRowsFile(path)
		return err == nil && bytes.Count(b, []byte("\n"))-1 >= n
	})
}

// firstLines returns the first n lines of the 17-clue corpus.
func firstLines(t *testing.T, root string, from, to int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	return strings.Join(lines[from:to], "")
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func manifest(t *testing.T, dir string) *rundir.Manifest {
	t.Helper()
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// editManifest rewrites dir/run.json as raw JSON, bypassing validation.
func editManifest(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, rundir.ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

// TestStreamCorpusReadOnce: a corpus that can be read only once (a FIFO,
// as `<(zcat x.gz)` gives) gets a row for every puzzle. Before, counting
// the units for the progress display read the FIFO too and took puzzles
// from the sweep, which still exited 0.
func TestStreamCorpusReadOnce(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	text := firstLines(t, root, 0, 3000)
	fifo := filepath.Join(dir, "corpus.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.Write([]byte(text))
	}()
	// Not -quiet: the progress display is what used to read the FIFO.
	r := batchMain(t, dir, "-solvers", "bitboard,norvig", "-report=false", "-out", "run", fifo)
	mustOK(t, r)
	rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile))
	if len(rows) != 6000 || rows[len(rows)-1].ID != 2999 {
		t.Fatalf("%d rows (last id %d), want 6000 (ids 0 to 2999)", len(rows), rows[len(rows)-1].ID)
	}
	m := manifest(t, filepath.Join(dir, "run"))
	if c := m.Corpora[0]; !c.Stream || !c.Complete || c.Puzzles != 3000 || c.Size != int64(len(text)) {
		t.Errorf("run.json corpus: %+v", c)
	}
	// The run keeps what it read, so that -resume can read it again.
	if b, err := os.ReadFile(filepath.Join(dir, "run", rundir.StreamFile(0))); err != nil || string(b) != text {
		t.Errorf("the copy of the stream: %v, %d bytes, want %d", err, len(b), len(text))
	}
}

// TestStdinRunResumesWithSameInput: a run over standard input is interrupted, then
// resumed with the same input piped again; a different input is refused
// before anything is recorded.
func TestStdinRunResumesWithSameInput(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	text := firstLines(t, root, 0, 2000)
	out := filepath.Join(dir, "run")
	p := start(t, dir, true, "-solvers", "bitboard,dlx", "-report=false", "-quiet", "-out", out, "-")
	io.WriteString(p.stdin, text[:len(text)/2])
	waitForRows(t, filepath.Join(out, rundir.ResultsFile), 100)
	p.cmd.Process.Signal(syscall.SIGINT)
	if r := p.wait(t, time.Minute); r.code != 130 {
		t.Fatalf("exit %d after SIGINT, want 130\n%s", r.code, r.stderr)
	}
	before, _ := os.ReadFile(filepath.Join(out, rundir.ManifestFile))

	resume := func(input string) result {
		return batchIn(t, dir, input, "-resume", "-report=false", "-quiet", "-out", out, "-")
	}
	other := firstLines(t, root, 5000, 7000)
	if r := resume(other); r.code != 2 || !strings.Contains(r.stderr, "corpus changed") {
		t.Fatalf("resume with another input: exit %d, want 2 and 'corpus changed'\n%s", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, rundir.ManifestFile)); !bytes.Equal(before, after) {
		t.Error("a refused resume changed run.json")
	}
	r := resume(text)
	mustOK(t, r)
	rows := readRows(t, filepath.Join(out, rundir.ResultsFile))
	if len(rows) != 4000 {
		t.Fatalf("%d rows after resume, want 4000", len(rows))
	}
	for i, row := range rows {
		if row.ID != i/2 {
			t.Fatalf("row %d: id %d", i, row.ID)
		}
	}
	if m := manifest(t, out); m.Status != rundir.Finished || !m.Corpora[0].Complete || m.Corpora[0].Puzzles != 2000 {
		t.Errorf("run.json: status %s, corpus %+v", m.Status, m.Corpora[0])
	}
}

// TestCorpusLinesAccounted: a corpus with CR-only line ends (an old Mac
// file) is read to its end, and the run prints, per corpus, how its
// lines were taken: puzzles, invalid lines and skipped lines add up to
// the lines of the file.
func TestCorpusLinesAccounted(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	lines := strings.Split(strings.TrimSuffix(firstLines(t, root, 0, 20), "\n"), "\n")
	// 2 comments, a count header, 20 puzzles, 1 blank line, 2 invalid lines:
	// 26 lines, with CR line ends only.
	all := append([]string{"# old Mac file", "20"}, lines[:10]...)
	all = append(all, "", "not a puzzle", "# comment")
	all = append(all, lines[10:]...)
	all = append(all, "123")
	mac := writeFile(t, filepath.Join(dir, "mac.txt"), strings.Join(all, "\r")+"\r")
	r := batchMain(t, dir, "-solvers", "bitboard", "-report=false", "-quiet", "-out", "run", mac)
	mustOK(t, r)
	rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile))
	if len(rows) != 22 {
		t.Fatalf("%d rows, want 22 (20 puzzles, 2 invalid lines)", len(rows))
	}
	if rows[21].Line != 26 || rows[21].Status.String() != "invalid" {
		t.Errorf("last row %+v, want the invalid line 26", rows[21])
	}
	want := "corpus " + mac + ": 26 lines = 20 puzzles + 2 invalid + 4 skipped"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
	}
	m := manifest(t, filepath.Join(dir, "run"))
	if c := m.Corpora[0]; !c.Complete || c.Lines != 26 || c.Puzzles != 22 || c.Invalid != 2 || c.Skipped != 4 {
		t.Errorf("run.json corpus: %+v", c)
	}
}

// TestDamagedGzipKeepsRowsAndGoesOn: the second of three corpora is a truncated .gz.
// The rows of its puzzles read before the damage are kept, the damage is
// reported with the file and the byte offset, the third corpus is still
// swept, and -resume passes the damage to finish the run.
func TestDamagedGzipKeepsRowsAndGoesOn(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "a.txt"), firstLines(t, root, 0, 300))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(firstLines(t, root, 300, 1300)))
	zw.Close()
	b := writeFile(t, filepath.Join(dir, "b.gz"), string(gz.Bytes()[:gz.Len()/2]))
	c := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 1300, 1600))
	// No timeout: the rows are compared with a run of the whole corpora,
	// and a loaded machine (or the race detector) can take a unit past
	// the default 100 ms.
	args := []string{"-solvers", "bitboard,dlx", "-report=false", "-quiet", "-timeout", "0"}
	r := batchMain(t, dir, append(args, "-out", "run", a, b, c)...)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	for _, want := range []string{b + " could not be read after line", fmt.Sprintf("at byte %d of the compressed file", gz.Len()/2), "unexpected EOF"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	results := filepath.Join(dir, "run", rundir.ResultsFile)
	rows := readRows(t, results)
	per := map[string]int{}
	for _, row := range rows {
		per[row.Corpus]++
	}
	if per[a] != 600 || per[b] == 0 || per[b] >= 2000 || per[c] != 600 {
		t.Fatalf("rows per corpus: %v", per)
	}
	m := manifest(t, filepath.Join(dir, "run"))
	if m.Status != rundir.Failed || !strings.Contains(m.Corpora[1].Error, "at byte") || !m.Corpora[2].Complete {
		t.Errorf("run.json: status %s, corpora %+v", m.Status, m.Corpora)
	}

	// A run killed in the first corpus (its rows a prefix), resumed: the
	// resume passes the damage and ends with every row of the run above.
	whole, _ := os.ReadFile(results)
	cut := bytes.SplitAfter(whole, []byte("\n"))
	writeFile(t, results, string(bytes.Join(cut[:1+201], nil)))
	r = batchMain(t, dir, append(args, "-resume", "-out", "run")...)
	if r.code != 1 || !strings.Contains(r.stderr, "could not be read after line") {
		t.Fatalf("resume: exit %d, want 1 and the damage\n%s", r.code, r.stderr)
	}
	sameRows(t, rows, readRows(t, results))
}

// TestMoreCorporaThan16Bits: a run over more corpus files than a uint16 can
// number; every file gets its rows, and the report counts them all.
func TestMoreCorporaThan16Bits(t *testing.T) {
	testenv.Heavy(t, "sweeps 65,540 corpus files")
	dir := t.TempDir()
	const n = 1<<16 + 4
	args := []string{"-solvers", "dlx", "-quiet", "-out", "run", "-timeout", "0"}
	for i := range n {
		name := "c/" + strconv.Itoa(i)
		if i == 0 {
			os.Mkdir(filepath.Join(dir, "c"), 0o755)
		}
		writeFile(t, filepath.Join(dir, name), "4000300200040020\n")
		args = append(args, name)
	}
	r := batch(t, dir, args...)
	mustOK(t, r)
	rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile))
	if len(rows) != n || rows[n-1].Corpus != "c/"+strconv.Itoa(n-1) {
		t.Fatalf("%d rows, want %d; last %+v", len(rows), n, rows[len(rows)-1])
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.Corpus] || row.ID != 0 || row.Status.String() != "solved" {
			t.Fatalf("row %+v", row)
		}
		seen[row.Corpus] = true
	}
	var sum struct {
		Puzzles    int `json:"puzzles"`
		Strategies []struct {
			Units int `json:"units"`
		} `json:"strategies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "run", rundir.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Puzzles != n || len(sum.Strategies) != 1 || sum.Strategies[0].Units != n {
		t.Errorf("summary.json: %d puzzles, strategies %+v; want %d puzzles and units", sum.Puzzles, sum.Strategies, n)
	}
	// compare joins two runs on all of them.
	r = batch(t, dir, "compare", "-json", "run", "run")
	mustOK(t, r)
	var c struct {
		Strategies []struct {
			Common int `json:"common"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil || len(c.Strategies) != 1 || c.Strategies[0].Common != n {
		t.Errorf("compare: %v %+v, want %d units in common", err, c, n)
	}
	// An id highlighted in every corpus: n units, each ranked, and the
	// charts label a few (placing n labels took over ten minutes).
	mustOK(t, batch(t, dir, "report", "-highlight", "0", "run"))
	var hl struct {
		Highlights []struct {
			Units []struct {
				Solver string `json:"solver"`
			} `json:"units"`
		} `json:"highlights"`
	}
	if b, err = os.ReadFile(filepath.Join(dir, "run", rundir.SummaryJSON)); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &hl); err != nil {
		t.Fatal(err)
	}
	if len(hl.Highlights) != 1 || len(hl.Highlights[0].Units) != n {
		t.Errorf("highlight #0: %d highlights, want 1 with %d units", len(hl.Highlights), n)
	}
}

// TestUnrecordableCorpusPathRefused: a corpus path that run.json and results.csv
// cannot record as given is refused before anything is written.
func TestUnrecordableCorpusPathRefused(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	for _, name := range []string{"new\nline.txt", "tab\there.txt", "bad\xffutf8.txt"} {
		path := writeFile(t, filepath.Join(dir, name), firstLines(t, root, 0, 5))
		r := batchMain(t, dir, "-solvers", "bitboard", "-quiet", "-out", "run", path)
		if r.code != 2 || !strings.Contains(r.stderr, "rename the file, or give it as -") {
			t.Errorf("%q: exit %d, want 2 and a clear refusal\n%s", name, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
			t.Fatalf("%q: a run directory was made", name)
		}
	}
	// Through standard input, the same file works.
	mustOK(t, batchMainIn(t, dir, firstLines(t, root, 0, 5), "-solvers", "bitboard", "-quiet", "-report=false", "-out", "run", "-"))
}

// TestInterruptWhileReadingAPipe: a Ctrl-C while the reader waits
// on a slow pipe ends the run, its rows flushed, exit 130, while the
// input stays open. Before, the reader kept reading the input to hash it,
// and the run ended only when the input did.
func TestInterruptWhileReadingAPipe(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	p := start(t, dir, true, "-solvers", "bitboard,norvig", "-report=false", "-quiet", "-out", out, "-")
	io.WriteString(p.stdin, firstLines(t, root, 0, 500))
	results := filepath.Join(out, rundir.ResultsFile)
	waitForRows(t, results, 1000)
	// The rows of every puzzle written say the reader has read them all;
	// where the kernel shows it, wait until it is blocked reading more.
	if testenv.CanSeeWaits() {
		testenv.Await(t, "the reader blocked reading more input", func() bool { return testenv.WaitsIn(p.cmd.Process.Pid, testenv.PipeRead) })
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	// The input stays open, as a slow producer's would: the run must end
	// without it (p.wait's bound only turns the defect's endless wait
	// into a failure).
	r := p.wait(t, time.Minute)
	if r.code != 130 {
		t.Fatalf("exit %d after SIGINT, want 130\n%s", r.code, r.stderr)
	}
	if rows := readRows(t, results); len(rows) != 1000 {
		t.Errorf("%d rows, want the 1000 units of the 500 puzzles read", len(rows))
	}
	if m := manifest(t, out); m.Status != rundir.Interrupted {
		t.Errorf("run.json status %s", m.Status)
	}
}

// TestProvenanceAfterKill: a run killed with SIGKILL, then resumed
// with another worker count: run.json has a segment per process, the
// killed one closed as killed with a real end, each with its own workers
// and wall time, and the corpus counts of the whole file.
func TestProvenanceAfterKill(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 20000))
	out := filepath.Join(dir, "run")
	p := start(t, dir, false, "-solvers", "norvig,dlx", "-workers", "1", "-timeout", "0", "-quiet", "-out", out, corpus)
	waitForRows(t, filepath.Join(out, rundir.ResultsFile), 2000)
	killed := time.Now()
	p.cmd.Process.Kill()
	p.wait(t, time.Minute)
	// A merge of it is refused: it is finished with -resume first.
	if r := batch(t, dir, "merge", "-o", filepath.Join(dir, "merged"), out); r.code != 2 || !strings.Contains(r.stderr, "batch -resume -out "+out) {
		t.Errorf("merge of the killed run: exit %d, want 2 and a -resume\n%s", r.code, r.stderr)
	}
	r := batch(t, dir, "-resume", "-workers", "2", "-quiet", "-report=false", "-out", out)
	mustOK(t, r)
	m := manifest(t, out)
	if len(m.Segments) != 2 {
		t.Fatalf("%d segments, want 2: %+v", len(m.Segments), m.Segments)
	}
	first, second := m.Segments[0], m.Segments[1]
	switch {
	case first.Status != rundir.Killed || first.End.IsZero() || first.End.After(killed.Add(time.Second)) || first.End.Before(first.Start):
		t.Errorf("killed segment: status %s, start %v, end %v (killed at %v)", first.Status, first.Start, first.End, killed)
	case first.Workers != 1 || first.DurationNS <= 0 || first.Rows < 2000:
		t.Errorf("killed segment: %d workers, %d ns, %d rows", first.Workers, first.DurationNS, first.Rows)
	case second.Status != rundir.Finished || second.Workers != 2 || second.DurationNS <= 0 || first.Rows+second.Rows != 40000:
		t.Errorf("resumed segment %+v (rows %d + %d)", second, first.Rows, second.Rows)
	case m.Status != rundir.Finished || m.Rows != 40000 || m.DurationNS != first.DurationNS+second.DurationNS:
		t.Errorf("run: status %s, %d rows, %d ns", m.Status, m.Rows, m.DurationNS)
	}
	if c := m.Corpora[0]; !c.Complete || c.Puzzles != 20000 || c.Lines != 20000 || c.SHA256 == "" {
		t.Errorf("corpus %+v", c)
	}
}

// TestOneProcessPerRun: while a run writes its directory, a second
// -resume and a merge into it are refused with the holder's pid, exit 2.
func TestOneProcessPerRun(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	p := start(t, dir, true, "-solvers", "bitboard", "-report=false", "-quiet", "-out", out, "-")
	io.WriteString(p.stdin, firstLines(t, root, 0, 50))
	waitForRows(t, filepath.Join(out, rundir.ResultsFile), 50)
	want := fmt.Sprintf("in use by pid %d", p.cmd.Process.Pid)
	r := batch(t, dir, "-resume", "-quiet", "-out", out)
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("second -resume: exit %d, want 2 and %q\n%s", r.code, want, r.stderr)
	}
	r = batch(t, dir, "merge", "-o", filepath.Join(dir, "merged"), out)
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("merge of a run in use: exit %d, want 2 and %q\n%s", r.code, want, r.stderr)
	}
	io.WriteString(p.stdin, firstLines(t, root, 50, 100))
	p.stdin.Close()
	if r := p.wait(t, time.Minute); r.code != 0 {
		t.Fatalf("the first run: exit %d\n%s", r.code, r.stderr)
	}
	if rows := readRows(t, filepath.Join(out, rundir.ResultsFile)); len(rows) != 100 {
		t.Errorf("%d rows, want 100", len(rows))
	}
}

// TestResumeRefusesChangedCorpus: -resume refuses a corpus that is not the one
// the run read, naming the file and both checksums; merge refuses shards
// whose run.json records no corpus checksum or a different one.
func TestResumeRefusesChangedCorpus(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	text := firstLines(t, root, 0, 100)
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), text)
	out := filepath.Join(dir, "run")
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", out, corpus))
	was := manifest(t, out).Corpora[0].SHA256
	writeFile(t, filepath.Join(out, rundir.ResultsFile), strings.Join(strings.SplitAfter(string(must(readRowsFile(filepath.Join(out, rundir.ResultsFile)))), "\n")[:51], ""))
	writeFile(t, corpus, strings.Replace(text, "1", "2", 1))
	r := batch(t, dir, "-resume", "-quiet", "-report=false", "-out", out)
	if r.code != 2 || !strings.Contains(r.stderr, corpus) || !strings.Contains(r.stderr, was) || !strings.Contains(r.stderr, "corpus changed") {
		t.Errorf("resume over a changed corpus: exit %d, want 2 with the file and both checksums\n%s", r.code, r.stderr)
	}
	writeFile(t, corpus, text)
	mustOK(t, batch(t, dir, "-resume", "-quiet", "-report=false", "-out", out))

	// Merge: two shards, then one without its corpus record, then one
	// with another checksum.
	for k := range 2 {
		mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-shard", fmt.Sprintf("%d/2", k), "-out", fmt.Sprintf("s%d", k), corpus))
	}
	editManifest(t, filepath.Join(dir, "s1"), func(m map[string]any) { delete(m, "corpora") })
	r = batch(t, dir, "merge", "-o", "m1", "s0", "s1")
	if r.code != 2 || !strings.Contains(r.stderr, "shard s1") || !strings.Contains(r.stderr, "checksum") {
		t.Errorf("merge of a shard without corpus record: exit %d\n%s", r.code, r.stderr)
	}
	editManifest(t, filepath.Join(dir, "s1"), func(m map[string]any) {
		c := manifest(t, filepath.Join(dir, "s0")).Corpora[0]
		c.SHA256 = strings.Repeat("ab", 32)
		m["corpora"] = []rundir.CorpusInfo{c}
	})
	r = batch(t, dir, "merge", "-o", "m2", "s0", "s1")
	if r.code != 2 || !strings.Contains(r.stderr, "differs between shards s0") || !strings.Contains(r.stderr, strings.Repeat("ab", 32)) {
		t.Errorf("merge of shards with different corpora: exit %d\n%s", r.code, r.stderr)
	}
}

// peakMB returns the peak memory that the tool printed ("peak memory
// 23.4 MB", decimal megabytes), the high-water mark of its own resident
// memory, in MiB (2^20 bytes), rounded. The rusage of a child would not
// do: on Linux it counts the memory of the test process that started it.
func peakMB(t *testing.T, stdout string) int {
	t.Helper()
	m := regexp.MustCompile(`peak memory ([0-9.]+) MB`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no peak memory in the output:\n%s", stdout)
	}
	mb, _ := strconv.ParseFloat(m[1], 64)
	return int(math.Round(mb * 1e6 / (1 << 20)))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestDamagedRunJSONRefused: a run.json whose settings are not valid is
// refused with the name of the field, exit 2, never half applied.
func TestDamagedRunJSONRefused(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 20))
	mustOK(t, batchMain(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", "good", corpus))
	tests := []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"unknown strategy", func(m map[string]any) { m["settings"].(map[string]any)["solvers"] = []string{"nosuch"} }, "settings.solvers[0]"},
		{"bad shard", func(m map[string]any) { m["settings"].(map[string]any)["shard"] = "7/3" }, "settings.shard"},
		{"bad range", func(m map[string]any) { m["settings"].(map[string]any)["range"] = "9:3" }, "settings.range"},
		{"no corpus", func(m map[string]any) { m["settings"].(map[string]any)["corpora"] = []string{} }, "settings.corpora"},
		{"negative limit", func(m map[string]any) { m["settings"].(map[string]any)["limit"] = -4 }, "settings.limit"},
		{"bad status", func(m map[string]any) { m["status"] = "weird" }, "status"},
		{"not JSON", nil, "not a run.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			os.CopyFS(run, os.DirFS(filepath.Join(dir, "good")))
			if tt.edit == nil {
				writeFile(t, filepath.Join(run, rundir.ManifestFile), "{\"settings\": [1,")
			} else {
				editManifest(t, run, func(m map[string]any) { m["status"] = "interrupted"; tt.edit(m) })
			}
			runs := [][]string{{"-resume", "-quiet", "-out", run}, {"report", run}}
			if tt.name == "unknown strategy" {
				runs = runs[:1] // a report reads the rows of a strategy this build no longer has
			}
			for _, args := range runs {
				r := batchMain(t, dir, args...)
				if r.code != 2 || !strings.Contains(r.stderr, tt.field) || strings.Contains(r.stderr, "panic") {
					t.Errorf("%v: exit %d, want 2 naming %s\n%s", args, r.code, tt.field, r.stderr)
				}
			}
		})
	}
}

// TestResumeValidatesRows: -resume refuses a row that is not a unit
// of the run (an id past the corpus, a forged id of 10^12) or a unit that
// appears twice, and its memory does not grow with the rows.
func TestResumeValidatesRows(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 100))
	mustOK(t, batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-out", "good", corpus))
	good, _ := readRowsFile(filepath.Join(dir, "good", rundir.ResultsFile))
	lines := strings.SplitAfter(string(good), "\n")
	tests := []struct {
		name, rows, want string
	}{
		{"id past the corpus", strings.Replace(lines[50], "49,50,", "100,101,", 1), "id 100 out of range"},
		{"forged id", strings.Replace(lines[50], "49,50,", "1000000000000,50,", 1), "out of range"},
		{"duplicate", lines[30], "appears twice"},
		{"second header", lines[0], "a header line in the middle of the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			os.CopyFS(run, os.DirFS(filepath.Join(dir, "good")))
			editManifest(t, run, func(m map[string]any) { m["status"] = "interrupted" })
			writeFile(t, filepath.Join(run, rundir.ResultsFile), strings.Join(lines[:40], "")+tt.rows)
			r := batch(t, dir, "-resume", "-quiet", "-out", run)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, "results.csv:41") {
				t.Errorf("exit %d, want 2, %q and the line\n%s", r.code, tt.want, r.stderr)
			}
		})
	}
	// A results.csv of some 45 MB, cut as a kill leaves it: the resume
	// holds a bit per unit, not the rows.
	if !testenv.HeavyEnabled() {
		t.Logf("heavy part left out: a resume of a 45 MB results.csv (runs with %s=1)", testenv.HeavyVar)
		return
	}
	var corpora []string
	for i := range 2 {
		corpora = append(corpora, writeFile(t, filepath.Join(dir, fmt.Sprintf("big%d.txt", i)), firstLines(t, root, 0, 49151)))
	}
	big := filepath.Join(dir, "big")
	mustOK(t, batch(t, dir, append([]string{"-solvers", "norvig,dlx,bitboard", "-timeout", "0", "-quiet", "-report=false", "-out", big}, corpora...)...))
	results := filepath.Join(big, rundir.ResultsFile)
	b, _ := os.ReadFile(results)
	writeFile(t, results, string(b[:bytes.LastIndexByte(b[:len(b)*9/10], '\n')+1]))
	r := batch(t, dir, "-resume", "-quiet", "-report=false", "-out", big)
	mustOK(t, r)
	peak := peakMB(t, r.stdout)
	t.Logf("resume of a %d MB results.csv: peak %d MB", len(b)>>20, peak)
	if peak > 40 {
		t.Errorf("resume of a %d MB results.csv: peak memory %d MB, want < 40", len(b)>>20, peak)
	}
}

// TestOutNotARunRefused: -out naming a directory that holds files but no
// run is refused (exit 2) and left alone; an empty one is used.
func TestOutNotARunRefused(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 5))
	home := filepath.Join(dir, "home")
	os.Mkdir(home, 0o755)
	writeFile(t, filepath.Join(home, ".bashrc"), "x")
	r := batchMain(t, home, "-solvers", "bitboard", "-quiet", "-out", ".", corpus)
	if r.code != 2 || !strings.Contains(r.stderr, "holds no run") || !strings.Contains(r.stderr, ".bashrc") {
		t.Errorf("-out . in a home directory: exit %d\n%s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Errorf("the directory now holds %d entries", len(entries))
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	mustOK(t, batchMain(t, empty, "-solvers", "bitboard", "-quiet", "-report=false", "-out", ".", corpus))
}

// TestEmptySelectionLeavesNothing: a selection that matches no puzzle exits 2,
// says so, and leaves results/ and results/latest as they were.
func TestEmptySelectionLeavesNothing(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 10))
	mustOK(t, batchMain(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", corpus))
	latest, err := os.Readlink(filepath.Join(dir, "results", "latest"))
	if err != nil {
		t.Fatal(err)
	}
	// A run id is the UTC start to the second: once the clock is past the
	// first run's, a new run would get a new id.
	testenv.Await(t, "the clock past the first run's second", func() bool {
		return time.Now().UTC().Format("20060102-150405") > filepath.Base(latest)
	})
	for _, sel := range [][]string{{"-ids", "999999"}, {"-range", "5:5"}, {"-range", "20:30"}, {"-shard", "3/4", "-ids", "4"}} {
		r := batchMain(t, dir, append([]string{"-solvers", "bitboard", "-quiet", corpus}, sel...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "the selection matches no puzzle") {
			t.Errorf("%v: exit %d, want 2 and 'the selection matches no puzzle'\n%s", sel, r.code, r.stderr)
		}
	}
	if now, _ := os.Readlink(filepath.Join(dir, "results", "latest")); now != latest {
		t.Errorf("results/latest moved from %s to %s", latest, now)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "results")); len(entries) != 2 {
		t.Errorf("results/ holds %d entries, want the first run and latest", len(entries))
	}
}

// TestReportDiskFullSaysRebuild: the disk fills up while the report is
// written: the message says how to build the report again (batch report
// DIR), not to finish the run, whose rows are whole.
func TestReportDiskFullSaysRebuild(t *testing.T) {
	root := repoRoot(t)
	out := filepath.Join(mountTmpfs(t, "size=256k"), "run")
	r := batch(t, root, "-solvers", "bitboard,dlx", "-limit", "600", "-quiet", "-out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "batch report "+out) || strings.Contains(r.stderr, "-resume") {
		t.Fatalf("exit %d, want 1, the error and 'batch report %s', no -resume\nstderr: %s", r.code, out, r.stderr)
	}
	if rows := readRows(t, filepath.Join(out, rundir.ResultsFile)); len(rows) != 1200 {
		t.Errorf("%d rows, want 1200", len(rows))
	}
	if m := manifest(t, out); m.Status != rundir.Finished {
		t.Errorf("run.json status %s: the sweep finished", m.Status)
	}
}

// TestTooManyWorkersCapped: -workers beyond what helps is capped with a
// message, and the sweep's memory stays bounded.
func TestTooManyWorkersCapped(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 2000))
	r := batch(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-workers", "100000000", "-out", "run", corpus)
	mustOK(t, r)
	if !regexp.MustCompile(`-workers 100000000 capped at \d+`).MatchString(r.stderr) {
		t.Errorf("no message about the cap:\n%s", r.stderr)
	}
	// Bounded, not small: uncapped, 10^8 workers would take gigabytes;
	// capped, a loaded machine lets the collector fall behind (61 and
	// 68 MB with a load average of 8 on two cores: a bound of 60 failed).
	if peak := peakMB(t, r.stdout); peak > 100 {
		t.Errorf("peak memory %d MB", peak)
	}
	if rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile)); len(rows) != 2000 {
		t.Errorf("%d rows", len(rows))
	}
}

// TestUsageErrorsExit2: usage and input errors exit 2 everywhere, and
// merge's messages name the shard.
func TestUsageErrorsExit2(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 6))
	for k := range 2 {
		mustOK(t, batchMain(t, dir, "-solvers", "bitboard", "-quiet", "-report=false", "-shard", fmt.Sprintf("%d/2", k), "-out", fmt.Sprintf("s%d", k), corpus))
	}
	writeFile(t, filepath.Join(dir, "plain"), "x")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-solvers", "bitboard", "-quiet", "-out", "/proc/x", corpus}, "/proc/x"},
		{[]string{"-solvers", "bitboard", "-quiet", "-out", "plain/run", corpus}, "plain/run"},
		{[]string{"merge", "-o", "m", "s0", "nosuch"}, "shard nosuch"},
		{[]string{"merge", "-o", "m", "s0"}, "missing shard 1/2"},
		{[]string{"merge", "-o", "/proc/x", "s0", "s1"}, "/proc/x"},
		{[]string{"-resume", "-out", "nosuch"}, "nosuch"},
		{[]string{"-solvers", "bitboard", "nosuch.txt"}, "nosuch.txt"},
	}
	for _, tt := range tests {
		if r := batchMain(t, dir, tt.args...); r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, want 2 naming %s\n%s", tt.args, r.code, tt.want, r.stderr)
		}
	}
}

// TestEmbeddedCorpusWithoutData runs the binary where no data/ directory is:
// the default corpus is the copy in the binary, recorded with the
// published checksum, and a run over it can be resumed there.
func TestEmbeddedCorpusWithoutData(t *testing.T) {
	dir := t.TempDir()
	r := batchMain(t, dir, "-ids", "39949,2018", "-solvers", "bitboard", "-quiet", "-report=false", "-out", "run")
	mustOK(t, r)
	rows := readRows(t, filepath.Join(dir, "run", rundir.ResultsFile))
	if len(rows) != 2 || rows[0].ID != 2018 || rows[1].ID != 39949 || rows[1].Status.String() != "solved" {
		t.Fatalf("rows: %+v", rows)
	}
	m, err := rundir.ReadManifest(filepath.Join(dir, "run"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Corpora) != 1 || m.Corpora[0].Path != data.Name || m.Corpora[0].SHA256 != data.SHA256 || m.Corpora[0].Puzzles != 49151 {
		t.Fatalf("corpus recorded as %+v", m.Corpora)
	}
	r = batchMain(t, dir, "-resume", "-quiet", "-report=false", "-out", "run")
	mustOK(t, r)
	if !strings.Contains(r.stderr, "2 rows already done") {
		t.Errorf("resume: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Fatal("a data directory appeared")
	}
}
