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

// runGuard runs args (the solver, its path already resolved) as the
// leader of a process group of its own and watches it:
//   - the solver's standard input and output are the guard's, handed
//     over: the guard closes its copies, so the tool reads the end of the
//     solver's output as soon as the solver closes it;
//   - file 3 is the life line from the tool: a 't' asks for the group's
//     end (TERM now, KILL after the grace), and its end of file (the tool
//     ended, in any way, kill -9 included) KILLs the group at once;
//   - when the solver exits, what it left in its group is KILLed and the
//     guard exits with the solver's status (128+n for a signal n, as a
//     shell reports it).
//
// The guard ignores the signals that would end it before the group:
// it leads its own group (the tool starts it with Setpgid), so a
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
	group := -cmd.Process.Pid
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
			syscall.Kill(group, syscall.SIGKILL)
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return cmd.ProcessState.ExitCode()
		case b, ok := <-orders:
			if !ok {
				syscall.Kill(group, syscall.SIGKILL)
				orders = nil
				continue
			}
			if b == 't' && kill == nil {
				syscall.Kill(group, syscall.SIGTERM)
				kill = time.After(grace)
			}
		case <-kill:
			syscall.Kill(group, syscall.SIGKILL)
		}
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
