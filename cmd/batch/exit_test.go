package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"sudokubatch/history"
	"sudokubatch/publish"
	"sudokubatch/sweep"
)

// TestExitCodeOfThePackagesErrors: the packages' typed errors exit as
// the package doc says, wrapped or not; an exitError keeps its own code.
func TestExitCodeOfThePackagesErrors(t *testing.T) {
	plain := errors.New("x")
	for _, c := range []struct {
		err  error
		code int
	}{
		{plain, exitWrong},
		{&publish.InputError{Err: plain}, exitUsage},
		{fmt.Errorf("reading: %w", &sweep.UsageError{Err: plain}), exitUsage},
		{&history.UsageError{Err: plain}, exitUsage},
		{&publish.InterruptedError{Msg: "stopped"}, exitInterrupted},
		{&exitError{exitWrong, &history.UsageError{Err: plain}}, exitWrong},
		{context.Canceled, exitWrong},
	} {
		if got := exitCode(c.err); got != c.code {
			t.Errorf("exitCode(%#v) = %d, want %d", c.err, got, c.code)
		}
	}
}
