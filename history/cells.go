package history

import "time"

// The cells that trend's terminal text (output_text.go) and the history
// page and trend.md (page.go: both show its views) build from the same
// data, and a run's page from the gate's verdict (runtrend.go), each
// formatted here once, so that they cannot drift apart: a night's date is
// in UTC everywhere, whatever zone its run.json wrote it in.

// fmtMinute is an instant as the tables show it, in UTC:
// "2026-11-21 23:05".
func fmtMinute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }

// fmtDay is the day of an instant, in UTC: "2026-11-21".
func fmtDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// otherCell is the share of the workers' CPU time that other work took
// while a night ran ("12.3%"), and whether it is beyond busy (a busy
// night, judged against busy nights); "" when the night did not record
// it.
func otherCell(share *float64, busy float64) (string, bool) {
	if share == nil {
		return "", false
	}
	return FormatShare(*share), *share > busy
}

// adjustedCells is a strategy's change beyond the machine's common
// factor, the gate's adjusted ratio as a number ("1.032": the terminal
// writes x before it, the pages ×), and its 95% interval ("[1.011,
// 1.054]").
func adjustedCells(g *Gate) (ratio, interval string) {
	return fmtRatioNum(g.Adjusted), fmtCI(g.AdjustedCI)
}
