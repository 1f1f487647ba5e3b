package history

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokubatch/report"
	"sudokubatch/report/chart"

	"gonum.org/v1/plot/vg"
)

// synthNights returns n nights of the strategies, one a day from
// 2026-11-01 23:05 UTC, run "nK", revision rK (40 hex digits); each
// strategy's median is base times slow(night, strategy).
func synthNights(n int, names []string, slow func(night int, solver string) float64) []*Night {
	sig := Signature{Corpora: []CorpusKey{{Name: "sudoku17.txt", SHA256: strings.Repeat("71", 32)}}, Range: "0:300",
		Timeout: int64(100 * time.Millisecond), Runs: 5, CPU: "Test CPU", NumCPU: 2, Workers: 2}
	start := time.Date(2026, 11, 1, 23, 5, 0, 0, time.UTC)
	var nights []*Night
	for i := 1; i <= n; i++ {
		night := &Night{Run: fmt.Sprintf("n%d", i), RunID: fmt.Sprintf("2026110%d-230500", i), Start: start.AddDate(0, 0, i-1),
			Revision: fmt.Sprintf("abc%04d", i) + strings.Repeat("0", 33), Signature: sig, Rows: 300 * len(names), Timed: true}
		for j, name := range names {
			med := float64(int64(100_000) << j)
			if slow != nil {
				med *= slow(i, name)
			}
			m := int64(med)
			night.Strategy = append(night.Strategy, Strategy{Solver: name, Units: 300, Measured: 300,
				Median: Quantile{Value: m, Lo: m * 97 / 100, Hi: m * 103 / 100},
				P90:    Quantile{Value: 4 * m, Lo: 3 * m, Hi: 5 * m},
				P99:    Quantile{Value: 20 * m, Lo: 15 * m, Hi: 30 * m},
				Solved: 300, Calls: 1000 * int64(j+1), Guesses: 100, Statuses: map[string]int{"solved": 300}})
		}
		nights = append(nights, night)
	}
	return nights
}

func ref(s *Series, i int) NightRef {
	n := s.Nights[i-1]
	return NightRef{Index: i, Run: n.Run, Start: n.Start, Revision: n.Revision}
}

