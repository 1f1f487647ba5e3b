// Command extfault is an external solver for the fault tests of batch
// (cmd/batch/ext_*_e2e_test.go): it speaks docs/PROTOCOL.md correctly,
// solving 9x9 grids with a small backtracking search, and misbehaves as
// its flags say, so that one binary serves every test. Puzzles are named
// by their id (IDS: a,b,c or all):
//
//	-marker TOKEN       carried in the argv of every process it starts, so that
//	                    tests find leftovers in /proc/*/cmdline
//	-crash IDS          print a message to stderr and exit 3
//	-hang ID            stop answering, as -hang-mode says:
//	                      plain       sleep (TERM ends it)
//	                      noterm      ignore SIGTERM (only KILL ends it)
//	                      grandchild  start `sleep 1000` in its group first
//	                      setsid      start a grandchild in a session of its own
//	                                  that keeps standard output open, then sleep
//	                      setsid-exit the same, then exit 3
//	                      close       close standard output and sleep
//	-hang-once          with -hang: hang the first time only (a marker file in -state)
//	-wrong ID           answer a complete, valid grid that changes a given
//	-garbage ID         answer a line that does not parse, once per -state
//	                    directory (a marker file there says it was done), so
//	                    that the restarted process answers correctly
//	-long ID            answer -long-bytes bytes without a newline
//	-wrong-id IDS       answer with another request's number
//	-twice ID           answer twice (-twice-gap apart: 0 writes both at once)
//	-exit-after ID      answer, then exit 0 (-exit-signal SEGV: die by SIGSEGV)
//	-error ID           answer "error" with -error-text as the message
//	-cache              answer a grid asked before at once, from a cache
//	-cheat              answer a grid asked before at once, with 81 ones
//	-drift              count as calls the times the grid was asked
//	-slow-start D       sleep D before reading the handshake
//	-slow-restart D     sleep D before the handshake in every process but the
//	                    first of the -state directory
//	-delay D            sleep D before each answer (a slow solver); with -cache
//	                    or -cheat, before the first answer to each grid only
//	-state DIR          where once-per-run faults keep their marker files, and
//	                    where a hanging process writes hanging-PID
//	-no-handshake       never answer the handshake
//	-hello LINE         answer the handshake with LINE (Go escapes: \x1b)
//	-ns                 report its own time (capability ns)
//	-log FILE           append each request's id to FILE, one a line
//	-solutions FILE     answer the grids FILE lists (lines "GRID SOLUTION") from
//	                    it, in microseconds, and search for the others
//
// It speaks protocol 2 (a request number first on every request and
// answer), and protocol 1 (the puzzle's id instead) when the handshake
// says so, so that the tests run against a batch of either.
//
// It is built by the tests (go build -o BIN ./testdata/extfault) and
// uses the standard library only.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// idSet is a flag of puzzle ids: a,b,c or all.
type idSet struct {
	all bool
	ids map[int]bool
}

func (s *idSet) String() string { return "" }

func (s *idSet) Set(v string) error {
	if v == "all" {
		s.all = true
		return nil
	}
	s.ids = map[int]bool{}
	for _, f := range strings.Split(v, ",") {
		id, err := strconv.Atoi(f)
		if err != nil {
			return err
		}
		s.ids[id] = true
	}
	return nil
}

func (s *idSet) has(id int) bool { return s.all || s.ids[id] }

var (
	marker    = flag.String("marker", "", "a `token` carried in the argv of every process started")
	hang      = flag.Int("hang", -1, "hang on this puzzle `id`")
	hangOnce  = flag.Bool("hang-once", false, "with -hang: hang only the first time in the -state directory")
	hangMode  = flag.String("hang-mode", "plain", "how to hang: plain, noterm, grandchild, setsid, setsid-exit or close")
	wrong     = flag.Int("wrong", -1, "answer a wrong solution on this puzzle `id`")
	garbage   = flag.Int("garbage", -1, "answer garbage on this puzzle `id`, once per -state directory")
	state     = flag.String("state", "", "`dir`ectory of the marker files of once-per-run faults")
	long      = flag.Int("long", -1, "answer an over-long line on this puzzle `id`")
	longBytes = flag.Int("long-bytes", 8<<20, "the length of the over-long line, `bytes`")
	twice     = flag.Int("twice", -1, "answer this puzzle `id` twice")
	twiceGap  = flag.Duration("twice-gap", 0, "the `time` between the two answers of -twice")
	exitAfter = flag.Int("exit-after", -1, "exit after answering this puzzle `id`")
	exitSig   = flag.String("exit-signal", "", "with -exit-after: die by this `signal` (SEGV) instead of exit 0")
	errorID   = flag.Int("error", -1, "answer error on this puzzle `id`")
	errorText = flag.String("error-text", "failed", "the `message` of -error (Go escapes: \\xff)")
	cache     = flag.Bool("cache", false, "answer a grid asked before at once")
	cheat     = flag.Bool("cheat", false, "answer a grid asked before at once with 81 ones")
	drift     = flag.Bool("drift", false, "count as calls the times the grid was asked")
	slowStart = flag.Duration("slow-start", 0, "sleep this `duration` before the handshake")
	noHello   = flag.Bool("no-handshake", false, "never answer the handshake")
	hello     = flag.String("hello", "", "answer the handshake with this `line`")
	selfNS    = flag.Bool("ns", false, "report its own time per puzzle")
	delay     = flag.Duration("delay", 0, "sleep this `duration` before each answer")
	slowAgain = flag.Duration("slow-restart", 0, "sleep this `duration` before the handshake but in the first process of -state")
	logPath   = flag.String("log", "", "append each request's id to this `file`")
	known     = flag.String("solutions", "", "a `file` of known solutions, lines \"GRID SOLUTION\"")
	crash     idSet
	wrongID   idSet
)

