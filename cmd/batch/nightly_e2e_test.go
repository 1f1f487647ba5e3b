package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// nightRuns returns the run directories under dir/results, by name
// (none before there is a results root).
func nightRuns(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, rundir.DefaultRoot))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			runs = append(runs, filepath.Join(dir, rundir.DefaultRoot, e.Name()))
		}
	}
	return runs
}

// startNight starts a night (batch with args) in dir, waits until its
// run directory, one not in before, holds rows, and returns it with the
// function that kills the night (SIGKILL) and waits for its end.
func startNight(t *testing.T, dir string, before []string, args ...string) (run string, kill func()) {
	t.Helper()
	needsBinary(t)
	cmd := exec.Command(batchBin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	testenv.Await(t, "the night's rows", func() bool {
		select {
		case err := <-exited:
			t.Fatalf("the night ended before it was killed: %v", err)
		default:
		}
		for _, r := range nightRuns(t, dir) {
			if st, err := os.Stat(filepath.Join(r, rundir.ResultsFile)); !slices.Contains(before, r) && err == nil && st.Size() > 20_000 {
				run = r
				return true
			}
		}
		return false
	})
	killed := false
	kill = func() {
		if !killed {
			killed = true
			cmd.Process.Kill()
			<-exited
		}
	}
	t.Cleanup(kill)
	return run, kill
}

// TestPruneSaysWhichNightRunsAndWhichWasKilled: prune leaves a night
// that is running and one a killed process left running whole, and says
// which is which: the first in use by its pid, the second to be finished
// with -resume. Before, both were "not finished (running): its rows stay
// for batch -resume", which told the user to resume a night running now.
func TestPruneSaysWhichNightRunsAndWhichWasKilled(t *testing.T) {
	root := repoRoot(t)
	corpus := bigCorpus(t, root, 3)
	dir := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx", "-workers", "2", "-report=false"}, deterministic...)
	run, kill := startNight(t, dir, nil, append(args, corpus)...)
	r := batch(t, dir, "prune", "-keep", "0")
	mustOK(t, r)
	if !strings.Contains(r.stdout, filepath.Base(run)) || !strings.Contains(r.stdout, "in use by pid") || strings.Contains(r.stdout, "-resume") {
		t.Errorf("prune during the night does not say it is in use:\n%s", r.stdout)
	}
	kill()
	r = batch(t, dir, "prune", "-keep", "0")
	mustOK(t, r)
	if !strings.Contains(r.stdout, "killed") || !strings.Contains(r.stdout, "batch -resume -out "+filepath.Join(rundir.DefaultRoot, filepath.Base(run))) {
		t.Errorf("prune after the night was killed does not say how to finish it:\n%s", r.stdout)
	}
}

// TestResumeAfterAKilledNight: a night killed outright (SIGKILL: the OOM
// killer, a reboot, systemd's stop timeout) never moves results/latest,
// which still names the night before. `batch -resume` without -out then
// finishes the killed night, and says so, and leaves the night before
// alone. Before, it resumed results/latest's finished night (a new
// segment in its run.json, its report and gzip written again), exited 0,
// and the killed night stayed running for ever.
func TestResumeAfterAKilledNight(t *testing.T) {
	root := repoRoot(t)
	corpus := bigCorpus(t, root, 3)
	dir := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx", "-workers", "2", "-report=false"}, deterministic...)
	mustOK(t, batch(t, dir, append(args, "-range", "0:100", corpus)...))
	before := nightRuns(t, dir)
	if len(before) != 1 {
		t.Fatalf("after the first night: %v, want one run", before)
	}
	first, err := os.ReadFile(filepath.Join(before[0], rundir.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}

	killed, kill := startNight(t, dir, before, append(args, corpus)...)
	kill()
	if m := manifest(t, killed); m.Status != rundir.Running {
		t.Fatalf("the killed night's status %s, want running", m.Status)
	}

	r := batch(t, dir, "-resume", "-quiet", "-report=false")
	mustOK(t, r)
	if !strings.Contains(r.stderr, filepath.Base(killed)) {
		t.Errorf("-resume does not say it resumes the killed night %s:\n%s", killed, r.stderr)
	}
	if m := manifest(t, killed); m.Status != rundir.Finished {
		t.Errorf("the killed night after -resume: status %s, want finished\n%s", m.Status, r.stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(before[0], rundir.ManifestFile)); string(now) != string(first) {
		t.Errorf("-resume changed the night before's run.json:\n%s", r.stderr)
	}
}

// TestFullDiskAtTheStartLeavesNothing: a night that starts on a full disk
// (run.json cannot be written) exits 1, an I/O error, saying nothing was
// swept, and leaves no run directory behind; the same command runs once
// there is room. Before, it exited 2 (a usage error: "fix the recipe")
// and left results/<run id> holding only its .lock, one more each night.
func TestFullDiskAtTheStartLeavesNothing(t *testing.T) {
	root := repoRoot(t)
	dir := mountTmpfs(t, "size=64k")
	fill := filepath.Join(dir, "fill")
	if out, err := exec.Command("dd", "if=/dev/zero", "of="+fill, "bs=4k").CombinedOutput(); !strings.Contains(string(out), "No space left") {
		t.Fatalf("filling the tmpfs: %v %s", err, out)
	}
	args := []string{"-solvers", "bitboard", "-limit", "3", "-quiet", "-report=false", filepath.Join(root, "data/sudoku17.txt")}
	r := batch(t, dir, args...)
	if r.code != 1 || !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, "run again") {
		t.Errorf("exit %d, want 1 with the reason and what to do; stderr %s", r.code, r.stderr)
	}
	if runs := nightRuns(t, dir); len(runs) != 0 {
		t.Errorf("left behind: %v", runs)
	}
	os.Remove(fill)
	mustOK(t, batch(t, dir, args...))
	if runs := nightRuns(t, dir); len(runs) != 1 || manifest(t, runs[0]).Status != rundir.Finished {
		t.Errorf("once there is room: %v, want one finished run", runs)
	}
}

// TestRunFilesFollowTheUmask: every file and directory of a night's run
// has the mode the umask it ran under gives (0666 and 0777 less it), as
// a shell's redirection would make them: under a shared root's umask 002
// the group can resume, report and prune the run; under 077 nobody else
// reads it. Before, the files were 0644 whatever the umask (the group
// could not open results.csv or .lock to resume, and umask 077's files
// were readable by all).
func TestRunFilesFollowTheUmask(t *testing.T) {
	root := repoRoot(t)
	needsBinary(t)
	for _, umask := range []os.FileMode{0o002, 0o077} {
		t.Run(fmt.Sprintf("%03o", umask), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command("sh", "-c", fmt.Sprintf("umask %03o; exec \"$0\" \"$@\"", umask), batchBin,
				"-solvers", "norvig,bitboard", "-limit", "300", "-quiet", filepath.Join(root, "data/sudoku17.txt"))
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			run := filepath.Join(dir, rundir.DefaultRoot)
			n := 0
			err := filepath.WalkDir(run, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.Type()&fs.ModeSymlink != 0 {
					return err
				}
				st, err := os.Stat(path)
				if err != nil {
					return err
				}
				want := 0o666 &^ umask
				if st.IsDir() {
					want = 0o777 &^ umask
				}
				if st.Mode().Perm() != want {
					t.Errorf("%s: mode %v, want %v", path, st.Mode().Perm(), want)
				}
				n++
				return nil
			})
			if err != nil || n < 10 {
				t.Fatalf("walking %s: %v (%d files)", run, err, n)
			}
		})
	}
}

