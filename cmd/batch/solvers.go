package main

import (
	"fmt"
	"text/tabwriter"

	"sudokubatch/solvers"
)

func solversMain(e *env, args []string) error {
	fs := newFlagSet(e, "solvers", "", "List the strategies in their fixed order with one line each.", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, s := range solvers.All() {
		def := ""
		if !s.Default {
			def = " (not in the default set: -solvers all)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\n", s.Name(), s.Description(), def)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(e.stdout, "\nA program of yours is swept as a strategy with -ext NAME=COMMAND (docs/PROTOCOL.md).")
	return err
}
