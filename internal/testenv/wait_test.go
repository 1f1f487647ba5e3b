package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputAwaitSeesALine: Output.Await returns once a process has
// written the text, while the process still runs.
func TestOutputAwaitSeesALine(t *testing.T) {
	var out Output
	cmd := exec.Command("sh", "-c", "echo ready >&2; read line")
	cmd.Stderr = &out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	out.Await(t, "ready", done)
	select {
	case <-done:
		t.Fatal("the process ended before its input did")
	default:
	}
	stdin.Close()
	<-done
}

// TestWaitsInSeesABlockedRead: a process reading an empty pipe is seen
// waiting in the kernel's pipe read, and one holding a file open is seen
// holding it.
func TestWaitsInSeesABlockedRead(t *testing.T) {
	if !CanSeeWaits() {
		t.Skip("this kernel does not show where a thread sleeps (/proc/PID/task/TID/wchan)")
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "exec 3<\"$1\"; exec cat", "sh", path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	Await(t, "cat blocked reading its input", func() bool { return WaitsIn(cmd.Process.Pid, PipeRead) })
	Await(t, "cat holding the file open", func() bool { return HoldsOpen(cmd.Process.Pid, path) })
	if WaitsIn(cmd.Process.Pid, FIFOOpen) {
		t.Error("cat reading a pipe is seen opening a FIFO")
	}

	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	opener := exec.Command("cat", fifo)
	if err := opener.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { opener.Process.Kill(); opener.Wait() }()
	Await(t, "cat opening a FIFO nobody writes", func() bool { return WaitsIn(opener.Process.Pid, FIFOOpen) })
}
