package chart

import (
	"encoding/binary"
	"image"
	"image/color"
	"io"
	"slices"
	"sync"
)

// A chart's PNG is written as a paletted image: one byte a pixel rather
// than three, which the encoder does not filter (filters rarely help a
// paletted image), so that it encodes in about a third of the time and
// takes half the bytes. A chart has a few colors (the background, the
// text, the guides, a color per strategy, their fills) and the shades
// anti-aliasing blends between them, 400 to 900 in all: the palette holds
// the 256 that matter most, every color of the chart among them, and a
// pixel of another shade takes the nearest (paletteOf).

// encodePNG writes img as a PNG: paletted (writePaletted).
func encodePNG(w io.Writer, img *image.RGBA) error {
	p := paletted(img)
	err := writePaletted(w, p)
	buffers.put(p.Pix)
	return err
}

// buffers keeps the pixels of the paletted images the charts are encoded
// from (400 kB for a chart of 800x500) from one chart to the next: a
// report draws eight charts and more, and new memory costs its clearing,
// its page faults and the collector's work. (The RGBA images they are
// drawn on are not kept: four times the size, held between the charts
// they raise the collector's goal, and the peak, by more than they save.)
var buffers pixelPool

// pixelPool is a pool of pixel buffers of any size.
type pixelPool struct{ pool sync.Pool }

// get returns a buffer of n bytes, of any content.
func (p *pixelPool) get(n int) []byte {
	if b, _ := p.pool.Get().(*[]byte); b != nil && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n)
}

// put gives b back to the pool; it must not be used after.
func (p *pixelPool) put(b []byte) { p.pool.Put(&b) }

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
	// Most pixels repeat the one before (the background, a bar's fill):
	// four pixels equal to the last color are compared at once.
	last, run := uint32(0), 0
	last2 := uint64(0) // last, twice
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		for i := 0; i < len(row); {
			if run > 0 && i+16 <= len(row) && binary.LittleEndian.Uint64(row[i:]) == last2 && binary.LittleEndian.Uint64(row[i+8:]) == last2 {
				run += 4
				i += 16
				continue
			}
			c := binary.LittleEndian.Uint32(row[i:])
			i += 4
			if c == last && run > 0 {
				run++
				continue
			}
			if run > 0 {
				*counts.at(last) += run
			}
			last, run, last2 = c, 1, uint64(c)|uint64(c)<<32
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
	// Every pixel of out is set below: its pixels come from the pool.
	out := &image.Paletted{Pix: buffers.get(b.Dx() * b.Dy()), Stride: b.Dx(), Rect: image.Rect(0, 0, b.Dx(), b.Dy()), Palette: pal}
	last, li := uint32(0), uint8(0)
	last2 = 0
	lastSet := false
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		dst := out.Pix[y*out.Stride : y*out.Stride+b.Dx()]
		for i := 0; i < len(dst); {
			if lastSet && i+4 <= len(dst) && binary.LittleEndian.Uint64(row[4*i:]) == last2 && binary.LittleEndian.Uint64(row[4*i+8:]) == last2 {
				dst[i], dst[i+1], dst[i+2], dst[i+3] = li, li, li, li
				i += 4
				continue
			}
			c := binary.LittleEndian.Uint32(row[4*i:])
			if c != last || !lastSet {
				last, li, lastSet, last2 = c, uint8(*counts.at(c)), true, uint64(c)|uint64(c)<<32
			}
			dst[i] = li
			i++
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
	// The distance of each other color to its nearest chosen one, whose
	// entry is index[len(colors)-len(rest)+i]: the first of the nearest,
	// as a scan of the chosen in order finds it. The chosen are taken
	// one at a time over the others' channels, apart: a tight loop.
	ch := channelsOf(rest)
	dist := make([]int, len(rest))
	for i := range dist {
		dist[i] = 1 << 62
	}
	for j, c := range chosen {
		ch.closer(c, uint8(j), dist, index[len(colors)-len(rest):])
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
		ch.closer(c, ci, dist, index[len(colors)-len(rest):])
	}
	pal := make(color.Palette, len(chosen))
	for i, c := range chosen {
		pal[i] = color.RGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), uint8(c >> 24)}
	}
	return pal, index
}

// channels are the red, green, blue and alpha bytes of colors, apart.
type channels struct{ r, g, b, a []int32 }

func channelsOf(colors []colorCount) channels {
	n := len(colors)
	ch := channels{make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)}
	for i, e := range colors {
		ch.r[i], ch.g[i], ch.b[i], ch.a[i] = int32(e.c&0xff), int32(e.c>>8&0xff), int32(e.c>>16&0xff), int32(e.c>>24)
	}
	return ch
}

// closer makes entry e, of color c, the nearest of each color i of ch
// that is strictly nearer to c than dist[i], setting dist[i] and
// index[i]; a distance is squared, over the four bytes.
func (ch channels) closer(c uint32, e uint8, dist []int, index []uint8) {
	cr, cg, cb, ca := int32(c&0xff), int32(c>>8&0xff), int32(c>>16&0xff), int32(c>>24)
	r := ch.r
	g, b, a := ch.g[:len(r)], ch.b[:len(r)], ch.a[:len(r)]
	dist, index = dist[:len(r)], index[:len(r)]
	for i := range r {
		dr, dg, db, da := r[i]-cr, g[i]-cg, b[i]-cb, a[i]-ca
		if d := int(dr*dr + dg*dg + db*db + da*da); d < dist[i] {
			dist[i], index[i] = d, e
		}
	}
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
