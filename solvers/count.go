package solvers

import (
	"context"
	"fmt"
)

// CountSolutions counts the solutions of p, stopping at max (so 2 means
// "two or more" when max is 2), with the fastest strategy for its size:
// bitboard for 9x9, dlx otherwise. It returns an error for a puzzle with
// conflicting givens or when ctx ends the search first. It is safe for
// concurrent use.
func CountSolutions(ctx context.Context, p Puzzle, max int) (int, error) {
	if max < 1 {
		return 0, fmt.Errorf("counting solutions: max %d, want at least 1", max)
	}
	var n int
	var res Result
	if p.Box == 3 {
		n, res = (&bitboard{}).count(ctx, p, max)
	} else {
		n, res = (&dlx{}).count(ctx, p, max)
	}
	switch res.Status {
	case StatusInvalid, StatusTimeout, StatusLimit, StatusError, StatusUnsupported:
		return n, fmt.Errorf("counting solutions: %s: %w", res.Status, res.Err)
	}
	return n, nil
}
