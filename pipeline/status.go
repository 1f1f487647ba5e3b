package pipeline

import (
	"strings"

	"sudokubatch/rundir"
)

// RetimeNotRecorded begins the error of a sweep whose re-timing could
// not be written into results.csv.
const RetimeNotRecorded = "the re-timing could not be recorded: "

// Status returns how a sweep ended, as run.json records it (a rundir
// status), and why when it is not finished: runErr, the error Run
// returned, fails it; a Stop interrupts it; a corpus not read to its end
// fails it, with the corpora's errors. The first that applies decides: a
// sweep both stopped and failed is failed. Anything else is finished,
// with why the times are unconfirmed when the re-timing could not be
// recorded (every row is there, with its sweep time).
//
// A new way for a sweep to go wrong is one more case here, in the order
// of what matters most.
func (s *Stats) Status(runErr error) (status, why string) {
	switch errs := s.CorpusErrors(); {
	case runErr != nil:
		return rundir.Failed, runErr.Error()
	case s.Interrupted:
		return rundir.Interrupted, ""
	case len(errs) > 0:
		return rundir.Failed, strings.Join(errs, "; ")
	case s.Retime.Error != "":
		return rundir.Finished, RetimeNotRecorded + s.Retime.Error
	}
	return rundir.Finished, ""
}
