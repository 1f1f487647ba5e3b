//go:build !race

package chart

// raceEnabled reports whether the tests run under the race
// detector, which slows PNG compression about thirtyfold: the chart
// tests then write uncompressed PNG files.
const raceEnabled = false
