package main

import "sudokubatch/report"

func solversMain(e *env, args []string) error {
	fs := newFlagSet(e, "solvers", "", "List the strategies in their fixed order with one line each.", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return report.WriteStrategies(e.stdout, e.width())
}
