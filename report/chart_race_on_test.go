//go:build race

package report

import "image/png"

// chartRaceEnabled reports whether the tests run under the race
// detector, which slows PNG compression about thirtyfold: the chart
// tests then write uncompressed PNG files.
const chartRaceEnabled = true

func init() { chartPNG.CompressionLevel = png.NoCompression }