// synthReport is a report of the series of synthNights(10, ...) with
// dlx 1.2x slower from night 7: a step at night 7, the newest night's
// time alarm on dlx (acknowledged, with a why text that is HTML), a
// counters alarm on bitboard (new, not acknowledged), and a page for
// each night.
func synthReport(s *Series, why string) *Report {
	newest := len(s.Nights)
	nr := ref(s, newest)
	good := ref(s, max(1, min(6, newest-1)))
	ack := &Ack{Run: nr.Run, RunID: s.Newest().RunID, Solver: "dlx", Why: why, At: nr.Start.Add(8 * time.Hour)}
	timeAlarm := &Alarm{Kind: AlarmTime, Solver: "dlx", Night: nr, Text: "dlx slower ×1.200 [1.150, 1.250] beyond the machine", New: true, Ack: ack,
		Good: &good, Puzzles: []report.PuzzleRef{{Corpus: "sudoku17.txt", ID: 39949, Line: 39950, Label: "#39949"}},
		Bisect: "trend/bisect-" + s.ID + "-dlx-" + nr.Run + ".sh"}
	stepAlarm := &Alarm{Kind: AlarmStep, Solver: "norvig", Night: ref(s, max(1, newest-3)), Text: "norvig: a step up", New: true,
		Puzzles: []report.PuzzleRef{{ID: 8145, Label: "#8145"}}}
	countersAlarm := &Alarm{Kind: AlarmCounters, Solver: "bitboard", Night: nr, Text: "bitboard: counters changed on 3 of 300 units", New: true,
		Good: &good, Puzzles: []report.PuzzleRef{{ID: 12, Label: "#12"}, {ID: 2018, Label: "#2018"}}}
	r := &Report{Series: s, Newest: s.Newest(), Options: Options{Baseline: 7, Threshold: 0.05},
		Machine: &MachineChange{Ratio: 1.012, Strategies: 3, Used: true},
		Alarms:  []*Alarm{timeAlarm, countersAlarm, stepAlarm},
		Steps:   []*Step{{Solver: "dlx", Night: ref(s, min(7, newest)), Before: 200_000, After: 240_000, Ratio: 1.2, New: false}},
		Notes:   []string{"bitboard: the rows of night 3 are gone (pruned)"},
	}
	for _, name := range []string{"norvig", "dlx", "bitboard"} {
		st := &StrategyTrend{Solver: name, Last: s.Newest().StrategyNamed(name), Verdict: VerdictNoChange,
			Gate: &Gate{Pairs: 300, BaseNS: report.Estimate{Value: 100_000}, NewNS: report.Estimate{Value: 101_000},
				Ratio: report.Ratio{Value: 1.01}, CI: report.RatioCI{Lo: 0.995, Hi: 1.021}, Machine: 1.012, Adjusted: 0.998,
				AdjustedCI: report.RatioCI{Lo: 0.983, Hi: 1.009}, Verdict: VerdictNoChange},
			Counters: &CounterChange{Previous: "n9", Compared: 300}}
		switch name {
		case "dlx":
			st.Verdict = VerdictAcknowledged
			st.Ack = ack
			st.Gate.Ratio, st.Gate.CI = report.Ratio{Value: 1.214}, report.RatioCI{Lo: 1.16, Hi: 1.26}
			st.Gate.Adjusted, st.Gate.AdjustedCI, st.Gate.Verdict = 1.2, report.RatioCI{Lo: 1.15, Hi: 1.25}, VerdictSlower
			st.Gate.Spread = 1.03
			st.Gate.Moved = []Moved{{Puzzle: report.PuzzleRef{ID: 39949, Label: "#39949"}, OldNS: 1_000_000, NewNS: 1_300_000, Ratio: 1.3, Confirmed: true}}
		case "bitboard":
			st.Verdict = VerdictCounters
			st.Counters.Changed = 3
			st.Counters.IDs = countersAlarm.Puzzles
		}
		r.Strategies = append(r.Strategies, st)
	}
	for i := range s.Nights {
		row := &NightRow{Night: ref(s, i+1), Page: s.Nights[i].Run + "/index.html", Verdicts: map[string]string{}}
		if i+1 >= 4 {
			for _, name := range []string{"norvig", "dlx", "bitboard"} {
				row.Verdicts[name] = VerdictNoChange
			}
		}
		if i+1 == 7 {
			row.Verdicts["dlx"] = VerdictSlower
			row.Alarms = []*Alarm{{Kind: AlarmTime, Solver: "dlx", Night: row.Night, Text: "dlx slower", New: true}}
		}
		if i+1 == newest {
			row.Verdicts["dlx"] = VerdictAcknowledged
			row.Verdicts["bitboard"] = VerdictCounters
			row.Alarms = r.Alarms
		}
		r.Nights = append(r.Nights, row)
	}
	return r
}

