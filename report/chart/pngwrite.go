package chart

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// pngLevel is the zlib level of the charts' PNG files: the fastest that
// compresses (the tests under the race detector, where compression is
// slow, turn it off).
var pngLevel = zlib.BestSpeed

// zlibWriters keeps the compressors of writePaletted from one chart to
// the next (each holds about a megabyte of tables).
var zlibWriters sync.Pool

// writePaletted writes p as a PNG file of 8-bit palette indices, its
// rows unfiltered (filters rarely help a paletted image), compressed by
// github.com/klauspost/compress's zlib: the format image/png writes and
// every PNG reader reads, the same pixels (TestWritePaletted), in about
// a third of compress/zlib's time at its fastest level and as many bytes
// within 1%. p's palette has 1 to 256 colors.
func writePaletted(w io.Writer, p *image.Paletted) error {
	width, height := p.Rect.Dx(), p.Rect.Dy()
	if len(p.Palette) < 1 || len(p.Palette) > 256 || width <= 0 || height <= 0 {
		return errors.New("png: a paletted image of 1 to 256 colors and some pixels, not " + p.Rect.String())
	}
	cw := &chunkWriter{w: w}
	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits a pixel, paletted
	cw.chunk("IHDR", ihdr[:])

	// The palette, its colors not premultiplied, and their alphas when
	// one is not opaque (as image/png writes them).
	var plte [3 * 256]byte
	var trns [256]byte
	last := -1
	for i, c := range p.Palette {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte[3*i], plte[3*i+1], plte[3*i+2], trns[i] = n.R, n.G, n.B, n.A
		if n.A != 0xff {
			last = i
		}
	}
	cw.chunk("PLTE", plte[:3*len(p.Palette)])
	if last >= 0 {
		cw.chunk("tRNS", trns[:last+1])
	}

	// A chart compresses to 5-8% of its pixels: room for 10% at once,
	// rather than the buffer grown by doubling from 64 bytes.
	var z bytes.Buffer
	z.Grow(width * height / 10)
	zw, _ := zlibWriters.Get().(*zlib.Writer)
	if zw == nil {
		var err error
		if zw, err = zlib.NewWriterLevel(&z, pngLevel); err != nil {
			return err
		}
	} else {
		zw.Reset(&z)
	}
	row := make([]byte, 1+width) // its filter byte, 0: none
	for y := range height {
		copy(row[1:], p.Pix[y*p.Stride:y*p.Stride+width])
		if _, err := zw.Write(row); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	zlibWriters.Put(zw)
	cw.chunk("IDAT", z.Bytes())
	cw.chunk("IEND", nil)
	return cw.err
}

// chunkWriter writes PNG chunks to w, keeping the first error.
type chunkWriter struct {
	w   io.Writer
	err error
}

// chunk writes a chunk of type kind: its length, its type, data and the
// CRC of type and data.
func (c *chunkWriter) chunk(kind string, data []byte) {
	if c.err != nil {
		return
	}
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := c.w.Write(b); err != nil {
			c.err = err
			return
		}
	}
}
