// Command bbtime times bitboard on each puzzle of a corpus exactly as
// scripts/tdoku/tdoku_time.c times tdoku, for scripts/tdoku-bench.sh:
// an untimed pass over the whole corpus, then a timed one, the clock
// read just before and after each call, less the clock's own cost.
//
//	go run ./scripts/tdoku/bbtime first|count2 < corpus > times
//
// first: bitboard's Solve (the first solution); count2:
// solvers.CountSolutions with max 2 (bitboard counting to two). Each
// output line is "ns guesses count" for one puzzle, in input order
// (guesses: -1 in count2, which does not report them). The corpus is
// read as tdoku_time reads it: 81-cell lines, '.' or '0' for an empty
// cell, other lines skipped.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"sudokubatch/solvers"
)

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "first" && os.Args[1] != "count2") {
		fmt.Fprintln(os.Stderr, "usage: bbtime first|count2 < corpus > times")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bbtime:", err)
		os.Exit(1)
	}
}

func run(mode string, in io.Reader, out io.Writer) error {
	var ps []solvers.Puzzle
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if len(line) != 81 || line[0] == '#' {
			continue
		}
		p, err := solvers.ParsePuzzle(line)
		if err != nil {
			return fmt.Errorf("line %q: %w", line, err)
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	bb, ok := solvers.Lookup("bitboard")
	if !ok {
		return fmt.Errorf("no bitboard strategy")
	}
	epoch := time.Now()
	var d [501]int64
	for i := range d {
		t0 := time.Since(epoch)
		d[i] = int64(time.Since(epoch) - t0)
	}
	slices.Sort(d[:])
	overhead := d[250]

	ctx := context.Background()
	ns, guesses, count := make([]int64, len(ps)), make([]int64, len(ps)), make([]int, len(ps))
	for range 2 {
		for i := range ps {
			var g int64 = -1
			var c int
			t0 := time.Since(epoch)
			if mode == "first" {
				r := bb.Solve(ctx, ps[i], solvers.Limits{})
				if r.Status == solvers.StatusSolved {
					c = 1
				}
				g = int64(r.Guesses)
			} else {
				c, _ = solvers.CountSolutions(ctx, ps[i], 2)
			}
			ns[i] = max(int64(time.Since(epoch)-t0)-overhead, 0)
			guesses[i], count[i] = g, c
		}
	}
	w := bufio.NewWriter(out)
	for i := range ps {
		fmt.Fprintf(w, "%d %d %d\n", ns[i], guesses[i], count[i])
	}
	fmt.Fprintf(os.Stderr, "bbtime: %d puzzles, %s, clock overhead %d ns subtracted\n", len(ps), mode, overhead)
	return w.Flush()
}
