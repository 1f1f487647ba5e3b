package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// The detectors on synthetic nights with rows (synthSweep), as trend
// runs them: Trend, the verdicts kept, what was told recorded.

// trendOnce runs one trend over root as batch trend does (Trend, the
// verdicts kept, what it told recorded) and returns its outcome.
func trendOnce(t *testing.T, root string, opt Options) *Outcome {
	t.Helper()
	o, err := Trend(context.Background(), root, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Index.SaveMemo(o.Refresh.Path, o.Memo); err != nil {
		t.Fatal(err)
	}
	o.Record(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	if len(o.Failed) > 0 {
		t.Fatal(o.Failed)
	}
	return o
}

// newAlarms returns the alarms o exits 1 on, as "solver kind night".
func newAlarms(o *Outcome) []string {
	var out []string
	for _, a := range o.Counted() {
		out = append(out, fmt.Sprintf("%s %s %s", a.Solver, a.Kind, a.Night.Run))
	}
	return out
}

func TestBusyNightsAreJudgedAgainstBusyNights(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 12; k++ {
		sw := sweep{name: fmt.Sprintf("n%02d", k), day: k, share: 0.66 + 0.02*float64(k%8), machine: 1 + 0.03*float64(k%3)}
		if k >= 9 {
			sw.slow, sw.binary = map[string]float64{"bitboard": 1.28}, "sha256:slow"
		}
		synthSweep(t, root, sw)
		o := trendOnce(t, root, Options{})
		got := newAlarms(o)
		want := []string(nil)
		if k == 9 {
			want = []string{"bitboard time n09"}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("night %d: new alarms %v, want %v\n%s", k, got, want, textOf(t, o))
		}
		if bb := trendOf(o.Reports[0], "bitboard"); k > 9 && bb.Verdict != VerdictStillSlower {
			t.Fatalf("night %d: bitboard %q, want still slower\n%s", k, bb.Verdict, textOf(t, o))
		}
	}
}

func TestCrossLoadSlowdownIsWithheldAndKeptOutOfBaselines(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 6; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%02d", k), day: k})
	}
	// Night 7, busy, dlx slower: no busy baseline, so not judged.
	synthSweep(t, root, sweep{name: "n07", day: 7, share: 0.5, slow: map[string]float64{"dlx": 1.3}, binary: "sha256:slow"})
	o := trendOnce(t, root, Options{})
	if dlx := trendOf(o.Reports[0], "dlx"); dlx.Verdict != VerdictBusy || len(newAlarms(o)) != 0 {
		t.Fatalf("night 7: dlx %q, alarms %v, want %q and none\n%s", dlx.Verdict, newAlarms(o), VerdictBusy, textOf(t, o))
	}
	// Night 8, quiet, dlx as slow: judged against the quiet nights 1-6,
	// night 7 in no baseline: the alarm.
	synthSweep(t, root, sweep{name: "n08", day: 8, slow: map[string]float64{"dlx": 1.3}, binary: "sha256:slow"})
	o = trendOnce(t, root, Options{})
	if got := newAlarms(o); !slices.Equal(got, []string{"dlx time n08"}) {
		t.Fatalf("night 8: alarms %v, want dlx's\n%s", got, textOf(t, o))
	}
	if g := trendOf(o.Reports[0], "dlx").Gate; slices.Contains(g.Baseline, "n07") || len(g.Baseline) != 6 {
		t.Errorf("night 8's baseline %v: want nights 1-6, not the withheld night 7", g.Baseline)
	}
}

func TestBlindGateIsSaidEveryNight(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 5; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%02d", k), day: k})
	}
	// Busy from night 6 on, dlx slower: withheld night after night (its
	// slow nights enter no baseline, so no busy baseline ever forms).
	for k := 6; k <= 9; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%02d", k), day: k, share: 0.7, slow: map[string]float64{"dlx": 1.3}, binary: "sha256:slow"})
		o := trendOnce(t, root, Options{})
		r := o.Reports[0]
		blind := k-5 >= BlindNights
		if got := len(r.Blind) == 1 && r.Blind[0].Solver == "dlx"; got != blind {
			t.Errorf("night %d: blind %+v, want dlx blind %t", k, r.Blind, blind)
		}
		note, fail := o.Exit()
		if blind && (fail || !strings.Contains(note, "the gate is blind to dlx")) {
			t.Errorf("night %d: exit note %q (exit 1 %t), want exit 0 saying the gate is blind to dlx", k, note, fail)
		}
		if k == 9 {
			if _, err := o.WriteFiles(); err != nil {
				t.Fatal(err)
			}
			if page := readFile(t, filepath.Join(root, PageFile)); !strings.Contains(page, `<p class="banner">The gate is blind to dlx: it judged none of its last 4 nights`) {
				t.Errorf("the history page does not say the gate is blind to dlx")
			}
		}
	}
}

