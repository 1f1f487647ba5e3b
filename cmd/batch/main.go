// Command batch benchmarks Sudoku solving strategies over whole puzzle
// corpora. See `batch help` and the README. Its subcommands, a file each:
//
//	run       sweep corpora through the strategies, the default command (run.go, sweep.go)
//	report    rebuild a run's summary, charts and page from its rows
//	show      print a puzzle and its solution, solve it with the strategies, rank it in a run
//	compare   diff two runs per strategy; exit 1 past -threshold
//	trend     the history of nightly runs, its alarms and their acknowledgements
//	merge     merge shard runs into one run
//	prune     remove the rows of all but the newest finished runs, keep their summaries
//	variants  a puzzle's isomorphs and seeds: hard, unlucky or typical per strategy
//	solvers   list the strategies and what their counters count
//	version   print the revision of this build (main.go)
//	help      the commands, or the usage and flags of one (main.go)
//
// This package parses the flags, calls the packages that do the work
// (sweep, show, variants, report, report/chart, history, rundir) and
// prints what they return: main.go holds the table of subcommands, help,
// version and the exit codes, ext.go the flags of external solvers.
//
// The command is named by the first argument:
//   - a command name (above) is that command, and the other arguments
//     are its;
//   - -h, -help or --help prints the commands and the flags of run;
//   - any other flag, or no argument, is run: `batch -limit 5 FILE`;
//   - an argument that names an existing file or directory, that holds a
//     `/` or a `.` (`nope.txt`, `./puzzles`), or that is `-` (standard
//     input), is a corpus of run: `batch puzzles` sweeps the file
//     puzzles when there is one;
//   - any other word (`reprot`: no file of that name here, and it cannot
//     be a path of a corpus with an extension) is an unknown command:
//     exit 2, with the command nearest by edit distance when it is
//     within two edits ("did you mean report?"). `batch run WORD` sweeps
//     a file named WORD whatever it is.
//
// Flag errors print one line, `batch run: flag provided but not defined:
// -x; see batch run -h`, and exit 2; -h prints the whole usage of a
// command (on stderr, as the flag package does; `batch help CMD` prints it
// on stdout) and exits 0.
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

	"sudokubatch/history"
	"sudokubatch/internal/cli"
	"sudokubatch/internal/progress"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers/external"
	"sudokubatch/sweep"
)

// Exit codes (docs/DESIGN.md).
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

// inputErr is err, an error of the user's input, as a usage error (exit
// 2); the context's error when it was canceled.
func inputErr(e *env, err error) error {
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	return &exitError{exitUsage, err}
}

// env is what a subcommand talks to.
type env struct {
	// ctx is canceled by the first SIGINT, SIGTERM or SIGHUP (see main): a
	// subcommand stops what it is doing, keeps what it has written
	// whole, and returns; Main then exits 130.
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	args0          []string // the whole command line, for provenance
	// cols returns stdout's width in columns when it is a terminal, 0
	// when it is not (or nil: the same); asked at each output, the
	// terminal may have been resized.
	cols func() int
}

// width is the width in columns that the human output on stdout is
// fitted to: the terminal's (or $COLUMNS), else report.DefaultTextWidth.
func (e *env) width() int {
	if e.cols != nil {
		if c := e.cols(); c > 0 {
			return c
		}
	}
	return report.DefaultTextWidth
}

// notef prints a message on stderr: on a terminal folded to its width,
// in a file or a pipe (a log) one line per message, whole for grep.
func (e *env) notef(format string, a ...any) { notefOn(e.stderr, format, a...) }

// notefOn is notef on w.
func notefOn(w io.Writer, format string, a ...any) {
	if cols := progress.Columns(w); cols > 0 {
		fprintf(w, cols, format, a...)
		return
	}
	fmt.Fprintf(w, format, a...)
}

// fprintf prints a line (or lines) of human output on w, each folded to
// width columns (report.Wrap).
func fprintf(w io.Writer, width int, format string, a ...any) {
	io.WriteString(w, report.Wrap(fmt.Sprintf(format, a...), width))
}

