package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The doc test's view of a command line: the words as the shell splits
// them, the batch invocations among them, and the rewrites that narrow
// an example to a small corpus (doc_test.go says which).

// shellWord is one word of a command line as the shell splits it: raw as
// written (quotes kept), val as the command receives it; op marks an
// operator (| || && ; & < > >>).
type shellWord struct {
	raw, val string
	op       bool
}

// word is an unquoted word that needs no quoting.
func word(s string) shellWord { return shellWord{raw: s, val: s} }

// splitShell splits line as a POSIX shell would, well enough for the
// examples of the docs: quotes, $(...), operators, and a # comment at the
// start of a word, which ends the line.
func splitShell(line string) []shellWord {
	var words []shellWord
	var raw, val strings.Builder
	in := false
	flush := func() {
		if in {
			words = append(words, shellWord{raw: raw.String(), val: val.String()})
			raw.Reset()
			val.Reset()
			in = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !in:
			return words
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				end = len(line) - i - 1
			}
			raw.WriteString(line[i:min(i+end+2, len(line))])
			val.WriteString(line[i+1 : i+1+end])
			i += end + 1
			in = true
		case c == '"':
			raw.WriteByte(c)
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					raw.WriteByte(line[i])
					i++
				}
				raw.WriteByte(line[i])
				val.WriteByte(line[i])
			}
			if i < len(line) {
				raw.WriteByte('"')
			}
			in = true
		case c == '$' && i+1 < len(line) && line[i+1] == '(':
			depth, j := 0, i
			for ; j < len(line); j++ {
				if line[j] == '(' {
					depth++
				} else if line[j] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			j = min(j, len(line)-1)
			raw.WriteString(line[i : j+1])
			val.WriteString(line[i : j+1])
			i = j
			in = true
		case strings.IndexByte("|&;<>", c) >= 0:
			flush()
			op := string(c)
			if i+1 < len(line) && (line[i:i+2] == "||" || line[i:i+2] == "&&" || line[i:i+2] == ">>") {
				op = line[i : i+2]
				i++
			}
			words = append(words, shellWord{raw: op, val: op, op: true})
		default:
			raw.WriteByte(c)
			val.WriteByte(c)
			in = true
		}
	}
	flush()
	return words
}

// joinShell is the command line of words.
func joinShell(words []shellWord) string {
	raws := make([]string, len(words))
	for i, w := range words {
		raws[i] = w.raw
	}
	return strings.Join(raws, " ")
}

// invocation is one batch command in a line: words[at] is the program
// (batch or ./batch), its arguments run to end (an operator, GNU
// parallel's :::, or the end of the line).
type invocation struct {
	at, end int
	sub     string // the subcommand; run when none is named
	subAt   int    // the index of the subcommand's word, or at
}

// commandWords returns the index of each command's program in words:
// the line's first word and the first after | || && ; &, past VAR=value
// assignments.
func commandWords(words []shellWord) []int {
	var out []int
	start := true
	for i, w := range words {
		switch {
		case w.op:
			start = w.val != "<" && w.val != ">" && w.val != ">>"
			if !start { // a redirection's file is no command
				continue
			}
		case start && strings.Contains(w.val, "=") && !strings.HasPrefix(w.val, "-"):
		case start:
			out = append(out, i)
			start = false
		}
	}
	return out
}

// runners are programs that run the command they are given (GNU
// parallel runs ./batch once per input).
var runners = map[string]bool{"parallel": true, "xargs": true, "env": true, "nohup": true, "time": true, "timeout": true}

func isBatch(w shellWord) bool { return !w.op && (w.val == "batch" || w.val == "./batch") }

