package chart

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// maxDiff returns the largest difference of a channel between two
// images of one size, and the number of pixels that differ.
func maxDiff(a *image.RGBA, b image.Image) (most, pixels int) {
	for y := range a.Bounds().Dy() {
		for x := range a.Bounds().Dx() {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			d := 0
			for _, p := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				d = max(d, int(max(p[0], p[1])-min(p[0], p[1]))>>8)
			}
			most = max(most, d)
			if d > 0 {
				pixels++
			}
		}
	}
	return most, pixels
}

// encodeDecode encodes img as the charts do and decodes it again.
func encodeDecode(t *testing.T, img *image.RGBA) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	out, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.(*image.Paletted); !ok {
		t.Fatalf("the PNG decodes as %T, want a paletted image", out)
	}
	return out
}

// TestPNGOfFewColorsIsExact: an image of 256 colors or fewer, a
// transparent one among them, is written as it is.
func TestPNGOfFewColorsIsExact(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 40))
	for y := range 40 {
		for x := range 64 {
			k := uint8((x + 64*y) % 255) // 255 colors
			img.SetRGBA(x, y, color.RGBA{k, 255 - k, k / 2, 0xff})
		}
	}
	img.SetRGBA(1, 0, color.RGBA{}) // transparent
	if most, n := maxDiff(img, encodeDecode(t, img)); most != 0 {
		t.Errorf("%d pixels differ, by up to %d: want the image as it is", n, most)
	}
}

// TestPNGKeepsEveryColorOfAChart: a chart's anti-aliasing gives it more
// than 256 colors; the palette keeps a color drawn on a few pixels only
// (a strategy's point, the highlight's mark), where the frequent shades
// would crowd it out, and a pixel of a shade left out of the palette
// takes a near one.
func TestPNGKeepsEveryChartColor(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	// Hundreds of shades of blue over white, 100 pixels or more each: the
	// anti-aliased edges of a strategy's bars.
	for k := range 600 {
		c := color.RGBA{uint8(0xff - k/4), uint8(0xff - k/3), 0xff, 0xff}
		for p := range 100 {
			img.SetRGBA((k*100+p)%400, 50+(k*100+p)/400, c)
		}
	}
	for x := range 12 { // the highlight, on 12 pixels
		img.SetRGBA(x, 10, highlightColor)
	}
	out := encodeDecode(t, img)
	for x := range 12 {
		if got := color.RGBAModel.Convert(out.At(x, 10)); got != highlightColor {
			t.Fatalf("the highlight's pixel (%d, 10) is %v, want %v", x, got, highlightColor)
		}
	}
	if most, n := maxDiff(img, out); most > 8 {
		t.Errorf("%d pixels differ, by up to %d: want at most 8", n, most)
	}
}

// TestPNGOfAChart: a chart's PNG is its drawing, paletted: each pixel
// within a few levels of the image drawn, and the white background, the
// text and the strategy's color exact.
func TestPNGOfAChart(t *testing.T) {
	res := testResults(map[string][]testEntry{"dlx": spread(2000, 20_000), "bitboard": spread(2000, 3_000)}, "dlx", "bitboard")
	cs, err := newChartSet(t.Context(), res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range cs.jobs() {
		f, err := j.build()
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []string{"full", "small"} {
			if size == "small" {
				f.Shrink()
			}
			img := f.raster()
			if w, h := f.Pixels(); img.Bounds() != image.Rect(0, 0, w, h) {
				t.Errorf("%s, %s: the image is %v, want %dx%d", j.chart.File, size, img.Bounds(), w, h)
			}
			out := encodeDecode(t, img)
			most, n := maxDiff(img, out)
			if most > 24 || n > img.Bounds().Dx()*img.Bounds().Dy()/50 {
				t.Errorf("%s, %s: %d pixels differ, by up to %d; want at most 2%% of them, by 24", j.chart.File, size, n, most)
			}
			for _, c := range []color.Color{color.White, color.Black, StrategyColor("dlx"), StrategyColor("bitboard")} {
				if !hasColor(out, c) && hasColor(img, c) {
					t.Errorf("%s, %s: color %v lost", j.chart.File, size, c)
				}
			}
		}
	}
}

// hasColor reports whether a pixel of img has color c.
func hasColor(img image.Image, c color.Color) bool {
	want := color.RGBAModel.Convert(c)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				return true
			}
		}
	}
	return false
}

// TestWritePaletted: the PNG writePaletted writes is read by image/png
// as the pixels it was given, colors and alphas, as image/png's own
// file of the image is, for a chart and for an image with translucent
// colors in its palette; a writer's error is returned.
func TestWritePaletted(t *testing.T) {
	chart := paletted(firstChart(t, 2000, 3_000).raster())
	pal := color.Palette{color.RGBA{0, 0, 0, 0}, color.RGBA{0x40, 0x20, 0x10, 0x80}, color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0, 0x72, 0xb2, 0xff}}
	small := image.NewPaletted(image.Rect(0, 0, 7, 3), pal)
	for i := range small.Pix {
		small.Pix[i] = uint8(i % len(pal))
	}
	for name, img := range map[string]*image.Paletted{"chart": chart, "translucent": small} {
		var buf, std bytes.Buffer
		if err := writePaletted(&buf, img); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := png.Encode(&std, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, _ := png.Decode(&std)
		if got.Bounds() != img.Bounds() {
			t.Fatalf("%s: bounds %v, want %v", name, got.Bounds(), img.Bounds())
		}
		bad := 0
		for y := range img.Bounds().Dy() {
			for x := range img.Bounds().Dx() {
				g, w, s := color.NRGBAModel.Convert(got.At(x, y)), color.NRGBAModel.Convert(img.At(x, y)), color.NRGBAModel.Convert(want.At(x, y))
				if g != w || g != s {
					bad++
					if bad < 4 {
						t.Errorf("%s: pixel (%d,%d) reads %v, want %v (image/png's file: %v)", name, x, y, g, w, s)
					}
				}
			}
		}
	}
	if err := writePaletted(failWriter{}, small); err == nil || err.Error() != "disk full" {
		t.Errorf("a failing writer: %v, want its error", err)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestSmallPNGOnReusedPixels: the small PNG of a chart, drawn on the
// pixels of its full-size one, is the small PNG drawn on new memory, for
// each chart of a run.
func TestSmallPNGOnReusedPixels(t *testing.T) {
	res := testResults(map[string][]testEntry{"dlx": spread(2000, 20_000), "bitboard": spread(2000, 3_000)}, "dlx", "bitboard")
	cs, err := newChartSet(t.Context(), res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range cs.jobs() {
		reused, err := j.build()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reused.Render("png"); err != nil {
			t.Fatal(err)
		}
		reused.Shrink()
		got, err := reused.Render("png")
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := j.build()
		if err != nil {
			t.Fatal(err)
		}
		fresh.Shrink()
		want, err := fresh.Render("png")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the small PNG drawn on the full one's pixels differs from one drawn on new memory", j.chart.File)
		}
	}
}
