//go:build !race

package solvers

// raceEnabled reports whether the tests run under the race detector, which
// slows the search about tenfold: corpus-wide tests then take a sample.
const raceEnabled = false