// invocations finds the batch commands of words: batch or ./batch as a
// command's program, or as the command a runner runs.
func invocations(words []shellWord) []invocation {
	var out []invocation
	for _, c := range commandWords(words) {
		at := -1
		if isBatch(words[c]) {
			at = c
		} else if runners[words[c].val] {
			for i := c + 1; i < len(words) && !words[i].op; i++ {
				if isBatch(words[i]) {
					at = i
					break
				}
			}
		}
		if at < 0 {
			continue
		}
		inv := invocation{at: at, end: at + 1, sub: "run", subAt: at}
		for inv.end < len(words) && !words[inv.end].op && words[inv.end].val != ":::" {
			inv.end++
		}
		if at+1 < inv.end {
			if _, ok := lookupCommand(words[at+1].val); ok {
				inv.sub, inv.subAt = words[at+1].val, at+1
			}
		}
		out = append(out, inv)
	}
	return out
}

// docFlag is what the doc test knows of a subcommand's flag.
type docFlag struct{ takesValue bool }

// helpFlags reads the flags of a subcommand from its help text: a flag
// line is "  -name" (a boolean) or "  -name value".
var helpFlagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9-]+)( \S+)?$`)

func helpFlags(help string) map[string]docFlag {
	flags := map[string]docFlag{}
	for _, m := range helpFlagLine.FindAllStringSubmatch(help, -1) {
		flags[m[1]] = docFlag{takesValue: m[2] != ""}
	}
	return flags
}

// docArg is one argument of an invocation: a flag with its value (name
// set) or a positional (name empty); idx are the words it spans.
type docArg struct {
	name, value string
	hasValue    bool
	idx         []int
}

// parseArgs splits the arguments of inv (after its subcommand) into flags
// and positionals, as the subcommand's FlagSet would (a flag that takes a
// value takes the next word unless written -name=value).
func parseArgs(words []shellWord, inv invocation, flags map[string]docFlag) []docArg {
	var args []docArg
	for i := inv.subAt + 1; i < inv.end; i++ {
		v := words[i].val
		if len(v) < 2 || v[0] != '-' {
			args = append(args, docArg{value: v, idx: []int{i}})
			continue
		}
		name, value, eq := strings.Cut(strings.TrimLeft(v, "-"), "=")
		a := docArg{name: name, value: value, hasValue: eq, idx: []int{i}}
		if f := flags[name]; f.takesValue && !eq && i+1 < inv.end {
			i++
			a.value, a.hasValue = words[i].val, true
			a.idx = append(a.idx, i)
		}
		args = append(args, a)
	}
	return args
}

// flagArg returns the flag name of args, if given.
func flagArg(args []docArg, name string) (docArg, bool) {
	for _, a := range args {
		if a.name == name {
			return a, true
		}
	}
	return docArg{}, false
}

// positionals returns the positional arguments of args.
func positionals(args []docArg) []string {
	var out []string
	for _, a := range args {
		if a.name == "" {
			out = append(out, a.value)
		}
	}
	return out
}

// narrowIDs are the puzzles every sweep of an example is narrowed to:
// six puzzles each strategy solves in milliseconds (backtrack in under
// two million calls), two in each shard of 2, 3 and 4.
const narrowIDs = "3,4,9,10,18,20"

// limitCap is a flag lowered to at most value (added when absent, if add).
type limitCap struct {
	name, value string
	add         bool
}

// docCaps are the flags each subcommand's examples are narrowed by.
var docCaps = map[string][]limitCap{
	"show":     {{"timeout", "200ms", true}},
	"variants": {{"n", "3", true}, {"seeds", "2", true}, {"sample", "4", true}, {"timeout", "100ms", true}},
	"report":   {{"variants", "2", false}, {"variants-seeds", "2", false}},
	"run":      {{"variants", "2", false}, {"variants-seeds", "2", false}},
}

// narrow rewrites the batch invocations of words as doc_test.go says:
// a sweep (not a -resume) over narrowIDs instead of its -limit or
// -range, and the limits and counts of docCaps. It returns the new
// words and what it changed, for the log.
func narrow(words []shellWord, flagsOf func(sub string) map[string]docFlag) ([]shellWord, []string) {
	var notes []string
	invs := invocations(words)
	for k := len(invs) - 1; k >= 0; k-- { // from the end: indices before stay valid
		inv := invs[k]
		args := parseArgs(words, inv, flagsOf(inv.sub))
		drop := map[int]bool{}
		var add []shellWord
		if _, resume := flagArg(args, "resume"); inv.sub == "run" && !resume {
			for _, name := range []string{"limit", "range"} {
				if a, ok := flagArg(args, name); ok {
					for _, i := range a.idx {
						drop[i] = true
					}
					notes = append(notes, "-"+name+" "+a.value+" dropped")
				}
			}
			if _, ok := flagArg(args, "ids"); !ok {
				add = append(add, word("-ids"), word(narrowIDs))
				notes = append(notes, "-ids "+narrowIDs+" added")
			}
		}
		for _, c := range docCaps[inv.sub] {
			a, ok := flagArg(args, c.name)
			switch {
			case ok && above(a.value, c.value):
				last := a.idx[len(a.idx)-1]
				if len(a.idx) == 1 { // -name=value
					words[last] = word("-" + c.name + "=" + c.value)
				} else {
					words[last] = word(c.value)
				}
				notes = append(notes, "-"+c.name+" "+a.value+" lowered to "+c.value)
			case !ok && c.add:
				add = append(add, word("-"+c.name), word(c.value))
				notes = append(notes, "-"+c.name+" "+c.value+" added")
			}
		}
		var out []shellWord
		out = append(out, words[:inv.subAt+1]...)
		if inv.sub == "run" { // flags before the corpora
			out = append(out, add...)
		}
		for i := inv.subAt + 1; i < inv.end; i++ {
			if !drop[i] {
				out = append(out, words[i])
			}
		}
		if inv.sub != "run" { // after the ID of show and variants
			out = append(out, add...)
		}
		words = append(out, words[inv.end:]...)
	}
	return words, notes
}

// above reports whether the flag value v is over the cap c (a duration
// or a count; 0 means no limit, which is over any cap).
func above(v, c string) bool {
	if d, err := time.ParseDuration(v); err == nil {
		cd, _ := time.ParseDuration(c)
		return d == 0 || d > cd
	}
	n, err := strconv.Atoi(v)
	cn, _ := strconv.Atoi(c)
	return err != nil || n == 0 || n > cn
}

// placeholderWord finds the placeholders of a word (DIR, K, NIGHT: words
// in capitals), leaving out shell variables ($SLURM_ARRAY_TASK_ID).
var (
	shellVar        = regexp.MustCompile(`\$\{?[A-Za-z_][A-Za-z0-9_]*\}?`)
	placeholderWord = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([A-Z][A-Z_]*)(?:$|[^A-Za-z0-9_])`)
)

