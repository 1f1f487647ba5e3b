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
	"regexp"
	"strings"
	"unicode/utf8"
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
		fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace("batch "+name+" "+args), Reflow(about, HelpWidth))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(w, "\nFlags:\n")
			printFlags(w, fs)
		}
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// HelpWidth is the width in columns that the flags' usages are folded to
// (a terminal's default; the help's other text is written to fit it).
const HelpWidth = 80

// usageIndent is the column where flag.PrintDefaults starts a usage: a
// tab after four spaces, or after a flag of one letter.
const usageIndent = 8

// printFlags prints the flags of fs as fs.PrintDefaults does, each
// usage (with its default) folded at spaces to fit HelpWidth columns;
// a word longer than a line stays whole.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	var b strings.Builder
	out := fs.Output()
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(out)
	var head string
	var words []string
	flush := func() {
		if head == "" {
			return
		}
		lines := fold(words, HelpWidth-usageIndent)
		io.WriteString(w, head)
		for i, l := range lines {
			if i == 0 && strings.HasSuffix(head, "\t") {
				io.WriteString(w, l)
				continue
			}
			io.WriteString(w, "\n    \t"+l)
		}
		io.WriteString(w, "\n")
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "    \t"); ok {
			words = append(words, strings.Fields(rest)...)
			continue
		}
		flush()
		name, usage, short := strings.Cut(line, "\t")
		head, words = name, strings.Fields(usage)
		if short {
			head += "\t"
		}
	}
	flush()
}

// Reflow fills the paragraphs of text again to width columns, so that a
// help text fits a terminal whatever its lines' lengths in the source. A
// blank line ends a paragraph, and so does a line indented less than the
// one before. An indented line that starts an item of a list ("  - ",
// or a word then two spaces or more: "  counters  its calls") starts one
// whose continuation lines hang under the item's text; other lines
// continue the paragraph or item before them. A word longer than a line
// stays whole.
func Reflow(text string, width int) string {
	var b strings.Builder
	var prefix string // the paragraph's first line's start: its indent, or its item's marker
	hang := -1        // the columns of its continuation lines' indent; -1: no paragraph
	var words []string
	flush := func() {
		if hang < 0 {
			return
		}
		for i, l := range fold(words, width-hang) {
			if i == 0 {
				b.WriteString(prefix)
			} else {
				b.WriteString(strings.Repeat(" ", hang))
			}
			b.WriteString(l + "\n")
		}
		hang, words = -1, nil
	}
	for _, line := range strings.Split(text, "\n") {
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		switch {
		case strings.TrimSpace(body) == "":
			flush()
			b.WriteString("\n")
			continue
		case indent > 0 && strings.HasPrefix(body, "- "):
			flush()
			prefix, hang, words = line[:indent+2], indent+2, strings.Fields(body[2:])
			continue
		case indent > 0:
			if m := item.FindString(body); m != "" {
				flush()
				prefix, hang, words = line[:indent+len(m)], indent+len(m), strings.Fields(body[len(m):])
				continue
			}
		}
		if hang < 0 || (indent == 0) != (hang == 0) {
			flush()
			prefix, hang = line[:indent], indent
		}
		words = append(words, strings.Fields(body)...)
	}
	flush()
	return strings.TrimSuffix(b.String(), "\n")
}

// item is the start of an item of a list of words: "counters  ".
var item = regexp.MustCompile(`^[^ ]+ {2,}`)

// fold joins words into lines of at most width runes.
func fold(words []string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, wd := range words {
		if cur.Len() > 0 && utf8.RuneCountInString(cur.String())+1+utf8.RuneCountInString(wd) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(wd)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
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
