package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

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
// SIGHUP with exit 130 and "interrupted", as on SIGINT. The SIGHUP goes
// once show says, on the terminal its stderr is, that it is solving.
func TestHangupInterruptsEverySubcommand(t *testing.T) {
	dir := t.TempDir()
	hard := filepath.Join(dir, "hard.txt")
	if err := os.WriteFile(hard, []byte(rsHard+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startOn(t, dir, false, openPTY(t), "show", "0", "-corpus", hard, "-run", "", "-solvers", "bruteforce", "-timeout", "0")
	p.awaitStderr(t, showRunning)
	p.cmd.Process.Signal(syscall.SIGHUP)
	r := p.wait(t, time.Minute)
	if r.code != exitInterrupted || !strings.Contains(r.stderr, "interrupted") {
		t.Fatalf("show: exit %d after SIGHUP, want 130 and \"interrupted\"\n%s", r.code, r.stderr)
	}
}

// showRunning is what show writes on a terminal before it solves.
const showRunning = "batch: running "

// pty is a pseudo-terminal: a process writes to slave as to a terminal,
// the test reads master.
type pty struct{ master, slave *os.File }

// openPTY opens a pseudo-terminal (Linux's /dev/ptmx), or skips t where
// there is none.
func openPTY(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) error {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), req, uintptr(arg)); errno != 0 {
			return errno
		}
		return nil
	}
	var unlock int32
	var n uint32
	if err := ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	if err := ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("the pseudo-terminal's number: %v", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatalf("opening the pseudo-terminal's slave: %v", err)
	}
	return &pty{master, slave}
}
