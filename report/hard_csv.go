package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"sudokubatch/rundir"
)

// HardCSVHeader is the first line of hard.csv. variants is the verdict of
// the hard-or-unlucky analysis (variants.json) of an analysed unit, else
// empty.
var HardCSVHeader = []string{"corpus", "id", "line", "solver", "status", "calls", "ns", "guesses",
	"rank_calls", "rank_time", "x_median_calls", "x_median_time", "variants"}

// WriteHardCSV writes hard.csv: per strategy (in Results order), every
// unit whose calls are above the strategy's p99 of calls or that a
// timeout or call limit stopped, by decreasing calls. Multiples of the
// median have two decimals; every other number is exact. A cell that a
// spreadsheet would run as a formula (a corpus named =HYPERLINK(...), or
// a multiple of a zero median, +Inf) gets a single quote in front, as in
// results.csv (rundir.EscapeFormula).
func (s *Summary) WriteHardCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(HardCSVHeader)
	rec := make([]string, len(HardCSVHeader))
	for _, u := range s.Hard {
		rec = append(rec[:0], u.Puzzle.Corpus, strconv.Itoa(u.Puzzle.ID), strconv.Itoa(u.Puzzle.Line), u.Solver,
			u.Status.String(), strconv.FormatUint(u.Calls, 10), strconv.FormatInt(u.NS, 10),
			strconv.FormatUint(u.Guesses, 10), strconv.Itoa(u.RankCalls), strconv.Itoa(u.RankTime),
			strconv.FormatFloat(u.XMedianCalls, 'f', 2, 64), strconv.FormatFloat(u.XMedianTime, 'f', 2, 64), u.Variants)
		for i, cell := range rec {
			rec[i] = rundir.EscapeFormula(cell)
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing hard.csv: %w", err)
	}
	return nil
}
