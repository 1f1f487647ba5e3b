package chart

import (
	"codeberg.org/go-fonts/liberation/liberationmonobold"
	"codeberg.org/go-fonts/liberation/liberationmonobolditalic"
	"codeberg.org/go-fonts/liberation/liberationmonoitalic"
	"codeberg.org/go-fonts/liberation/liberationmonoregular"
	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansbolditalic"
	"codeberg.org/go-fonts/liberation/liberationsansitalic"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-fonts/liberation/liberationserifbold"
	"codeberg.org/go-fonts/liberation/liberationserifbolditalic"
	"codeberg.org/go-fonts/liberation/liberationserifitalic"
	"codeberg.org/go-fonts/liberation/liberationserifregular"
)

// ReleaseFonts gives back to the system the memory pages of the font
// files that gonum/plot reads when the process starts: its package's init
// parses all twelve Liberation fonts embedded in the binary (4.3 MB, of
// which it leaves about 2.4 MB resident), where a chart uses one or two.
// A sweep, which draws no chart until its report, calls it first, so
// that its peak memory does not carry them. The bytes are never written:
// a page given back is read again from the executable when a chart needs
// it. Where the system cannot take pages back, it does nothing.
func ReleaseFonts() {
	for _, ttf := range [][]byte{
		liberationsansregular.TTF, liberationsansbold.TTF, liberationsansitalic.TTF, liberationsansbolditalic.TTF,
		liberationserifregular.TTF, liberationserifbold.TTF, liberationserifitalic.TTF, liberationserifbolditalic.TTF,
		liberationmonoregular.TTF, liberationmonobold.TTF, liberationmonoitalic.TTF, liberationmonobolditalic.TTF,
	} {
		releasePages(ttf)
	}
}
