package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWrap: a line longer than the width is folded at spaces, its
// continuation lines indented two columns past it; a word longer than
// the width stays whole; lines within the width are left as they are.
func TestWrap(t *testing.T) {
	in := "short line\n  note: one two three four five six seven eight nine ten\nunbreakable-" + strings.Repeat("x", 30) + " y\n"
	got := Wrap(in, 24)
	want := "short line\n" +
		"  note: one two three\n" +
		"    four five six seven\n" +
		"    eight nine ten\n" +
		"unbreakable-" + strings.Repeat("x", 30) + "\n" +
		"  y\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Wrap(in, 0) != in {
		t.Errorf("at the default width a short text changed: %q", Wrap(in, 0))
	}
}

// TestTermTableBlocks: a table too wide is split into blocks of its
// value columns, each under the key columns, none wider than the width;
// one that fits is whole.
func TestTermTableBlocks(t *testing.T) {
	rows := [][]string{{"strategy", "a", "b", "c", "d"}, {"norvig", "1.00ms", "2.00ms", "3.00ms", "4.00ms"}, {"dlx", "5", "6", "7", "8"}}
	tab := termTable{rows: rows, left: 1, keys: 1}
	if got := tab.render(80); got != ""+
		"  strategy       a       b       c       d\n"+
		"  norvig    1.00ms  2.00ms  3.00ms  4.00ms\n"+
		"  dlx            5       6       7       8\n" {
		t.Errorf("whole:\n%s", got)
	}
	got := tab.render(28)
	want := "" +
		"  strategy       a       b\n" +
		"  norvig    1.00ms  2.00ms\n" +
		"  dlx            5       6\n" +
		"\n" +
		"  strategy       c       d\n" +
		"  norvig    3.00ms  4.00ms\n" +
		"  dlx            7       8\n"
	if got != want {
		t.Errorf("at 28 columns got\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(l) > 28 {
			t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
}

// TestWrapCommand: a command too long for the width is folded between
// its words with a backslash, never inside single quotes.
func TestWrapCommand(t *testing.T) {
	got := wrapCommand("  ", "batch show 1 -corpus 'a b c d' -transform R012", 24)
	want := "  batch show 1 -corpus \\\n    'a b c d' \\\n    -transform R012\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := wrapCommand("  ", "batch show 1", 80); got != "  batch show 1\n" {
		t.Errorf("short: %q", got)
	}
}

// TestTermTableKeepsGroupsWhole: a table split into blocks breaks before
// a group of columns rather than inside it, so that each group (a value,
// its rank, its percentile) stays under its value's header; before, batch
// show's time went into the first block and its percentile into the
// second, under no header saying whose. A group wider than a block is
// still split.
func TestTermTableKeepsGroupsWhole(t *testing.T) {
	rows := [][]string{
		{"strategy", "calls", "rank", "percentile", "time", "rank", "percentile"},
		{"norvig", "373", "1/3000", "p100", "154µs", "1/3000", "p100"},
	}
	tt := termTable{rows: rows, left: 1, keys: 1, groups: []int{1, 4}}
	got := tt.render(50)
	want := "  strategy  calls    rank  percentile\n  norvig      373  1/3000        p100\n\n" +
		"  strategy   time    rank  percentile\n  norvig    154µs  1/3000        p100\n"
	if got != want {
		t.Errorf("in 50 columns:\n%s\nwant:\n%s", got, want)
	}
	if got := tt.render(200); strings.Count(got, "\n") != 2 {
		t.Errorf("in 200 columns, not whole:\n%s", got)
	}
	narrow := tt.render(30)
	for _, l := range strings.Split(strings.TrimSuffix(narrow, "\n"), "\n") {
		if columns(l) > 30 {
			t.Errorf("in 30 columns a line of %d: %q\n%s", columns(l), l, narrow)
		}
	}
}
