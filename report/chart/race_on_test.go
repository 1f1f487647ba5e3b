//go:build race

package chart

import "github.com/klauspost/compress/zlib"

// raceEnabled reports whether the tests run under the race
// detector, which slows PNG compression about thirtyfold: the chart
// tests then write uncompressed PNG files.
const raceEnabled = true

func init() { pngLevel = zlib.NoCompression }