func slowDLX(night int, solver string) float64 {
	if solver == "dlx" && night >= 7 {
		return 1.2
	}
	return 1
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFilesWritesTrendFiles(t *testing.T) {
	root := t.TempDir()
	s := Group(synthNights(10, []string{"norvig", "dlx", "bitboard"}, slowDLX))[0]
	busy := 0.25
	s.Nights[6].OtherShare = &busy
	h := &History{Series: []*Series{s}, Skipped: []Skipped{{Run: "n11", Reason: "not finished (status running)"}}}
	written, err := WriteFiles(root, h, []*Report{synthReport(s, "known: the new dlx column order")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{TrendMD, TrendJSON, PageFile}
	for _, m := range []string{"median", "p99", "calls", "timeouts"} {
		want = append(want, "trend/"+s.ID+"-"+m+".png", "trend/"+s.ID+"-"+m+".svg", "trend/"+s.ID+"-"+m+"-small.png")
	}
	if len(written) != len(want) {
		t.Errorf("written %d files %q, want %d", len(written), written, len(want))
	}
	for _, w := range want {
		path := filepath.Join(root, filepath.FromSlash(w))
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: not written (%v)", w, err)
		}
	}

	md := readFile(t, filepath.Join(root, TrendMD))
	for _, want := range []string{
		"## Series 1/1 " + s.ID + ": 10 nights",
		"| dlx | 240µs [233µs, 247µs] | 100µs | ×1.214 [1.160, 1.260] | ×1.012 | ×1.200 [1.150, 1.250] | ×1.030 | – | same (300) | acknowledged: known: the new dlx column order |",
		"| bitboard |", "3 of 300 changed", "**counters changed**",
		"new time alarm: dlx, night 10 (n10",
		"Acknowledged: known: the new dlx column order (annotation of n10",
		"**new counters alarm: bitboard",
		"Not acknowledged: batch trend -ack n10 bitboard \"why\"",
		"Last good night: 6 (n6",
		"Bisect script: [trend/bisect-" + s.ID + "-dlx-n10.sh](./trend/bisect-" + s.ID + "-dlx-n10.sh); in the tool's work tree, after the git bisect start of its header: ` git bisect run sh " + filepath.Join(root, "trend", "bisect-"+s.ID+"-dlx-n10.sh") + " `",
		"| #39949 | 1.00ms | 1.30ms | ×1.300 | yes |",
		"Puzzles: #12, #2018 and 1 more.",
		"**new step alarm: norvig, night 7 (n7, 2026-11-07 23:05 UTC): norvig: a step up**",
		"Puzzles: #8145.",
		"| dlx | 7 | 2026-11-07 | abc0007 | 200µs | 240µs | ×1.200 | reported before |",
		"- bitboard: the rows of night 3 are gone (pruned)",
		"| 7 | 2026-11-07 23:05 | abc0007 | [n7](./n7/index.html) | **25%** | norvig: no change; dlx: slower; bitboard: no change | time dlx |",
		"| 6 | 2026-11-06 23:05 | abc0006 | [n6](./n6/index.html) | – |",
		"| n11 | not finished (status running) |",
		"[median time per night — series " + s.ID + "](./trend/" + s.ID + "-median.png)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("trend.md lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("trend.md:\n%s", md)
	}

	var f TrendFile
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, TrendJSON))), &f); err != nil {
		t.Fatal(err)
	}
	if f.Version != TrendFileVersion || f.Unacknowledged != 2 || len(f.Series) != 1 || len(f.Skipped) != 1 {
		t.Fatalf("trend.json: version %d, %d unacknowledged, %d series, %d skipped; want %d, 2, 1, 1", f.Version, f.Unacknowledged, len(f.Series), len(f.Skipped), TrendFileVersion)
	}
	ts := f.Series[0]
	if ts.ID != s.ID || !ts.Evaluated || ts.Newest.Run != "n10" || len(ts.Nights) != 10 || ts.Nights[6].Page != "n7/index.html" ||
		len(ts.Strategies) != 3 || ts.Strategies[1].Gate.Adjusted != 1.2 || len(ts.Alarms) != 3 || ts.Alarms[0].Ack == nil ||
		len(ts.Steps) != 1 || ts.Steps[0].Night.Index != 7 || len(ts.Charts) != 4 || ts.Options.Threshold != 0.05 || ts.Options.Top != DefaultTop || ts.Options.Busy != DefaultBusy {
		t.Errorf("trend.json series: %+v", ts)
	}

	page := readFile(t, filepath.Join(root, PageFile))
	for _, want := range []string{
		`<h2 id="s-` + s.ID + `">Series 1/1 ` + s.ID + `: 10 nights</h2>`,
		`<object class="wide" data="./trend/` + s.ID + `-median.svg" type="image/svg+xml" width="900" height="500" style="aspect-ratio: 900 / 500" aria-label="median time per night — series ` + s.ID + `"><img src="./trend/` + s.ID + `-median.png"`,
		`<img src="./trend/` + s.ID + `-median-small.png" alt="median time per night — series ` + s.ID + `" width="500" height="333" loading="lazy">`,
		`<a href="./n7/index.html">n7</a>`,
		`<b>2 new alarms not acknowledged</b>`,
		`<td class="text alarm">slower</td>`,
		`<a href="./n7/index.html">n7</a></td><td class="warn">25%</td>`,
		`Acknowledged: known: the new dlx column order`,
		`<a href="./trend/bisect-` + s.ID + `-dlx-n10.sh">`,
		`<td>#39949</td><td>1.00ms</td><td>1.30ms</td>`,
		`<td>n11</td><td class="text">not finished (status running)</td>`,
		`<span class="swatch" style="background: ` + hexColor("norvig") + `"></span>norvig`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	for _, bad := range []string{"http:", "https:", "<script", "//cdn"} {
		if strings.Contains(page, bad) {
			t.Errorf("index.html holds %q: the page must work offline, without scripts", bad)
		}
	}
	if t.Failed() {
		t.Logf("index.html:\n%s", page)
	}
}