func main() {
	flag.Var(&crash, "crash", "crash (exit 3) on these `ids` (comma-separated, or all)")
	flag.Var(&wrongID, "wrong-id", "answer these puzzle `ids` with another request's number (comma-separated, or all)")
	flag.Usage = func() {} // an error names the flag: the tests look for it at the end of stderr
	flag.Parse()
	solutions := readSolutions(*known)
	if *noHello {
		fmt.Fprintln(os.Stderr, "extfault: not answering the handshake, as asked")
	}
	time.Sleep(*slowStart)
	if *slowAgain > 0 && !once(*state, "started") {
		time.Sleep(*slowAgain)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	if !in.Scan() {
		fmt.Fprintln(os.Stderr, "extfault: no handshake")
		os.Exit(1)
	}
	version := 0
	switch in.Text() {
	case "sudokubatch 1":
		version = 1
	case "sudokubatch 2":
		version = 2
	default:
		fmt.Fprintf(os.Stderr, "extfault: unknown handshake %q\n", in.Text())
		os.Exit(1)
	}
	if *noHello {
		sleepForever()
	}
	caps := "calls guesses"
	if *selfNS {
		caps += " ns"
	}
	if *hello != "" {
		line, err := strconv.Unquote(`"` + *hello + `"`)
		if err != nil {
			line = *hello
		}
		fmt.Fprintln(out, line)
	} else {
		fmt.Fprintf(out, "solver extfault 1 %s\n", caps)
	}
	out.Flush()

	asked := map[string]int{} // by grid: requests so far
	for in.Scan() {
		r := parseRequest(in.Text(), version)
		if *logPath != "" {
			if lf, err := os.OpenFile(*logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(lf, r.id)
				lf.Close()
			}
		}
		asked[r.grid]++
		again := asked[r.grid] > 1
		switch {
		case crash.has(r.id):
			fmt.Fprintf(os.Stderr, "extfault: crashing on puzzle %d, as asked\n", r.id)
			os.Exit(3)
		case r.id == *hang && (!*hangOnce || once(*state, "hang")):
			hangNow()
		case r.id == *long:
			fmt.Fprintf(out, "%s solved ", r.tag)
			chunk := strings.Repeat("1", 64<<10)
			for n := 0; n < *longBytes; n += len(chunk) {
				out.WriteString(chunk[:min(len(chunk), *longBytes-n)])
			}
			out.Flush()
			// The newline is never written: a reader that waits for it
			// holds the whole line.
			sleepForever()
		case r.id == *garbage && once(*state, fmt.Sprintf("garbage-%d", r.id)):
			fmt.Fprintln(out, "%%% this is not an answer %%%")
			out.Flush()
			continue
		case r.id == *errorID:
			msg, err := strconv.Unquote(`"` + *errorText + `"`)
			if err != nil {
				msg = *errorText
			}
			fmt.Fprintf(out, "%s error %s\n", r.tag, msg)
			out.Flush()
			continue
		}
		if !again || !(*cache || *cheat) {
			time.Sleep(*delay)
		}
		line := answer(r, solutions, again)
		if r.id == *twice {
			out.WriteString(line)
			if *twiceGap > 0 {
				out.Flush()
				time.Sleep(*twiceGap)
			}
		}
		out.WriteString(line)
		out.Flush()
		if r.id == *exitAfter {
			if *exitSig == "SEGV" {
				dieBySegv()
			}
			os.Exit(0)
		}
	}
}

// request is one request: its number (the id in protocol 1) as the tag
// an answer starts with, the puzzle's id, the grid, and max_calls (0:
// none).
type request struct {
	tag, verb, grid string
	id              int
	maxCalls        uint64
}

func parseRequest(line string, version int) request {
	f := strings.Fields(line)
	bad := func() {
		fmt.Fprintf(os.Stderr, "extfault: bad request %q\n", line)
		os.Exit(1)
	}
	var r request
	switch version {
	case 1:
		if len(f) != 3 {
			bad()
		}
		r = request{tag: f[1], verb: f[0], grid: f[2]}
	default:
		if len(f) < 4 {
			bad()
		}
		r = request{tag: f[0], verb: f[1], grid: f[3]}
		for _, kv := range f[4:] {
			if v, ok := strings.CutPrefix(kv, "max_calls="); ok {
				r.maxCalls, _ = strconv.ParseUint(v, 10, 64)
			}
		}
		f = f[1:]
	}
	if r.verb != "solve" && r.verb != "count" {
		bad()
	}
	id, err := strconv.Atoi(f[1])
	if err != nil {
		bad()
	}
	r.id = id
	return r
}

// answer returns the answer line to r: again says the grid was asked
// before.
func answer(r request, solutions map[string]string, again bool) string {
	tag := r.tag
	if wrongID.has(r.id) {
		tag += "000"
	}
	if *cheat && again {
		return fmt.Sprintf("%s solved %s calls=1 guesses=0\n", tag, strings.Repeat("1", 81))
	}
	start := time.Now()
	sol, calls, guesses, status := solutions[r.grid], uint64(0), uint64(0), "solved"
	if sol == "" {
		sol, calls, guesses, status = solve(r.grid, r.maxCalls)
	}
	ns := time.Since(start).Nanoseconds()
	if *drift {
		driftCount++
		calls = uint64(100 + driftCount)
	}
	var b strings.Builder
	switch {
	case status == "unsupported":
		fmt.Fprintf(&b, "%s unsupported grid of %d symbols", tag, len(r.grid))
	case status == "limit":
		fmt.Fprintf(&b, "%s limit calls=%d guesses=%d", tag, calls, guesses)
	case sol == "":
		fmt.Fprintf(&b, "%s unsolvable calls=%d guesses=%d", tag, calls, guesses)
	case r.verb == "count":
		fmt.Fprintf(&b, "%s count %d %s calls=%d guesses=%d", tag, count(r.grid), sol, calls, guesses)
	default:
		if r.id == *wrong {
			sol = relabel(sol, r.grid)
		}
		fmt.Fprintf(&b, "%s solved %s calls=%d guesses=%d", tag, sol, calls, guesses)
	}
	if *selfNS {
		fmt.Fprintf(&b, " ns=%d", max(ns, 1))
	}
	b.WriteByte('\n')
	return b.String()
}

// driftCount counts, per process, the answers -drift gave: the calls it
// reports change from one request to the next.
var driftCount int

func readSolutions(path string) map[string]string {
	solutions := map[string]string{}
	if path == "" {
		return solutions
	}
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "extfault: %v\n", err)
		os.Exit(2)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			solutions[f[0]] = f[1]
		}
	}
	return solutions
}

