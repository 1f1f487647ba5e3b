package cli

import (
	"bytes"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestParseFlagsAndOperandsInAnyOrder: flags after operands are flags,
// after -- everything is an operand, and Given names the flags set.
func TestParseFlagsAndOperandsInAnyOrder(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		limit    int
		operands []string
	}{
		{[]string{"-limit", "5", "a.txt"}, 5, []string{"a.txt"}},
		{[]string{"a.txt", "-limit", "5", "b.txt"}, 5, []string{"a.txt", "b.txt"}},
		{[]string{"a.txt", "--", "-limit", "5"}, 0, []string{"a.txt", "-limit", "5"}},
		{nil, 0, nil},
	} {
		fs := NewFlagSet(&bytes.Buffer{}, "run", "", "", "")
		limit := fs.Int("limit", 0, "")
		if err := Parse(fs, tc.args); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if *limit != tc.limit || !slices.Equal(fs.Args(), tc.operands) {
			t.Errorf("%q: -limit %d, operands %q; want %d, %q", tc.args, *limit, fs.Args(), tc.limit, tc.operands)
		}
		if given := Given(fs); given["limit"] != (tc.limit != 0) {
			t.Errorf("%q: Given = %v", tc.args, given)
		}
	}
}

// TestParseErrorIsOneLine: a flag error prints one line naming the
// command and how to get its help, and returns ErrUsage; -h prints the
// whole usage, with the examples, and returns flag.ErrHelp.
func TestParseErrorIsOneLine(t *testing.T) {
	var out bytes.Buffer
	fs := NewFlagSet(&out, "run", "[corpus ...]", "Sweep the corpora.", "  batch run x.txt\n")
	fs.Int("limit", 0, "only the first `n` puzzles")
	if err := Parse(fs, []string{"x.txt", "-nope"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("an unknown flag: %v, want ErrUsage", err)
	}
	if want := "batch run: flag provided but not defined: -nope; see batch run -h\n"; out.String() != want {
		t.Errorf("the error printed:\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	if err := Parse(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: batch run [corpus ...]\n\nSweep the corpora.\n", "-limit n", "Examples:\n  batch run x.txt\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h does not print %q:\n%s", want, out.String())
		}
	}
}

// TestNearest: a word within the edits given finds its command, a
// transposition counting as one edit; a word too far finds none.
func TestNearest(t *testing.T) {
	words := []string{"run", "report", "show", "compare", "trend", "variants"}
	for w, want := range map[string]string{"reprot": "report", "REPORT": "report", "shwo": "show", "trnd": "trend", "varients": "variants", "zzzzzz": ""} {
		if got := Nearest(w, words, 2); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", w, got, want)
		}
	}
	if d := editDistance("ab", "ba"); d != 1 {
		t.Errorf("a transposition: distance %d, want 1", d)
	}
}

// TestStringsRepeats: each -x adds one value, in order.
func TestStringsRepeats(t *testing.T) {
	fs := NewFlagSet(&bytes.Buffer{}, "x", "", "", "")
	var l Strings
	fs.Var(&l, "f", "")
	if err := Parse(fs, []string{"-f", "a=1", "-f", "b=2"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l, Strings{"a=1", "b=2"}) || l.String() != "a=1 b=2" {
		t.Errorf("got %q", l)
	}
}

// TestReflowFitsWidth: paragraphs are filled again to the width, a list's
// items keep their markers with their continuations hung under their
// text, a blank line stays, and a word longer than a line stays whole.
func TestReflowFitsWidth(t *testing.T) {
	text := "One two three four\nfive six.\n  - an item that goes\n    on and on\n  time  the gate of\n        nights\nAfter.\n\nLast " +
		strings.Repeat("x", 30)
	want := "One two three four\nfive six.\n  - an item that\n    goes on and on\n  time  the gate\n        of nights\nAfter.\n\nLast\n" +
		strings.Repeat("x", 30)
	if got := Reflow(text, 18); got != want {
		t.Errorf("Reflow:\n%s\nwant\n%s", got, want)
	}
}

// TestFlagUsagesFolded: the flags' usages, with their defaults, are
// folded to HelpWidth columns under their tab, as flag.PrintDefaults
// indents them.
func TestFlagUsagesFolded(t *testing.T) {
	var out bytes.Buffer
	fs := NewFlagSet(&out, "run", "", "Sweep.", "")
	fs.String("solvers", "a,b", "comma-separated `strategies`"+strings.Repeat(" in output order", 8))
	fs.Bool("x", false, "a short flag whose usage is long"+strings.Repeat(" and long", 10))
	fs.Usage()
	lines := strings.Split(out.String(), "\n")
	for _, l := range lines {
		if n := len(strings.ReplaceAll(l, "    \t", "        ")); n > HelpWidth {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	for _, want := range []string{"  -solvers strategies\n    \tcomma-separated strategies in output order", `(default "a,b")`, "  -x\ta short flag"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the flags do not print %q:\n%s", want, out.String())
		}
	}
}

// TestCommandsListAndUnknownWords: the overview puts a summary beside
// its command when both fit and under it otherwise; a word that is not
// a command is named with the nearest command within two edits.
func TestCommandsListAndUnknownWords(t *testing.T) {
	var b bytes.Buffer
	WriteCommands(&b, []Command{{"solvers", "", "list the strategies"}, {"report", "[DIR]", strings.Repeat("rebuild ", 9)}})
	want := "  batch solvers  list the strategies\n  batch report [DIR]\n    \t" + strings.Repeat("rebuild ", 9) + "\n"
	if b.String() != want {
		t.Errorf("the list:\n%q\nwant\n%q", b.String(), want)
	}
	for _, c := range []struct {
		word string
		bare bool
	}{{"reprot", true}, {"nope.txt", false}, {"./x", false}, {"", false}} {
		if IsBareWord(c.word) != c.bare {
			t.Errorf("IsBareWord(%q) = %v", c.word, !c.bare)
		}
	}
	if err := UnknownCommand("reprot", []string{"run", "report"}); !strings.Contains(err.Error(), `unknown command "reprot"; did you mean report?`) {
		t.Errorf("UnknownCommand: %v", err)
	}
	if err := UnknownCommand("zzz", []string{"run"}); !strings.Contains(err.Error(), "batch -h lists the commands") {
		t.Errorf("UnknownCommand far from any: %v", err)
	}
}
