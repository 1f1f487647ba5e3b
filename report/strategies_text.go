package report

import (
	"fmt"
	"io"
	"strings"

	"sudokubatch/solvers"
)

// WriteStrategies writes what `batch solvers` prints: each registered
// strategy in its fixed order with its description (what it does and
// what its counters count), the names in a column and each description
// folded to the width beside it, within width columns (0:
// DefaultTextWidth); then how a program of one's own is added.
func WriteStrategies(w io.Writer, width int) error {
	width = textWidthOr(width)
	all := solvers.All()
	name := 0
	for _, s := range all {
		name = max(name, len(s.Name()))
	}
	pad := strings.Repeat(" ", name+2)
	var b strings.Builder
	for _, s := range all {
		def := ""
		if !s.Default {
			def = " (not in the default set: -solvers all)"
		}
		desc := strings.TrimSuffix(Wrap(s.Description()+def, width-len(pad)), "\n")
		b.WriteString(fmt.Sprintf("%-*s", name+2, s.Name()) + strings.ReplaceAll(desc, "\n", "\n"+pad) + "\n")
	}
	fmt.Fprint(&b, "\nA program of yours is swept as a strategy with -ext NAME=COMMAND (docs/PROTOCOL.md).\n")
	_, err := io.WriteString(w, Wrap(b.String(), width))
	return err
}
