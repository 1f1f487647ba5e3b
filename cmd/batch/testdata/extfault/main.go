// Command extfault is an external solver for the fault tests of batch
// (cmd/batch/ext_faults_e2e_test.go): it speaks docs/PROTOCOL.md
// correctly, solving 9x9 grids with a small backtracking search, and
// misbehaves on the puzzles its flags name, so that one binary serves
// every test:
//
//	-marker TOKEN       carried in the argv of every process it starts, so that
//	                    tests find leftovers in /proc/*/cmdline
//	-crash IDS          print a message to stderr and exit 3 (IDS: a,b,c or all)
//	-hang ID            sleep forever without reading stdin
//	-hang-mode MODE     plain (TERM ends it), noterm (ignores SIGTERM: only
//	                    KILL ends it) or grandchild (starts `sleep 1000` first)
//	-wrong ID           answer a complete, valid grid that changes a given
//	-garbage ID         answer a line that does not parse, once per -state
//	                    directory (a marker file there says it was done), so
//	                    that the restarted process answers correctly
//	-long ID            answer -long-bytes bytes without a newline
//	-wrong-id ID        answer with another puzzle's id
//	-slow-start D       sleep D before reading the handshake
//	-slow-restart D     sleep D before the handshake in every process but the
//	                    first of the -state directory
//	-delay D            sleep D before each answer (a slow solver)
//	-state DIR          where once-per-run faults keep their marker files, and
//	                    where a hanging process writes hanging-PID
//	-no-handshake       never answer the handshake
//	-hello LINE         answer the handshake with LINE
//	-ns                 report its own time (capability ns)
//	-log FILE           append each request's id to FILE, one a line
//	-solutions FILE     answer the grids FILE lists (lines "GRID SOLUTION") from
//	                    it, in microseconds, and search for the others
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
)

func main() {
	var (
		marker    = flag.String("marker", "", "a `token` carried in the argv of every process started")
		crash     = flag.String("crash", "", "crash (exit 3) on these `ids` (comma-separated, or all)")
		hang      = flag.Int("hang", -1, "hang on this puzzle `id`")
		hangMode  = flag.String("hang-mode", "plain", "how to hang: plain, noterm or grandchild")
		wrong     = flag.Int("wrong", -1, "answer a wrong solution on this puzzle `id`")
		garbage   = flag.Int("garbage", -1, "answer garbage on this puzzle `id`, once per -state directory")
		state     = flag.String("state", "", "`dir`ectory of the marker files of once-per-run faults")
		long      = flag.Int("long", -1, "answer an over-long line on this puzzle `id`")
		longBytes = flag.Int("long-bytes", 8<<20, "the length of the over-long line, `bytes`")
		wrongID   = flag.Int("wrong-id", -1, "answer this puzzle `id` with another id")
		slowStart = flag.Duration("slow-start", 0, "sleep this `duration` before the handshake")
		noHello   = flag.Bool("no-handshake", false, "never answer the handshake")
		hello     = flag.String("hello", "", "answer the handshake with this `line`")
		selfNS    = flag.Bool("ns", false, "report its own time per puzzle")
		delay     = flag.Duration("delay", 0, "sleep this `duration` before each answer")
		slowAgain = flag.Duration("slow-restart", 0, "sleep this `duration` before the handshake but in the first process of -state")
		logPath   = flag.String("log", "", "append each request's id to this `file`")
		known     = flag.String("solutions", "", "a `file` of known solutions, lines \"GRID SOLUTION\"")
	)
	flag.Parse()
	crashes := map[int]bool{}
	crashAll := *crash == "all"
	if *crash != "" && !crashAll {
		for _, f := range strings.Split(*crash, ",") {
			id, err := strconv.Atoi(f)
			if err != nil {
				fmt.Fprintf(os.Stderr, "extfault: -crash %q: %v\n", *crash, err)
				os.Exit(2)
			}
			crashes[id] = true
		}
	}

	solutions := map[string]string{}
	if *known != "" {
		b, err := os.ReadFile(*known)
		if err != nil {
			fmt.Fprintf(os.Stderr, "extfault: %v\n", err)
			os.Exit(2)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 {
				solutions[f[0]] = f[1]
			}
		}
	}
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
	if in.Text() != "sudokubatch 1" {
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
		fmt.Fprintln(out, *hello)
	} else {
		fmt.Fprintf(out, "solver extfault 1 %s\n", caps)
	}
	out.Flush()

	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) != 3 || (f[0] != "solve" && f[0] != "count") {
			fmt.Fprintf(os.Stderr, "extfault: bad request %q\n", in.Text())
			os.Exit(1)
		}
		id, err := strconv.Atoi(f[1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "extfault: bad id in %q\n", in.Text())
			os.Exit(1)
		}
		grid := f[2]
		if *logPath != "" {
			if lf, err := os.OpenFile(*logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(lf, id)
				lf.Close()
			}
		}
		switch {
		case crashAll || crashes[id]:
			fmt.Fprintf(os.Stderr, "extfault: crashing on puzzle %d, as asked\n", id)
			os.Exit(3)
		case id == *hang:
			hangNow(*hangMode, *marker, *state)
		case id == *long:
			fmt.Fprintf(out, "%d solved ", id)
			chunk := strings.Repeat("1", 64<<10)
			for n := 0; n < *longBytes; n += len(chunk) {
				out.WriteString(chunk[:min(len(chunk), *longBytes-n)])
			}
			out.Flush()
			// The newline is never written: a reader that waits for it
			// holds the whole line.
			sleepForever()
		case id == *garbage && once(*state, fmt.Sprintf("garbage-%d", id)):
			fmt.Fprintln(out, "%%% this is not an answer %%%")
			out.Flush()
			continue
		}
		time.Sleep(*delay)
		start := time.Now()
		sol, calls, guesses, supported := solutions[grid], uint64(0), uint64(0), true
		if sol == "" {
			sol, calls, guesses, supported = solve(grid)
		}
		ns := time.Since(start).Nanoseconds()
		answerID := id
		if id == *wrongID {
			answerID = id + 1000
		}
		switch {
		case !supported:
			fmt.Fprintf(out, "%d unsupported grid of %d symbols", answerID, len(grid))
		case sol == "":
			fmt.Fprintf(out, "%d unsolvable calls=%d guesses=%d", answerID, calls, guesses)
		case f[0] == "count":
			fmt.Fprintf(out, "%d count %d %s calls=%d guesses=%d", answerID, count(grid), sol, calls, guesses)
		default:
			if id == *wrong {
				sol = relabel(sol, grid)
			}
			fmt.Fprintf(out, "%d solved %s calls=%d guesses=%d", answerID, sol, calls, guesses)
		}
		if *selfNS {
			fmt.Fprintf(out, " ns=%d", ns)
		}
		fmt.Fprintln(out)
		out.Flush()
	}
}