// standIns are what the placeholders of the docs stand for in the
// sandbox (doc_sandbox_test.go makes each path one).
var standIns = map[string]string{
	"DIR":      "results/nightly",
	"OLD":      "results/20261120-230000",
	"NEW":      "results/latest",
	"NIGHT":    "20261125-230501",
	"STRATEGY": "dlx",
	"ARRAY":    "1234",
	"K":        "2",
	"N":        "2",
	"M":        "2",
	"ID":       "0",
}

// substitute replaces the placeholders of words by their stand-ins, and
// returns the placeholders it has none for.
func substitute(words []shellWord) (unknown []string) {
	for i, w := range words {
		if w.op || strings.ContainsAny(w.raw, `'"`) {
			continue
		}
		v := w.val
		for _, m := range placeholderWord.FindAllStringSubmatchIndex(shellVar.ReplaceAllString(v, ""), -1) {
			name := shellVar.ReplaceAllString(v, "")[m[2]:m[3]]
			if _, ok := standIns[name]; !ok && !slices.Contains(unknown, name) {
				unknown = append(unknown, name)
			}
		}
		if len(unknown) > 0 {
			continue
		}
		// Replace whole words only, longest names first (ARRAY before A).
		names := make([]string, 0, len(standIns))
		for n := range standIns {
			names = append(names, n)
		}
		slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
		for _, n := range names {
			re := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + n + `($|[^A-Za-z0-9_])`)
			for re.MatchString(v) {
				v = re.ReplaceAllString(v, "${1}"+standIns[n]+"${2}")
			}
		}
		if v != w.val {
			words[i] = word(v)
		}
	}
	return unknown
}