// hangNow stops answering: it never reads stdin again.
// It writes dir/hanging-PID first when dir is not "".
func hangNow() {
	mode := *hangMode
	switch mode {
	case "plain":
	case "noterm":
		signal.Ignore(syscall.SIGTERM)
	case "grandchild", "setsid", "setsid-exit":
		path, err := exec.LookPath("sleep")
		if err != nil {
			fmt.Fprintf(os.Stderr, "extfault: %v\n", err)
			os.Exit(1)
		}
		// argv[0] carries the marker: sleep does not read it. Its
		// standard output is the solver's.
		cmd := &exec.Cmd{Path: path, Args: []string{"sleep[" + *marker + "]", "1000"}, Stdout: os.Stdout, Stderr: os.Stderr}
		if mode != "grandchild" {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(os.Stderr, "extfault: starting the grandchild: %v\n", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "extfault: started grandchild %d (%s)\n", cmd.Process.Pid, mode)
	case "close":
		os.Stdout.Close()
	default:
		fmt.Fprintf(os.Stderr, "extfault: -hang-mode %q: want plain, noterm, grandchild, setsid, setsid-exit or close\n", mode)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "extfault: hanging (%s), as asked\n", mode)
	if *state != "" {
		os.WriteFile(filepath.Join(*state, fmt.Sprintf("hanging-%d", os.Getpid())), nil, 0o644)
	}
	if mode == "setsid-exit" {
		os.Exit(3)
	}
	sleepForever()
}

// dieBySegv ends the process by SIGSEGV, as a C program that crashes
// does: the Go runtime's handler, which would print a trace and exit 2,
// is replaced by the default action first.
func dieBySegv() {
	var act [4]uintptr // struct sigaction of the kernel: handler SIG_DFL, flags, restorer, mask
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(syscall.SIGSEGV), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	syscall.Kill(os.Getpid(), syscall.SIGSEGV)
	sleepForever()
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// once reports whether this is the first call with name for the state
// directory dir across every process: it creates dir/name, and reports
// false when it was there. Without a directory it always reports true.
func once(dir, name string) bool {
	if dir == "" {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// relabel swaps, everywhere in the solution sol, the digit of the first
// given of grid with the next digit: the grid stays complete and keeps
// every rule, but that given changes.
func relabel(sol, grid string) string {
	var a byte
	for i := range grid {
		if grid[i] != '0' {
			a = sol[i]
			break
		}
	}
	b := byte('1' + (a-'1'+1)%9)
	r := []byte(sol)
	for i, c := range r {
		switch c {
		case a:
			r[i] = b
		case b:
			r[i] = a
		}
	}
	return string(r)
}