func TestStepsWhenEveryNightIsBusy(t *testing.T) {
	medians := map[string][]float64{"a": make([]float64, 10), "b": make([]float64, 10), "c": make([]float64, 10)}
	for k := range 10 {
		medians["a"][k], medians["b"][k], medians["c"][k] = 1000, 2000, 4000
		if k >= 5 {
			medians["c"][k] = 5200
		}
	}
	s := seriesOf(medians)
	busy := 0.8
	for _, n := range s.Nights {
		n.OtherShare = &busy
	}
	steps := findSteps(s, len(s.Nights), nil, Options{}.withDefaults())
	if len(steps) != 1 || steps[0].Solver != "c" || steps[0].Night.Index != 6 {
		t.Errorf("every night busy, c x1.3 from night 6: steps %+v, want c's from night 6", steps)
	}
}

func TestAlarmIsNewUntilDelivered(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 10; k++ {
		sw := sweep{name: fmt.Sprintf("n%02d", k), day: k}
		if k >= 7 {
			sw.slow, sw.binary = map[string]float64{"bitboard": 1.25}, "sha256:slow"
		}
		if k >= 8 {
			sw.bump = map[string][]int{"norvig": {3, 9}}
			sw.binary = "sha256:slow2"
		}
		synthSweep(t, root, sw)
	}
	o := trendOnce(t, root, Options{})
	if got := newAlarms(o); !slices.Equal(got, []string{"bitboard time n10", "norvig counters n08"}) {
		t.Fatalf("first trend after 10 nights: %v, want bitboard's slowdown and norvig's counters of night 8\n%s", got, textOf(t, o))
	}
	a := o.Counted()[0]
	if a.Start.Run != "n07" || a.Good == nil || a.Good.Run != "n06" {
		t.Errorf("the slowdown starts %s, good night %+v: want n07 and n06", a.Start.Run, a.Good)
	}
	o = trendOnce(t, root, Options{})
	if got := newAlarms(o); len(got) != 0 {
		t.Errorf("second trend: %v, want none (told)", got)
	}
	if a := o.Reports[0].Alarms[0]; a.New || a.Delivered == nil {
		t.Errorf("second trend: %+v, want the slowdown known, with when it was told", a)
	}
	d, err := ReadDelivered(root)
	if err != nil || d.Series[o.History.Series[0].ID].Trended != "n10" {
		t.Errorf("%s: %+v, %v: want n10 trended", DeliveryFile, d, err)
	}
}

func TestCountersComparedWithTheNewestNightWithRows(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 4; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%d", k), day: k})
	}
	os.Remove(filepath.Join(root, "n4", rundir.ResultsFile))
	os.Remove(filepath.Join(root, "n3", rundir.ResultsFile))
	synthSweep(t, root, sweep{name: "n5", day: 5, bump: map[string][]int{"dlx": {1, 2, 3}}, binary: "sha256:b"})
	r := evaluateRoot(t, root, Options{})
	c := trendOf(r, "dlx").Counters
	if c.Previous != "n2" || c.Changed != 3 || !slices.Equal(c.Passed, []string{"n4", "n3"}) {
		t.Errorf("dlx's counters: %+v, want 3 changed against n2, n4 and n3 passed over", c)
	}
	for _, name := range []string{"n1", "n2"} {
		os.Remove(filepath.Join(root, name, rundir.ResultsFile))
	}
	r = evaluateRoot(t, root, Options{})
	if c := trendOf(r, "dlx").Counters; !strings.Contains(c.Skipped, "no earlier night of the series has its rows (those of n4, n3, n2 and 1 more are gone") {
		t.Errorf("no earlier rows: %+v, want why", c)
	}
}

