// Command refsolver is the package's test solver: it speaks the protocol
// of docs/PROTOCOL.md (version 2) with the built-in norvig strategy (all
// sizes), and
// misbehaves on request: -crash ID exits 3, -hang ID sleeps without
// reading, -garbage ID answers a line that does not parse, -wrong ID
// answers a grid that breaks a given, -unsolvable ID says it has no
// solution, -crash-all exits 3 on every request, -start D sleeps before
// the handshake.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"sudokubatch/solvers"
)

func main() {
	crash := flag.Int("crash", -1, "exit 3 on this id")
	hang := flag.Int("hang", -1, "hang on this id")
	garbage := flag.Int("garbage", -1, "answer garbage on this id")
	wrong := flag.Int("wrong", -1, "answer a wrong grid on this id")
	start := flag.Duration("start", 0, "sleep before the handshake")
	crashAll := flag.Bool("crash-all", false, "exit 3 on every request")
	unsolvable := flag.Int("unsolvable", -1, "answer unsolvable on this id")
	flag.String("marker", "", "ignored: a token for finding the process")
	flag.Parse()
	time.Sleep(*start)
	s, _ := solvers.Lookup("norvig")
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	in.Scan()
	fmt.Fprintln(out, "solver refsolver 1 count calls guesses ns sizes=4,9,16")
	out.Flush()
	for in.Scan() {
		// "N solve|count ID GRID": the answer starts with N.
		f := strings.Fields(in.Text())
		var id int
		fmt.Sscan(f[2], &id)
		f = []string{f[1], f[0], f[3]} // verb, N, grid: as the answers below use them
		switch {
		case *crashAll:
			os.Exit(3)
		case id == *unsolvable:
			fmt.Fprintf(out, "%s unsolvable\n", f[1])
			out.Flush()
			continue
		}
		switch id {
		case *crash:
			fmt.Fprintln(os.Stderr, "refsolver: crashing on purpose")
			os.Exit(3)
		case *hang:
			time.Sleep(time.Hour)
		case *garbage:
			fmt.Fprintln(out, "this is not an answer")
			out.Flush()
			continue
		}
		p, err := solvers.ParsePuzzle(f[2])
		if err != nil {
			fmt.Fprintf(out, "%s error %v\n", f[1], err)
			out.Flush()
			continue
		}
		t0 := time.Now()
		if f[0] == "count" {
			n, _ := solvers.CountSolutions(context.Background(), p, 2)
			r := s.Solve(context.Background(), p, solvers.Limits{})
			if n == 0 {
				fmt.Fprintf(out, "%s count 0 ns=%d\n", f[1], time.Since(t0))
			} else {
				fmt.Fprintf(out, "%s count %d %s ns=%d\n", f[1], n, r.Solution, time.Since(t0))
			}
			out.Flush()
			continue
		}
		r := s.Solve(context.Background(), p, solvers.Limits{})
		ns := time.Since(t0).Nanoseconds()
		switch r.Status {
		case solvers.StatusSolved:
			sol := r.Solution.String()
			if id == *wrong {
				sol = "1" + sol[1:]
				if sol == r.Solution.String() {
					sol = "2" + sol[1:]
				}
			}
			fmt.Fprintf(out, "%s solved %s calls=%d guesses=%d ns=%d\n", f[1], sol, r.Calls, r.Guesses, ns)
		case solvers.StatusUnsolvable:
			fmt.Fprintf(out, "%s unsolvable calls=%d ns=%d\n", f[1], r.Calls, ns)
		default:
			fmt.Fprintf(out, "%s error %s\n", f[1], r.Status)
		}
		out.Flush()
	}
}
