package report

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Text for a terminal is fitted to a width here, one way for every
// command: a table too wide for it is split into blocks of columns, each
// under the table's leading (key) columns, one block under the other; a
// line of prose longer than the width is folded at spaces, its
// continuation lines indented two columns past its own indentation. The
// width is the terminal's columns, which the command measures and passes
// in (DefaultTextWidth when it cannot tell: the output is a file or a
// pipe). Widths count runes: every symbol the outputs use (µ, ±, ≥, ×,
// →, …) takes one column.

// DefaultTextWidth is the width text is fitted to when the caller gives
// none (0): the output is not a terminal, or its width is unknown.
const DefaultTextWidth = 80

// MinTextWidth is the narrowest width text is fitted to: narrower, a
// table of a key column and one value no longer fits anyway.
const MinTextWidth = 20

// textWidthOr returns width, or DefaultTextWidth when width is 0 or
// less, never below MinTextWidth.
func textWidthOr(width int) int {
	if width <= 0 {
		return DefaultTextWidth
	}
	return max(width, MinTextWidth)
}

// columns returns the width of s in columns.
func columns(s string) int { return utf8.RuneCountInString(s) }

// Wrap returns text with every line longer than width columns folded at
// spaces (DefaultTextWidth when width is 0). A continuation line is
// indented two columns past the line's own indentation; a word longer
// than the room left stays whole on a line of its own (a path, a URL:
// cut, it could not be copied).
func Wrap(text string, width int) string {
	width = textWidthOr(width)
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	for line := range strings.Lines(text) {
		body, nl := strings.CutSuffix(line, "\n")
		body = strings.TrimRight(body, " ")
		if columns(body) <= width {
			b.WriteString(body)
		} else {
			foldLine(&b, body, width)
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// foldLine writes line, longer than width, folded at spaces.
func foldLine(b *strings.Builder, line string, width int) {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	words := strings.Fields(line)
	hang := strings.Repeat(" ", min(indent+2, width/2))
	cur := strings.Repeat(" ", indent)
	curCols, empty := indent, true
	for _, w := range words {
		wc := columns(w)
		if !empty && curCols+1+wc > width {
			b.WriteString(cur)
			b.WriteByte('\n')
			cur, curCols, empty = hang, columns(hang), true
		}
		if !empty {
			cur += " "
			curCols++
		}
		cur += w
		curCols += wc
		empty = false
	}
	b.WriteString(cur)
}

// termTable is a table for a terminal: rows of cells, the first row its
// header (it may be nil: no header); the first left columns aligned left,
// the others right; the first keys columns repeated in each block when
// the table is split to fit a width.
type termTable struct {
	rows       [][]string
	left, keys int
	// groups are the columns that start a group of columns read
	// together (a value, then its rank and percentile): a block is not
	// split inside a group that fits in a block of its own, so that the
	// group's header stays over it. Ascending; none: no groups.
	groups []int
}

// gap is the space between two columns, and before the first: a table
// is indented by it.
const gap = 2

// layout returns the width of each column and the blocks of value
// columns ([first, end) each) that fit width: a block takes columns
// while its lines stay within width, and at least one.
func (t termTable) layout(width int) (widths []int, blocks [][2]int) {
	ncol := 0
	for _, r := range t.rows {
		ncol = max(ncol, len(r))
	}
	widths = make([]int, ncol)
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], columns(c))
		}
	}
	keys := min(t.keys, ncol)
	keyWidth := gap
	for i := range keys {
		keyWidth += widths[i] + gap
	}
	for i := keys; i < ncol; {
		// w is the width of the line so far, the gap after it included.
		j, w := i, keyWidth
		for j < ncol && (j == i || w+widths[j] <= width) {
			if j > i && slices.Contains(t.groups, j) {
				// A group that would be cut starts the next block
				// when it fits in one.
				if gw := t.groupWidth(widths, j); w+gw > width && keyWidth+gw <= width {
					break
				}
			}
			w += widths[j] + gap
			j++
		}
		blocks = append(blocks, [2]int{i, j})
		i = j
	}
	if len(blocks) == 0 {
		blocks = [][2]int{{keys, keys}}
	}
	return widths, blocks
}

// groupWidth returns the width of the group of columns that starts at
// column j (to the next group, or the last column), the gaps after its
// columns included but the last.
func (t termTable) groupWidth(widths []int, j int) int {
	end := len(widths)
	for _, g := range t.groups {
		if g > j {
			end = min(end, g)
		}
	}
	w := 0
	for k := j; k < end; k++ {
		w += widths[k] + gap
	}
	return w - gap
}

// blocks returns how many blocks the table takes at width (1: whole).
func (t termTable) blocks(width int) int {
	_, bl := t.layout(textWidthOr(width))
	return len(bl)
}

// render returns the table fitted to width (DefaultTextWidth when 0):
// whole when it fits, else its columns after the keys in as few blocks as
// fit, each under the keys, a blank line between two blocks. Every line
// ends in a newline; trailing spaces are dropped.
func (t termTable) render(width int) string {
	widths, blocks := t.layout(textWidthOr(width))
	if len(widths) == 0 {
		return ""
	}
	keys := min(t.keys, len(widths))
	var b strings.Builder
	for k, bl := range blocks {
		if k > 0 {
			b.WriteByte('\n')
		}
		for _, r := range t.rows {
			var line strings.Builder
			cell := func(i int) {
				c := ""
				if i < len(r) {
					c = r[i]
				}
				line.WriteString(strings.Repeat(" ", gap))
				pad := strings.Repeat(" ", widths[i]-columns(c))
				if i < t.left {
					line.WriteString(c + pad)
				} else {
					line.WriteString(pad + c)
				}
			}
			for i := range keys {
				cell(i)
			}
			for i := bl[0]; i < bl[1]; i++ {
				cell(i)
			}
			b.WriteString(strings.TrimRight(line.String(), " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// textBlockWidth returns the width of the widest line of text, in
// columns.
func textBlockWidth(text string) int {
	w := 0
	for line := range strings.Lines(text) {
		w = max(w, columns(strings.TrimRight(line, " \n")))
	}
	return w
}

// wrapCommand returns the shell command cmd on a line after indent, or,
// when it is longer than width, folded between its words with a shell's
// line continuation (a backslash at the end of each line but the last),
// so that the lines still paste as one command; never inside single
// quotes (ShellQuote), where a backslash is not a continuation. Each
// line ends in a newline.
func wrapCommand(indent, cmd string, width int) string {
	width = textWidthOr(width)
	// The words, a quoted one with its spaces whole.
	var words []string
	for _, f := range strings.Split(cmd, " ") {
		if n := len(words); n > 0 && strings.Count(words[n-1], "'")%2 == 1 {
			words[n-1] += " " + f
		} else if f != "" {
			words = append(words, f)
		}
	}
	var b strings.Builder
	line := indent
	for i, w := range words {
		// The continuation, a space and a backslash, takes two columns.
		if i > 0 && columns(line)+1+columns(w)+2 > width {
			b.WriteString(line + " \\\n")
			line = indent + "  "
		} else if i > 0 {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
