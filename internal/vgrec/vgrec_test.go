package vgrec

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
)

func face(t *testing.T) font.Face {
	t.Helper()
	font.DefaultCache.Add(liberation.Collection()) // as gonum/plot does when imported
	return font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans"}, 10)
}

// TestCheckReportsEachFault: two texts that overlap, a text in the
// legend's band, a line drawn over a text after it, a text off the
// canvas; and none of these for texts apart, a line drawn before a
// text, or a transparent fill.
func TestCheckReportsEachFault(t *testing.T) {
	f := face(t)
	c := New(200, 100)
	c.FillString(f, vg.Point{X: 10, Y: 50}, "first")
	c.FillString(f, vg.Point{X: 15, Y: 52}, "second") // over "first"
	c.FillString(f, vg.Point{X: 120, Y: 5}, "in band")
	c.FillString(f, vg.Point{X: 190, Y: 80}, "off the edge")
	var line vg.Path
	line.Move(vg.Point{X: 100, Y: 20})
	line.Line(vg.Point{X: 100, Y: 30})
	c.Stroke(line) // before "after line": no fault
	c.FillString(f, vg.Point{X: 95, Y: 22}, "after line")
	var over vg.Path
	over.Move(vg.Point{X: 12, Y: 40})
	over.Line(vg.Point{X: 30, Y: 60})
	c.Stroke(over) // across "first", after it
	c.SetColor(color.Transparent)
	var box vg.Path
	box.Move(vg.Point{X: 90, Y: 15})
	box.Line(vg.Point{X: 150, Y: 15})
	box.Line(vg.Point{X: 150, Y: 35})
	box.Close()
	c.Fill(box) // transparent: no fault
	bad := strings.Join(c.Check(vg.Rectangle{Max: vg.Point{X: 200, Y: 12}}, []string{"legend"}), "\n")
	for _, want := range []string{`text "first" overlaps text "second"`, `text "in band" is in the legend's band`,
		`text "off the edge"`, `leaves the canvas`, `text "first" is under a stroke drawn after it`} {
		if !strings.Contains(bad, want) {
			t.Errorf("Check did not report %q; it reported:\n%s", want, bad)
		}
	}
	if strings.Contains(bad, `"after line"`) {
		t.Errorf("Check reported a text drawn after a line, or under a transparent fill:\n%s", bad)
	}
}

// TestRotatedText: a text drawn a quarter turn (an axis label) has an
// upright box as tall as the text is wide.
func TestRotatedText(t *testing.T) {
	f := face(t)
	c := New(100, 200)
	c.Push()
	c.Translate(vg.Point{X: 20, Y: 50})
	c.Rotate(math.Pi / 2)
	c.FillString(f, vg.Point{}, "upright")
	c.Pop()
	b := c.Texts()[0].Box
	w := f.Width("upright")
	if h := b.Max.Y - b.Min.Y; math.Abs(float64(h-w)) > 0.01 || b.Min.Y < 49.99 || b.Max.X > 20+f.Extents().Descent+0.01 {
		t.Errorf("box %v, want from y 50 up by the text's width %v, right of x 20 by its descent at most", b, w)
	}
}
