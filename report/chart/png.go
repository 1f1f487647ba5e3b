package chart

import (
	"image"
	"image/color"
	"io"
	"slices"
)

// A chart's PNG is written as a paletted image: one byte a pixel rather
// than three, which the encoder does not filter (filters rarely help a
// paletted image), so that it encodes in about a third of the time and
// takes half the bytes. A chart has a few colors (the background, the
// text, the guides, a color per strategy, their fills) and the shades
// anti-aliasing blends between them, 400 to 900 in all: the palette holds
// the 256 that matter most, every color of the chart among them, and a
// pixel of another shade takes the nearest (paletteOf).

// encodePNG writes img as a PNG through pngEncoder: paletted.
func encodePNG(w io.Writer, img *image.RGBA) error {
	return pngEncoder.Encode(w, paletted(img))
}

// colorCount is a color of an image (its RGBA bytes as a word, red in
// the low byte) and how many pixels have it.
type colorCount struct {
	c uint32
	n int
}

// paletted returns img as a paletted image: its colors, when it has 256
// or fewer, else the palette paletteOf chooses, each pixel mapped to its
// nearest entry.
func paletted(img *image.RGBA) *image.Paletted {
	var counts colorTable
	counts.init(1024)
	b := img.Bounds()
	w := b.Dx() * 4
	last, run := uint32(0), 0
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		for i := 0; i < len(row); i += 4 {
			c := uint32(row[i]) | uint32(row[i+1])<<8 | uint32(row[i+2])<<16 | uint32(row[i+3])<<24
			if c == last && run > 0 {
				run++
				continue
			}
			if run > 0 {
				*counts.at(last) += run
			}
			last, run = c, 1
		}
	}
	if run > 0 {
		*counts.at(last) += run
	}
	colors := counts.entries()
	pal, index := paletteOf(colors)
	// The table now maps each color to its entry.
	for i, e := range colors {
		*counts.at(e.c) = int(index[i])
	}
	out := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), pal)
	last, li := uint32(0), uint8(0)
	lastSet := false
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		dst := out.Pix[y*out.Stride : y*out.Stride+b.Dx()]
		for i := range dst {
			c := uint32(row[4*i]) | uint32(row[4*i+1])<<8 | uint32(row[4*i+2])<<16 | uint32(row[4*i+3])<<24
			if c != last || !lastSet {
				last, li, lastSet = c, uint8(*counts.at(c)), true
			}
			dst[i] = li
		}
	}
	return out
}

// paletteOf returns a palette of at most 256 colors for the colors of an
// image and their pixel counts, and for each color the index of its
// entry. With 256 colors or fewer the palette is the colors themselves.
// Else it starts with the 192 most frequent, and each further entry is
// the color whose pixels are farthest from the palette, counted by
// pixels times squared distance: a color of a strategy drawn on a few
// pixels only (a point, a legend's swatch) is far from every shade and
// comes in, where a shade between two colors of the palette does not.
// Every other color maps to its nearest entry.
func paletteOf(colors []colorCount) (color.Palette, []uint8) {
	slices.SortFunc(colors, func(a, b colorCount) int { return b.n - a.n })
	k := min(len(colors), 256)
	chosen := make([]uint32, 0, k)
	for _, e := range colors[:min(len(colors), 192)] {
		chosen = append(chosen, e.c)
	}
	rest := colors[len(chosen):]
	index := make([]uint8, len(colors))
	for i := range chosen {
		index[i] = uint8(i)
	}
	dist := make([]int, len(rest)) // to the nearest chosen color, index[len(chosen)+i]
	for i, e := range rest {
		n := nearest(chosen, e.c)
		dist[i], index[len(chosen)+i] = n.d, uint8(n.i)
	}
	for len(chosen) < k {
		best, score := -1, -1
		for i, e := range rest {
			if s := e.n * dist[i]; dist[i] > 0 && s > score {
				best, score = i, s
			}
		}
		if best < 0 {
			break
		}
		c, ci := rest[best].c, uint8(len(chosen))
		chosen = append(chosen, c)
		for i, e := range rest {
			if d := distance(e.c, c); d < dist[i] {
				dist[i], index[len(colors)-len(rest)+i] = d, ci
			}
		}
	}
	pal := make(color.Palette, len(chosen))
	for i, c := range chosen {
		pal[i] = color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), uint8(c >> 24)}
	}
	return pal, index
}

// near is an entry of a palette and the squared distance to it.
type near struct{ i, d int }

// nearest returns the entry of pal nearest to c.
func nearest(pal []uint32, c uint32) near {
	best := near{-1, 1 << 62}
	for i, p := range pal {
		if d := distance(p, c); d < best.d {
			best = near{i, d}
			if d == 0 {
				break
			}
		}
	}
	return best
}

// distance is the squared distance of two colors, over their four bytes.
func distance(a, b uint32) int {
	d := 0
	for s := 0; s < 32; s += 8 {
		x := int(a>>s&0xff) - int(b>>s&0xff)
		d += x * x
	}
	return d
}

// colorTable is a hash table from a color to a count (then to its
// palette entry), open addressing: a map costs several times as much a
// pixel, and a chart has hundreds of thousands.
type colorTable struct {
	keys []uint32
	vals []int
	used []bool
	n    int
}

func (t *colorTable) init(size int) {
	t.keys, t.vals, t.used, t.n = make([]uint32, size), make([]int, size), make([]bool, size), 0
}

// at returns the value of c, adding c with 0 if it is new.
func (t *colorTable) at(c uint32) *int {
	if 2*(t.n+1) > len(t.keys) {
		old := *t
		t.init(2 * len(old.keys))
		for i, u := range old.used {
			if u {
				*t.at(old.keys[i]) = old.vals[i]
			}
		}
	}
	mask := uint32(len(t.keys) - 1)
	for i := (c * 0x9E3779B1) >> 7 & mask; ; i = (i + 1) & mask {
		if !t.used[i] {
			t.used[i], t.keys[i] = true, c
			t.n++
			return &t.vals[i]
		}
		if t.keys[i] == c {
			return &t.vals[i]
		}
	}
}

// entries returns the colors of the table and their values.
func (t *colorTable) entries() []colorCount {
	out := make([]colorCount, 0, t.n)
	for i, u := range t.used {
		if u {
			out = append(out, colorCount{t.keys[i], t.vals[i]})
		}
	}
	return out
}