// hangNow stops answering: it never reads stdin again.
// It writes dir/hanging-PID first when dir is not "".
func hangNow(mode, marker, dir string) {
	switch mode {
	case "plain":
	case "noterm":
		signal.Ignore(syscall.SIGTERM)
	case "grandchild":
		path, err := exec.LookPath("sleep")
		if err != nil {
			fmt.Fprintf(os.Stderr, "extfault: %v\n", err)
			os.Exit(1)
		}
		// argv[0] carries the marker: sleep does not read it.
		cmd := &exec.Cmd{Path: path, Args: []string{"sleep[" + marker + "]", "1000"}, Stderr: os.Stderr}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(os.Stderr, "extfault: starting the grandchild: %v\n", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "extfault: started grandchild %d\n", cmd.Process.Pid)
	default:
		fmt.Fprintf(os.Stderr, "extfault: -hang-mode %q: want plain, noterm or grandchild\n", mode)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "extfault: hanging (%s), as asked\n", mode)
	if dir != "" {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("hanging-%d", os.Getpid())), nil, 0o644)
	}
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

// board is a 9x9 grid with the candidates of its rows, columns and boxes.
type board struct {
	cells               [81]int // 0 empty, else 1..9
	row, col, box       [9]uint16
	calls, guesses      uint64
	solutions, maxCount int
	first               [81]int
	conflict            bool // two givens break a rule
}

func parse(grid string) (*board, bool) {
	if len(grid) != 81 {
		return nil, false
	}
	b := &board{}
	for i := range 81 {
		c := grid[i]
		if c == '0' || c == '.' {
			continue
		}
		if c < '1' || c > '9' {
			return nil, false
		}
		d := int(c - '0')
		bit := uint16(1) << d
		r, k, x := i/9, i%9, (i/27)*3+(i%9)/3
		if (b.row[r]|b.col[k]|b.box[x])&bit != 0 {
			b.conflict = true // no solution
		}
		b.cells[i] = d
		b.row[r] |= bit
		b.col[k] |= bit
		b.box[x] |= bit
	}
	return b, true
}

// search fills the empty cell with the fewest candidates first, counting
// solutions up to maxCount.
func (b *board) search() {
	b.calls++
	best, bestN := -1, 10
	var bestMask uint16
	for i := range 81 {
		if b.cells[i] != 0 {
			continue
		}
		r, k, x := i/9, i%9, (i/27)*3+(i%9)/3
		mask := ^(b.row[r] | b.col[k] | b.box[x]) & 0x3fe
		n := popcount(mask)
		if n < bestN {
			best, bestN, bestMask = i, n, mask
			if n <= 1 {
				break
			}
		}
	}
	if best < 0 {
		if b.solutions == 0 {
			b.first = b.cells
		}
		b.solutions++
		return
	}
	if bestN > 1 {
		b.guesses++
	}
	r, k, x := best/9, best%9, (best/27)*3+(best%9)/3
	for d := 1; d <= 9 && b.solutions < b.maxCount; d++ {
		bit := uint16(1) << d
		if bestMask&bit == 0 {
			continue
		}
		b.cells[best] = d
		b.row[r] |= bit
		b.col[k] |= bit
		b.box[x] |= bit
		b.search()
		b.cells[best] = 0
		b.row[r] &^= bit
		b.col[k] &^= bit
		b.box[x] &^= bit
	}
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// solve returns the first solution of grid, "" when it has none;
// supported is false when grid is not a 9x9 grid.
func solve(grid string) (sol string, calls, guesses uint64, supported bool) {
	b, valid := parse(grid)
	if !valid {
		return "", 0, 0, false
	}
	b.maxCount = 1
	if !b.conflict {
		b.search()
	}
	if b.solutions == 0 {
		return "", b.calls, b.guesses, true
	}
	s := make([]byte, 81)
	for i, d := range b.first {
		s[i] = byte('0' + d)
	}
	return string(s), b.calls, b.guesses, true
}

// count returns the number of solutions of grid, up to two.
func count(grid string) int {
	b, valid := parse(grid)
	if !valid {
		return 0
	}
	b.maxCount = 2
	if !b.conflict {
		b.search()
	}
	return b.solutions
}