func TestMissingStrategyIsAnAlarm(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 4; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%d", k), day: k})
	}
	synthSweep(t, root, sweep{name: "n5", day: 5, solvers: []string{"norvig", "dlx"}})
	o := trendOnce(t, root, Options{})
	if got := newAlarms(o); !slices.Equal(got, []string{"bitboard missing n5"}) {
		t.Fatalf("night 5 without bitboard: %v, want bitboard missing\n%s", got, textOf(t, o))
	}
	if st := trendOf(o.Reports[0], "bitboard"); st == nil || st.Verdict != VerdictMissing {
		t.Errorf("bitboard's line: %+v, want %q", st, VerdictMissing)
	}
	synthSweep(t, root, sweep{name: "n6", day: 6, solvers: []string{"norvig", "dlx"}})
	if got := newAlarms(trendOnce(t, root, Options{})); len(got) != 0 {
		t.Errorf("night 6, bitboard still missing: %v, want no new alarm (told on night 5)", got)
	}
}

func TestExploratoryTrendKeepsTheMemo(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 5; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%d", k), day: k})
	}
	trendOnce(t, root, Options{})
	idx, err := ReadIndex(filepath.Join(root, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	before := idx.Lookup("n5").Verdicts
	// Runs named, other settings: evaluated, not kept.
	o, err := Trend(context.Background(), root, []string{filepath.Join(root, "n4"), filepath.Join(root, "n5")}, Options{Busy: 1})
	if err != nil {
		t.Fatal(err)
	}
	if written, err := o.WriteFiles(); len(written) > 0 || err != nil {
		t.Errorf("a trend of runs named wrote %v (%v)", written, err)
	}
	if line := o.FilesLine(nil); !strings.HasPrefix(line, "(runs named: trend.md, trend.json, ") || !strings.HasSuffix(line, "batch trend -root "+root+" writes them)") {
		t.Errorf("FilesLine of runs named: %q", line)
	}
	if line := o.EndLine(1234567 * time.Microsecond); !regexp.MustCompile(`^trend: \d+ nights? in 1 series in 1\.235s$`).MatchString(line) {
		t.Errorf("EndLine: %q", line)
	}
	if line := (&Outcome{Root: root}).FilesLine([]string{"a", "b", "c", "d", "e"}); line != "wrote trend.md, trend.json, "+PageFile+" and 2 chart files (PNG, SVG and a small PNG each) in "+root {
		t.Errorf("FilesLine: %q", line)
	}
	idx, err = ReadIndex(filepath.Join(root, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if after := idx.Lookup("n5").Verdicts; !sameMemo(before, after) {
		t.Errorf("a trend of runs named changed n5's kept verdicts: %+v, then %+v", before, after)
	}
	// Over the whole root with other settings: kept beside, not instead.
	trendOnce(t, root, Options{Threshold: 0.2})
	idx, _ = ReadIndex(filepath.Join(root, IndexFile))
	if v := idx.Lookup("n5").Verdicts; len(v) != 2 || !sameVerdicts(v[1], before[0]) {
		t.Errorf("after a trend with -threshold 20%%: %+v, want its verdicts beside the default ones", v)
	}
}

func TestAcknowledgementsAtOnceAllCount(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if _, err := Acknowledge(root, Ack{Run: fmt.Sprintf("n%d", i), RunID: fmt.Sprintf("n%d", i), Solver: "dlx", Why: "why"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	acks, err := ReadAnnotations(root)
	if err != nil || len(acks) != 40 {
		t.Errorf("%d acknowledgements of 40 made at once (%v)", len(acks), err)
	}
}

func TestCheckAckWantsAnAlarm(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 4; k++ {
		synthSweep(t, root, sweep{name: fmt.Sprintf("n%d", k), day: k})
	}
	synthSweep(t, root, sweep{name: "n5", day: 5, bump: map[string][]int{"norvig": {4}}, binary: "sha256:b"})
	synthSweep(t, root, sweep{name: "n6", day: 6, solvers: []string{"norvig", "dlx"}, bump: map[string][]int{"norvig": {4}}, binary: "sha256:b"})
	idx, _, err := Update(root)
	if err != nil {
		t.Fatal(err)
	}
	check := func(run, solver string) error {
		return CheckAck(context.Background(), root, idx, nil, idx.Lookup(run), solver, Options{})
	}
	if err := check("n5", "norvig"); err != nil {
		t.Errorf("n5 norvig (a counters alarm): %v", err)
	}
	if err := check("n6", "bitboard"); err != nil {
		t.Errorf("n6 bitboard (missing): %v", err)
	}
	if err := check("n5", "dlx"); err == nil || !strings.Contains(err.Error(), "raised no alarm of dlx (its verdict there: no change)") {
		t.Errorf("n5 dlx (no alarm): %v, want a refusal", err)
	}
	if err := check("n6", "nosuch"); err == nil || !strings.Contains(err.Error(), "has no strategy nosuch") {
		t.Errorf("n6 nosuch: %v, want a refusal", err)
	}
}

func TestTrendTextFitsEightyColumns(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 9; k++ {
		sw := sweep{name: fmt.Sprintf("20261126-2330%02d", k), day: k, share: 0.3}
		if k >= 8 {
			sw.slow, sw.bump, sw.binary = map[string]float64{"bitboard": 1.3}, map[string][]int{"dlx": {1, 5, 9}}, "sha256:b"
		}
		synthSweep(t, root, sw)
	}
	o := trendOnce(t, root, Options{})
	text := textOf(t, o)
	for i, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > TextWidth && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("line %d has %d columns:\n%s", i+1, n, line)
		}
	}
	if !strings.Contains(text, "NEW ALARM [time]: bitboard slower") || !strings.Contains(text, "NEW ALARM [counters]: night 8 (20261126-233008): dlx's counters") {
		t.Errorf("the alarms are not printed:\n%s", text)
	}
}

// textOf is what trend prints of o.
func textOf(t *testing.T, o *Outcome) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, o.Root, o.Refresh, o.History, o.Reports, 0); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// disturbedNight is night k (named name) of a slowdown on a disturbed
// machine: bitboard x1.5, by another build, from night 5; every strategy
// x1.25 on nights 5 to 8.
func disturbedNight(name string, k int) sweep {
	sw := sweep{name: name, day: k}
	if k >= 5 {
		sw.slow, sw.binary = map[string]float64{"bitboard": 1.5}, "sha256:b"
	}
	if k >= 5 && k <= 8 {
		sw.machine = 1.25
	}
	return sw
}

// TestCheckAckAStepFoundLater: a slowdown whose first nights ran on a
// disturbed machine (every strategy x1.25: the gate withholds it) is
// alarmed by its change point two nights later, dated to its first
// night. That alarm can be acknowledged at its first night on any later
// night, not only on the night the change point found it: CI met a
// refusal (night 8 of TestTrendAlarmsOnceOnSlowdown, whose step alarmed
// on night 7).
func TestCheckAckAStepFoundLater(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 9; k++ {
		synthSweep(t, root, disturbedNight(fmt.Sprintf("n%d", k), k))
		if k < 7 {
			continue
		}
		idx, _, err := Update(root)
		if err != nil {
			t.Fatal(err)
		}
		if k == 7 { // the setting: the step's alarm, of n5, raised on n7
			r, err := Evaluate(context.Background(), root, idx.All().Series[0], nil, Options{Memo: idx.Memo()})
			if err != nil {
				t.Fatal(err)
			}
			var alarms []string
			for _, a := range r.Alarms {
				alarms = append(alarms, fmt.Sprintf("%s %s of %s", a.Solver, a.Kind, a.Start.Run))
			}
			if want := []string{"bitboard " + AlarmStep + " of n5"}; !slices.Equal(alarms, want) {
				t.Fatalf("after n7: alarms %q, want %q", alarms, want)
			}
		}
		if err := CheckAck(context.Background(), root, idx, nil, idx.Lookup("n5"), "bitboard", Options{}); err != nil {
			t.Errorf("after n%d: -ack n5 bitboard: %v", k, err)
		}
	}
}

// TestDisturbedBaselinesAreSaid: the lead's history. Nights 5-8 on a
// disturbed machine (every strategy x1.25), bitboard x1.5 from night 5:
// the gate judges none of them, the step alarms on night 7. On the quiet
// nights 9-12 norvig's and dlx's baselines still hold nights 5-8, so the
// machine's factor reads x0.81 and bitboard's slowdown is withheld
// again: its verdict says the machine moved (not "a busy machine": no
// other work was recorded), and its note names the baseline nights that
// ran on another machine instead of promising that the next steady night
// tells. No alarm is added or lost.
func TestDisturbedBaselinesAreSaid(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 13; k++ {
		synthSweep(t, root, disturbedNight(fmt.Sprintf("n%02d", k), k))
		o := trendOnce(t, root, Options{})
		want := []string(nil)
		if k == 7 {
			want = []string{"bitboard " + AlarmStep + " n05"}
		}
		if got := newAlarms(o); !slices.Equal(got, want) {
			t.Fatalf("night %d: new alarms %v, want %v\n%s", k, got, want, textOf(t, o))
		}
		bb := trendOf(o.Reports[0], "bitboard")
		text := strings.Join(strings.Fields(textOf(t, o)), " ")
		switch {
		case k >= 5 && k <= 8:
			if bb.Verdict != VerdictDisturbed || !strings.Contains(text, "the next night on a steady machine tells") {
				t.Errorf("night %d, disturbed: bitboard %q, want %q, the next steady night to tell\n%s", k, bb.Verdict, VerdictDisturbed, textOf(t, o))
			}
		case k >= 9 && k <= 12:
			if bb.Verdict != VerdictDisturbed || strings.Contains(text, "the next night on a steady machine tells") ||
				!strings.Contains(text, "4 nights of its baselines ran x1.2") || !strings.Contains(text, "(n05, n06, n07, n08)") {
				t.Errorf("night %d, quiet after the disturbed nights: bitboard %q, want %q naming nights 5-8 of the baselines\n%s", k, bb.Verdict, VerdictDisturbed, textOf(t, o))
			}
		case k == 13:
			if bb.Verdict != VerdictStillSlower {
				t.Errorf("night 13: bitboard %q, want %q\n%s", bb.Verdict, VerdictStillSlower, textOf(t, o))
			}
		}
	}
}

// TestKnownAlarmStaysOnItsNight: bitboard x1.25 from night 8, a trend
// every night. The alarm raised on night 8 is on night 8's row of the
// nights' table (the page, trend.md) on every later night, known; the
// newest night's row, "still slower", has none: before, the known alarm
// moved to the newest night's row every night (and its ring on the
// charts with it), as if each night raised it again, and left night 8's
// row, where it was raised, empty.
func TestKnownAlarmStaysOnItsNight(t *testing.T) {
	root := t.TempDir()
	for k := 1; k <= 10; k++ {
		sw := sweep{name: fmt.Sprintf("n%02d", k), day: k}
		if k >= 8 {
			sw.slow, sw.binary = map[string]float64{"bitboard": 1.25}, "sha256:slow"
		}
		synthSweep(t, root, sw)
		trendOnce(t, root, Options{})
	}
	o := trendOnce(t, root, Options{})
	r := o.Reports[0]
	alarmsOf := func(k int) (out []string) {
		for _, a := range r.Nights[k-1].Alarms {
			out = append(out, fmt.Sprintf("%s %s new=%t", a.Solver, a.Kind, a.New))
		}
		return out
	}
	if got, want := alarmsOf(8), []string{"bitboard time new=false"}; !slices.Equal(got, want) {
		t.Errorf("night 8's row: alarms %v, want %v", got, want)
	}
	if got := alarmsOf(10); len(got) != 0 {
		t.Errorf("night 10's row (still slower): alarms %v, want none", got)
	}
	if v := r.Nights[9].Verdicts["bitboard"]; v != VerdictStillSlower {
		t.Errorf("night 10's row: bitboard %q, want %q", v, VerdictStillSlower)
	}
}
