package publish

import "context"

// InputError is a run that cannot be read (a line that is not a row, a
// unit on two rows, an id beyond its corpus: the message names the file
// and line), or a request the run cannot meet as given (an analysis of a
// run without run.json, still running, or beyond the cost allowed). The
// command exits 2 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// InterruptedError is an analysis stopped by ctx: nothing of it was
// written, and its message says what was kept. It is a context.Canceled
// (errors.Is). The command exits 130 on it with its message.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string        { return e.Msg }
func (e *InterruptedError) Is(target error) bool { return target == context.Canceled }
