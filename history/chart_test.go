package history

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg/draw"

	"sudokubatch/internal/vgrec"
	"sudokubatch/report"
	"sudokubatch/report/chart"
)

// TestTrendChartsFitAndLabel: every trend chart of a series (steps and
// alarms marked) has its texts clear of each other, of the legend and of
// what is drawn after them; its y axis spans its values and a margin
// (a 46 ms median is not drawn on an axis up to seconds, calls in the
// thousands not up to 1e14), with a label each decade in k/M/G, never an
// exponent; its x labels give each night's date and short revision.
func TestTrendChartsFitAndLabel(t *testing.T) {
	s := Group(synthNights(10, []string{"norvig", "dlx", "bitboard"}, slowDLX))[0]
	// A lower-bound median whose interval has no upper end within the
	// units: the band must not stretch the axis.
	s.Nights[4].Strategy[0].Median.Hi = 30e9
	r := synthReport(s, "why")
	mk := chartMarks(s, r)
	for i := range chartMeasures {
		m := &chartMeasures[i]
		f, _ := buildChart(s, m, mk, nightPages("/root", r))
		rec := vgrec.New(f.Width, f.Height)
		f.Draw(draw.New(rec))
		for _, bad := range rec.Check(f.LegendRect(), f.Legend.Texts()) {
			t.Errorf("%s: %s", m.Name, bad)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, n := range s.Nights {
			for _, st := range n.Strategy {
				v, _, _, _ := m.Value(&st)
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		p := f.Plot
		if m.Log {
			if top := math.Pow(10, p.Y.Max); top > 2*hi {
				t.Errorf("%s: the y axis reaches %s for values up to %s", m.Name, m.format(top, false), m.format(hi, false))
			}
			if bottom := math.Pow(10, p.Y.Min); bottom < lo/2 {
				t.Errorf("%s: the y axis starts at %s for values from %s", m.Name, m.format(bottom, false), m.format(lo, false))
			}
			labelled := map[int]bool{}
			for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
				if tk.Label != "" && tk.Value == math.Round(tk.Value) {
					labelled[int(tk.Value)] = true
				}
			}
			for d := int(math.Ceil(p.Y.Min)); d <= int(math.Floor(p.Y.Max)); d++ {
				if !labelled[d] {
					t.Errorf("%s: decade 1e%d unlabelled", m.Name, d)
				}
			}
		}
		exp := regexp.MustCompile(`\de[+-]?\d`)
		for _, o := range rec.Texts() {
			if exp.MatchString(o.Text) {
				t.Errorf("%s: %q in exponent notation", m.Name, o.Text)
			}
		}
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if tk.Label != "" && !regexp.MustCompile(`^2026-11-\d\d\nabc\d{4}$`).MatchString(tk.Label) {
				t.Errorf("%s: x label %q, want the date and the short revision", m.Name, tk.Label)
			}
		}
	}
}

// TestTrendChartSVGHover: each point of a trend chart's SVG names its
// night, date, revision and value on hover and links the night's page,
// relative to the charts' directory.
func TestTrendChartSVGHover(t *testing.T) {
	s := Group(synthNights(3, []string{"dlx"}, nil))[0]
	r := synthReport(s, "why")
	f, _ := buildChart(s, &chartMeasures[0], chartMarks(s, r), nightPages("/root", r))
	b, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for i, n := range s.Nights {
		want := `<a href="../` + n.Run + `/index.html" target="_top"><circle`
		if !strings.Contains(svg, want) {
			t.Errorf("night %d: no link %q in the SVG", i+1, want)
		}
		title := "night " + string(rune('1'+i)) + " (" + n.Run + "), " + n.Start.UTC().Format("2006-01-02 15:04") + " UTC, revision " +
			ShortRevision(n.Revision) + ": dlx median time " + report.FormatDuration(time.Duration(n.Strategy[0].Median.Value))
		if !strings.Contains(svg, "<title>"+title+"</title>") {
			t.Errorf("night %d: no title %q in the SVG", i+1, title)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(svg), "</svg>") {
		t.Errorf("the SVG does not end with </svg>")
	}
}

// TestStrategyColorEverywhere: a strategy has one color on the run's
// charts, the comparisons', the strips' and the history's (its swatch on
// the history page included), whatever the order of the run's
// strategies; the registered strategies' colors all differ.
func TestStrategyColorEverywhere(t *testing.T) {
	seen := map[string]string{}
	for _, name := range []string{"backtrack", "bruteforce", "singles", "randmrv", "norvig", "dlx", "bitboard"} {
		c := chart.HexColor(chart.StrategyColor(name))
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share the color %s", name, other, c)
		}
		seen[c] = name
		if got := hexColor(name); got != c {
			t.Errorf("%s: %s on the history page, %s on the charts", name, got, c)
		}
	}
	// The trend chart draws each strategy's line in its color.
	s := Group(synthNights(2, []string{"bitboard", "dlx"}, nil))[0]
	f, _ := buildChart(s, &chartMeasures[0], &marks{}, nil)
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bitboard", "dlx"} {
		if c := chart.HexColor(chart.StrategyColor(name)); !strings.Contains(strings.ToLower(string(svg)), "stroke:"+c) {
			t.Errorf("%s: its color %s is not on the trend chart", name, c)
		}
	}
}