func TestWriteFilesEscapesHostileNames(t *testing.T) {
	root := t.TempDir()
	nights := synthNights(4, []string{"norvig"}, nil)
	hostile := `n4 <img src=x onerror=alert(1)>|*x*`
	nights[3].Run = hostile
	s := Group(nights)[0]
	why := `"><script>alert("why")</script> & | ` + "`rm -rf`"
	r := synthReport(s, why)
	r.Alarms[0].Text = "[click](javascript:alert(1))"
	h := &History{Series: []*Series{s}, Skipped: []Skipped{{Run: "<b>bold</b>", Reason: "</td><script>x()</script>"}}}
	if _, err := WriteFiles(root, h, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(root, PageFile))
	for _, bad := range []string{"<script>", "<img src=x", "<b>bold"} {
		if strings.Contains(page, bad) {
			t.Errorf("index.html holds %q unescaped", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(&#34;why&#34;)&lt;/script&gt; &amp; |", "n4 &lt;img src=x onerror=alert(1)&gt;|*x*",
		`href="./n4%20%3Cimg%20src=x%20onerror=alert%281%29%3E%7C%2Ax%2A/index.html"`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	md := readFile(t, filepath.Join(root, TrendMD))
	if want := "` git bisect run sh '" + filepath.Join(root, "trend", "bisect-"+s.ID+"-dlx-"+hostile+".sh") + "' `"; !strings.Contains(md, want) {
		t.Errorf("trend.md lacks the quoted bisect command %q", want)
	}
	outsideCode := regexp.MustCompile("`+ [^`\n]* `+").ReplaceAllString(md, "")
	for _, bad := range []string{"<script>", "<img", "<b>"} {
		if strings.Contains(outsideCode, bad) {
			t.Errorf("trend.md holds %q unescaped:\n%s", bad, md)
		}
	}
	if strings.Contains(md, "](javascript") {
		t.Errorf("trend.md makes a link of an alarm's text")
	}
	if want := `| n4 &lt;img src=x onerror=alert(1)&gt;\|\*x\* |`; !strings.Contains(md, want) && !strings.Contains(md, `[n4 &lt;img src=x onerror=alert(1)&gt;\|\*x\*](`) {
		t.Errorf("trend.md lacks the escaped run name %q", want)
	}
	var f TrendFile
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, TrendJSON))), &f); err != nil {
		t.Fatal(err)
	}
	if got := f.Series[0].Alarms[0].Ack.Why; got != why {
		t.Errorf("trend.json: why %q, want %q as given", got, why)
	}
}

func TestWriteFilesWithoutReport(t *testing.T) {
	root := t.TempDir()
	s := Group(synthNights(3, []string{"norvig", "dlx"}, nil))[0]
	if err := os.MkdirAll(filepath.Join(root, "n2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "n2", "index.html"), []byte("page"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(root, &History{Series: []*Series{s}}, []*Report{nil}); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(root, PageFile))
	for _, want := range []string{"The detectors did not run on this series", `<a href="./n2/index.html">n2</a>`, `<td class="text">n3</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	var f TrendFile
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, TrendJSON))), &f); err != nil {
		t.Fatal(err)
	}
	if ts := f.Series[0]; ts.Evaluated || len(ts.Nights) != 3 || ts.Nights[0].Night.Run != "n1" || ts.Nights[1].Page != "n2/index.html" || ts.Nights[2].Page != "" ||
		ts.Strategies == nil || len(ts.Notes) != 1 {
		t.Errorf("trend.json of a series without report: %+v", ts)
	}
	// A run named outside the root: its page by its absolute path.
	r := synthReport(s, "why")
	r.Nights[0].Page = "/srv/other nights/n1/index.html"
	if _, err := WriteFiles(root, &History{Series: []*Series{s}}, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	page = readFile(t, filepath.Join(root, PageFile))
	for _, want := range []string{`<a href="file:///srv/other%20nights/n1/index.html">n1</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}

func TestWriteFilesEmptyHistory(t *testing.T) {
	root := t.TempDir()
	written, err := WriteFiles(root, &History{Skipped: []Skipped{{Run: "n1", Reason: "no summary.json"}}}, nil)
	if err != nil || len(written) != 3 {
		t.Fatalf("WriteFiles of no series: %q, %v; want trend.md, trend.json, index.html", written, err)
	}
	var f TrendFile
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, TrendJSON))), &f); err != nil {
		t.Fatal(err)
	}
	if f.Series == nil || len(f.Series) != 0 || len(f.Skipped) != 1 {
		t.Errorf("trend.json of no series: %+v; want series [] and the skipped run", f)
	}
	if _, err := WriteFiles(root, &History{}, []*Report{nil}); err == nil {
		t.Errorf("WriteFiles took a report for a series that is not there")
	}
}

