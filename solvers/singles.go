package solvers

import (
	"context"
	"math/bits"
)

// singles is the naked-singles strategy of the "DS Informatique Sudoku"
// document (functions un_tour and complete). The document itself was not
// at hand: this follows docs/DESIGN.md's description of it.
//
// Algorithm. un_tour sweeps every cell in row-major order; an empty cell
// whose allowed values (those not already in its row, column or box) are
// exactly one value is filled with it. complete repeats un_tour until a
// sweep changes nothing. There is no guessing.
//
// Decisions where the description is silent:
//   - The grid is modified in place as the sweep goes (the natural reading
//     of un_tour): a value filled in a cell is seen by the cells after it in
//     the same sweep, so one sweep may fill a chain of singles.
//   - complete stops only when a sweep changes nothing, so a grid completed
//     by a sweep costs one more sweep (over a full grid, changing nothing),
//     and that sweep is counted (with MaxCalls equal to the filling sweeps
//     the result is StatusLimit with every cell filled).
//   - An empty cell with no allowed value at all stops the sweep at once
//     with StatusUnsolvable: every value singles writes is forced, so such a
//     cell proves the puzzle has no solution.
//
// Outcomes: StatusSolved when the final sweep leaves no empty cell;
// StatusStuck when a sweep changes nothing and empty cells remain;
// StatusUnsolvable as above. Filled is the number of cells singles filled:
// every empty cell when solved, the cells filled before it stopped
// otherwise (stuck, unsolvable, or stopped by a limit). On the 17-clue
// corpus singles is stuck on every puzzle, having filled between 0 and 20
// cells (none at all on 43,383 of the 49,151 puzzles).
//
// Counters: Calls counts sweeps (calls of un_tour), including the last one
// that changes nothing; Guesses and Backtracks are always 0.
//
// A singles value has no state; it is safe for concurrent use.
type singles struct{}

var _ Solver = (*singles)(nil)

func (singles) Name() string { return "singles" }

func (singles) Describe() string {
	return "naked singles (DS un_tour/complete): row-major sweeps filling cells with one allowed value until a sweep changes nothing; calls = sweeps, guesses = backtracks = 0"
}

// singlesEvery is how many sweeps run between clock checks; a sweep over a
// 9x9 grid costs well under a microsecond.
const singlesEvery = 64

func (singles) Solve(ctx context.Context, p Puzzle, lim Limits) Result {
	if err := p.validate(); err != nil {
		return Result{Status: StatusInvalid, Err: err}
	}
	geo := geometryOf(p.Box)
	g := p.Grid
	full := uint32(1)<<geo.side - 1
	// used[u] holds bit v-1 for each value v present in unit u.
	var used [48]uint32
	for i, v := range g.Cells[:geo.cells] {
		if v != 0 {
			for _, u := range geo.unitsOf[i] {
				used[u] |= 1 << (v - 1)
			}
		}
	}
	b := newBudget(ctx, lim, singlesEvery)
	var calls uint64
	filled := 0
	for {
		if calls == b.next {
			if st := b.poll(calls); st != StatusNone {
				return Result{Status: st, Err: b.err, Calls: calls, Filled: filled}
			}
		}
		calls++
		changed, empty := false, 0
		for i := 0; i < geo.cells; i++ {
			if g.Cells[i] != 0 {
				continue
			}
			us := &geo.unitsOf[i]
			allowed := full &^ (used[us[0]] | used[us[1]] | used[us[2]])
			switch {
			case allowed == 0:
				return Result{Status: StatusUnsolvable, Calls: calls, Filled: filled}
			case allowed&(allowed-1) == 0:
				g.Cells[i] = uint8(bits.TrailingZeros32(allowed) + 1)
				used[us[0]] |= allowed
				used[us[1]] |= allowed
				used[us[2]] |= allowed
				filled++
				changed = true
			default:
				empty++
			}
		}
		if changed {
			continue
		}
		if empty == 0 {
			return Result{Status: StatusSolved, Solution: g, Calls: calls, Filled: filled}
		}
		return Result{Status: StatusStuck, Calls: calls, Filled: filled}
	}
}
