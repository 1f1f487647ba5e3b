//go:build race

package chart

import "image/png"

// raceEnabled reports whether the tests run under the race
// detector, which slows PNG compression about thirtyfold: the chart
// tests then write uncompressed PNG files.
const raceEnabled = true

func init() { pngEncoder.CompressionLevel = png.NoCompression }
