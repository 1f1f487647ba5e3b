package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// TestVariants: batch variants over a run's puzzle gives the analyses of
// the strategies asked, whose originals are the run's units (the same
// counters: the sweep's seed for the puzzle), with the corpus medians of
// the run; a variant's transform replays through batch show -transform
// with the counters the analysis recorded.
func TestVariants(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	p2018 := "000002910320080000000000000019000500000300000000070000704600003000001000600000000"
	os.WriteFile(filepath.Join(tmp, "c.txt"), []byte(p0+"\n"+p2018+"\n"+puzzle39949+"\n"), 0o644)
	mustOK(t, batch(t, tmp, "-solvers", "norvig,randmrv", "-timeout", "0", "-seed", "7", "-out", "run", "-quiet", "c.txt"))
	rows := readRows(t, filepath.Join(tmp, "run", rundir.ResultsFile))

	r := batch(t, tmp, "variants", "2", "-run", "run", "-n", "6", "-seeds", "2", "-solvers", "norvig,randmrv", "-timeout", "0", "-out", "vout")
	mustOK(t, r)
	for _, want := range []string{
		"#2 of c.txt: the original and 6 random variants",
		"randomized strategies under 2 seeds per orientation (the first, the run's seed 7 for the puzzle)",
		"Corpus medians: run run (3 puzzles).",
		"Seed luck apart from orientation luck",
		"batch show 2 -corpus c.txt -seed 7 -timeout 0 -transform ",
		"Wrote vout: " + rundir.VariantsFile + " and 2 strip charts.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("variants: stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	v, err := rundir.ReadVariants(filepath.Join(tmp, "vout", rundir.VariantsFile))
	if err != nil || v == nil {
		t.Fatalf("variants.json: %v", err)
	}
	if len(v.Analyses) != 2 || v.Analyses[0].Solver != "norvig" || v.Analyses[1].Solver != "randmrv" {
		t.Fatalf("analyses %+v", v.Analyses)
	}
	for _, a := range v.Analyses {
		var row *rundir.Row
		for i := range rows {
			if rows[i].ID == 2 && rows[i].Solver == a.Solver {
				row = &rows[i]
			}
		}
		if row == nil || a.Original.Calls != row.Calls || a.Original.Seed != row.Seed {
			t.Errorf("%s: the original %+v, the run's unit %+v", a.Solver, a.Original, row)
		}
		if a.Verdict == "" || a.CorpusFrom != "run run (3 puzzles)" {
			t.Errorf("%s: verdict %q from %q", a.Solver, a.Verdict, a.CorpusFrom)
		}
		// The last variant under the original's seed replays in show.
		var u rundir.VariantUnit
		for _, x := range a.Variants {
			if x.Seed == a.Original.Seed {
				u = x
			}
		}
		r := batch(t, tmp, "show", "2", "-run", "run", "-solvers", a.Solver, "-timeout", "0", "-transform", u.Transform)
		mustOK(t, r)
		solved := false // the strategy's line of the table: name, status, time, calls
		for _, l := range strings.Split(r.stdout, "\n") {
			f := strings.Fields(l)
			solved = solved || len(f) > 3 && f[0] == a.Solver && f[1] == "solved" && f[3] == strconv.FormatUint(u.Calls, 10)
		}
		if !solved || !strings.Contains(r.stdout, "#2 of c.txt, line 3, transformed by "+u.Transform+": 9x9") ||
			!strings.Contains(r.stdout, "Where #2 as given (not this variant) ranks") {
			t.Errorf("%s: show -transform %s (the analysis: %d calls):\n%s", a.Solver, u.Transform, u.Calls, r.stdout)
		}
	}
	r = batch(t, tmp, "variants", "2", "-run", "run", "-n", "2", "-solvers", "norvig", "-out", "vout2", "-json")
	mustOK(t, r)
	var j rundir.Variants
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || len(j.Analyses) != 1 || len(j.Analyses[0].Variants) != 2 {
		t.Errorf("-json: %v\n%s", err, r.stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"variants"}, "variants needs one puzzle ID"},
		{[]string{"variants", "2", "-n", "0"}, "-n 0: want 1 or more variants"},
		{[]string{"variants", "9", "-corpus", "c.txt", "-run", ""}, "no puzzle #9"},
		{[]string{"show", "2", "-corpus", "c.txt", "-run", "", "-transform", "R01"}, "-transform: transform \"R01\": R has 2 symbols, want 9"},
		{[]string{"show", "2", "-corpus", "c.txt", "-run", "", "-transform", "R312045678"}, "splits a band"},
	} {
		r := batch(t, tmp, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
