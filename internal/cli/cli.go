// Package cli is the flag handling that every subcommand of batch shares,
// on top of the standard flag package: a FlagSet whose usage prints the
// command's summary, flags and examples (NewFlagSet), flags and operands
// in any order with a one-line error (Parse), the flags a user gave
// (Given), a repeatable string flag (Strings), and the command nearest a
// misspelt word (Nearest).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrUsage is returned by Parse for a flag error, after it has printed
// the one line that says it: the caller exits 2 without a message of its
// own.
var ErrUsage = errors.New("usage error (printed)")

// NewFlagSet returns the FlagSet of `batch name` that returns its errors
// (flag.ContinueOnError) and writes to out. Its Usage prints the whole
// usage of the command to the FlagSet's output: "Usage: batch name args",
// about, the flags when there are any, and the examples.
func NewFlagSet(out io.Writer, name, args, about, examples string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace("batch "+name+" "+args), about)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// Parse parses args, flags and operands in any order (`batch
// corpus.txt -limit 5` works like `batch -limit 5 corpus.txt`; after
// `--` everything is an operand). -h prints the usage (fs.Usage) and
// returns flag.ErrHelp; a flag error prints one line, "batch run: flag
// provided but not defined: -x; see batch run -h", and returns ErrUsage.
// The operands are then fs.Args().
func Parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package would print the error and the whole usage
	defer fs.SetOutput(out)
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			fs.SetOutput(out)
			if errors.Is(err, flag.ErrHelp) {
				fs.Usage()
				return err
			}
			fmt.Fprintf(out, "batch %s: %v; see batch %s -h\n", fs.Name(), err, fs.Name())
			return ErrUsage
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

// Given returns the names of the flags of fs that were set.
func Given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// Strings is a repeatable flag of strings, in the order given.
type Strings []string

func (l *Strings) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, " ")
}

// Set appends v.
func (l *Strings) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// Nearest returns the word of words nearest to w (lower-cased) by edit
// distance, when it is within `within` edits; "" when none is.
func Nearest(w string, words []string, within int) string {
	best, dist := "", within+1
	for _, c := range words {
		if d := editDistance(strings.ToLower(w), c); d < dist {
			best, dist = c, d
		}
	}
	return best
}

// editDistance returns the number of single-byte insertions, deletions,
// substitutions and transpositions of adjacent bytes that turn a into b
// (the optimal string alignment distance).
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
