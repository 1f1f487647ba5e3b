package external

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// graceVar passes -ext-grace to the guard.
const graceVar = "SUDOKUBATCH_EXT_GRACE"

// runGuard runs args (the solver, its path already resolved) and watches
// it and every process it starts:
//   - the solver's standard input and output are the guard's, handed
//     over: the guard closes its copies, so the tool reads the end of the
//     solver's output as soon as the solver closes it;
//   - the guard is a child subreaper (Linux): a descendant whose parent
//     exits, or one that left the solver's process group and session
//     (setsid), becomes the guard's child, so that the guard finds every
//     descendant (descendants) and ends them all;
//   - file 3 is the life line from the tool: a 't' asks for the end of
//     the solver and its descendants (TERM now, KILL after the grace),
//     and its end of file (the tool ended, in any way, kill -9 included)
//     KILLs them at once;
//   - when the solver exits, every descendant left is KILLed and reaped,
//     and the guard exits with the solver's status (128+n for a signal
//     n, as a shell reports it).
//
// The guard ignores the signals that would end it before the solver: it
// leads its own process group (the tool starts it with Setpgid), so a
// terminal's Ctrl-C does not reach it; the tool ends the solvers itself.
func runGuard(args []string) int {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	grace, err := time.ParseDuration(os.Getenv(graceVar))
	if err != nil || grace <= 0 {
		grace = time.Second
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "sudokubatch guard: no command")
		return 2
	}
	if err := becomeSubreaper(); err != nil {
		fmt.Fprintf(os.Stderr, "sudokubatch guard: %v: a descendant that leaves the solver's process group may outlive it\n", err)
	}
	life := os.NewFile(3, "life line")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = childEnv(os.Environ())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "sudokubatch: cannot start %s: %v\n", args[0], err)
		return 127
	}
	os.Stdin.Close()
	os.Stdout.Close()
	self, group := os.Getpid(), -cmd.Process.Pid
	signalAll := func(sig syscall.Signal) {
		syscall.Kill(group, sig)
		for _, pid := range descendants(self) {
			syscall.Kill(pid, sig)
		}
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	orders := make(chan byte)
	go func() {
		var b [1]byte
		for {
			if _, err := life.Read(b[:]); err != nil {
				close(orders)
				return
			}
			orders <- b[0]
		}
	}()
	var kill <-chan time.Time
	for {
		select {
		case <-exited:
			endDescendants(self, group)
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return cmd.ProcessState.ExitCode()
		case b, ok := <-orders:
			if !ok {
				signalAll(syscall.SIGKILL)
				orders = nil
				continue
			}
			if b == 't' && kill == nil {
				signalAll(syscall.SIGTERM)
				kill = time.After(grace)
			}
		case <-kill:
			signalAll(syscall.SIGKILL)
		}
	}
}

// endDescendants KILLs the process group and every descendant of the
// guard once the solver has exited, and reaps those that became the
// guard's children, until none is left (or a second has passed: one that
// forks without end).
func endDescendants(self, group int) {
	syscall.Kill(group, syscall.SIGKILL)
	deadline := time.Now().Add(time.Second)
	for {
		left := descendants(self)
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// childEnv is the solver's environment: the tool's, without the roles,
// and with roleVar set to nextVar's value when there is one (the echo
// peer).
func childEnv(env []string) []string {
	var out []string
	next := ""
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, nextVar+"="):
			next = strings.TrimPrefix(kv, nextVar+"=")
		case strings.HasPrefix(kv, roleVar+"="), strings.HasPrefix(kv, graceVar+"="):
		default:
			out = append(out, kv)
		}
	}
	if next != "" {
		out = append(out, roleVar+"="+next)
	}
	return out
}