// decodePNG decodes a chart and checks its size.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if sz := img.Bounds().Size(); sz != (image.Point{900, 500}) {
		t.Errorf("%s: %v pixels, want 900x500", path, sz)
	}
	return img
}

func TestTrendChartsDraw(t *testing.T) {
	zero := func(night int, solver string) float64 {
		if solver == "dlx" {
			return 0
		}
		return 1
	}
	for _, tc := range []struct {
		name   string
		nights int
		slow   func(int, string) float64
	}{
		{"one night", 1, nil},
		{"400 nights", 400, slowDLX},
		{"zero values", 12, zero},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			s := Group(synthNights(tc.nights, []string{"norvig", "dlx", "bitboard"}, tc.slow))[0]
			if tc.name == "zero values" {
				for _, n := range s.Nights {
					st := n.StrategyNamed("dlx")
					st.P99, st.Calls, st.Median.Lo, st.Median.Hi = Quantile{}, 0, 0, 0
				}
			}
			if tc.nights == 400 {
				for _, n := range s.Nights {
					n.StrategyNamed("dlx").P99.Bound = "lower"
				}
			}
			start := time.Now()
			charts, err := writeCharts(root, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d charts in %v", len(charts), time.Since(start))
			if len(charts) != len(chartMeasures) {
				t.Fatalf("%d charts, want %d", len(charts), len(chartMeasures))
			}
			for _, c := range charts {
				decodePNG(t, filepath.Join(root, c.PNG))
				svg, err := os.ReadFile(filepath.Join(root, c.SVG))
				if err != nil {
					t.Fatal(err)
				}
				for dec := xml.NewDecoder(bytes.NewReader(svg)); ; {
					if _, err := dec.Token(); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("%s: not XML: %v", c.SVG, err)
					}
				}
			}
			if want := "400 values are lower bounds: units stopped by a limit made the value a lower bound (a triangle every 7 nights)"; tc.nights == 400 && !strings.Contains(charts[1].Caption, want) {
				t.Errorf("p99 caption %q lacks %q", charts[1].Caption, want)
			}
			if tc.name == "zero values" && !strings.Contains(charts[0].Caption, "12 values below 1 drawn at 1") {
				t.Errorf("median caption %q does not say 12 values were drawn at 1", charts[0].Caption)
			}
		})
	}
}

// countColor counts the pixels of img of color c (within a small
// tolerance for antialiasing).
func countColor(img image.Image, r0, g0, b0 uint32) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			d := func(a, b uint32) uint32 {
				if a > b {
					return a - b
				}
				return b - a
			}
			if d(r>>8, r0)+d(g>>8, g0)+d(b>>8, b0) < 30 {
				n++
			}
		}
	}
	return n
}

