// Command batch benchmarks Sudoku solving strategies over whole puzzle
// corpora. See `batch help` and the README.
//
// This package parses flags, wires the packages together (solvers,
// rundir, pipeline, report, report/chart), and draws the progress: one
// file per subcommand (run.go and sweep.go, report.go, show.go,
// compare.go, merge.go, solvers.go), progress.go for the bar or line,
// main.go for the table of subcommands and the exit codes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

// Exit codes (DESIGN.md).
const (
	exitOK          = 0
	exitWrong       = 1 // finished, but something is wrong (a wrong answer, an I/O error)
	exitUsage       = 2 // usage error or missing input
	exitInterrupted = 130
)

// exitError carries an exit code with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{exitUsage, fmt.Errorf(format, a...)}
}

// env is what a subcommand talks to.
type env struct {
	// ctx is canceled by the first SIGINT or SIGTERM (see main): a
	// subcommand stops what it is doing, keeps what it has written
	// whole, and returns; Main then exits 130.
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	args0          []string // the whole command line, for provenance
}

// command is one subcommand.
type command struct {
	name, args, summary string
	run                 func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{"run", "[flags] [corpus ...]", "sweep corpora through the strategies (the default command)", runMain},
		{"report", "DIR", "rebuild summary, charts and page from DIR/results.csv", reportMain},
		{"show", "ID [-corpus F] [-run D]", "print a puzzle and its solution, solve it with every strategy, rank it", showMain},
		{"compare", "OLD NEW", "diff two runs per strategy: counters, time ratios; exit 1 past -threshold", compareMain},
		{"merge", "-o DIR IN ...", "merge shard runs into one run", mergeMain},
		{"solvers", "", "list the strategies with what their counters count", solversMain},
		{"help", "", "show this help", nil},
	}
}

// memoryLimit is the soft heap limit of the tool (GOMEMLIMIT overrides
// it): the sweep itself needs about 20 MB whatever the corpus, but the
// report's charts make a lot of short-lived garbage, and without a limit
// the heap doubles past its live size before the collector runs.
const memoryLimit = 100 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	// The first SIGINT or SIGTERM cancels ctx; the default handling is
	// restored at once, so a second one ends the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	os.Exit(Main(os.Args[1:], &env{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, args0: os.Args}))
}

// Main runs the command line args and returns the exit code. A
// subcommand interrupted by a signal (e.ctx canceled) exits 130.
func Main(args []string, e *env) int {
	if e.ctx == nil {
		e.ctx = context.Background()
	}
	name := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		for _, c := range commands() {
			if args[0] == c.name {
				name, args = c.name, args[1:]
				break
			}
		}
	}
	if name == "help" {
		usage(e.stdout)
		return exitOK
	}
	var err error
	for _, c := range commands() {
		if c.name == name {
			err = c.run(e, args)
		}
	}
	if e.ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		err = &exitError{exitInterrupted, errors.New("interrupted")}
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	code := exitWrong
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(e.stderr, "batch: %s\n", msg)
	}
	return code
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "batch benchmarks Sudoku solving strategies over whole puzzle corpora.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  batch %-8s %-24s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nRun `batch COMMAND -h` for the flags of a command.")
	fmt.Fprintln(w, "Exit codes: 0 ok; 1 finished but something is wrong (a wrong answer, an I/O error);")
	fmt.Fprintln(w, "2 usage error or missing input; 130 interrupted.")
}

// newFlagSet returns a FlagSet that reports errors as usage errors.
func newFlagSet(e *env, name, args, about, examples string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: batch %s %s\n\n%s\n\nFlags:\n", name, args, about)
		fs.PrintDefaults()
		if examples != "" {
			fmt.Fprintf(e.stderr, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// parseFlags parses args, flags and operands in any order (`batch
// corpus.txt -limit 5` works like `batch -limit 5 corpus.txt`; after
// `--` everything is an operand), and turns flag errors into usage
// errors (the flag package has already printed the message and usage).
// The operands are then fs.Args().
func parseFlags(fs *flag.FlagSet, args []string) error {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return &exitError{exitUsage, errors.New("")}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			operands = append(operands, rest...)
			break
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
	// Parse the operands alone so that fs.Args() returns them.
	return fs.Parse(append([]string{"--"}, operands...))
}
