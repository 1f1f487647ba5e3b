package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// columns is the width of line on a terminal: a tab moves to the next
// multiple of 8 (flag.PrintDefaults indents the usages with one).
func columns(line string) int {
	n := 0
	for _, r := range line {
		if r == '\t' {
			n += 8 - n%8
		} else {
			n += 1
		}
	}
	return n
}

// helpColumns is the width every help text fits: a terminal's default.
const helpColumns = 80

// TestHelpFitsEightyColumns: every help text (batch -h, batch help,
// batch help X, batch X -h, the flag lists among them) fits in 80
// columns, line by line.
func TestHelpFitsEightyColumns(t *testing.T) {
	type page struct {
		name string
		args []string
	}
	pages := []page{{"batch -h", []string{"-h"}}, {"batch help", []string{"help"}}}
	for _, c := range commands() {
		pages = append(pages, page{"batch help " + c.name, []string{"help", c.name}},
			page{"batch " + c.name + " -h", []string{c.name, "-h"}})
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Main(p.args, &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}); code != 0 {
				t.Fatalf("%s: exit %d\n%s", p.name, code, stderr.String())
			}
			text := stdout.String() + stderr.String()
			if !strings.Contains(text, "Usage") {
				t.Fatalf("%s printed no usage:\n%s", p.name, text)
			}
			for i, line := range strings.Split(text, "\n") {
				if n := columns(line); n > helpColumns {
					t.Errorf("%s, line %d: %d columns, want at most %d:\n%s", p.name, i+1, n, helpColumns, line)
				}
			}
		})
	}
}
