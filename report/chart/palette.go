package chart

import (
	"fmt"
	"image/color"
	"slices"

	"sudokubatch/solvers"
)

// The colors of every chart of every page (the run's, its comparisons',
// the strip charts of its analysis, the history's): a strategy has one
// color wherever it is drawn, given by its name (StrategyColor), never by
// its place in a run. The palette is Okabe and Ito's, readable by the
// color-blind, and two more; highlighted puzzles are magenta, censored
// values near-black, guides gray (no strategy is magenta or gray).
var (
	palette = []color.Color{
		color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
		color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
		color.RGBA{0x00, 0x9E, 0x73, 0xff}, // green
		color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
		color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
		color.RGBA{0x33, 0x22, 0x88, 0xff}, // indigo
		color.RGBA{0x99, 0x77, 0x00, 0xff}, // ochre
		color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	}
	highlightColor = color.RGBA{0xE0, 0x00, 0x90, 0xff}
	censorColor    = color.RGBA{0x22, 0x22, 0x22, 0xff}
	guideColor     = color.RGBA{0x99, 0x99, 0x99, 0xff}
)

// StrategyColor returns the color of the strategy named name on every
// chart. A registered strategy takes the palette's color at its place in
// the registry (solvers.Names) counted from its end, so that the
// registered ones all differ, the fast strategies a nightly sweep runs
// get the strongest colors, and the order of -solvers changes none;
// another (an external solver) takes one by a hash of its name, the same
// in every run.
func StrategyColor(name string) color.Color {
	names := solvers.Names()
	if i := slices.Index(names, name); i >= 0 {
		return palette[(len(names)-1-i)%len(palette)]
	}
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return palette[int(h%uint32(len(palette)))]
}

// HexColor is c as a CSS color, "#0072b2": the swatches of a page beside
// its charts.
func HexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// Fade returns c with alpha a (0..1), premultiplied: a band or a box
// filled in a strategy's color, lighter.
func Fade(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA64{uint16(float64(r) * a), uint16(float64(g) * a), uint16(float64(b) * a), uint16(0xffff * a)}
}

// fade is Fade, for this package.
func fade(c color.Color, a float64) color.Color { return Fade(c, a) }