func TestTrendChartMarksAlarmsAndSteps(t *testing.T) {
	s := Group(synthNights(10, []string{"norvig", "dlx", "bitboard"}, slowDLX))[0]
	r := synthReport(s, "why")
	r.Nights[9].Alarms = nil
	r.Alarms[0].Ack = nil // the newest night's time alarm: red, unacknowledged
	plain := &marks{}
	mk := chartMarks(s, r)
	if len(mk.alarms) != 4 || len(mk.steps) != 1 {
		t.Fatalf("marks: %d alarms, %d steps; want 4 (night 7's, the three of the report) and 1", len(mk.alarms), len(mk.steps))
	}
	render := func(mk *marks) image.Image {
		f, caption := buildChart(s, &chartMeasures[0], mk, nil)
		if mk != plain && (!strings.Contains(caption, "dashed line") || !strings.Contains(caption, "ring")) {
			t.Errorf("caption %q does not explain the marks", caption)
		}
		b, err := f.Render("png")
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	red := func(img image.Image) int { return countColor(img, 0xD0, 0x00, 0x20) }
	without, with := red(render(plain)), red(render(mk))
	if without != 0 || with < 100 {
		t.Errorf("alarm-red pixels: %d without marks, %d with three alarms of time and steps; want 0 and rings' worth (>= 100)", without, with)
	}
}

func TestNightTickerThins(t *testing.T) {
	for _, n := range []int{1, 5, 8, 9, 60, 400} {
		labels := nightLabels(synthNights(n, []string{"dlx"}, nil))
		ticks := nightTicker{labels: labels}.Ticks(0.5, float64(n)+0.5)
		labelled := 0
		for _, tk := range ticks {
			if tk.Label != "" {
				labelled++
			}
		}
		if want := min(n, maxXLabels); labelled > want || labelled < (want+1)/2 || ticks[0].Label != labels[0] {
			t.Errorf("%d nights: %d labelled ticks (first %q), want at most %d, the first night first", n, labelled, ticks[0].Label, want)
		}
	}
	// Nights a few seconds apart have long labels: on the small figure
	// fewer of them fit, and those drawn do not overlap.
	close := synthNights(9, []string{"dlx"}, nil)
	for i := range close {
		close[i].Start = close[0].Start.Add(time.Duration(i) * 2 * time.Second)
	}
	f := chart.NewFigure("t", "x", "y", trendWidth, trendHeight)
	style := f.Plot.X.Tick.Label
	for _, room := range []vg.Length{trendWidth - xAxisInset, chart.SmallWidth - xAxisInset} {
		tk := nightTicker{labels: nightLabels(close), room: room, style: style}
		var used vg.Length
		labelled := 0
		for _, x := range tk.Ticks(0.5, 9.5) {
			if x.Label != "" {
				used += style.Width(x.Label) + style.Font.Size
				labelled++
			}
		}
		if used > room || labelled == 0 {
			t.Errorf("room %.0fpt: %d labels take %.0fpt", float64(room), labelled, float64(used))
		}
	}
	if got := nightLabels(synthNights(1, []string{"dlx"}, nil))[0]; got != "2026-11-01\nabc0001" {
		t.Errorf("label %q, want date and 7 hex digits", got)
	}
	same := synthNights(2, []string{"dlx"}, nil)
	same[1].Start = same[0].Start.Add(15 * time.Minute)
	if got := nightLabels(same); got[1] != "11-01 23:20\nabc0002" {
		t.Errorf("label of the second night of a day %q, want its time", got[1])
	}
	for rev, want := range map[string]string{"0123456789abcdef0123456789abcdef01234567+dirty": "0123456+",
		"0c689fb3e3042f1a98c54f5b9f8a79d75d61dfba (checkout)": "0c689fb", "unknown": "unknown", "(devel)": "(devel)", "": "unknown"} {
		if got := ShortRevision(rev); got != want {
			t.Errorf("ShortRevision(%q) = %q, want %q", rev, got, want)
		}
	}
}

// TestPageExplainsEachTablesSymbols (issue 37): a mark a table's cells
// carry (≥ or ≤ a bound, ~ a ratio of two bounds, a busy night in
// orange) is explained in the note right under that table.
func TestPageExplainsEachTablesSymbols(t *testing.T) {
	root := t.TempDir()
	s := Group(synthNights(10, []string{"norvig", "dlx", "bitboard"}, slowDLX))[0]
	busy := 0.25
	s.Nights[6].OtherShare = &busy
	r := synthReport(s, "known")
	last := *r.Strategies[0].Last
	last.Median.Bound = "lower" // norvig's median reached a limit
	r.Strategies[0].Last = &last
	r.Strategies[2].Gate.Ratio = report.Ratio{Value: 1.5, Either: true}
	if _, err := WriteFiles(root, &History{Series: []*Series{s}}, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(root, PageFile))
	marks := map[string]*regexp.Regexp{
		"≥":    regexp.MustCompile(`<td>≥`),
		"≤":    regexp.MustCompile(`<td>≤`),
		"~":    regexp.MustCompile(`<td>~`),
		"busy": regexp.MustCompile(`<td class="warn">`),
	}
	seen := map[string]bool{}
	tables := strings.Split(page, "</table></div>")
	for i, table := range tables[:len(tables)-1] {
		after := tables[i+1]
		note := ""
		if rest, ok := strings.CutPrefix(strings.TrimSpace(after), `<p class="note">`); ok {
			note, _, _ = strings.Cut(rest, "</p>")
		}
		for mark, re := range marks {
			if !re.MatchString(table[strings.LastIndex(table, "<table"):]) {
				continue
			}
			seen[mark] = true
			if !strings.Contains(note, mark) {
				t.Errorf("table %d holds cells marked %s, its note does not explain it: %q", i+1, mark, note)
			}
		}
	}
	for _, mark := range []string{"≥", "~", "busy"} {
		if !seen[mark] {
			t.Errorf("no table holds a cell marked %s: the fixture no longer tests it", mark)
		}
	}
	if t.Failed() {
		t.Logf("index.html:\n%s", page)
	}
}