// TestSweepMakesNoHome: a sweep run as cron or a system user runs it,
// HOME naming a directory that does not exist, leaves it so (the hashes
// of the corpus and binary it keeps in the user's cache directory are
// then not kept). Before, it made HOME/.cache/sudokubatch, home and all
// where it could (as root, /nonexistent).
func TestSweepMakesNoHome(t *testing.T) {
	root := repoRoot(t)
	needsBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "nonexistent")
	cmd := exec.Command(batchBin, "-solvers", "bitboard", "-limit", "3", "-quiet", "-report=false", filepath.Join(root, "data/sudoku17.txt"))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Lstat(home); err == nil {
		t.Errorf("the sweep made HOME %s", home)
	}
}

// TestSweepOutlivesItsReader: a night whose standard output is a pipe
// that nobody reads any more (| head, a logger that died) still writes
// its report and gzips its rows, and exits 0. Before, the first write
// after the reader left killed it by SIGPIPE (exit 141), between its
// rows and its report; or, with the signal caught, the report's summary
// on stdout failed it (exit 1, rows left plain).
func TestSweepOutlivesItsReader(t *testing.T) {
	root := repoRoot(t)
	needsBinary(t)
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the first line
	cmd := exec.Command(batchBin, "-solvers", "norvig,bitboard", "-limit", "300", "-quiet", filepath.Join(root, "data/sudoku17.txt"))
	cmd.Dir, cmd.Stdout = dir, w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	w.Close()
	if err != nil {
		t.Errorf("%v, want exit 0\n%s", err, stderr.String())
	}
	runs := nightRuns(t, dir)
	if len(runs) != 1 {
		t.Fatalf("runs %v, want one", runs)
	}
	for _, f := range []string{rundir.PageFile, rundir.ResultsGzip} {
		if _, err := os.Stat(filepath.Join(runs[0], f)); err != nil {
			t.Errorf("the night without its reader: %v", err)
		}
	}
}
