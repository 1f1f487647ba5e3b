// Package data holds the default corpus, Gordon Royle's list of 49151
// 17-clue puzzles (sudoku17.txt, see README.md), embedded in the binary so
// that `batch` sweeps it from any directory.
package data

import _ "embed"

// Name is the default corpus as runs record it, and as a path relative to
// the repository's root.
const Name = "data/sudoku17.txt"

// SHA256 is the checksum of the published list.
const SHA256 = "71755fa5646701ae543b1435012492ec5b99f3d42b08da847e6d48d8b87676d7"

// Sudoku17 is the content of sudoku17.txt.
//
//go:embed sudoku17.txt
var Sudoku17 string