// command is one subcommand.
type command struct {
	name, args, summary string
	run                 func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{"run", "[flags] [corpus ...]", "sweep corpora through the strategies (the default command)", runMain},
		{"report", "[DIR]", "rebuild summary, charts and page from DIR/results.csv (default: latest)", reportMain},
		{"show", "ID [-corpus F] [-run D]", "print a puzzle and its solution, solve it with the strategies, rank it", showMain},
		{"compare", "OLD [NEW]", "diff two runs per strategy (NEW: results/latest); exit 1 past -threshold", compareMain},
		{"trend", "[-root DIR] [RUN ...]", "the history of nightly runs: series by signature, each night's figures", trendMain},
		{"merge", "-o DIR IN ...", "merge shard runs into one run", mergeMain},
		{"prune", "[-keep N] [ROOT]", "remove the rows of all but the newest N finished runs, keep summaries", pruneMain},
		{"variants", "ID [-n K] [-seeds M]", "a puzzle's isomorphs (and seeds): hard, unlucky or typical per strategy", variantsMain},
		{"solvers", "", "list the strategies with what their counters count", solversMain},
		{"version", "", "print the revision of this build", versionMain},
		{"help", "[COMMAND]", "show this help, or the usage and flags of COMMAND", helpMain},
	}
}

// lookupCommand returns the command named name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// interruptSignals end a subcommand cleanly (env.ctx): it keeps what it
// has written whole and exits 130.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// memoryLimit is the soft heap limit of the tool (GOMEMLIMIT overrides
// it): the sweep itself needs about 20 MB whatever the corpus, but the
// report's charts make a lot of short-lived garbage, and without a limit
// the heap doubles past its live size before the collector runs.
const memoryLimit = 100 << 20

func main() {
	if code, played := external.Role(); played {
		os.Exit(code) // the guard of an external solver, or the echo peer (solvers/external)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	// The first SIGINT, SIGTERM or SIGHUP cancels ctx; the default
	// handling is restored at once, so a second one ends the process.
	// SIGHUP (the terminal closed, an ssh session dropped) is a SIGTERM:
	// its default would kill the process and leave run.json running.
	ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
	go func() {
		<-ctx.Done()
		stop()
	}()
	// A reader of stdout or stderr that went away (a pipe to head, a
	// logger that died) must not end the process between its rows and
	// its report, nor before the rows are gzipped: with SIGPIPE notified,
	// such a write returns EPIPE, which the human output ignores, and the
	// work goes on to its end. (Notify, not Ignore: an ignored signal
	// stays ignored in the external solvers the sweep starts.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	os.Exit(Main(os.Args[1:], &env{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, args0: os.Args,
		cols: progress.StdoutColumns}))
}

// Main runs the command line args and returns the exit code. A
// subcommand interrupted by a signal (e.ctx canceled) exits 130, with its
// own message when its error's code is 130 (exitCode), else
// "interrupted".
func Main(args []string, e *env) int {
	if e.ctx == nil {
		e.ctx = context.Background()
	}
	err := dispatch(e, args)
	if e.ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		if err == nil || exitCode(err) != exitInterrupted {
			err = &exitError{exitInterrupted, errors.New("interrupted")}
		}
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if msg := err.Error(); msg != "" {
		e.notef("batch: %s\n", msg)
	}
	return exitCode(err)
}

// exitCode is the exit code of err: an exitError's own; 2 for the typed
// errors of input the packages cannot use (publish.InputError,
// sweep.UsageError, history.UsageError), 130 for an analysis
// interrupted (publish.InterruptedError); else 1.
func exitCode(err error) int {
	if ee, ok := errors.AsType[*exitError](err); ok {
		return ee.code
	}
	if _, ok := errors.AsType[*publish.InterruptedError](err); ok {
		return exitInterrupted
	}
	_, input := errors.AsType[*publish.InputError](err)
	_, sweepUsage := errors.AsType[*sweep.UsageError](err)
	_, trendUsage := errors.AsType[*history.UsageError](err)
	if input || sweepUsage || trendUsage {
		return exitUsage
	}
	return exitWrong
}

