package solvers

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestCountSolutions(t *testing.T) {
	corpus0 := knownByName(t, "corpus-0").puzzle
	fewer := corpus0
	for i, v := range fewer.Cells[:81] {
		if v != 0 {
			fewer.Cells[i] = 0 // 16 givens: a 17-clue puzzle is minimal
			break
		}
	}
	empty4 := Puzzle{Grid: NewGrid(2)}
	tests := []struct {
		name string
		p    Puzzle
		max  int
		want int
	}{
		{"corpus-0", corpus0, 2, 1},
		{"corpus-0 max 1", corpus0, 1, 1},
		{"16 givens", fewer, 2, 2},
		{"16 givens max 10", fewer, 10, 10},
		{"empty 4x4 (288 grids)", empty4, 1000, 288},
		{"16x16", knownByName(t, "16x16-a").puzzle, 2, 1},
		{"4x4", knownByName(t, "4x4-a").puzzle, 2, 1},
	}
	for _, f := range readTestdata(t, "testdata/unsolvable.txt", 2) {
		tests = append(tests, struct {
			name string
			p    Puzzle
			max  int
			want int
		}{f[0], MustParse(f[1]), 2, 0})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := CountSolutions(context.Background(), tt.p, tt.max)
			if err != nil || n != tt.want {
				t.Fatalf("CountSolutions = %d, %v; want %d", n, err, tt.want)
			}
		})
	}
	// Solving is unchanged by the counting mode.
	expectSolved(t, &bitboard{}, corpus0, knownByName(t, "corpus-0").solution)
	if _, err := CountSolutions(context.Background(), rawPuzzle(t, "11"+strings.Repeat("0", 79)), 2); err == nil {
		t.Error("conflicting givens counted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CountSolutions(ctx, Puzzle{Grid: NewGrid(3)}, 1<<30); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled count: err %v", err)
	}
}
