package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// TestHangupEndsLikeTerm: a SIGHUP (the terminal closed, an ssh session
// dropped) ends a sweep as SIGTERM does: the running units finish, run.json
// says interrupted, exit 130 with the resume hint, and -resume finishes the
// run. Before, SIGHUP killed the process and left run.json running.
func TestHangupEndsLikeTerm(t *testing.T) {
	root := repoRoot(t)
	corpus := bigCorpus(t, root, 3)
	out := filepath.Join(t.TempDir(), "run")
	r := startAndSignalAt(t, root, out, 20_000, syscall.SIGHUP,
		"-solvers", "norvig,dlx", "-workers", "2", "-timeout", "0", "-max-calls", "20000", "-quiet", "-report=false", "-out", out, corpus)
	if r.code != exitInterrupted || !strings.Contains(r.stderr, "-resume -out "+out) {
		t.Fatalf("exit %d after SIGHUP, want 130 with the resume hint\n%s", r.code, r.stderr)
	}
	if m, err := rundir.ReadManifest(out); err != nil || m.Status != rundir.Interrupted {
		t.Fatalf("run.json after SIGHUP: %v %+v, want status interrupted", err, m)
	}
	mustOK(t, batch(t, root, "-resume", "-quiet", "-report=false", "-out", out))
	if m := manifest(t, out); m.Status != rundir.Finished {
		t.Fatalf("status %s after the resume, want finished", m.Status)
	}
}

// TestHangupInterruptsEverySubcommand: the subcommands other than run
// (here show, solving a puzzle bruteforce takes seconds over) end on
// SIGHUP with exit 130 and "interrupted", as on SIGINT.
func TestHangupInterruptsEverySubcommand(t *testing.T) {
	dir := t.TempDir()
	hard := filepath.Join(dir, "hard.txt")
	if err := os.WriteFile(hard, []byte(rsHard+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, dir, false, "show", "0", "-corpus", hard, "-run", "", "-solvers", "bruteforce", "-timeout", "0")
	time.Sleep(300 * time.Millisecond)
	p.cmd.Process.Signal(syscall.SIGHUP)
	r := p.wait(t, 10*time.Second)
	if r.code != exitInterrupted || !strings.Contains(r.stderr, "interrupted") {
		t.Fatalf("show: exit %d after SIGHUP, want 130 and \"interrupted\"\n%s", r.code, r.stderr)
	}
}