// dispatch runs the command that args name (see the package doc).
func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		return runMain(e, nil)
	}
	first := args[0]
	switch first {
	case "-h", "-help", "--help":
		usage(e.stdout)
		fmt.Fprintln(e.stdout)
		return runMain(e.withStderr(e.stdout), []string{"-h"})
	}
	if c, ok := lookupCommand(first); ok {
		return c.run(e, args[1:])
	}
	if !strings.HasPrefix(first, "-") && cli.IsBareWord(first) {
		if _, err := os.Lstat(first); err != nil {
			return unknownCommand(first)
		}
	}
	return runMain(e, args)
}

// withStderr returns a copy of e that writes its errors and usage to w.
func (e *env) withStderr(w io.Writer) *env {
	c := *e
	c.stderr = w
	return &c
}

// unknownCommand is the usage error for a first argument that is neither
// a command nor a file (cli.UnknownCommand).
func unknownCommand(word string) error {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return &exitError{exitUsage, cli.UnknownCommand(word, names)}
}

// helpMain is `batch help [COMMAND]`: the commands, or one command's
// usage and flags, on stdout.
func helpMain(e *env, args []string) error {
	switch {
	case len(args) == 0 || len(args) == 1 && (args[0] == "help" || strings.HasPrefix(args[0], "-")):
		usage(e.stdout)
		return nil
	case len(args) > 1:
		return usageErr("help takes one command name; got %d arguments (see batch help)", len(args))
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		return unknownCommand(args[0])
	}
	return c.run(e.withStderr(e.stdout), []string{"-h"})
}

// versionMain is `batch version`: the revision of this build.
func versionMain(e *env, args []string) error {
	fs := newFlagSet(e, "version", "",
		"Print the revision of this build of batch: the VCS commit it was built from (+dirty when the\n"+
			"tree had changes; \"unknown\" when the build recorded none), the Go version and the platform.\n"+
			"run.json records the same revision for every segment of a run.", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("version takes no argument; see batch version -h")
	}
	m := rundir.ThisMachine()
	_, err := fmt.Fprintf(e.stdout, "batch %s (%s %s/%s)\n", m.Version, m.GoVersion, m.GOOS, m.GOARCH)
	return err
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "batch benchmarks Sudoku solving strategies over whole puzzle corpora.")
	fmt.Fprintln(w, "\nUsage:")
	var cmds []cli.Command
	for _, c := range commands() {
		cmds = append(cmds, cli.Command{Name: c.name, Args: c.args, Summary: c.summary})
	}
	cli.WriteCommands(w, cmds)
	fmt.Fprintln(w, "\nWith no command, batch runs `batch run`: `batch FILE` sweeps FILE.")
	fmt.Fprintln(w, "Run `batch help COMMAND` (or `batch COMMAND -h`) for the usage and flags of a")
	fmt.Fprintln(w, "command. Exit codes: 0 ok; 1 finished but something is wrong (a wrong answer,")
	fmt.Fprintln(w, "an I/O error); 2 usage error or missing input; 130 interrupted.")
}

// newFlagSet returns the FlagSet of a subcommand, writing to e.stderr
// (cli.NewFlagSet: its usage is about, the flags and the examples).
func newFlagSet(e *env, name, args, about, examples string) *flag.FlagSet {
	return cli.NewFlagSet(e.stderr, name, args, about, examples)
}

// parseFlags parses args, flags and operands in any order (cli.Parse): a
// flag error has printed its line, and is a usage error with no message
// of its own.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := cli.Parse(fs, args)
	if errors.Is(err, cli.ErrUsage) {
		return &exitError{exitUsage, errors.New("")}
	}
	return err
}
