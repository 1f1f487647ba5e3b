package main

import (
	"fmt"
	"io"
	"strings"

	"sudokubatch/report"
	"sudokubatch/solvers"
)

func solversMain(e *env, args []string) error {
	fs := newFlagSet(e, "solvers", "", "List the strategies in their fixed order with one line each.", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// The names in a column, each description folded to the width beside
	// it.
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
		desc := strings.TrimSuffix(report.Wrap(s.Description()+def, e.width()-len(pad)), "\n")
		b.WriteString(fmt.Sprintf("%-*s", name+2, s.Name()) + strings.ReplaceAll(desc, "\n", "\n"+pad) + "\n")
	}
	fmt.Fprint(&b, "\nA program of yours is swept as a strategy with -ext NAME=COMMAND (docs/PROTOCOL.md).\n")
	_, err := io.WriteString(e.stdout, report.Wrap(b.String(), e.width()))
	return err
}
