//go:build counterschange

package solvers

// A build with the counterschange tag changes the counters of one
// strategy, dlx, on a few puzzles, as a change of its code would: on a
// puzzle the rule below picks, a Solve whose search ended by itself
// (solved or unsolvable) reports one more call and one more guess, as
// if one more row had been tried, so dlx's own identities (Calls ==
// Guesses+1, Backtracks <= Guesses) still hold and only a comparison
// with another night tells. Its status, solution and time are those of
// the plain build. It is for the demonstrations of `batch trend`'s
// counters detector (scripts/trend-demo.sh and
// TestTrendReportsCountersChange). Other builds have no such code.
//
// The rule, for anyone to recompute: a puzzle changes when the 32-bit
// FNV-1a hash of its grid as Grid.String writes it (the cells row by
// row, '0' for an empty cell: the line of data/sudoku17.txt itself) is
// divisible by countersChangeModulus, one puzzle in 100 on average. In
// Python:
//
//	h = 2166136261
//	for c in line.encode(): h = ((h ^ c) * 16777619) % 2**32
//	changed = h % 100 == 0
//
// A search stopped by a limit is left as it is, and so is one that
// used every call -max-calls allows (one call more would have stopped it).
const countersChangeBuild = true

// countersChangeModulus: a puzzle whose hash this divides changes.
const countersChangeModulus = 100

// countersChangeOff turns the change off, for the tag's test to compare
// the two behaviours in one build. Only tests set it.
var countersChangeOff bool

// countersChange adds the change to res, the result of dlx's Solve of p
// within lim, when the rule picks p.
func countersChange(p *Puzzle, lim Limits, res *Result) {
	if countersChangeOff || !res.Status.Finished() || lim.MaxCalls != 0 && res.Calls >= lim.MaxCalls {
		return
	}
	if countersChangePicks(p) {
		res.Calls++
		res.Guesses++
	}
}

// countersChangePicks reports whether the rule picks p: the FNV-1a hash
// of its grid's digits is divisible by countersChangeModulus.
func countersChangePicks(p *Puzzle) bool {
	h := uint32(2166136261)
	for _, v := range p.Cells[:p.Len()] {
		h = (h ^ uint32(Symbol(v))) * 16777619
	}
	return h%countersChangeModulus == 0
}
