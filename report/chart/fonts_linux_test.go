package chart

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// residentKB returns the resident size in kB of the mapping that holds
// address a (/proc/self/smaps).
func residentKB(t *testing.T, a uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return 0
}

// TestReleaseFonts: the font files leave the resident set, and a chart's
// text is measured as before when a font is read again.
func TestReleaseFonts(t *testing.T) {
	sans := font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(12)}
	width := func() vg.Length {
		face := font.DefaultCache.Lookup(sans, sans.Size)
		return face.Width("#39949 took 46.8ms")
	}
	before := width()
	var sum byte
	for _, b := range liberationsansregular.TTF { // every page of one file resident
		sum += b
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(liberationsansregular.TTF)))
	held := residentKB(t, addr)
	ReleaseFonts()
	left := residentKB(t, addr)
	t.Logf("the mapping of the fonts: %d kB resident, %d kB after ReleaseFonts (checksum %d)", held, left, sum)
	if want := len(liberationsansregular.TTF)/1024 - 8; held-left < want {
		t.Errorf("ReleaseFonts gave back %d kB of the mapping that holds the fonts, want at least %d (one font file)", held-left, want)
	}
	if after := width(); after != before {
		t.Errorf("a text measured %v before ReleaseFonts and %v after", before, after)
	}
}
